#include "chainerx/routines/random.h"

#include "chainerx/backend.h"
#include "chainerx/error.h"
#include "chainerx/kernels/random.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace {

Array Sample(RandomDistribution distribution, double p1, double p2, const Shape& shape, Dtype dtype, Device& device) {
    if (!IsFloating(dtype)) throw DtypeError{"random sampling supports floating dtypes only, got ", dtype};
    Array out = Empty(shape, dtype, device);
    device.backend().CallKernel<RandomKernel>(distribution, p1, p2, out);
    return out;
}

}  // namespace

Array RandomNormal(double loc, double scale, const Shape& shape, Dtype dtype, Device& device) {
    if (scale < 0) throw ChainerxError{"normal: scale must be non-negative, got ", scale};
    return Sample(RandomDistribution::kNormal, loc, scale, shape, dtype, device);
}

Array RandomUniform(double low, double high, const Shape& shape, Dtype dtype, Device& device) {
    return Sample(RandomDistribution::kUniform, low, high, shape, dtype, device);
}

}  // namespace chainerx
