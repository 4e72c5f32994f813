"""Whole user-style programs: identical stdout (and escaping error classes) under torch
and mindtorch.  One subprocess per library runs every program (torch's import alone
costs over a second)."""
import os
import sys

import pytest

import mindtorch

sys.path.insert(0, os.path.dirname(__file__))
from programs import BASIC_PROGRAMS, NEEDS  # noqa: E402
from programs_registry import sections  # noqa: E402

RUNNER = os.path.join(os.path.dirname(__file__), "run_programs.py")


def _sections(lib):
    return sections(RUNNER, lib, timeout=120)


@pytest.fixture(scope="module")
def outputs():
    return _sections("torch"), _sections("mindtorch")


@pytest.mark.parametrize("name", BASIC_PROGRAMS)
def test_program(outputs, name):
    missing = [n for n in NEEDS[name] if not hasattr(mindtorch, n)]
    if missing:
        pytest.skip(f"not implemented yet: {', '.join(missing)}")
    expected, got = outputs
    assert got[name] == expected[name]
