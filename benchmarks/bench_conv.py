"""conv2d: mindtorch vs PyTorch vs raw NumPy (im2col + matmul), side by side in one process.

    python benchmarks/bench_conv.py              # ~1 minute on 2 cores
    python benchmarks/bench_conv.py --quick      # smoke test, noisier
    python benchmarks/bench_conv.py --threads 0  # the libraries' default threads
    python benchmarks/bench_conv.py --cpu-time   # CPU time, steadier on a busy machine

The layers of a small CNN (batch 64, 3x3 kernels, padding 1): 1->16 and 16->32 channels on
28x28 and 14x14 (MNIST-like, after a 2x2 pooling) and on 8x8 images.  "fwd" is
F.conv2d(x, w, b); "fwd+bwd" adds the backward of its sum, with the weight and bias
requiring grad and the input too when it has more than one channel (a first layer's
input needs no gradient).  The NumPy column is the textbook implementation (pad, a
strided im2col view copied once, one matmul; backward: the weight gradient as one matmul
with the same columns, the input gradient as a matmul and a col2im scatter-add), which is
what mindtorch's kernel should be as fast as.

Each timing is the minimum over rounds of a timeit loop; the rounds of the libraries are
interleaved so that load from elsewhere on the machine hits them alike.  One BLAS / torch
thread by default, as bench_ops.py (see there why).  --cpu-time times with the process's
CPU time instead of the wall clock: other jobs on a shared machine then cost much less
noise (meaningful with one thread; with several it sums them).
"""
import argparse
import os
import sys
import time
import timeit

from _timing import best_times, limit_threads

# (key, label, batch, in channels, out channels, image size)
LAYERS = [
    ("c1_28", "1->16, 28x28", 64, 1, 16, 28),
    ("c2_14", "16->32, 14x14", 64, 16, 32, 14),
    ("c2_28", "16->32, 28x28", 64, 16, 32, 28),
    ("c1_8", "1->16, 8x8", 64, 1, 16, 8),
    ("c2_8", "16->32, 8x8", 64, 16, 32, 8),
]


# -- the NumPy reference ----------------------------------------------------------------

def np_cols(x, k):
    """im2col of x (N, C, H, W), padding 1, stride 1: (N, C*k*k, H*W)."""
    from numpy.lib.stride_tricks import as_strided
    n, c, h, w = x.shape
    xp = np.zeros((n, c, h + 2, w + 2), x.dtype)
    xp[:, :, 1:-1, 1:-1] = x
    s = xp.strides
    v = as_strided(xp, (n, c, k, k, h, w), s[:2] + s[2:] + s[2:])
    return np.ascontiguousarray(v).reshape(n, c * k * k, h * w)


def np_forward(x, w, b):
    n, _, h, wd = x.shape
    cout, k = w.shape[0], w.shape[2]
    out = np.matmul(w.reshape(cout, -1), np_cols(x, k))
    out += b[:, None]  # (in place: a second large temporary costs page faults)
    return out.reshape(n, cout, h, wd)


def np_forward_backward(x, w, b, input_grad):
    n, c, h, wd = x.shape
    cout, k = w.shape[0], w.shape[2]
    cols = np_cols(x, k)
    out = np.matmul(w.reshape(cout, -1), cols)
    out += b[:, None]
    out = out.reshape(n, cout, h, wd)
    g = np.ones_like(out).reshape(n, cout, h * wd)  # d(sum)/d(out)
    gw = np.matmul(g, cols.transpose(0, 2, 1)).sum(0).reshape(w.shape)
    gb = g.sum((0, 2))
    if input_grad:
        gcols = np.matmul(w.reshape(cout, -1).T, g).reshape(n, c, k, k, h, wd)
        gxp = np.zeros((n, c, h + 2, wd + 2), x.dtype)
        for i in range(k):
            for j in range(k):
                gxp[:, :, i:i + h, j:j + wd] += gcols[:, :, i, j]
        return out, gw, gb, gxp[:, :, 1:-1, 1:-1]
    return out, gw, gb


# -- workloads --------------------------------------------------------------------------

def workloads(mt, torch, layer):
    _, _, n, cin, cout, size = layer
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, cin, size, size)).astype(np.float32)
    w = (rng.standard_normal((cout, cin, 3, 3)) / (3 * cin ** 0.5)).astype(np.float32)
    b = rng.standard_normal(cout).astype(np.float32)
    input_grad = cin > 1
    fwd = {"numpy": lambda: np_forward(x, w, b)}
    both = {"numpy": lambda: np_forward_backward(x, w, b, input_grad)}
    libs = [("mindtorch", mt)] + ([("torch", torch)] if torch is not None else [])
    for name, lib in libs:
        F = lib.nn.functional
        xt, wt, bt = lib.tensor(x), lib.tensor(w), lib.tensor(b)
        xg, wg, bg = (lib.tensor(x, requires_grad=input_grad), lib.tensor(w, requires_grad=True),
                      lib.tensor(b, requires_grad=True))

        def step(F=F, xg=xg, wg=wg, bg=bg):
            F.conv2d(xg, wg, bg, padding=1).sum().backward()
            wg.grad = bg.grad = xg.grad = None
        fwd[name] = lambda F=F, xt=xt, wt=wt, bt=bt: F.conv2d(xt, wt, bt, padding=1)
        both[name] = step
    return fwd, both


def fmt(seconds):
    return "n/a" if seconds is None else f"{seconds * 1e3:.3g}"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}x"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / torch threads (0: the libraries' defaults)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="time with the process's CPU time (see the module docstring)")
    args = parser.parse_args()
    limit_threads(args.threads)
    global np
    import numpy as np
    min_total, repeat = (0.05, 3) if args.quick else (0.5, 9)

    import mindtorch as mt
    import mindtorch.nn.functional  # noqa: F401
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and args.threads:
        torch.set_num_threads(args.threads)

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {torch.__version__} ({torch.get_num_threads()} thread(s))" if torch else "")
          + f", mindtorch {mt.__version__}; {os.cpu_count()} cpus, "
          + (f"{args.threads} BLAS thread(s)" if args.threads else "default threads")
          + (", CPU time" if args.cpu_time else "") + "\n")
    print("| conv2d, batch 64, 3x3, padding 1 | pass | mindtorch (ms) | torch (ms) | numpy (ms) "
          "| mt/numpy | mt/torch |")
    print("|---|---|---|---|---|---|---|")
    for layer in LAYERS:
        fwd, both = workloads(mt, torch, layer)
        for label, fns in (("fwd", fwd), ("fwd+bwd", both)):
            r = best_times(fns, min_total, repeat,
                           time.process_time if args.cpu_time else timeit.default_timer)
            m, t, n = r.get("mindtorch"), r.get("torch"), r.get("numpy")
            print(f"| {layer[1]} | {label} | {fmt(m)} | {fmt(t)} | {fmt(n)} | {ratio(m, n)} "
                  f"| {ratio(m, t)} |", flush=True)


if __name__ == "__main__":
    main()
