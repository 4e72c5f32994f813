"""Operator definitions (decls/), their generated bindings and the dispatcher."""
from .registry import OPS, define  # noqa: F401
