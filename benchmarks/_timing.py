"""What every benchmark shares: the BLAS / OpenMP thread limit, and the timing loop
(libraries timed side by side in one process)."""
import os
import sys
import timeit


def limit_threads(threads):
    """BLAS / OpenMP threads of the process (0: the libraries' defaults); to be called
    before numpy and torch start their thread pools."""
    if threads:
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(threads)


def best_times(fns, min_total=0.2, repeat=5, clock=timeit.default_timer, warmup=1):
    """Seconds per call of each fn in `fns` (key -> zero-argument callable): the minimum
    over `repeat` rounds of a loop lasting about min_total / repeat seconds. Rounds
    interleave the keys, so a burst of load from elsewhere on the machine hits all of them
    alike. A fn that fails its warm-up (first-use binding generation, caches, optimizer
    state) is skipped with a note, e.g. an op a library lacks."""
    timers, numbers = {}, {}
    for key, fn in fns.items():
        try:
            for _ in range(warmup):
                fn()
        except Exception as e:  # noqa: BLE001 - reported, and the key left out
            print(f"note: {key} skipped: {type(e).__name__}: {str(e)[:90]}", file=sys.stderr)
            continue
        timers[key] = timeit.Timer(fn, timer=clock)
        n, t = timers[key].autorange()
        numbers[key] = max(1, int(n * min_total / max(t, 1e-9) / repeat))
    best = {key: float("inf") for key in timers}
    for _ in range(repeat):
        for key, timer in timers.items():
            best[key] = min(best[key], timer.timeit(numbers[key]) / numbers[key])
    return best


class Cases(dict):
    """name -> {library: zero-argument callable}, built by add(name, make, numpy_fn):
    make(library module) gives each installed library's callable (torch may be None)."""

    def __init__(self, mt, torch):
        super().__init__()
        self.libs = {"mindtorch": mt, "torch": torch}

    def add(self, name, make, numpy_fn=None):
        self[name] = {lib: make(m) for lib, m in self.libs.items() if m is not None}
        if numpy_fn is not None:
            self[name]["numpy"] = numpy_fn


def print_ratio_table(cases, unit, min_total, repeat, clock):
    """One markdown row per case (name -> {library: callable}): the time per call of
    mindtorch, torch and numpy in `unit` ("ms" or "us"), then mindtorch's ratios to the
    other two ("-" where a library has no callable or skipped it)."""
    scale = {"ms": 1e3, "us": 1e6}[unit]
    cols = ["mindtorch", "torch", "numpy"]
    print("| case | " + " | ".join(f"{c} ({unit})" for c in cols) + " | mt/torch | mt/numpy |")
    print("|---|" + "---|" * (len(cols) + 2))
    for name, fns in cases.items():
        r = best_times(fns, min_total, repeat, clock)
        cells = [f"{r[c] * scale:.3g}" if c in r else "-" for c in cols]
        ratios = [f"{r['mindtorch'] / r[c]:.2f}x" if c in r and "mindtorch" in r else "-"
                  for c in ("torch", "numpy")]
        print(f"| {name} | " + " | ".join(cells + ratios) + " |", flush=True)


def ratio_benchmark(doc, cases, unit, full=(0.2, 7), quick=(0.02, 3)):
    """The command line of a mindtorch/torch/numpy table benchmark (--quick, --cpu-time):
    one thread, the header line, then print_ratio_table of cases(np, mindtorch, torch)
    (torch None when it is not installed). full / quick: (min_total, repeat)."""
    import argparse
    import time
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--cpu-time", action="store_true", help="time with the process's CPU time")
    args = parser.parse_args()
    limit_threads(1)
    import mindtorch as mt
    import mindtorch.utils.data  # noqa: F401
    import numpy as np
    try:
        import torch
        import torch.utils.data  # noqa: F401
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    min_total, repeat = quick if args.quick else full
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {torch.__version__}" if torch else "") + f"; {os.cpu_count()} cpus"
          + (", CPU time" if args.cpu_time else "") + "\n")
    clock = time.process_time if args.cpu_time else timeit.default_timer
    print_ratio_table(cases(np, mt, torch), unit, min_total, repeat, clock)
