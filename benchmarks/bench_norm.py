"""layer_norm, softmax and batch_norm, forward and forward + backward: mindtorch vs PyTorch,
one process.

    python benchmarks/bench_norm.py              # ~1 minute
    python benchmarks/bench_norm.py --quick
    python benchmarks/bench_norm.py --cpu-time   # CPU time, steadier on a busy machine

Shapes of a BERT-small encoder (MiniLM: hidden 384, 12 heads): layer_norm over the last
dim of (64, 128, 384) (with weight and bias), softmax over the last dim of attention
scores (8, 12, 128, 128); and batch_norm over the channels of a CNN activation
(32, 64, 16, 16), in training (batch statistics; contiguous and channels-last) and in
evaluation (running statistics).  "fwd" runs under no_grad; "fwd+bwd" backpropagates a fixed
gradient into the input (and the norm's weight and bias).  Minimum over interleaved
rounds of a timeit loop, 1 BLAS / torch thread (see bench_ops.py why).
"""
import argparse
import os
import sys
import time

from _timing import best_times, limit_threads

CASES = [("layer_norm (64, 128, 384)", (64, 128, 384), "layer_norm"),
         ("softmax (8, 12, 128, 128)", (8, 12, 128, 128), "softmax"),
         ("batch_norm train (32, 64, 16, 16)", (32, 64, 16, 16), "batch_norm"),
         ("batch_norm train, channels_last", (32, 64, 16, 16), "batch_norm_cl"),
         ("batch_norm eval (32, 64, 16, 16)", (32, 64, 16, 16), "batch_norm_eval")]


def workloads(lib, shape, kind, np):
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal(shape).astype(np.float32))
    if kind == "batch_norm_cl":
        x = x.contiguous(memory_format=lib.channels_last)
    x.requires_grad_()
    g = lib.tensor(rng.standard_normal(shape).astype(np.float32))
    batch_norm = kind.startswith("batch_norm")
    n = shape[1] if batch_norm else shape[-1]
    stats = lib.zeros(n), lib.ones(n)
    w = lib.tensor(rng.standard_normal(n).astype(np.float32), requires_grad=True)
    b = lib.tensor(rng.standard_normal(n).astype(np.float32), requires_grad=True)
    F = lib.nn.functional

    def run():
        if kind == "layer_norm":
            return F.layer_norm(x, (n,), w, b)
        if batch_norm:
            return F.batch_norm(x, *stats, w, b, training=kind != "batch_norm_eval")
        return F.softmax(x, -1)

    def fwd():
        with lib.no_grad():
            run()

    def both():
        run().backward(g)
        x.grad = w.grad = b.grad = None
    return fwd, both


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--cpu-time", action="store_true", help="time with the process's CPU time")
    args = parser.parse_args()
    limit_threads(1)
    import numpy as np
    import mindtorch as mt
    import mindtorch.nn.functional  # noqa: F401
    import torch
    torch.set_num_threads(1)
    clock = time.process_time if args.cpu_time else time.perf_counter
    min_total, repeat = (0.05, 3) if args.quick else (0.5, 7)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch.__version__}"
          f"; 1 thread" + (", CPU time" if args.cpu_time else "")
          + f", load average {os.getloadavg()[0]:.1f}\n")
    print("| case | pass | mindtorch (ms) | torch (ms) | mt/torch |")
    print("|---|---|---|---|---|")
    for label, shape, kind in CASES:
        m, t = workloads(mt, shape, kind, np), workloads(torch, shape, kind, np)
        for k, name in enumerate(("fwd", "fwd+bwd")):
            r = best_times({"mindtorch": m[k], "torch": t[k]}, min_total, repeat, clock)
            print(f"| {label} | {name} | {r['mindtorch'] * 1e3:.3g} | {r['torch'] * 1e3:.3g} "
                  f"| {r['mindtorch'] / r['torch']:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
