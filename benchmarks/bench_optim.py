"""Optimizer step cost: mindtorch, PyTorch and a hand-written NumPy update, side by side.

    python benchmarks/bench_optim.py              # ~2 minutes
    python benchmarks/bench_optim.py --quick
    python benchmarks/bench_optim.py --cpu-time   # CPU time, steadier on a busy machine
    python benchmarks/bench_optim.py --sets mlp --optimizers SGD "SGD momentum"

One `optimizer.step()` over fixed gradients (float32), for two parameter sets:
- mlp: the parameters of the MLP 784-256-256-10 of the training benchmark (6 tensors,
  269,322 values): large tensors, the cost is the arithmetic;
- many: 200 tensors of 512 values (a model of biases and norms): the cost is per tensor.
Rows: SGD, SGD with momentum 0.9, Adam, AdamW (these four with a NumPy reference), RMSprop,
Adagrad, Adamax, NAdam, RAdam. Columns: mindtorch's default (small tensors
through the flat multi-tensor path, optim/_multi_tensor.py), mindtorch with foreach=False
(the per-tensor loop only), for SGD the same update written by hand with mindtorch ops
(`p.add_(p.grad, alpha=-lr)` under no_grad: the difference is the optimizer's own cost),
torch's default (its single-tensor loop on CPU), torch with
foreach=True, and NumPy in-place ufuncs with the same arithmetic (the floor a Python
framework can reach). Timings are the minimum over
interleaved rounds (see bench_ops.py); torch and BLAS use one thread by default.
"""
import argparse
import os
import sys
import time
import timeit

from _timing import best_times, limit_threads

SETS = {"mlp": [(256, 784), (256,), (256, 256), (256,), (10, 256), (10,)],
        "many": [(512,)] * 200}
OPTIMIZERS = {"SGD": {"lr": 0.01}, "SGD momentum": {"lr": 0.01, "momentum": 0.9},
              "Adam": {"lr": 1e-3}, "AdamW": {"lr": 1e-3, "weight_decay": 0.01},
              "RMSprop": {"lr": 1e-3}, "Adagrad": {"lr": 1e-2}, "Adamax": {"lr": 1e-3},
              "NAdam": {"lr": 1e-3}, "RAdam": {"lr": 1e-3}}


def numpy_step(np, name, kw, params, grads):
    """The same update with NumPy in-place ufuncs (one scratch buffer per tensor)."""
    if name not in ("SGD", "SGD momentum", "Adam", "AdamW"):
        return None  # (no hand-written reference for the others)
    lr = kw["lr"]
    scratch = [np.empty_like(p) for p in params]
    if name.startswith("SGD"):
        bufs = [g.copy() for g in grads]
        mom = kw.get("momentum", 0)

        def step():
            for p, g, b, t in zip(params, grads, bufs, scratch):
                if mom:
                    np.multiply(b, mom, out=b)
                    np.add(b, g, out=b)
                    g = b
                np.multiply(g, -lr, out=t)
                np.add(p, t, out=p)
        return step
    b1, b2, eps, wd = 0.9, 0.999, 1e-8, kw.get("weight_decay", 0)
    ms, vs = [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params]
    count = [0]

    def step():
        count[0] += 1
        k = count[0]
        size = lr / (1 - b1 ** k)
        bc2 = (1 - b2 ** k) ** 0.5
        for p, g, m, v, t in zip(params, grads, ms, vs, scratch):
            if wd:
                np.multiply(p, 1 - lr * wd, out=p)
            np.subtract(g, m, out=t)          # m += (1 - b1) (g - m)
            np.multiply(t, 1 - b1, out=t)
            np.add(m, t, out=m)
            np.multiply(v, b2, out=v)         # v = b2 v + (1 - b2) g g
            np.multiply(g, g, out=t)
            np.multiply(t, 1 - b2, out=t)
            np.add(v, t, out=v)
            np.sqrt(v, out=t)                 # p -= size m / (sqrt(v) / bc2 + eps)
            np.divide(t, bc2, out=t)
            np.add(t, eps, out=t)
            np.divide(m, t, out=t)
            np.multiply(t, -size, out=t)
            np.add(p, t, out=p)
    return step


def workloads(np, mt, torch, shapes, name, kw):
    rng = np.random.default_rng(0)
    init = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [(rng.standard_normal(s) * 1e-3).astype(np.float32) for s in shapes]
    cls = "AdamW" if name == "AdamW" else name.split()[0]
    fns = {}
    for label, lib, extra in (("mindtorch", mt, {}),
                              ("mindtorch per-tensor", mt, {"foreach": False}),
                              ("torch", torch, {}), ("torch foreach", torch, {"foreach": True})):
        if lib is None:
            continue
        ps = [lib.tensor(a.copy()).requires_grad_() for a in init]
        for p, g in zip(ps, grads):
            p.grad = lib.tensor(g.copy())
        fns[label] = getattr(lib.optim, cls)(ps, **kw, **extra).step
    if name == "SGD":  # the update written out with mindtorch ops: the optimizer's overhead
        ps = [mt.tensor(a.copy()).requires_grad_() for a in init]
        for p, g in zip(ps, grads):
            p.grad = mt.tensor(g.copy())

        def by_hand(ps=ps, lr=kw["lr"]):
            with mt.no_grad():
                for p in ps:
                    p.add_(p.grad, alpha=-lr)
        fns["mindtorch by hand"] = by_hand
    reference = numpy_step(np, name, kw, [a.copy() for a in init], grads)
    if reference is not None:
        fns["numpy"] = reference
    return fns


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / torch threads (0: the libraries' defaults)")
    parser.add_argument("--cpu-time", action="store_true", help="time with the process's CPU time")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS),
                        help="parameter sets (default: all)")
    parser.add_argument("--optimizers", nargs="+", choices=list(OPTIMIZERS),
                        default=list(OPTIMIZERS), help="optimizer rows (default: all)")
    args = parser.parse_args()
    limit_threads(args.threads)
    import numpy as np
    import mindtorch as mt
    try:
        import torch
        if args.threads:
            torch.set_num_threads(args.threads)
    except ImportError:
        torch = None
    min_total, repeat = (0.05, 3) if args.quick else (0.3, 7)
    clock = time.process_time if args.cpu_time else timeit.default_timer
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {torch.__version__} ({torch.get_num_threads()} thread(s))" if torch else "")
          + f"; {os.cpu_count()} cpus" + (", CPU time" if args.cpu_time else "") + "\n")
    cols = ["mindtorch", "mindtorch per-tensor", "mindtorch by hand", "torch", "torch foreach",
            "numpy"]
    print("| params | optimizer | " + " | ".join(f"{c} (us)" for c in cols)
          + " | mt/torch | mt/numpy |")
    print("|---|---|" + "---|" * (len(cols) + 2))
    for set_name in args.sets:
        shapes = SETS[set_name]
        for name in args.optimizers:
            kw = OPTIMIZERS[name]
            r = best_times(workloads(np, mt, torch, shapes, name, kw), min_total, repeat, clock)
            best_mt = r.get("mindtorch", float("nan"))
            cells = [f"{r[c] * 1e6:.0f}" if c in r else "n/a" for c in cols]
            ratios = [f"{best_mt / r[c]:.2f}x" if c in r else "n/a" for c in ("torch", "numpy")]
            print(f"| {set_name} | {name} | " + " | ".join(cells + ratios) + " |", flush=True)


if __name__ == "__main__":
    main()
