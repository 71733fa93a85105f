#include "chainerx/routines/evaluation.h"

#include "chainerx/error.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

void CheckAccuracyShapes(const Array& y, const Array& t) {
    bool fits = y.ndim() >= 2 && y.ndim() == t.ndim() + 1 && y.shape()[0] == t.shape()[0];
    for (int d = 2; fits && d < y.ndim(); ++d) fits = y.shape()[d] == t.shape()[d - 1];
    if (!fits) {
        throw DimensionError{"accuracy: labels t must have y's shape without axis 1 (y of shape ", y.shape(),
                             "), got shape ", t.shape()};
    }
    if (y.shape()[1] == 0) throw DimensionError{"accuracy: y of shape ", y.shape(), " has no classes"};
}

}  // namespace

Array Accuracy(const Array& y, const Array& t, const std::optional<int64_t>& ignore_label) {
    internal::CheckFloating(y, "accuracy");
    if (!IsIntegral(t.dtype())) throw DtypeError{"accuracy: labels must have an integer dtype, got ", t.dtype()};
    CheckEqualDevices(y.device(), t.device());
    CheckAccuracyShapes(y, t);
    Array labels = AsType(t, Dtype::kInt64, false);
    Array correct = Equal(ArgMax(y.AsGradStopped(), 1), labels);
    if (!ignore_label.has_value()) {
        // An empty batch gives 0 / 0 = NaN, as the mean of no samples does.
        return AsType(Divide(Sum(correct), Scalar{static_cast<double>(t.GetTotalSize())}), y.dtype());
    }
    Array counted = NotEqual(labels, Scalar{*ignore_label});
    Array hits = Sum(LogicalAnd(correct, counted));
    Array total = Sum(counted);
    Array accuracy = Where(Equal(total, Scalar{0}), Scalar{0.0}, Divide(hits, Maximum(total, Scalar{1})));
    return AsType(accuracy, y.dtype());
}

}  // namespace chainerx
