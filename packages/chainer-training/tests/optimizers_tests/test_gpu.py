"""GPU kernels against the CPU kernels; skipped where no CUDA device is available."""

import numpy
import pytest

from chainer import optimizers
from chainer.backends import cuda

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cuda.available, reason="needs a CUDA GPU through CuPy"),
]

CONFIGS = {
    "SGD": {},
    "MomentumSGD": {},
    "CorrectedMomentumSGD": {},
    "NesterovAG": {},
    "AdaGrad": {},
    "AdaDelta": {},
    "RMSprop": {},
    "RMSprop-eps_inside_sqrt": {"eps_inside_sqrt": True},
    "RMSpropGraves": {},
    "SMORMS3": {},
    "Adam": {},
    "AdamW": {"weight_decay_rate": 0.1},
    "AMSGrad": {},
    "AdaBound": {},
    "AMSBound": {},
    "MSVAG": {},
}


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_gpu_update_matches_cpu(kit, name, dtype):
    cls = getattr(optimizers, name.split("-")[0])
    cpu, gpu = kit.Quadratic(dtype, big_size=100), kit.Quadratic(dtype, big_size=100)
    gpu.to_device("@cupy:0")
    gpu.targets = {k: cuda.to_gpu(v) for k, v in gpu.targets.items()}
    gpu.curvatures = {k: cuda.to_gpu(v) for k, v in gpu.curvatures.items()}
    cpu_opt = cls(**CONFIGS[name]).setup(cpu)
    gpu_opt = cls(**CONFIGS[name]).setup(gpu)
    for _ in range(3):
        cpu_opt.update(cpu)
        gpu_opt.update(gpu)
    for (path, p), (_, q) in zip(cpu.namedparams(), gpu.namedparams()):
        assert isinstance(q.array, cuda.cupy.ndarray)
        numpy.testing.assert_allclose(
            cuda.to_cpu(q.array), p.array, rtol=1e-5, atol=1e-6, err_msg=path
        )


@pytest.mark.parametrize("name", ["AdaGrad", "Adam", "AMSGrad", "AdaBound", "MSVAG"])
def test_float16_gpu_update_computes_in_float32(kit, name):
    # Chainer's Adam-like rules compute float16 updates in float32 (eps=1e-8 rounds to 0 in
    # float16); the result matches a float32 run rounded to float16.
    cls = getattr(optimizers, name)
    ref, gpu = (
        kit.Quadratic(numpy.float32, big_size=100),
        kit.Quadratic(numpy.float16, big_size=100),
    )
    gpu.to_device("@cupy:0")
    gpu.targets = {k: cuda.to_gpu(v) for k, v in gpu.targets.items()}
    gpu.curvatures = {k: cuda.to_gpu(v) for k, v in gpu.curvatures.items()}
    for (_, p), (_, q) in zip(ref.namedparams(), gpu.namedparams()):
        p.array[...] = cuda.to_cpu(q.array)  # start from the same (float16) values
    ref_opt, gpu_opt = cls().setup(ref), cls().setup(gpu)
    for _ in range(3):
        ref_opt.update(ref)
        gpu_opt.update(gpu)
    for (path, p), (_, q) in zip(ref.namedparams(), gpu.namedparams()):
        assert q.array.dtype == numpy.float16
        numpy.testing.assert_allclose(
            cuda.to_cpu(q.array).astype(numpy.float32), p.array, rtol=1e-2, atol=1e-3, err_msg=path
        )
