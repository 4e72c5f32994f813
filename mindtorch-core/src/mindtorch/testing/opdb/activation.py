"""Samples of the activation ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
