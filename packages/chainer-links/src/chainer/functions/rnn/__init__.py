"""chainer.functions.rnn: recurrent cells and stacked recurrent networks."""
