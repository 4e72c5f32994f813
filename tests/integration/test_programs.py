"""Whole user-style programs: identical stdout (and escaping error classes) under torch
and mindtorch.  One subprocess per library runs every program (torch's import alone
costs over a second)."""
import os
import re
import subprocess
import sys

import pytest

import mindtorch

sys.path.insert(0, os.path.dirname(__file__))
from programs import NEEDS, PROGRAMS  # noqa: E402

RUNNER = os.path.join(os.path.dirname(__file__), "run_programs.py")


def _sections(lib):
    proc = subprocess.run([sys.executable, RUNNER, lib], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    parts = re.split(r"^===== (\S+)\n", proc.stdout, flags=re.M)[1:]
    return dict(zip(parts[::2], parts[1::2]))


@pytest.fixture(scope="module")
def outputs():
    return _sections("torch"), _sections("mindtorch")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program(outputs, name):
    missing = [n for n in NEEDS[name] if not hasattr(mindtorch, n)]
    if missing:
        pytest.skip(f"not implemented yet: {', '.join(missing)}")
    expected, got = outputs
    assert got[name] == expected[name]
