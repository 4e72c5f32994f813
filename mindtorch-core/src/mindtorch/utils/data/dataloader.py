"""DataLoader (torch.utils.data.dataloader): batches from a dataset, in the main process
or in worker processes (multiprocessing; batches travel pickled, tensors through
Tensor.__reduce_ex__), in sampler order either way."""
import itertools
import math
import os
import warnings
from typing import Generic

from ..._lazy import lazy
from ._utils import fetch as _fetch
from ._utils import worker as _worker
from ._utils.collate import default_collate, default_convert  # noqa: F401 - torch re-exports them
from ._utils.worker import ExceptionWrapper, get_worker_info  # noqa: F401
from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, _T_co

pickle = lazy("pickle", globals(), "pickle")  # used by worker processes only
queue = lazy("queue", globals(), "queue")
_MAIN_POLL = 1.0  # seconds between checks that the workers are alive while waiting


def _death_cause(worker):
    """What PyTorch's SIGCHLD handler reports for a worker that died (the cause chained
    to the "exited unexpectedly" error): its exit code or the signal that killed it."""
    import signal
    code = worker.exitcode
    if code == 0:  # no signal handler error: PyTorch chains its queue poll's timeout
        return queue.Empty()
    if code is not None and code < 0:
        name = signal.strsignal(-code) or f"Unknown signal {-code}"
        note = ("It is possible that dataloader's workers are out of shared memory. Please "
                "try to raise your shared memory limit." if -code == signal.SIGBUS else "")
        return RuntimeError(f"DataLoader worker (pid {worker.pid}) is killed by signal: "
                            f"{name}. {note}")
    return RuntimeError(f"DataLoader worker (pid {worker.pid}) exited unexpectedly with exit "
                        f"code {code}. Details are lost due to multiprocessing. Rerunning with "
                        f"num_workers=0 may give better error trace.")


def _start(worker):
    """worker.start(), warning (as PyTorch) when its arguments cannot be pickled: the
    spawn / forkserver start methods send them to the new process."""
    from pickle import PicklingError
    try:
        worker.start()
    except (TypeError, AttributeError, PicklingError):
        warnings.warn("Got pickle error when attempting to start a worker Process. This might "
                      "be because the worker Process arguments are not picklable. Python 3.14+ "
                      "changed the multiprocessing start method in non-Mac POSIX platforms to "
                      "'forkserver', which requires the worker Process arguments to be "
                      "picklable. You can also try multiprocessing.set_start_method('fork').",
                      stacklevel=3)
        raise


class _DatasetKind:
    Map, Iterable = 0, 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        return _fetcher_class(kind)(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """The sampler of an iterable dataset: None forever (the dataset decides the end)."""

    def __iter__(self):
        while True:
            yield None


_FIXED_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                     "persistent_workers")


class DataLoader(Generic[_T_co]):
    """Iterates over `dataset` in batches: torch.utils.data.DataLoader's arguments,
    defaults and argument errors. shuffle draws a fresh permutation per epoch from
    `generator` (a mindtorch.Generator; the default generator when None): the same seed
    gives the same order on every run, PyTorch's order (the cpu generator draws
    PyTorch's numbers). num_workers > 0 loads in worker processes; pin_memory is accepted
    and does nothing (no accelerator to pin for)."""
    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to "
                             "disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset, self.num_workers = dataset, num_workers
        self.prefetch_factor, self.pin_memory = prefetch_factor, pin_memory
        self.pin_memory_device, self.timeout = pin_memory_device, timeout
        self.worker_init_fn, self.in_order = worker_init_fn, in_order
        self.multiprocessing_context = multiprocessing_context

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in (False, None):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle "
                                 f"option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler "
                                 f"option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size, self.drop_last = batch_size, drop_last
        self.sampler, self.batch_sampler, self.generator = sampler, batch_sampler, generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers == 0:
                raise ValueError(f"multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got "
                                 f"num_workers={self.num_workers}")
            import multiprocessing
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(f"multiprocessing_context option should specify a valid "
                                     f"start method in {methods!r}, but got "
                                     f"multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError(f"multiprocessing_context option should be a valid context "
                                f"object or a string specifying the start method, but got "
                                f"multiprocessing_context={context}")
        self.__multiprocessing_context = context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in _FIXED_AFTER_INIT:
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    def __iter__(self):
        if not (self.persistent_workers and self.num_workers > 0):
            return self._get_iterator()
        if self._iterator is None:
            self._iterator = self._get_iterator()
        else:
            self._iterator._reset(self)
        return self._iterator

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = (length // self.batch_size if self.drop_last
                          else math.ceil(length / self.batch_size))
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        if not self.num_workers:
            return
        checked = hasattr(os, "sched_getaffinity")
        suggest = len(os.sched_getaffinity(0)) if checked else os.cpu_count()
        if suggest is not None and self.num_workers <= suggest:
            return
        advice = ("DataLoader is not able to compute a suggested max number of worker in "
                  "current system." if suggest is None else
                  f"Our suggested max number of worker in current system is {suggest}"
                  f"{'' if checked else ' (`cpuset` is not taken into account)'}, which is "
                  f"smaller than what this DataLoader is going to create.")
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in "
                      f"total. {advice} Please be aware that excessive worker creation might "
                      f"get DataLoader running slow or even freeze, lower the worker number to "
                      f"avoid potential slowness/freeze if necessary.", stacklevel=2)


class _BaseDataLoaderIter:
    def __init__(self, loader):
        from ... import empty, int64
        self._dataset, self._dataset_kind = loader.dataset, loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation, self._drop_last = loader._auto_collation, loader.drop_last
        self._index_sampler, self._num_workers = loader._index_sampler, loader.num_workers
        self._timeout, self._collate_fn = loader.timeout, loader.collate_fn
        self._persistent_workers = loader.persistent_workers
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn("pin_memory_device is deprecated, the current accelerator will be "
                          f"used as the device,ignore pin_memory_device="
                          f"'{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory:  # no accelerator here: accepted, nothing to pin
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._sampler_iter = iter(self._index_sampler)
        # drawn as PyTorch does (before the sampler's first draw), for the workers' seeds
        self._base_seed = int(empty((), dtype=int64).random_(generator=loader.generator).item())
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        reported = self._IterableDataset_len_called
        if (self._dataset_kind == _DatasetKind.Iterable and reported is not None
                and self._num_yielded > reported):
            msg = (f"Length of IterableDataset {self._dataset} was reported to be {reported}"
                   f"(when accessing len(dataloader)), but {self._num_yielded} samples have "
                   f"been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly "
                        "configuring the IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html"
                        "#torch.utils.data.IterableDataset for examples.")
            warnings.warn(msg, stacklevel=2)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        # (PyTorch's message is a format string and the name as two arguments)
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


def _fetcher_class(kind):
    return (_fetch._IterableDatasetFetcher if kind == _DatasetKind.Iterable
            else _fetch._MapDatasetFetcher)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        self._dataset_fetcher = _fetcher_class(self._dataset_kind)(
            self._dataset, self._auto_collation, self._collate_fn, self._drop_last)

    def _next_data(self):
        return self._dataset_fetcher.fetch(self._next_index())


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Tasks (batch number, indices) go round-robin to the workers' index queues, at most
    prefetch_factor per worker ahead; results come back on one queue in any order and are
    handed out in batch order."""

    def __init__(self, loader):
        super().__init__(loader)
        if loader.prefetch_factor <= 0:  # (checked after the base seed's draw, as PyTorch)
            raise AssertionError("prefetch_factor must be greater than 0 for "
                                 "MultiProcessingDataLoaderIter")
        import multiprocessing
        ctx = loader.multiprocessing_context or multiprocessing.get_context()
        self._prefetch, self._in_order = loader.prefetch_factor, loader.in_order
        self._result_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._index_queues, self._workers = [], []
        self._shutdown = False
        fetcher = _fetcher_class(self._dataset_kind)
        for wid in range(self._num_workers):
            q = ctx.Queue()
            q.cancel_join_thread()  # never block exit on undelivered tasks
            w = ctx.Process(target=_worker.worker_loop, daemon=True, args=(
                fetcher, self._dataset, q, self._result_queue, self._done_event,
                self._auto_collation, self._collate_fn, self._drop_last, self._base_seed,
                loader.worker_init_fn, wid, self._num_workers))
            _start(w)
            self._index_queues.append(q)
            self._workers.append(w)
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = self._rcvd_idx = 0
        self._task_info = {}       # batch number -> (worker id,) or (worker id, data)
        self._active = [True] * self._num_workers
        self._tasks = [0] * self._num_workers  # per worker: tasks sent, results not handed out
        self._cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:  # persistent workers: restart them, drop the old epoch's results
            for q in self._index_queues:
                q.put(_worker._ResumeIteration())
            pending = self._num_workers
            while pending:
                tag, _ = self._get_data()
                pending -= isinstance(tag, _worker._ResumeIteration)
        for _ in range(self._prefetch * self._num_workers):
            self._try_put_index()

    def _try_put_index(self):
        try:
            index = self._next_index()
        except StopIteration:
            return
        active = sum(self._active)
        # in_order=False: a worker holding its share of the prefetch budget is skipped, so
        # that a slow sample does not hold up the batches queued behind it (PyTorch's rule)
        share = self._prefetch * self._num_workers // active if active else 0
        for _ in range(self._num_workers):
            wid = next(self._cycle)
            if self._active[wid] and (self._in_order or self._tasks[wid] < share):
                break
        else:
            return  # every worker's iterable dataset copy is exhausted (or all busy)
        self._index_queues[wid].put((self._send_idx, index))
        self._task_info[self._send_idx] = (wid,)
        self._tasks[wid] += 1
        self._send_idx += 1

    def _get_data(self):
        """The next (batch number, data) from any worker; errors for a timeout or a dead
        worker instead of waiting forever."""
        while True:
            try:
                idx, payload = self._result_queue.get(
                    timeout=self._timeout if self._timeout > 0 else _MAIN_POLL)
                return idx, (pickle.loads(payload) if payload is not None else None)
            except queue.Empty:
                if self._timeout > 0:
                    self._shutdown_workers()
                    raise RuntimeError(f"DataLoader timed out after {self._timeout} "
                                       f"seconds") from None
                dead = [w for w, on in zip(self._workers, self._active)
                        if on and not w.is_alive()]
                if dead:
                    self._shutdown_workers()
                    pids = ", ".join(str(w.pid) for w in dead)
                    raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited "
                                       f"unexpectedly") from _death_cause(dead[0])

    def _next_data(self):
        while True:
            # skip batches that workers whose data ran out will never produce
            while self._rcvd_idx < self._send_idx:
                info = self._task_info.get(self._rcvd_idx)
                if info is not None and (len(info) == 2 or self._active[info[0]]):
                    break
                self._task_info.pop(self._rcvd_idx, None)
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            info = self._task_info[self._rcvd_idx]
            if len(info) == 2:
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
                return self._process(*info)
            idx, data = self._get_data()
            if isinstance(data, _worker._IterableDatasetStopIteration):
                self._retire(data.worker_id)
                self._try_put_index()
            elif idx != self._rcvd_idx:
                if not self._in_order:  # in_order=False: hand out whatever arrives first
                    return self._process(self._task_info.pop(idx)[0], data)
                self._task_info[idx] += (data,)
            else:
                self._rcvd_idx += 1
                return self._process(self._task_info.pop(idx)[0], data)

    def _retire(self, wid):
        self._active[wid] = False
        if not self._persistent_workers:
            self._index_queues[wid].put(None)

    def _process(self, wid, data):
        self._tasks[wid] -= 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            self._shutdown_workers()
            data.reraise()
        return data

    def _shutdown_workers(self):
        if self._shutdown:
            return
        self._shutdown = True
        self._done_event.set()
        for q in self._index_queues:
            q.put(None)
        for w in self._workers:
            w.join(timeout=5)
            if w.is_alive():
                w.terminate()
                w.join()
        for q in self._index_queues + [self._result_queue]:
            q.cancel_join_thread()
            q.close()

    def __del__(self):
        if not getattr(self, "_shutdown", True):
            try:
                self._shutdown_workers()
            except Exception:  # interpreter shutdown: modules may be gone already
                pass
