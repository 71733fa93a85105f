"""Loss links: output layers that own parameters (negative sampling, BlackOut, CRF, ...)."""
