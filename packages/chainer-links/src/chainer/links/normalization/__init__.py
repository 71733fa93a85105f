"""Normalization links: batch, batch re-, decorrelated batch, group and layer normalization."""
