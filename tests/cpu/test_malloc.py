"""The cpu backend keeps freed memory for reuse (mindtorch_cpu/_malloc.py): a layer-sized
temporary allocated and freed in a loop stops faulting in fresh pages."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")

LOOP = """
import resource, mindtorch
x = mindtorch.ones(768, 1024)   # loads the cpu kernels


def layers():  # four 3 MiB activations alive at once, then freed (a small model's forward)
    a = x * 2
    b = a * 2
    c = b * 2
    return (c * 2).sum()


for _ in range(3):
    layers()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(50):
    layers()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(keep):
    env = dict(os.environ, MINDTORCH_CPU_KEEP_FREED_MEMORY="1" if keep else "0")
    out = subprocess.run([sys.executable, "-c", LOOP], env=env, capture_output=True,
                         text=True, check=True)
    return int(out.stdout)


def test_freed_memory_is_reused_unless_turned_off():
    kept, default = _faults(True), _faults(False)
    # (glibc's defaults give the freed blocks back and fault ~3,000 pages in per pass)
    assert kept < 50 and default > 50 * 1000


def test_keep_freed_memory_reports_what_it_did(monkeypatch):
    from mindtorch_cpu import _malloc
    assert _malloc.keep_freed_memory() is True  # glibc's mallopt on this platform
    monkeypatch.setenv("MINDTORCH_CPU_KEEP_FREED_MEMORY", "0")
    assert _malloc.keep_freed_memory() is False
