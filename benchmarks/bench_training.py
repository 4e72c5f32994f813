"""MLP training step: mindtorch vs PyTorch vs a hand-written NumPy step, in one process.

    python benchmarks/bench_training.py              # ~1 minute
    python benchmarks/bench_training.py --quick      # smoke test, noisier
    python benchmarks/bench_training.py --cpu-time   # CPU time, steadier on a busy machine
    python benchmarks/bench_training.py --threads 0  # the libraries' default threads
    python benchmarks/bench_training.py --modules    # also nn.Sequential + optim.SGD
    python benchmarks/bench_training.py --floor      # also the leanest Python tape (_tape_step.py)

The model of issue 5: an MLP 784-256-256-10 (ReLU), batch 64, float32, cross-entropy loss,
plain SGD (lr 0.01).  A step is what a training loop does: forward, clear the gradients,
backward, update.  The frameworks run the same code (F.linear / F.relu / F.cross_entropy,
`loss.backward()`, `p.add_(p.grad, alpha=-lr)` under no_grad, as `optim.SGD` does); the
NumPy column is the textbook step (forward, manual backward, in-place update), which is
what mindtorch should come close to.

Each timing is the minimum over interleaved rounds of a loop of steps, as in
bench_ops.py; one BLAS / torch thread by default (see bench_ops.py why).  The peak RSS of
10 steps (model creation included) is measured per library in a fresh subprocess
(`--rss LIB` runs one of them), so the libraries do not share one process's high-water mark.
"""
import argparse
import os
import subprocess
import sys
import time
import timeit

from _timing import best_times, limit_threads

SIZES = (784, 256, 256, 10)
BATCH, LR = 64, 0.01


def data(np):
    rng = np.random.default_rng(0)
    params = []
    for fan_in, fan_out in zip(SIZES, SIZES[1:]):
        bound = fan_in ** -0.5
        params.append(rng.uniform(-bound, bound, (fan_out, fan_in)).astype(np.float32))
        params.append(rng.uniform(-bound, bound, fan_out).astype(np.float32))
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    y = rng.integers(0, SIZES[-1], BATCH)
    return params, x, y


def numpy_step(np):
    """The hand-written step: forward, manual backward, in-place SGD update."""
    params, x, y = data(np)
    rows = np.arange(BATCH)

    def step():
        w1, b1, w2, b2, w3, b3 = params
        h1 = x @ w1.T
        h1 += b1
        np.maximum(h1, 0, out=h1)
        h2 = h1 @ w2.T
        h2 += b2
        np.maximum(h2, 0, out=h2)
        z = h2 @ w3.T
        z += b3
        z -= z.max(1, keepdims=True)
        e = np.exp(z)
        s = e.sum(1, keepdims=True)
        loss = np.log(s[:, 0]).mean() - z[rows, y].mean()
        g3 = e / s  # d loss / d z
        g3[rows, y] -= 1
        g3 /= BATCH
        g2 = g3 @ w3
        g2 *= h2 > 0
        g1 = g2 @ w2
        g1 *= h1 > 0
        grads = (g1.T @ x, g1.sum(0), g2.T @ h1, g2.sum(0), g3.T @ h2, g3.sum(0))
        for p, g in zip(params, grads):
            p -= LR * g
        return loss
    return step


def framework_step(lib, np):
    params, x, y = data(np)
    params = [lib.tensor(p, requires_grad=True) for p in params]
    x, y = lib.tensor(x), lib.tensor(y)
    F = lib.nn.functional

    def step():
        w1, b1, w2, b2, w3, b3 = params
        h = F.relu(F.linear(x, w1, b1))
        h = F.relu(F.linear(h, w2, b2))
        loss = F.cross_entropy(F.linear(h, w3, b3), y)
        for p in params:
            p.grad = None
        loss.backward()
        with lib.no_grad():
            for p in params:
                p.add_(p.grad, alpha=-LR)
        return loss
    return step


def module_step(lib, np):
    """The same model as users write it: nn.Sequential, nn.CrossEntropyLoss, optim.SGD."""
    params, x, y = data(np)
    nn = lib.nn
    model = nn.Sequential(*[m for a, b in zip(SIZES, SIZES[1:])
                            for m in (nn.Linear(a, b), nn.ReLU())][:-1])
    with lib.no_grad():
        for p, value in zip(model.parameters(), params):
            p.copy_(lib.tensor(value))
    loss_fn, opt = nn.CrossEntropyLoss(), lib.optim.SGD(model.parameters(), lr=LR)
    x, y = lib.tensor(x), lib.tensor(y)

    def step():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss
    return step


def load(name, threads):
    if name == "mindtorch":
        import mindtorch as lib
        import mindtorch.nn.functional  # noqa: F401
    else:
        import torch as lib
        if threads:
            lib.set_num_threads(threads)
    return lib


def peak_rss(name, threads):
    """Peak RSS (MiB) of 10 steps of one library, in this (fresh) process."""
    import numpy as np
    step = numpy_step(np) if name == "numpy" else framework_step(load(name, threads), np)
    for _ in range(10):
        step()
    # VmHWM, not getrusage's ru_maxrss: Linux carries the latter over exec from the
    # forked parent, so a child would report at least its parent's peak
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / torch threads (0: the libraries' defaults)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with the process's CPU time (meaningful with one thread)")
    parser.add_argument("--rss", choices=("mindtorch", "torch", "numpy"),
                        help="only print the peak RSS of 10 steps of this library")
    parser.add_argument("--no-torch", action="store_true", help="leave PyTorch out")
    parser.add_argument("--floor", action="store_true",
                        help="also the leanest Python autograd tape (_tape_step.py): what "
                             "recording and walking a graph costs in Python at the least")
    parser.add_argument("--modules", action="store_true",
                        help="also the step as users write it (nn.Sequential, "
                             "nn.CrossEntropyLoss, optim.SGD; its / torch column against "
                             "torch's same form)")
    args = parser.parse_args()
    limit_threads(args.threads)
    if args.rss:
        print(f"{peak_rss(args.rss, args.threads):.1f}")
        return
    import numpy as np
    names = ["mindtorch"] + ([] if args.no_torch else ["torch"])
    libs = {name: load(name, args.threads) for name in names}
    fns = {name: framework_step(lib, np) for name, lib in libs.items()}
    fns["numpy"] = numpy_step(np)
    if args.floor:
        from _tape_step import tape_step
        fns["python tape (floor)"] = tape_step(np, data, BATCH, LR)
    if args.modules:
        fns.update({f"{name} (nn + optim)": module_step(lib, np) for name, lib in libs.items()})
    firsts = {name: fn() for name, fn in fns.items()}
    losses = {name: float(v.detach() if hasattr(v, "detach") else v) for name, v in firsts.items()}
    min_total, repeat = (0.1, 3) if args.quick else (1.0, 9)
    best = best_times(fns, min_total, repeat,
                      time.process_time if args.cpu_time else timeit.default_timer, warmup=20)
    rss = {}
    for name in [n for n in fns if n in ("mindtorch", "torch", "numpy")]:
        cmd = [sys.executable, __file__, "--rss", name, "--threads", str(args.threads)]
        rss[name] = float(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {libs['torch'].__version__}" if "torch" in libs else "")
          + f"; {os.cpu_count()} cpus, "
          + (f"{args.threads} BLAS/torch thread(s)" if args.threads else "default threads")
          + (", CPU time" if args.cpu_time else "") + f", load average {os.getloadavg()[0]:.1f}\n")
    print("| MLP 784-256-256-10, batch 64, SGD | µs/step | / numpy | / torch "
          "| peak RSS, 10 steps (MiB) | first loss |")
    print("|---|---|---|---|---|---|")
    for name in fns:
        t = best[name]
        vs_torch = f"{t / best['torch']:.2f}x" if "torch" in best else "n/a"
        if name.endswith("(nn + optim)") and "torch (nn + optim)" in best:
            vs_torch = f"{t / best['torch (nn + optim)']:.2f}x"
        rss_col = f"{rss[name]:.0f}" if name in rss else "-"
        print(f"| {name} | {t * 1e6:.0f} | {t / best['numpy']:.2f}x | {vs_torch} | {rss_col} "
              f"| {losses[name]:.6f} |")


if __name__ == "__main__":
    main()
