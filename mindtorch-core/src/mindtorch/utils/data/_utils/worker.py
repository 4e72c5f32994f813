"""What runs inside a DataLoader worker process: fetching samples (also used in the
main process when num_workers=0), the worker loop, and the exception wrapper that carries
a worker's traceback back to the main process."""
import dataclasses
import os
import sys

from ...._lazy import lazy
from .fetch import _IterableDatasetFetcher

pickle = lazy("pickle", globals(), "pickle")  # imported when a worker first needs them
queue = lazy("queue", globals(), "queue")
random = lazy("random", globals(), "random")
traceback = lazy("traceback", globals(), "traceback")

_worker_info = None
_POLL = 5.0  # seconds between checks that the main process is still alive


@dataclasses.dataclass(frozen=True, slots=True)
class WorkerInfo:
    """This worker's id, the number of workers, its seed and its copy of the dataset (and,
    as PyTorch 2.13's, an optional thread RNG container and the worker method)."""
    id: int
    num_workers: int
    seed: int
    dataset: object
    rng: object = None
    worker_method: str = "multiprocessing"


def get_worker_info():
    """This worker's WorkerInfo in a DataLoader worker process, None in the main one."""
    return _worker_info


class ExceptionWrapper:
    """An exception with its formatted traceback, picklable across processes."""

    def __init__(self, exc_info=None, where="in background"):
        exc_info = exc_info or sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))
        self.where = where

    def reraise(self):
        msg = f"Caught {self.exc_type.__name__} {self.where}.\nOriginal {self.exc_msg}"
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)  # KeyError's str() would quote the whole text
        try:
            exception = self.exc_type(msg)
        except Exception:  # an exception class that needs other arguments
            raise RuntimeError(msg) from None
        raise exception


class _KeyErrorMessage(str):
    def __repr__(self):
        return self


class _IterableDatasetStopIteration:
    """A worker's iterable dataset copy is exhausted."""

    def __init__(self, worker_id):
        self.worker_id = worker_id


class _ResumeIteration:
    """Persistent workers: start a new epoch (sent to every worker, echoed back)."""


def _seed_everything(base_seed, worker_id):
    """Python's and mindtorch's default generators get base_seed + worker_id; NumPy's
    global one (whenever NumPy is installed: a spawned worker may import it only later,
    in the dataset's code) PyTorch's four words hashed from both (NumPy's SeedSequence
    mixing), so a worker's draws are PyTorch's."""
    from .... import manual_seed
    seed = base_seed + worker_id
    random.seed(seed)
    manual_seed(seed)
    try:
        import numpy as np
    except ImportError:
        return
    entropy = [worker_id, base_seed & 0xFFFFFFFF, base_seed >> 32, 0]
    np.random.seed(np.random.SeedSequence(entropy).generate_state(4))


# PyTorch's tensor reduction for multiprocessing refuses these (its worker then never
# delivers the batch; here the worker reports the error instead)
_NON_LEAF_ACROSS_PROCESSES = (
    "Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd does "
    "not support crossing process boundaries.  If you just want to transfer the data, call "
    "detach() on the tensor before serializing (e.g., putting it on the queue).")


def _dumps(data):
    """pickle.dumps, tensors travelling as their own elements, not their storages (a
    sample that is a row of a dataset-wide tensor must not send the whole dataset;
    PyTorch shares memory instead)."""
    import io
    from ...._tensor import Tensor

    class CompactPickler(pickle.Pickler):
        def reducer_override(self, obj):
            if not isinstance(obj, Tensor):
                return NotImplemented
            if obj.requires_grad and obj.grad_fn is not None:
                raise RuntimeError(_NON_LEAF_ACROSS_PROCESSES)
            return obj._reduce_compact() if type(obj) is Tensor else NotImplemented
    out = io.BytesIO()
    CompactPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(data)
    return out.getvalue()


def _pickled(data, where):
    """The batch as bytes: pickled here so that an unpicklable batch becomes an error in
    the main process rather than a batch silently lost in the queue's feeder thread."""
    try:
        return _dumps(data)
    except Exception:
        wrapper = ExceptionWrapper(where=where)
        try:
            return pickle.dumps(wrapper, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception class pickle cannot name
            wrapper.exc_type = RuntimeError
            return pickle.dumps(wrapper, protocol=pickle.HIGHEST_PROTOCOL)


def worker_loop(fetcher_cls, dataset, index_queue, data_queue, done_event, auto_collation,
                collate_fn, drop_last, base_seed, init_fn, worker_id, num_workers):
    """Serve (idx, index) tasks until told to stop (None) or the parent dies."""
    global _worker_info
    try:
        from .... import set_num_threads
        set_num_threads(1)  # as PyTorch's workers (kernels that split work round by it)
        seed = base_seed + worker_id
        _seed_everything(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                  dataset=dataset)
        where = f"in DataLoader worker process {worker_id}"
        init_error = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = fetcher_cls(dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_error = ExceptionWrapper(where=where)
        iteration_end = False
        parent = os.getppid()
        while os.getppid() == parent:
            try:
                task = index_queue.get(timeout=_POLL)
            except queue.Empty:
                continue
            if task is None:
                break
            if isinstance(task, _ResumeIteration):
                data_queue.put((task, None))
                iteration_end = False
                fetcher = fetcher_cls(dataset, auto_collation, collate_fn, drop_last)
                continue
            if done_event.is_set() or iteration_end:
                continue
            idx, index = task
            if init_error is not None:
                data, init_error = init_error, None
            else:
                try:
                    data = fetcher.fetch(index)
                except StopIteration:
                    if fetcher_cls is not _IterableDatasetFetcher:
                        data = ExceptionWrapper(where=where)
                    else:
                        data, iteration_end = _IterableDatasetStopIteration(worker_id), True
                except Exception:
                    data = ExceptionWrapper(where=where)
            data_queue.put((idx, _pickled(data, where)))
            del data, task
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
