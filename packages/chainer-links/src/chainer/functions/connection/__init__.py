"""chainer.functions.connection: convolutions, linear maps, embeddings and their relatives."""
