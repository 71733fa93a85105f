"""A seq2seq model split across 2 processes: the encoder on rank 0, the decoder on rank 1.

The task is to reverse a short sequence of tokens. The encoder LSTM's final states travel to
the decoder with ``create_multi_node_n_step_rnn`` (a send/recv pair); backward brings their
gradients back. Both ranks read the same batches (a synchronized iterator over the same
dataset), each updates its own half of the model.

    mpiexec -n 2 python -m mpi4py examples/chainermn/train_seq2seq_pipeline.py
"""

from __future__ import annotations

import argparse
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn

N_TOKENS = 8
BOS, EOS = N_TOKENS, N_TOKENS + 1


class Encoder(chainer.Chain):
    """Rank 0: embeds the source and sends the LSTM's final states to rank 1."""

    def __init__(self, comm, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(N_TOKENS, n_units)
            self.rnn = chainermn.links.create_multi_node_n_step_rnn(
                L.NStepLSTM(1, n_units, n_units, 0.0), comm, rank_in=None, rank_out=1
            )

    def forward(self, sources):
        _, _, _, delegate = self.rnn([self.embed(s) for s in sources])
        return delegate


class Decoder(chainer.Chain):
    """Rank 1: starts from rank 0's states and predicts the reversed source."""

    def __init__(self, comm, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(N_TOKENS + 2, n_units)
            self.rnn = chainermn.links.create_multi_node_n_step_rnn(
                L.NStepLSTM(1, n_units, n_units, 0.0), comm, rank_in=0, rank_out=None
            )
            self.out = L.Linear(n_units, N_TOKENS + 2)

    def forward(self, targets):
        bos, eos = numpy.array([BOS], numpy.int32), numpy.array([EOS], numpy.int32)
        inputs = [self.embed(numpy.concatenate([bos, t])) for t in targets]
        _, _, ys, _ = self.rnn(inputs)
        logits = self.out(F.concat(ys, axis=0))
        expected = numpy.concatenate([numpy.concatenate([t, eos]) for t in targets])
        accuracy = F.accuracy(logits, expected)
        return F.softmax_cross_entropy(logits, expected), float(accuracy.array)


def make_dataset(n: int, seed: int = 0) -> list:
    rng = numpy.random.RandomState(seed)
    pairs = []
    for _ in range(n):
        source = rng.randint(0, N_TOKENS, rng.randint(3, 6)).astype(numpy.int32)
        pairs.append((source, source[::-1].copy()))
    return pairs


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batchsize", "-b", type=int, default=32)
    parser.add_argument("--iterations", "-i", type=int, default=600)
    parser.add_argument("--unit", "-u", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-accuracy", type=float, default=None)
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    comm = chainermn.create_communicator("naive")
    if comm.size != 2:
        raise SystemExit(f"this example runs on exactly 2 processes, got {comm.size}")

    numpy.random.seed(args.seed)  # initial weights and the shared shuffling order
    model = Encoder(comm, args.unit) if comm.rank == 0 else Decoder(comm, args.unit)
    optimizer = chainer.optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    iterator = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(make_dataset(1024), args.batchsize), comm
    )

    accuracy = 0.0
    for iteration in range(1, args.iterations + 1):
        sources, targets = zip(*iterator.next())
        model.cleargrads()
        if comm.rank == 0:
            model(sources).backward()  # receives the states' gradients from rank 1
        else:
            loss, accuracy = model(targets)
            loss.backward()  # sends the states' gradients to rank 0
            if iteration % 100 == 0:
                print(
                    f"iteration {iteration}: loss {float(loss.array):.4f}, "
                    f"token accuracy {accuracy:.3f}"
                )
        optimizer.update()

    if comm.rank != 1:
        return 0
    print(f"final token accuracy: {accuracy:.3f}")
    if args.min_accuracy is not None and accuracy < args.min_accuracy:
        print(f"FAILED: below the required {args.min_accuracy}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
