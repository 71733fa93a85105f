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
