"""Issue 5's memory target: 10 training steps of the MLP 784-256-256-10 (batch 64, SGD)
peak under 80 MiB of resident memory, which holds only while no op of the step loads numba
(its LLVM alone is ~120 MiB: kernels/_jit.py).  Run in a fresh interpreter, as
benchmarks/bench_training.py --rss measures it."""
import subprocess
import sys

STEPS = """
import sys
import numpy as np
import mindtorch
from mindtorch import nn

rng = np.random.default_rng(0)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                      nn.Linear(256, 10))
opt = mindtorch.optim.SGD(model.parameters(), lr=0.01)
x = mindtorch.tensor(rng.standard_normal((64, 784)).astype(np.float32))
y = mindtorch.tensor(rng.integers(0, 10, 64))
for _ in range(10):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
with open("/proc/self/status") as f:
    peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
print("numba" in sys.modules, round(peak, 1))
"""


def test_mlp_training_steps_stay_small():
    out = subprocess.run([sys.executable, "-c", STEPS], check=True, capture_output=True,
                         text=True).stdout.split()
    numba_loaded, peak_mib = out[0] == "True", float(out[1])
    assert not numba_loaded, "an op of the MLP step loaded numba"
    assert peak_mib < 80, f"peak RSS {peak_mib} MiB"
