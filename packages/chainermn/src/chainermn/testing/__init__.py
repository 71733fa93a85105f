"""Helpers for testing multi-node code."""

from chainermn.testing.device import get_device

__all__ = ["get_device"]
