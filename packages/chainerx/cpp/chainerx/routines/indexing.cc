#include "chainerx/routines/indexing.h"

#include <algorithm>
#include <memory>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/indexing.h"
#include "chainerx/kernels/math.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {

int64_t Slice::Apply(int64_t dim, int64_t* first) const {
    if (step == 0) throw ChainerxError{"slice step cannot be zero"};
    auto clamp_index = [dim](int64_t i, int64_t low, int64_t high) {
        if (i < 0) i += dim;
        return std::clamp(i, low, high);
    };
    if (step > 0) {
        int64_t begin = start.has_value() ? clamp_index(*start, 0, dim) : 0;
        int64_t end = stop.has_value() ? clamp_index(*stop, 0, dim) : dim;
        *first = begin;
        return end > begin ? (end - begin + step - 1) / step : 0;
    }
    int64_t begin = start.has_value() ? clamp_index(*start, -1, dim - 1) : dim - 1;
    int64_t end = stop.has_value() ? clamp_index(*stop, -1, dim - 1) : -1;
    *first = begin;
    return begin > end ? (begin - end + (-step) - 1) / (-step) : 0;
}

Array At(const Array& a, const std::vector<ArrayIndex>& indices) {
    int specified = 0;
    int ellipses = 0;
    for (const ArrayIndex& index : indices) {
        if (index.kind() == ArrayIndex::Kind::kIndex || index.kind() == ArrayIndex::Kind::kSlice) ++specified;
        if (index.kind() == ArrayIndex::Kind::kEllipsis) ++ellipses;
    }
    if (ellipses > 1) throw IndexError{"an index can only have a single ellipsis ('...')"};
    if (specified > a.ndim()) {
        throw IndexError{"too many indices for array: array is ", a.ndim(), "-dimensional, but ", specified,
                         " were indexed"};
    }
    Shape shape;
    Strides strides;
    int64_t offset = a.offset();
    int dim = 0;
    auto keep_dim = [&]() {
        shape.push_back(a.shape()[dim]);
        strides.push_back(a.strides()[dim]);
        ++dim;
    };
    for (const ArrayIndex& index : indices) {
        switch (index.kind()) {
            case ArrayIndex::Kind::kIndex: {
                int64_t n = a.shape()[dim];
                int64_t i = index.index();
                if (i < -n || i >= n) {
                    throw IndexError{"index ", i, " is out of bounds for axis ", dim, " with size ", n};
                }
                offset += (i < 0 ? i + n : i) * a.strides()[dim];
                ++dim;
                break;
            }
            case ArrayIndex::Kind::kSlice: {
                int64_t first = 0;
                int64_t len = index.slice().Apply(a.shape()[dim], &first);
                if (len > 0) offset += first * a.strides()[dim];
                shape.push_back(len);
                strides.push_back(a.strides()[dim] * index.slice().step);
                ++dim;
                break;
            }
            case ArrayIndex::Kind::kNewAxis:
                shape.push_back(1);
                strides.push_back(0);
                break;
            case ArrayIndex::Kind::kEllipsis:
                for (int k = a.ndim() - specified; k > 0; --k) keep_dim();
                break;
        }
    }
    while (dim < a.ndim()) keep_dim();
    Array out = internal::MakeViewOf(a, shape, strides, offset);
    BackwardBuilder bb{"getitem", {a}, {out}};
    if (bb) {
        Shape base = a.shape();
        auto view = std::make_shared<const internal::ViewFunction>([indices](const Array& g) { return At(g, indices); });
        bb.Define([base, view](BackwardContext& ctx) {
            ctx.input_grad() = internal::ScatterIntoZeros(ctx.output_grad(), base, view);
        });
    }
    return out;
}

namespace {

bool ReadBool(const Array& a) {
    bool value = false;
    Device& host = GetDefaultContext().GetDevice("native", 0);
    host.CopyFrom(&value, a.raw_data(), 1, a.device());
    return value;
}

// Integer indices as int64 in [0, n), wrapping negative ones; IndexError when out of range.
Array NormalizeIndices(const Array& indices, int64_t n, int axis) {
    if (!IsIntegral(indices.dtype()) || indices.dtype() == Dtype::kBool) {
        throw IndexError{"arrays used as indices must be of integer type, got ", indices.dtype()};
    }
    Array idx = internal::CastIfNeeded(indices.AsGradStopped(), Dtype::kInt64);
    if (idx.GetTotalSize() == 0) return idx;
    if (ReadBool(Any(LogicalOr(Less(idx, Scalar{-n}), GreaterEqual(idx, Scalar{n}))))) {
        throw IndexError{"index out of range: indices into axis ", axis, " of size ", n, " must be in [", -n, ", ",
                         n, ")"};
    }
    return Where(Less(idx, Scalar{0}), Add(idx, Scalar{n}), idx);
}

}  // namespace

Array Take(const Array& a, const Array& indices, std::optional<int8_t> axis) {
    CheckEqualDevices(a.device(), indices.device());
    Array src = axis.has_value() ? a : Reshape(a, Shape{a.GetTotalSize()});
    int8_t ax = axis.has_value() ? NormalizeAxis(*axis, a.ndim()) : int8_t{0};
    if (src.ndim() == 0) throw DimensionError{"take: cannot take from a 0-dimensional array"};
    Array idx = NormalizeIndices(indices, src.shape()[ax], ax);
    Shape shape;
    for (int d = 0; d < ax; ++d) shape.push_back(src.shape()[d]);
    for (int64_t d : idx.shape()) shape.push_back(d);
    for (int d = ax + 1; d < src.ndim(); ++d) shape.push_back(src.shape()[d]);
    Array out = Empty(shape, src.dtype(), src.device());
    src.device().backend().CallKernel<TakeKernel>(src, idx, ax, out);
    BackwardBuilder bb{"take", {src}, {out}};
    if (bb) {
        Shape in_shape = src.shape();
        bb.Define([idx, ax, in_shape](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            ctx.input_grad() = internal::AddAt(Zeros(in_shape, gy.dtype(), gy.device()), idx, ax, gy);
        });
    }
    return out;
}

namespace internal {

Array AddAt(const Array& a, const Array& indices, int8_t axis, const Array& b) {
    Array out = EmptyLike(a);
    a.device().backend().CallKernel<AddAtKernel>(a, indices, axis, b, out);
    BackwardBuilder bb{"add_at", {a, b}, {out}};
    if (bb) {
        bb.Define([indices, axis](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = gy;
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = Take(gy, indices, axis);
        });
    }
    return out;
}

}  // namespace internal

Array Where(const Array& condition, const Array& x_in, const Array& y_in) {
    CheckEqualDevices(condition.device(), x_in.device());
    CheckEqualDevices(x_in.device(), y_in.device());
    Dtype dtype = PromoteTypes(x_in.dtype(), y_in.dtype());
    Array x = internal::CastIfNeeded(x_in, dtype);
    Array y = internal::CastIfNeeded(y_in, dtype);
    Array cond = internal::CastIfNeeded(condition.AsGradStopped(), Dtype::kBool);
    Shape shape = BroadcastShapes(BroadcastShapes(cond.shape(), x.shape()), y.shape());
    Array out = Empty(shape, dtype, x.device());
    x.device().backend().CallKernel<WhereKernel>(internal::BroadcastView(cond, shape), internal::BroadcastView(x, shape),
                                                 internal::BroadcastView(y, shape), out);
    if (IsFloating(dtype)) {
        BackwardBuilder bb{"where", {x, y}, {out}};
        if (bb) {
            Shape x_shape = x.shape();
            Shape y_shape = y.shape();
            bb.Define([cond, x_shape, y_shape](BackwardContext& ctx) {
                const Array& gy = ctx.output_grad();
                if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = internal::SumTo(Where(cond, gy, Scalar{0}), x_shape);
                if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = internal::SumTo(Where(cond, Scalar{0}, gy), y_shape);
            });
        }
    }
    return out;
}

Array Where(const Array& condition, const Array& x, Scalar y) {
    return Where(condition, x, internal::ScalarArray(y, ResultTypeWithScalar(x.dtype(), y), x.device()));
}

Array Where(const Array& condition, Scalar x, const Array& y) {
    return Where(condition, internal::ScalarArray(x, ResultTypeWithScalar(y.dtype(), x), y.device()), y);
}

Array Where(const Array& condition, Scalar x, Scalar y) {
    Dtype dtype = PromoteTypes(x.GetDefaultDtype(), y.GetDefaultDtype());
    return Where(condition, internal::ScalarArray(x, dtype, condition.device()),
                 internal::ScalarArray(y, dtype, condition.device()));
}

std::vector<Array> Nonzero(const Array& a) { return a.device().backend().CallKernel<NonzeroKernel>(a); }

void SetItem(const Array& a, const std::vector<ArrayIndex>& indices, const Array& value) {
    internal::CheckNoGraphForInplace(a, "__setitem__");
    CheckEqualDevices(a.device(), value.device());
    Array target = At(a, indices);
    a.device().backend().CallKernel<CopyKernel>(internal::BroadcastView(value, target.shape()), target);
}

}  // namespace chainerx
