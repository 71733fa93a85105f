#include "chainerx/routines/manipulation.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// Records "the gradient of this view is the output gradient reshaped back".
void DefineReshapeBackward(const char* name, const Array& a, const Array& out) {
    BackwardBuilder bb{name, {a}, {out}};
    if (bb) {
        Shape shape = a.shape();
        bb.Define([shape](BackwardContext& ctx) { ctx.input_grad() = Reshape(ctx.output_grad(), shape); });
    }
}

Shape InferShape(const Shape& shape, int64_t total, const Shape& from) {
    Shape out = shape;
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < out.ndim(); ++i) {
        if (out[i] == -1) {
            if (infer >= 0) throw DimensionError{"can only specify one unknown dimension (-1), got ", shape};
            infer = i;
        } else if (out[i] < 0) {
            throw DimensionError{"invalid shape ", shape, ": dimensions must be non-negative or -1"};
        } else {
            known *= out[i];
        }
    }
    if (infer >= 0 && known != 0 && total % known == 0) out[infer] = total / known;
    if (out.GetTotalSize() != total || (infer >= 0 && known == 0)) {
        throw DimensionError{"cannot reshape array of shape ", from, " (size ", total, ") into shape ", shape};
    }
    return out;
}

// Strides that express `shape` as a view of a, if any (NumPy's no-copy reshape rule).
std::optional<Strides> ReshapeStrides(const Array& a, const Shape& shape) {
    int64_t item = a.GetItemSize();
    if (a.IsContiguous() || a.GetTotalSize() == 0) return ContiguousStrides(shape, item);
    Shape old_dims;
    Strides old_strides;
    for (int i = 0; i < a.ndim(); ++i) {
        if (a.shape()[i] != 1) {
            old_dims.push_back(a.shape()[i]);
            old_strides.push_back(a.strides()[i]);
        }
    }
    Strides strides(shape.ndim(), item);
    int oi = 0;
    int oj = 1;
    int ni = 0;
    int nj = 1;
    while (ni < shape.ndim() && oi < old_dims.ndim()) {
        int64_t np = shape[ni];
        int64_t op = old_dims[oi];
        while (np != op) {
            if (np < op) {
                np *= shape[nj++];
            } else {
                op *= old_dims[oj++];
            }
        }
        for (int ok = oi; ok < oj - 1; ++ok) {
            if (old_strides[ok] != old_dims[ok + 1] * old_strides[ok + 1]) return std::nullopt;
        }
        strides[nj - 1] = old_strides[oj - 1];
        for (int nk = nj - 1; nk > ni; --nk) strides[nk - 1] = strides[nk] * shape[nk];
        ni = nj++;
        oi = oj++;
    }
    return strides;
}

}  // namespace

Array Reshape(const Array& a, const Shape& shape) {
    Shape target = InferShape(shape, a.GetTotalSize(), a.shape());
    std::optional<Strides> strides = ReshapeStrides(a, target);
    Array out = strides.has_value() ? internal::MakeViewOf(a, target, *strides, a.offset())
                                    : Reshape(Copy(a.AsGradStopped()), target);
    DefineReshapeBackward("reshape", a, out);
    return out;
}

Array Ravel(const Array& a) { return Reshape(a, Shape{a.GetTotalSize()}); }

Array Transpose(const Array& a, const std::optional<Axes>& axes) {
    Axes perm;
    if (axes.has_value()) {
        if (axes->ndim() != a.ndim()) {
            throw DimensionError{"transpose: axes ", *axes, " do not match an array of ", a.ndim(), " dimensions"};
        }
        for (int8_t ax : *axes) perm.push_back(NormalizeAxis(ax, a.ndim()));
        Axes sorted = perm;
        std::sort(sorted.begin(), sorted.end());
        if (sorted != AllAxes(a.ndim())) throw DimensionError{"transpose: axes ", *axes, " are not a permutation"};
    } else {
        for (int i = a.ndim() - 1; i >= 0; --i) perm.push_back(static_cast<int8_t>(i));
    }
    Shape shape;
    Strides strides;
    for (int8_t ax : perm) {
        shape.push_back(a.shape()[ax]);
        strides.push_back(a.strides()[ax]);
    }
    Array out = internal::MakeViewOf(a, shape, strides, a.offset());
    BackwardBuilder bb{"transpose", {a}, {out}};
    if (bb) {
        Axes inverse(perm.ndim(), 0);
        for (int i = 0; i < perm.ndim(); ++i) inverse[perm[i]] = static_cast<int8_t>(i);
        bb.Define([inverse](BackwardContext& ctx) { ctx.input_grad() = Transpose(ctx.output_grad(), inverse); });
    }
    return out;
}

namespace internal {

Array BroadcastView(const Array& a, const Shape& shape) {
    if (a.shape() == shape) return a;
    int lead = shape.ndim() - a.ndim();
    if (lead < 0) throw DimensionError{"cannot broadcast an array of shape ", a.shape(), " to shape ", shape};
    Strides strides(shape.ndim(), 0);
    for (int i = 0; i < a.ndim(); ++i) {
        int64_t dim = a.shape()[i];
        if (dim == shape[lead + i]) {
            strides[lead + i] = a.strides()[i];
        } else if (dim != 1) {
            throw DimensionError{"cannot broadcast an array of shape ", a.shape(), " to shape ", shape};
        }
    }
    return MakeViewOf(a, shape, strides, a.offset());
}

Array AxisSlice(const Array& a, int8_t axis, int64_t start, int64_t stop) {
    Shape shape = a.shape();
    shape[axis] = stop - start;
    Array out = MakeViewOf(a, shape, a.strides(), a.offset() + start * a.strides()[axis]);
    BackwardBuilder bb{"axis_slice", {a}, {out}};
    if (bb) {
        Shape base = a.shape();
        bb.Define([base, axis, start, stop](BackwardContext& ctx) {
            auto view = std::make_shared<const ViewFunction>(
                    [axis, start, stop](const Array& g) { return AxisSlice(g, axis, start, stop); });
            ctx.input_grad() = ScatterIntoZeros(ctx.output_grad(), base, view);
        });
    }
    return out;
}

}  // namespace internal

Array BroadcastTo(const Array& a, const Shape& shape) {
    Array out = internal::BroadcastView(a, shape);
    if (out.body() == a.body()) out = a.MakeView();
    BackwardBuilder bb{"broadcast_to", {a}, {out}};
    if (bb) {
        Shape in_shape = a.shape();
        bb.Define(
                [in_shape](BackwardContext& ctx) { ctx.input_grad() = internal::SumTo(ctx.output_grad(), in_shape); });
    }
    return out;
}

Array Squeeze(const Array& a, const std::optional<Axes>& axes) {
    Axes drop;
    if (axes.has_value()) {
        drop = NormalizeAxes(*axes, a.ndim());
        for (int8_t ax : drop) {
            if (a.shape()[ax] != 1) {
                throw DimensionError{"cannot squeeze axis ", static_cast<int>(ax), " of shape ", a.shape(),
                                     ": its size is not 1"};
            }
        }
    } else {
        for (int i = 0; i < a.ndim(); ++i) {
            if (a.shape()[i] == 1) drop.push_back(static_cast<int8_t>(i));
        }
    }
    Shape shape;
    Strides strides;
    for (int i = 0; i < a.ndim(); ++i) {
        if (std::find(drop.begin(), drop.end(), i) == drop.end()) {
            shape.push_back(a.shape()[i]);
            strides.push_back(a.strides()[i]);
        }
    }
    Array out = internal::MakeViewOf(a, shape, strides, a.offset());
    DefineReshapeBackward("squeeze", a, out);
    return out;
}

Array ExpandDims(const Array& a, int64_t axis) {
    int8_t ax = NormalizeAxis(axis, a.ndim() + 1);
    Shape shape = a.shape();
    Strides strides = a.strides();
    shape.insert(ax, 1);
    strides.insert(ax, 0);
    Array out = internal::MakeViewOf(a, shape, strides, a.offset());
    DefineReshapeBackward("expand_dims", a, out);
    return out;
}

Array Swapaxes(const Array& a, int64_t axis1, int64_t axis2) {
    Axes perm = AllAxes(a.ndim());
    std::swap(perm[NormalizeAxis(axis1, a.ndim())], perm[NormalizeAxis(axis2, a.ndim())]);
    return Transpose(a, perm);
}

Array Moveaxis(const Array& a, const std::vector<int64_t>& source, const std::vector<int64_t>& destination) {
    if (source.size() != destination.size()) {
        throw DimensionError{"moveaxis: source and destination must have the same number of axes, got ", source.size(),
                             " and ", destination.size()};
    }
    Axes src;
    Axes dst;
    for (int64_t s : source) src.push_back(static_cast<int8_t>(NormalizeAxis(s, a.ndim())));
    for (int64_t d : destination) dst.push_back(static_cast<int8_t>(NormalizeAxis(d, a.ndim())));
    NormalizeAxes(src, a.ndim());  // rejects duplicates
    NormalizeAxes(dst, a.ndim());
    Axes perm(a.ndim(), -1);
    for (int i = 0; i < src.ndim(); ++i) perm[dst[i]] = src[i];
    int next = 0;
    for (int i = 0; i < a.ndim(); ++i) {
        if (perm[i] >= 0) continue;
        while (std::find(src.begin(), src.end(), next) != src.end()) ++next;
        perm[i] = static_cast<int8_t>(next++);
    }
    return Transpose(a, perm);
}

Array Flip(const Array& a, const std::optional<Axes>& axes) {
    Axes flip = axes.has_value() ? NormalizeAxes(*axes, a.ndim()) : AllAxes(a.ndim());
    Strides strides = a.strides();
    int64_t offset = a.offset();
    for (int8_t ax : flip) {
        if (a.shape()[ax] > 0) offset += (a.shape()[ax] - 1) * strides[ax];
        strides[ax] = -strides[ax];
    }
    Array out = internal::MakeViewOf(a, a.shape(), strides, offset);
    BackwardBuilder bb{"flip", {a}, {out}};
    if (bb) bb.Define([flip](BackwardContext& ctx) { ctx.input_grad() = Flip(ctx.output_grad(), flip); });
    return out;
}

Array Fliplr(const Array& a) {
    if (a.ndim() < 2) throw DimensionError{"fliplr: input must be at least 2-D, got shape ", a.shape()};
    return Flip(a, Axes{1});
}

Array Flipud(const Array& a) {
    if (a.ndim() < 1) throw DimensionError{"flipud: input must be at least 1-D, got shape ", a.shape()};
    return Flip(a, Axes{0});
}

Array AtLeast2D(const Array& a) {
    switch (a.ndim()) {
        case 0:
            return Reshape(a, Shape{1, 1});
        case 1:
            return ExpandDims(a, 0);
        default:
            return a;
    }
}

Array AtLeast3D(const Array& a) {
    switch (a.ndim()) {
        case 0:
            return Reshape(a, Shape{1, 1, 1});
        case 1:
            return Reshape(a, Shape{1, a.shape()[0], 1});
        case 2:
            return ExpandDims(a, 2);
        default:
            return a;
    }
}

Array Concatenate(const std::vector<Array>& arrays, std::optional<int64_t> axis) {
    if (arrays.empty()) throw DimensionError{"need at least one array to concatenate"};
    std::vector<Array> inputs;
    if (!axis.has_value()) {
        for (const Array& a : arrays) inputs.push_back(Ravel(a));
        axis = 0;
    } else {
        inputs = arrays;
    }
    Dtype dtype = inputs[0].dtype();
    for (const Array& a : inputs) dtype = PromoteTypes(dtype, a.dtype());
    for (Array& a : inputs) a = internal::CastIfNeeded(a, dtype);
    const Array& first = inputs[0];
    if (first.ndim() == 0) throw DimensionError{"zero-dimensional arrays cannot be concatenated"};
    int8_t ax = NormalizeAxis(*axis, first.ndim());
    Shape shape = first.shape();
    shape[ax] = 0;
    for (const Array& a : inputs) {
        CheckEqualDevices(first.device(), a.device());
        bool fits = a.ndim() == first.ndim();
        for (int d = 0; fits && d < a.ndim(); ++d) fits = d == ax || a.shape()[d] == first.shape()[d];
        if (!fits) {
            throw DimensionError{"concatenate: all input shapes must match except on axis ",
                                 static_cast<int>(ax),
                                 ", got ",
                                 first.shape(),
                                 " and ",
                                 a.shape()};
        }
        shape[ax] += a.shape()[ax];
    }
    Array out = Empty(shape, dtype, first.device());
    std::vector<int64_t> offsets;
    int64_t offset = 0;
    for (const Array& a : inputs) {
        offsets.push_back(offset);
        Shape part_shape = out.shape();
        part_shape[ax] = a.shape()[ax];
        Array part = internal::MakeViewOf(out, part_shape, out.strides(), offset * out.strides()[ax]);
        out.device().backend().CallKernel<CopyKernel>(a, part);
        offset += a.shape()[ax];
    }
    BackwardBuilder bb{"concatenate", inputs, {out}};
    if (bb) {
        std::vector<int64_t> sizes;
        for (const Array& a : inputs) sizes.push_back(a.shape()[ax]);
        bb.Define([offsets, sizes, ax](BackwardContext& ctx) {
            for (size_t i = 0; i < sizes.size(); ++i) {
                if (ctx.is_input_grad_required(i)) {
                    ctx.input_grad(i) = internal::AxisSlice(ctx.output_grad(), ax, offsets[i], offsets[i] + sizes[i]);
                }
            }
        });
    }
    return out;
}

Array Stack(const std::vector<Array>& arrays, int64_t axis) {
    if (arrays.empty()) throw DimensionError{"need at least one array to stack"};
    for (const Array& a : arrays) {
        if (a.shape() != arrays[0].shape()) {
            throw DimensionError{"stack: all input arrays must have the same shape, got ", arrays[0].shape(), " and ",
                                 a.shape()};
        }
    }
    int8_t ax = NormalizeAxis(axis, arrays[0].ndim() + 1);
    std::vector<Array> expanded;
    for (const Array& a : arrays) expanded.push_back(ExpandDims(a, ax));
    return Concatenate(expanded, ax);
}

Array HStack(const std::vector<Array>& arrays) {
    if (arrays.empty()) throw DimensionError{"need at least one array to hstack"};
    std::vector<Array> inputs;
    for (const Array& a : arrays) inputs.push_back(a.ndim() == 0 ? Reshape(a, Shape{1}) : a);
    return Concatenate(inputs, inputs[0].ndim() == 1 ? 0 : 1);
}

Array VStack(const std::vector<Array>& arrays) {
    std::vector<Array> inputs;
    for (const Array& a : arrays) inputs.push_back(AtLeast2D(a));
    return Concatenate(inputs, 0);
}

Array DStack(const std::vector<Array>& arrays) {
    std::vector<Array> inputs;
    for (const Array& a : arrays) inputs.push_back(AtLeast3D(a));
    return Concatenate(inputs, 2);
}

std::vector<Array> Split(const Array& a, const std::vector<int64_t>& indices, int64_t axis) {
    int8_t ax = NormalizeAxis(axis, a.ndim());
    int64_t dim = a.shape()[ax];
    // Part i is a[points[i]:points[i + 1]] along the axis, with Python's slice clamping.
    auto clamp = [dim](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + dim : i, 0, dim); };
    std::vector<int64_t> points{0};
    for (int64_t i : indices) points.push_back(clamp(i));
    points.push_back(dim);
    std::vector<Array> parts;
    for (size_t i = 0; i + 1 < points.size(); ++i) {
        Shape shape = a.shape();
        shape[ax] = std::max(points[i], points[i + 1]) - points[i];
        parts.push_back(internal::MakeViewOf(a, shape, a.strides(), a.offset() + points[i] * a.strides()[ax]));
    }
    // One node for all parts: its backward concatenates their gradients once, where a slice per
    // part would scatter each into a zero array of the whole input's size.
    BackwardBuilder bb{"split", std::vector<Array>{a}, parts};
    if (bb) {
        bb.Define([n = parts.size(), ax](BackwardContext& ctx) {
            std::vector<Array> grads;
            for (size_t i = 0; i < n; ++i) grads.push_back(ctx.output_grad(i));
            ctx.input_grad() = Concatenate(grads, ax);
        });
    }
    return parts;
}

std::vector<Array> Split(const Array& a, int64_t sections, int64_t axis) {
    int8_t ax = NormalizeAxis(axis, a.ndim());
    if (sections <= 0) throw DimensionError{"split: number of sections must be positive, got ", sections};
    int64_t dim = a.shape()[ax];
    if (dim % sections != 0) {
        throw DimensionError{"split: array split does not result in an equal division: axis ",
                             static_cast<int>(ax),
                             " of size ",
                             dim,
                             " into ",
                             sections,
                             " sections"};
    }
    std::vector<int64_t> indices;
    for (int64_t i = 1; i < sections; ++i) indices.push_back(i * (dim / sections));
    return Split(a, indices, ax);
}

std::vector<Array> HSplit(const Array& a, int64_t sections) {
    if (a.ndim() == 0) throw DimensionError{"hsplit only works on arrays of 1 or more dimensions"};
    return Split(a, sections, a.ndim() == 1 ? 0 : 1);
}

std::vector<Array> VSplit(const Array& a, int64_t sections) {
    if (a.ndim() < 2)
        throw DimensionError{"vsplit only works on arrays of 2 or more dimensions, got shape ", a.shape()};
    return Split(a, sections, 0);
}

std::vector<Array> DSplit(const Array& a, int64_t sections) {
    if (a.ndim() < 3)
        throw DimensionError{"dsplit only works on arrays of 3 or more dimensions, got shape ", a.shape()};
    return Split(a, sections, 2);
}

Array Repeat(const Array& a, const std::vector<int64_t>& repeats, std::optional<int64_t> axis) {
    Array src = axis.has_value() ? a : Ravel(a);
    int8_t ax = axis.has_value() ? NormalizeAxis(*axis, a.ndim()) : int8_t{0};
    int64_t dim = src.ndim() == 0 ? 1 : src.shape()[ax];
    if (src.ndim() == 0) src = Reshape(src, Shape{1});
    if (repeats.size() != 1 && static_cast<int64_t>(repeats.size()) != dim) {
        throw DimensionError{"repeat: got ", repeats.size(), " repeat counts for an axis of size ", dim};
    }
    std::vector<int64_t> indices;
    for (int64_t i = 0; i < dim; ++i) {
        int64_t r = repeats.size() == 1 ? repeats[0] : repeats[i];
        if (r < 0) throw DimensionError{"repeat: counts must be non-negative, got ", r};
        for (int64_t j = 0; j < r; ++j) indices.push_back(i);
    }
    Array index_array = FromContiguousHostData(Shape{static_cast<int64_t>(indices.size())}, Dtype::kInt64,
                                               indices.data(), a.device());
    return Take(src, index_array, ax);
}

Array Repeat(const Array& a, int64_t repeats, std::optional<int64_t> axis) {
    return Repeat(a, std::vector<int64_t>{repeats}, axis);
}

}  // namespace chainerx
