"""Autograd cost: a chain of 100 small ops, mindtorch vs PyTorch, in one process.

    python benchmarks/bench_autograd.py          # ~20 s
    python benchmarks/bench_autograd.py --quick

For each library, on 4-element float32 tensors:
- plain: the 100-op forward chain with no input requiring grad;
- record: the same chain with the input requiring grad (graph recorded);
- backward: forward with recording plus backward of the sum.
Per-op recording overhead = (record - plain) / 100.  Each figure is the minimum over
rounds interleaving every library and case (see bench_ops.py).  Prints a Markdown table.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _timing import best_times  # noqa: E402

N_OPS = 100


def chain(x, w):
    # 100 ops, a mix of binary, unary and view ops with formulas that save tensors
    for _ in range(N_OPS // 4):
        x = x * w
        x = x + w
        x = x.neg()
        x = x.view(2, 2).t().reshape(4) if False else x.view(4)
    return x


def workloads(mt, torch):
    import numpy as np
    data = np.linspace(0.1, 0.4, 4).astype(np.float32)
    fns = {}
    for name, lib in (("mindtorch", mt), ("torch", torch)):
        if lib is None:
            continue
        x0 = lib.tensor(data)
        w = lib.tensor(data)
        xg = lib.tensor(data, requires_grad=True)

        def plain(x0=x0, w=w):
            return chain(x0, w)

        def record(xg=xg, w=w):
            return chain(xg, w)

        def backward(xg=xg, w=w):
            chain(xg, w).sum().backward()
        fns[name] = {"plain": plain, "record": record, "backward": backward}
    return fns


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    import mindtorch
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    fns = workloads(mindtorch, torch)
    repeat, total = (3, 0.1) if args.quick else (15, 0.5)
    # every (library, case) in one interleaved measurement: noise hits them alike
    best = best_times({(lib, case): f[case] for lib, f in fns.items() for case in f},
                      total, repeat)
    results = {case: {lib: best[(lib, case)] for lib in fns if (lib, case) in best}
               for case in ("plain", "record", "backward")}
    libs = list(fns)
    print(f"| case ({N_OPS} ops, 4 x float32) | " + " | ".join(f"{lib} (us)" for lib in libs) +
          " | mt/torch |")
    print("|---|" + "---|" * len(libs) + "---|")
    for case, label in (("plain", "forward, no grad"), ("record", "forward, recording"),
                        ("backward", "forward + backward")):
        row = [results[case].get(lib, float("nan")) * 1e6 for lib in libs]
        ratio = row[0] / row[1] if len(row) > 1 else float("nan")
        print(f"| {label} | " + " | ".join(f"{v:.0f}" for v in row) + f" | {ratio:.2f}x |")
    for lib in libs:
        per_op = (results["record"][lib] - results["plain"][lib]) / N_OPS * 1e6
        print(f"\n{lib}: recording overhead {per_op:.2f} us per op"
              + (" (target < 3 us: " + ("met" if per_op < 3 else "MISSED") + ")"
                 if lib == "mindtorch" else ""))


if __name__ == "__main__":
    main()
