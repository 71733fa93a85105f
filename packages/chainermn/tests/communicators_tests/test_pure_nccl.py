"""pure_nccl: gradients averaged on the GPUs with NCCL (needs CUDA, CuPy and NCCL)."""

import numpy
import pytest

import chainer
import chainer.links as L
import chainermn
from chainer.backends import cuda

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not cuda.available, reason="needs a CUDA device through CuPy"),
]


@pytest.mark.parametrize("wire_dtype", [None, numpy.float16, numpy.float32])
def test_mean_grad_on_the_gpu(wire_dtype):
    comm = chainermn.create_communicator("pure_nccl", allreduce_grad_dtype=wire_dtype)
    device = chainer.get_device(f"@cupy:{comm.intra_rank}")
    device.use()
    model = L.Linear(3, 4)
    model.to_device(device)
    model.W.grad = device.send(numpy.full((4, 3), comm.rank + 1.0, numpy.float32))
    model.b.grad = device.send(numpy.full(4, 2.0 * comm.rank, numpy.float32))
    comm.multi_node_mean_grad(model)
    numpy.testing.assert_allclose(cuda.to_cpu(model.W.grad), (comm.size + 1) / 2, rtol=1e-3)
    numpy.testing.assert_allclose(cuda.to_cpu(model.b.grad), comm.size - 1.0, rtol=1e-3)
    comm.finalize()
    assert comm.nccl_comm is None


def test_double_buffering_applies_the_previous_average_on_the_gpu():
    """One process is enough: the average runs on a stream of its own and the update at step
    s applies the gradients of step s - 1 (here each rank's own, times size / size)."""
    comm = chainermn.create_communicator("pure_nccl", allreduce_grad_dtype=numpy.float32)
    device = chainer.get_device(f"@cupy:{comm.intra_rank}")
    device.use()
    model = L.Linear(3, 4)
    model.to_device(device)
    model.W.array[...] = 1.0
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(lr=0.5), comm, double_buffering=True
    )
    optimizer.setup(model)
    optimizer.update()  # broadcast
    base = (comm.size - 1) / 2
    for step in range(3):
        model.W.grad = device.send(numpy.full((4, 3), comm.rank + step, numpy.float32))
        model.b.grad = device.send(numpy.zeros(4, numpy.float32))
        optimizer.update()
        optimizer.wait()
        numpy.testing.assert_allclose(
            cuda.to_cpu(optimizer.communicated_target.W.grad), base + step, rtol=1e-6
        )
    assert optimizer.t == 2
    # Updates applied the averages of steps 0 and 1: 1 - 0.5 * (base + 0) - 0.5 * (base + 1).
    numpy.testing.assert_allclose(cuda.to_cpu(model.W.array), 0.5 - base, rtol=1e-6)
    comm.finalize()
