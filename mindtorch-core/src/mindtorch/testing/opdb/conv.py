"""Samples of the conv ops."""
from ._make import ix, t  # noqa: F401

SAMPLES = {}
