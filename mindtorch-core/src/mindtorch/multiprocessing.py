"""torch.multiprocessing: Python's multiprocessing (mindtorch tensors pickle by value, so
they cross process boundaries as any picklable object) plus PyTorch's sharing-strategy
switches, which mindtorch keeps for scripts that set them."""
import multiprocessing as _mp
from multiprocessing import *  # noqa: F401,F403

_strategy = ["file_descriptor"]
_STRATEGIES = {"file_descriptor", "file_system"}


def get_all_sharing_strategies():
    return set(_STRATEGIES)


def get_sharing_strategy():
    return _strategy[0]


def set_sharing_strategy(new_strategy):
    if new_strategy not in _STRATEGIES:
        raise AssertionError(f"invalid sharing strategy {new_strategy}")
    _strategy[0] = new_strategy


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Run fn(i, *args) in nprocs processes; with join, wait and raise if one failed."""
    ctx = _mp.get_context(start_method)
    procs = [ctx.Process(target=fn, args=(i,) + tuple(args), daemon=daemon)
             for i in range(nprocs)]
    for p in procs:
        p.start()
    if not join:
        return procs
    for p in procs:
        p.join()
    failed = [i for i, p in enumerate(procs) if p.exitcode != 0]
    if failed:
        raise RuntimeError(f"process {failed[0]} terminated with exit code "
                           f"{procs[failed[0]].exitcode}")
    return None
