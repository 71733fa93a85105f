#include "chainerx/routines/indexing.h"

#include <algorithm>
#include <memory>
#include <string>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/indexing.h"
#include "chainerx/kernels/math.h"
#include "chainerx/routines/creation.h"
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

namespace {

// The value of a 0-d array of dtype T, read back to the host.
template <typename T>
T ReadScalar(const Array& a) {
    T value{};
    Device& host = GetDefaultContext().GetDevice("native", 0);
    host.CopyFrom(&value, a.raw_data(), sizeof(T), a.device());
    return value;
}

// Number of axes of a that the index expression names (an ellipsis stands for the others);
// IndexError for more than one ellipsis or more axes than a has.
int CountIndexedAxes(const Array& a, const std::vector<ArrayIndex>& indices) {
    int specified = 0;
    int ellipses = 0;
    for (const ArrayIndex& index : indices) {
        switch (index.kind()) {
            case ArrayIndex::Kind::kIndex:
            case ArrayIndex::Kind::kSlice:
                ++specified;
                break;
            case ArrayIndex::Kind::kArray:
                specified += index.array().dtype() == Dtype::kBool ? index.array().ndim() : 1;
                break;
            case ArrayIndex::Kind::kEllipsis:
                ++ellipses;
                break;
            case ArrayIndex::Kind::kNewAxis:
                break;
        }
    }
    if (ellipses > 1) throw IndexError{"an index can only have a single ellipsis ('...')"};
    if (specified > a.ndim()) {
        throw IndexError{"too many indices for array: array is ", a.ndim(), "-dimensional, but ", specified,
                         " were indexed"};
    }
    return specified;
}

// Basic indexing (integers, slices, new axes, an ellipsis): a differentiable view.
Array BasicView(const Array& a, const std::vector<ArrayIndex>& indices) {
    int specified = CountIndexedAxes(a, indices);
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
            case ArrayIndex::Kind::kArray:
                throw ChainerxError{"internal error: an array in a basic index"};
        }
    }
    while (dim < a.ndim()) keep_dim();
    Array out = internal::MakeViewOf(a, shape, strides, offset);
    BackwardBuilder bb{"getitem", {a}, {out}};
    if (bb) {
        Shape base = a.shape();
        auto view = std::make_shared<const internal::ViewFunction>(
                [indices](const Array& g) { return BasicView(g, indices); });
        bb.Define([base, view](BackwardContext& ctx) {
            ctx.input_grad() = internal::ScatterIntoZeros(ctx.output_grad(), base, view);
        });
    }
    return out;
}

bool HasArrayIndex(const std::vector<ArrayIndex>& indices) {
    return std::any_of(indices.begin(), indices.end(),
                       [](const ArrayIndex& index) { return index.kind() == ArrayIndex::Kind::kArray; });
}

// Integer indices as int64 outside any graph; IndexError for other dtypes.
Array IntegerIndices(const Array& indices) {
    if (!IsIntegral(indices.dtype()) || indices.dtype() == Dtype::kBool) {
        throw IndexError{"arrays used as indices must be of integer type, got ", indices.dtype()};
    }
    return internal::CastIfNeeded(indices.AsGradStopped(), Dtype::kInt64);
}

// IndexError (NumPy's message) unless every int64 index is in [-n, n).
void CheckIndexBounds(const Array& indices, int64_t n, int axis) {
    if (indices.GetTotalSize() == 0) return;
    int64_t low = ReadScalar<int64_t>(AMin(indices));
    int64_t high = ReadScalar<int64_t>(AMax(indices));
    if (low < -n || high >= n) {
        throw IndexError{"index ", low < -n ? low : high, " is out of bounds for axis ", axis, " with size ", n};
    }
}

// The shape of Gather's result.
Shape GatherShape(const Shape& a_shape, const Shape& index_shape, int axis, int count) {
    Shape shape;
    for (int d = 0; d < axis; ++d) shape.push_back(a_shape[d]);
    for (int64_t d : index_shape) shape.push_back(d);
    for (int d = axis + count; d < a_shape.ndim(); ++d) shape.push_back(a_shape[d]);
    return shape;
}

// The int64 index arrays that an integer or (n-d) boolean index array stands for, checked against
// the axes of a it indexes, from a_axis on.
std::vector<Array> IntegerIndexArrays(const Array& a, const Array& array, int a_axis) {
    if (array.dtype() == Dtype::kBool) {
        for (int d = 0; d < array.ndim(); ++d) {
            if (array.shape()[d] != a.shape()[a_axis + d]) {
                throw IndexError{"boolean index did not match indexed array along axis ",
                                 a_axis + d,
                                 "; size of axis is ",
                                 a.shape()[a_axis + d],
                                 " but size of corresponding boolean axis is ",
                                 array.shape()[d]};
            }
        }
        return Nonzero(array);
    }
    if (!IsIntegral(array.dtype())) {
        throw IndexError{"arrays used as indices must be of integer (or boolean) type, got ", array.dtype()};
    }
    Array idx = IntegerIndices(array);
    CheckIndexBounds(idx, a.shape()[a_axis], a_axis);
    return {idx};
}

// Broadcast views of index arrays with one shape; IndexError (NumPy's message) when they do not fit.
void BroadcastIndexArrays(std::vector<Array>& arrays) {
    Shape shape = arrays.front().shape();
    try {
        for (const Array& idx : arrays) shape = BroadcastShapes(shape, idx.shape());
    } catch (const DimensionError&) {
        std::string shapes;
        for (const Array& idx : arrays) shapes += " " + ToString(idx.shape());
        throw IndexError{"shape mismatch: indexing arrays could not be broadcast together with shapes", shapes};
    }
    for (Array& idx : arrays) idx = internal::BroadcastView(idx, shape);
}

// An index expression with arrays, resolved the NumPy way: a basic view of the array (arrays
// replaced by full slices, 0-d boolean arrays by new axes), and int64 index arrays of one
// (broadcast) shape that gather from the view's axes [axis, axis + indices.size()).
struct AdvancedIndex {
    Array view;
    std::vector<Array> indices;
    int8_t axis;

    Shape ResultShape() const {
        return GatherShape(view.shape(), indices.front().shape(), axis, static_cast<int>(indices.size()));
    }
};

AdvancedIndex ResolveAdvancedIndex(const Array& a, const std::vector<ArrayIndex>& indices) {
    int ellipsis_width = a.ndim() - CountIndexedAxes(a, indices);
    std::vector<ArrayIndex> basic;
    std::vector<Array> arrays;
    std::vector<int8_t> view_axes;  // the axis of the basic view that each of `arrays` indexes
    int a_axis = 0;
    int view_axis = 0;
    // Integers count as advanced indices next to arrays. NumPy keeps the gathered axes in place
    // when all advanced indices are adjacent in the expression, and puts them first otherwise.
    int advanced_count = 0;
    int first_advanced = -1;
    int last_advanced = -1;
    for (int pos = 0; pos < static_cast<int>(indices.size()); ++pos) {
        const ArrayIndex& index = indices[pos];
        if (index.kind() == ArrayIndex::Kind::kIndex || index.kind() == ArrayIndex::Kind::kArray) {
            ++advanced_count;
            if (first_advanced < 0) first_advanced = pos;
            last_advanced = pos;
        }
        switch (index.kind()) {
            case ArrayIndex::Kind::kIndex:
                basic.push_back(index);
                ++a_axis;
                break;
            case ArrayIndex::Kind::kSlice:
                basic.push_back(index);
                ++a_axis;
                ++view_axis;
                break;
            case ArrayIndex::Kind::kNewAxis:
                basic.push_back(index);
                ++view_axis;
                break;
            case ArrayIndex::Kind::kEllipsis:
                basic.push_back(index);
                a_axis += ellipsis_width;
                view_axis += ellipsis_width;
                break;
            case ArrayIndex::Kind::kArray: {
                const Array& array = index.array();
                CheckEqualDevices(a.device(), array.device());
                if (array.dtype() == Dtype::kBool && array.ndim() == 0) {
                    // A new axis of length 1, taken once (true) or not at all (false).
                    basic.push_back(ArrayIndex::NewAxis());
                    arrays.push_back(Zeros(Shape{ReadScalar<bool>(array) ? 1 : 0}, Dtype::kInt64, a.device()));
                    view_axes.push_back(static_cast<int8_t>(view_axis++));
                    break;
                }
                // Each int64 array indexes one axis, kept whole in the basic view.
                for (const Array& idx : IntegerIndexArrays(a, array, a_axis)) {
                    basic.emplace_back(Slice{});
                    arrays.push_back(idx);
                    view_axes.push_back(static_cast<int8_t>(view_axis++));
                    ++a_axis;
                }
                break;
            }
        }
    }

    BroadcastIndexArrays(arrays);

    Array view = BasicView(a, basic);
    if (last_advanced - first_advanced + 1 == advanced_count) return {view, arrays, view_axes.front()};
    Axes order;
    for (int8_t axis : view_axes) order.push_back(axis);
    for (int d = 0; d < view.ndim(); ++d) {
        bool indexed = std::find(view_axes.begin(), view_axes.end(), d) != view_axes.end();
        if (!indexed) order.push_back(static_cast<int8_t>(d));
    }
    return {Transpose(view, order), arrays, 0};
}

}  // namespace

Array At(const Array& a, const std::vector<ArrayIndex>& indices) {
    if (!HasArrayIndex(indices)) return BasicView(a, indices);
    AdvancedIndex index = ResolveAdvancedIndex(a, indices);
    return internal::Gather(index.view, index.indices, index.axis);
}

Array Take(const Array& a, const Array& indices, std::optional<int8_t> axis, IndexBoundsMode mode) {
    CheckEqualDevices(a.device(), indices.device());
    Array src = axis.has_value() ? a : Reshape(a, Shape{a.GetTotalSize()});
    int8_t ax = axis.has_value() ? NormalizeAxis(*axis, a.ndim()) : int8_t{0};
    if (src.ndim() == 0) throw DimensionError{"take: cannot take from a 0-dimensional array"};
    Array idx = IntegerIndices(indices);
    int64_t n = src.shape()[ax];
    if (mode != IndexBoundsMode::kRaise && n == 0 && idx.GetTotalSize() > 0) {
        throw IndexError{"cannot do a non-empty take from an empty axis"};
    }
    switch (mode) {
        case IndexBoundsMode::kRaise:
            CheckIndexBounds(idx, n, ax);
            break;
        case IndexBoundsMode::kWrap:
            if (n > 0) idx = Remainder(idx, Scalar{n});
            break;
        case IndexBoundsMode::kClip:
            if (n > 0) idx = Clip(idx, Scalar{int64_t{0}}, Scalar{n - 1});
            break;
    }
    return internal::Gather(src, {idx}, ax);
}

namespace internal {

Array Gather(const Array& a, const std::vector<Array>& indices, int8_t axis) {
    Array out = Empty(GatherShape(a.shape(), indices.front().shape(), axis, static_cast<int>(indices.size())),
                      a.dtype(), a.device());
    a.device().backend().CallKernel<TakeKernel>(a, indices, axis, out);
    BackwardBuilder bb{"take", {a}, {out}};
    if (bb) {
        Shape in_shape = a.shape();
        bb.Define([indices, axis, in_shape](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            ctx.input_grad() = AddAt(Zeros(in_shape, gy.dtype(), gy.device()), indices, axis, gy);
        });
    }
    return out;
}

Array AddAt(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& b) {
    Array out = EmptyLike(a);
    Backend& backend = a.device().backend();
    backend.CallKernel<CopyKernel>(a, out);
    backend.CallKernel<ScatterKernel>(out, indices, axis, b, true);
    BackwardBuilder bb{"add_at", {a, b}, {out}};
    if (bb) {
        bb.Define([indices, axis](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = gy;
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = Gather(gy, indices, axis);
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
    x.device().backend().CallKernel<WhereKernel>(internal::BroadcastView(cond, shape),
                                                 internal::BroadcastView(x, shape), internal::BroadcastView(y, shape),
                                                 out);
    if (IsFloating(dtype)) {
        BackwardBuilder bb{"where", {x, y}, {out}};
        if (bb) {
            Shape x_shape = x.shape();
            Shape y_shape = y.shape();
            bb.Define([cond, x_shape, y_shape](BackwardContext& ctx) {
                const Array& gy = ctx.output_grad();
                if (ctx.is_input_grad_required(0))
                    ctx.input_grad(0) = internal::SumTo(Where(cond, gy, Scalar{0}), x_shape);
                if (ctx.is_input_grad_required(1))
                    ctx.input_grad(1) = internal::SumTo(Where(cond, Scalar{0}, gy), y_shape);
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
    // Like NumPy, read all of value before writing: copy it when it shares a's memory.
    Array v = value.AsGradStopped();
    if (v.data() == a.data()) v = Copy(v);
    Backend& backend = a.device().backend();
    if (!HasArrayIndex(indices)) {
        Array target = BasicView(a, indices);
        backend.CallKernel<CopyKernel>(internal::BroadcastView(v, target.shape()), target);
        return;
    }
    AdvancedIndex index = ResolveAdvancedIndex(a, indices);
    Array values = internal::BroadcastView(internal::CastIfNeeded(v, a.dtype()), index.ResultShape());
    backend.CallKernel<ScatterKernel>(index.view, index.indices, index.axis, values, false);
}

}  // namespace chainerx
