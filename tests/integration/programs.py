"""Ordinary PyTorch programs, run verbatim under torch and under mindtorch.

Each program imports `torch` itself; the runner swaps that module for
mindtorch.  A program's output is its stdout; an escaping exception is
reported by class name so error classes are compared too.  The programs live in
programs_<topic>.py (each adds its own to the registry, in the order they run)."""
from programs_registry import NEEDS, PROGRAMS, program  # noqa: F401

_before = set(PROGRAMS)  # (the registry is shared with the ML and QA program modules)
import programs_basics  # noqa: F401,E402
import programs_tensor_ops  # noqa: F401,E402
import programs_workflows  # noqa: F401,E402
BASIC_PROGRAMS = [n for n in PROGRAMS if n not in _before]
