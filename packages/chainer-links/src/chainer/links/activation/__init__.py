"""Activation links: activations with learnt parameters (PReLU, Swish, Maxout, ...)."""
