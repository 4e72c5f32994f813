"""mindtorch vs PyTorch vs raw NumPy, side by side in one process.

    python benchmarks/bench_ops.py              # full run (~1 min on 2 cores)
    python benchmarks/bench_ops.py --quick      # fewer repeats, for a smoke test
    python benchmarks/bench_ops.py --threads 0  # libraries' default thread counts
    python benchmarks/bench_ops.py --training-ops [--cpu-time]  # instead: the training
        # ops sped up in round qa13b (_training_ops.py), mindtorch vs torch (~1 min)
    python benchmarks/bench_ops.py --training-ops-14b [--cpu-time]  # round qa14b's
        # (_training_ops_14b.py: group norm, cdist, losses, ...)

Each timing is timeit's best (minimum) over several repeats of many calls, the least
noisy estimate of what a call costs on a shared machine; the repeats of the three
libraries are interleaved so that they run under the same conditions.  `import` times are
measured in fresh interpreters (median of several runs).  Prints a Markdown table.

By default every library runs single-threaded (BLAS and torch intra-op threads): on a
small shared machine multi-threaded BLAS timings swing by 5x from run to run, which
would drown the overheads this benchmark is about.
"""
import argparse
import os
import statistics
import subprocess
import sys

from _timing import best_times, limit_threads, print_ratio_table

# (key, label, unit, target on mindtorch: ("abs", seconds) or ("numpy", max ratio))
CASES = [
    ("add4", "add, 4 x float32 (dispatch overhead)", "us", ("abs", 2.5e-6)),
    ("add1m", "add, 1M float32", "ms", ("numpy", 1.1)),
    ("mul1m", "mul, 1M float32", "ms", ("numpy", 1.1)),
    ("relu1m", "relu, 1M float32", "ms", ("numpy", 1.1)),
    ("mm256", "matmul 256x256 float32", "ms", ("numpy", 1.1)),
    ("mm1024", "matmul 1024x1024 float32", "ms", ("numpy", 1.1)),
    ("import", "import (fresh process, median)", "ms", ("abs", 0.150)),
    # what a script pays before its first result: mindtorch imports NumPy and its cpu
    # kernels with the first tensor, not at import
    ("import_op", "import + first op, ones(4) + 1 (fresh process, median)", "ms", None),
]
# statement timed in a fresh interpreter for each import case ({m}: the library)
IMPORT_CASES = {"import": "import {m}", "import_op": "import {m}; {m}.ones(4) + 1"}
SCALE = {"us": 1e6, "ms": 1e3}


def workloads(mt, torch):
    """key -> {library: zero-argument callable}; a library without the op is left out."""
    rng = np.random.default_rng(0)
    small = [rng.standard_normal(4).astype(np.float32) for _ in range(2)]
    big = [rng.standard_normal(1 << 20).astype(np.float32) for _ in range(2)]
    mats = {n: [rng.standard_normal((n, n)).astype(np.float32) for _ in range(2)]
            for n in (256, 1024)}

    def lib_cases(conv, relu, matmul):
        a4, b4 = (conv(x) for x in small)
        a, b = (conv(x) for x in big)
        cases = {"add4": lambda: a4 + b4, "add1m": lambda: a + b, "mul1m": lambda: a * b}
        if relu is not None:
            cases["relu1m"] = lambda: relu(a)
        if matmul is not None:
            for n, (x, y) in mats.items():
                x, y = conv(x), conv(y)
                cases[f"mm{n}"] = lambda x=x, y=y: matmul(x, y)
        return cases

    libs = {"numpy": lib_cases(lambda x: x, lambda x: np.maximum(x, 0), np.matmul)}
    libs["mindtorch"] = lib_cases(mt.from_numpy, getattr(mt, "relu", None),
                                  getattr(mt, "matmul", None))
    if torch is not None:
        libs["torch"] = lib_cases(torch.from_numpy, torch.relu, torch.matmul)
    return libs


def import_times(modules, runs):
    """{case: {module: median seconds}} of each IMPORT_CASES statement in a fresh
    interpreter (the runs of the modules and cases are interleaved)."""
    code = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
    # as installed packages are: with bytecode caches (which PYTHONDONTWRITEBYTECODE would
    # leave unwritten for the editable mindtorch sources: then every import recompiles)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MINDTORCH_") and k != "PYTHONDONTWRITEBYTECODE"}
    times = {case: {m: [] for m in modules} for case in IMPORT_CASES}
    for m in modules:  # warm-up: writes missing .pyc files, warms the file cache
        subprocess.run([sys.executable, "-c", IMPORT_CASES["import_op"].format(m=m)], env=env,
                       check=True)
    for _ in range(runs):
        for case, stmt in IMPORT_CASES.items():
            for m in modules:
                p = subprocess.run([sys.executable, "-c", code.format(stmt.format(m=m))],
                                   capture_output=True, text=True, env=env, check=True)
                times[case][m].append(float(p.stdout))
    return {case: {m: statistics.median(t) for m, t in by_module.items()}
            for case, by_module in times.items()}


def fmt(seconds, unit):
    return "n/a" if seconds is None else f"{seconds * SCALE[unit]:.3g}"


def ratio(a, b):
    return "n/a" if a is None or b is None else f"{a / b:.2f}x"


def verdict(target, results):
    mt = results.get("mindtorch")
    if mt is None or target is None:
        return "n/a" if mt is None else "-"
    kind, value = target
    if kind == "abs":
        ok = mt <= value
        goal = f"<= {value * 1e6:.3g} us" if value < 1e-3 else f"< {value * 1e3:.0f} ms"
    else:
        ok = results.get("numpy") is not None and mt <= value * results["numpy"]
        goal = f"<= {value}x numpy"
    return f"{'met' if ok else 'MISSED'} ({goal})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS / torch threads (0: the libraries' defaults)")
    parser.add_argument("--training-ops", action="store_true",
                        help="instead: the training ops sped up in round qa13b")
    parser.add_argument("--training-ops-14b", action="store_true",
                        help="instead: the training ops round qa14b looked at")
    parser.add_argument("--cpu-time", action="store_true",
                        help="with --training-ops(-14b): time with the process's CPU time")
    args = parser.parse_args()
    limit_threads(args.threads)
    global np
    import numpy as np
    if args.training_ops or args.training_ops_14b:
        return training_ops(args)
    min_total, repeat, import_runs = (0.05, 3, 3) if args.quick else (0.6, 15, 9)

    import mindtorch as mt
    try:
        import torch
    except ImportError:  # the comparison column is optional
        torch = None
    if torch is not None and args.threads:
        torch.set_num_threads(args.threads)

    results = {key: {} for key, *_ in CASES}
    libs = workloads(mt, torch)
    for key, *_ in CASES:
        fns = {lib: cases[key] for lib, cases in libs.items() if key in cases}
        if fns:
            results[key] = best_times(fns, min_total, repeat)
    results.update(import_times(["mindtorch", "numpy"] + (["torch"] if torch else []),
                                import_runs))

    print(f"python {sys.version.split()[0]}, numpy {np.__version__}"
          + (f", torch {torch.__version__} ({torch.get_num_threads()} thread(s))" if torch else "")
          + f", mindtorch {mt.__version__}; {os.cpu_count()} cpus, "
          + (f"{args.threads} BLAS thread(s)" if args.threads else "default threads") + "\n")
    print("| case | unit | mindtorch | torch | numpy | mt/numpy | mt/torch | target |")
    print("|---|---|---|---|---|---|---|---|")
    for key, label, unit, target in CASES:
        r = results[key]
        m, t, n = r.get("mindtorch"), r.get("torch"), r.get("numpy")
        print(f"| {label} | {unit} | {fmt(m, unit)} | {fmt(t, unit)} | {fmt(n, unit)} "
              f"| {ratio(m, n)} | {ratio(m, t)} | {verdict(target, r)} |")


def training_ops(args):
    """The table of _training_ops.py (or _training_ops_14b.py): forward and forward +
    backward, mindtorch vs torch."""
    import time
    import timeit

    import _training_ops
    import _training_ops_14b
    import mindtorch as mt
    import torch
    if args.threads:
        torch.set_num_threads(args.threads)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, torch {torch.__version__}"
          f" ({torch.get_num_threads()} thread(s)); {os.cpu_count()} cpus"
          + (", CPU time" if args.cpu_time else "") + "\n")
    min_total, repeat = (0.05, 3) if args.quick else (0.3, 7)
    table = _training_ops_14b if args.training_ops_14b else _training_ops
    print_ratio_table(table.cases(np, mt, torch), "us", min_total, repeat,
                      time.process_time if args.cpu_time else timeit.default_timer)


if __name__ == "__main__":
    main()
