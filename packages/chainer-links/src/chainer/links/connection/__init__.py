"""Connection links: linear maps, convolutions, embeddings and the blocks built from them."""
