#include "chainerx/shape.h"

#include <algorithm>

namespace chainerx {

Strides ContiguousStrides(const Shape& shape, int64_t item_size) {
    Strides strides(shape.ndim(), 0);
    int64_t stride = item_size;
    for (int i = shape.ndim() - 1; i >= 0; --i) {
        strides[i] = stride;
        stride *= std::max<int64_t>(shape[i], 1);
    }
    return strides;
}

bool IsContiguous(const Shape& shape, const Strides& strides, int64_t item_size) {
    if (shape.GetTotalSize() == 0) return true;  // no element to be out of place
    int64_t expected = item_size;
    for (int i = shape.ndim() - 1; i >= 0; --i) {
        if (shape[i] != 1 && strides[i] != expected) return false;
        expected *= shape[i];
    }
    return true;
}

int8_t NormalizeAxis(int64_t axis, int ndim) {
    if (axis < -ndim || axis >= ndim) {
        throw DimensionError{"axis ", axis, " is out of bounds for an array of dimension ", ndim};
    }
    return static_cast<int8_t>(axis < 0 ? axis + ndim : axis);
}

Axes NormalizeAxes(const Axes& axes, int ndim) {
    Axes result;
    for (int8_t a : axes) result.push_back(NormalizeAxis(a, ndim));
    std::sort(result.begin(), result.end());
    for (int i = 1; i < result.size(); ++i) {
        if (result[i] == result[i - 1]) {
            throw DimensionError{"duplicate axis ", static_cast<int>(result[i]), " in ", ToString(axes)};
        }
    }
    return result;
}

Axes AllAxes(int ndim) {
    Axes axes;
    for (int i = 0; i < ndim; ++i) axes.push_back(static_cast<int8_t>(i));
    return axes;
}

Shape BroadcastShapes(const Shape& a, const Shape& b) {
    if (a == b) return a;
    int ndim = std::max(a.ndim(), b.ndim());
    Shape out(ndim, 0);
    for (int i = 0; i < ndim; ++i) {
        int ia = a.ndim() - ndim + i;
        int ib = b.ndim() - ndim + i;
        int64_t da = ia >= 0 ? a[ia] : 1;
        int64_t db = ib >= 0 ? b[ib] : 1;
        if (da != db && da != 1 && db != 1) {
            throw DimensionError{"operands could not be broadcast together with shapes ", a, " and ", b};
        }
        out[i] = da == 1 ? db : da;
    }
    return out;
}

}  // namespace chainerx
