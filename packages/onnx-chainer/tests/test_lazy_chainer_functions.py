"""Export in a fresh process, where ``chainer.functions`` loads functions on first use."""

import subprocess
import sys
import textwrap


def test_export_in_a_fresh_process_with_lazily_loaded_functions():
    code = textwrap.dedent(
        """
        import numpy
        import chainer, chainer.functions as F, chainer.links as L
        import onnx_chainer

        class Model(chainer.Chain):
            def __init__(self):
                super().__init__()
                with self.init_scope():
                    self.linear = L.Linear(3, 2)

            def forward(self, x):
                return F.sign(F.relu(self.linear(x)))

        x = numpy.ones((1, 3), numpy.float32)
        model = onnx_chainer.export(Model(), x)
        print(' '.join(node.op_type for node in model.graph.node))
        assert F.sign is F.math.sign.sign, 'the out-of-graph wrapper was not removed'
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Gemm", "Relu", "Sign"]
