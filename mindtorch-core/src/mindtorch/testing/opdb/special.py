"""Samples of the special ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
