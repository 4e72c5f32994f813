"""Regression tests for QA round 13d (torch.utils.data as user programs exercise it:
loaders with workers, random streams, collation, datasets, samplers), each against torch."""
import gc
import os
import re
import sys
import warnings

import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and message are compared
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("weights", [[1.0, -2.0], [1.0, float("nan")], [1.0, float("inf")],
                                     [[0.0, 0.0], [1.0, -2.0]], [[1.0, 1.0], [1.0, -2.0]],
                                     [[1.0, float("inf")], [-1.0, 1.0]], [0.0, 0.0]])
@pytest.mark.parametrize("replacement,n", [(True, 1), (True, 3), (False, 1)])
def test_multinomial_invalid_distribution_messages(weights, replacement, n):
    """With replacement and several samples PyTorch checks row by row, entry by entry
    (WeightedRandomSampler's negative weights)."""
    same_outcome(lambda L: _error(lambda: L.multinomial(L.tensor(weights), n, replacement)))


def test_weighted_sampler_negative_weight_message():
    same_outcome(lambda L: _error(lambda: list(L.utils.data.WeightedRandomSampler([1, -2], 3))))


def test_prefetch_factor_zero_fails_when_iterated():
    def program(L):
        L.manual_seed(0)
        loader = L.utils.data.DataLoader(L.utils.data.TensorDataset(L.arange(4)),
                                         num_workers=1, prefetch_factor=0)
        # (PyTorch's __del__ of its half-made iterator raises AttributeError whenever the
        # iterator is collected: swallowed here, and collected before the hook returns)
        hook, sys.unraisablehook = sys.unraisablehook, lambda unraisable: None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                err = _error(lambda: iter(loader))
            gc.collect()
        finally:
            sys.unraisablehook = hook
        return err, L.randint(0, 10**6, (2,)).tolist()  # the base seed was drawn first
    same_outcome(program)


def test_pickling_a_loader_iterator_message():
    import pickle
    same_outcome(lambda L: _error(lambda: pickle.dumps(iter(L.utils.data.DataLoader([1, 2])))))


class _Dies(torch.utils.data.Dataset):
    def __init__(self, exit_code):
        self.exit_code = exit_code

    def __len__(self):
        return 2

    def __getitem__(self, i):
        if self.exit_code is None:
            import signal
            os.kill(os.getpid(), signal.SIGKILL)
        os._exit(self.exit_code)


@pytest.mark.parametrize("exit_code", [3, None])
def test_dead_worker_error_chains_the_reason(exit_code):
    """The "exited unexpectedly" error's cause says how the worker died (exit code or
    signal), as PyTorch's SIGCHLD handler reports it."""
    def program(L):
        loader = L.utils.data.DataLoader(_Dies(exit_code), num_workers=1,
                                         multiprocessing_context="fork")
        try:
            list(loader)
        except RuntimeError as e:
            strip = lambda s: re.sub(r"\d{3,}", "PID", str(s))
            return strip(e), type(e.__cause__).__name__, strip(e.__cause__)
    same_outcome(program)


def test_cummulative_sizes_future_warning():
    def program(L):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            sizes = L.utils.data.ConcatDataset([[1], [2, 3]]).cummulative_sizes
        return sizes, [(x.category.__name__, str(x.message)) for x in w]
    same_outcome(program)


@pytest.mark.parametrize("dim", [0, -1, 1, -2])
def test_size_and_stride_of_0d_tensor_message(dim):
    """TensorDataset(0-d tensor) fails with this message too."""
    same_outcome(lambda L: (_error(lambda: L.tensor(1).size(dim)),
                            _error(lambda: L.tensor(1).stride(dim)),
                            _error(lambda: L.utils.data.TensorDataset(L.tensor(1)))))


class _Mixed(torch.utils.data.Dataset):
    """Samples whose tensors differ in dtype or in requires_grad from one to the next."""
    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 4

    def __getitem__(self, i):
        lib = mindtorch if self.kind.startswith("mt") else torch
        kind = self.kind[3:]
        if kind == "int-float":
            return lib.tensor([i]) if i % 2 == 0 else lib.tensor([i + 0.5])
        if kind == "float-int":
            return lib.tensor([i + 0.5]) if i % 2 == 0 else lib.tensor([i])
        if kind == "i8-i64":
            return lib.tensor([i * 100], dtype=lib.int8 if i % 2 == 0 else lib.int64)
        return lib.ones(2, requires_grad=(i == 1))


@pytest.mark.parametrize("kind", ["int-float", "float-int", "i8-i64", "grad"])
@pytest.mark.parametrize("num_workers", [0, 1])
def test_worker_collation_stacks_into_the_first_samples_dtype(kind, num_workers):
    """In a worker default_collate stacks into a buffer of the first sample's dtype (out=):
    other dtypes cast to it or fail; samples requiring grad fail."""
    def program(L):
        prefix = "mt_" if L is mindtorch else "th_"
        loader = L.utils.data.DataLoader(
            _Mixed(prefix + kind), batch_size=2, num_workers=num_workers,
            **({"multiprocessing_context": "fork"} if num_workers else {}))
        try:
            return [(b.tolist(), str(b.dtype), b.requires_grad) for b in loader]
        except Exception as e:  # noqa: BLE001 - the class and message are compared
            lines = str(e).splitlines()
            return type(e).__name__, lines[0], lines[-1]
    same_outcome(program)


def _lambda_collate_under_spawn(L):
    loader = L.utils.data.DataLoader([1, 2], num_workers=1, multiprocessing_context="spawn",
                                     collate_fn=lambda b: b)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        err = _error(lambda: iter(loader))
    return err[0], [(x.category.__name__, str(x.message)) for x in w]


def test_unpicklable_worker_arguments_warn():
    same_outcome(_lambda_collate_under_spawn)


def test_fetch_module_fetchers():
    """torch.utils.data._utils.fetch's fetchers (used by custom loaders) as PyTorch's."""
    def program(L):
        import importlib
        fetch = importlib.import_module(L.__name__ + ".utils.data._utils.fetch")
        collate = L.utils.data.default_collate
        ds = L.utils.data.TensorDataset(L.arange(6), L.arange(6) * 2.0)
        mapped = fetch._MapDatasetFetcher(ds, True, collate, False).fetch([4, 1])
        single = fetch._MapDatasetFetcher(ds, False, lambda x: x, False).fetch(2)
        it = fetch._IterableDatasetFetcher(range(5), True, collate, True)
        batches = [it.fetch([None] * 2).tolist(), it.fetch([None] * 2).tolist()]
        ended = _error(lambda: it.fetch([None] * 2))
        flags = L.utils.data._utils.IS_WINDOWS, L.utils.data._utils.HAS_NUMPY
        return ([x.tolist() for x in mapped], [x.tolist() for x in single], batches, ended,
                issubclass(fetch._MapDatasetFetcher, fetch._BaseDatasetFetcher), flags)
    same_outcome(program)


def test_worker_seeds_numpy_even_before_numpy_is_imported():
    """A spawned worker whose dataset imports NumPy only in __getitem__ draws PyTorch's
    NumPy numbers: the worker seeds NumPy whether or not it was loaded yet."""
    import subprocess
    import sys

    import numpy as np
    script = ("import sys\nfrom mindtorch.utils.data._utils import worker\n"
              "assert 'numpy' not in sys.modules\nworker._seed_everything(123456789012, 1)\n"
              "import numpy as np\nprint(repr(np.random.rand()))\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    ours = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()
    state = torch.utils.data._utils.worker._generate_state(123456789012, 1)
    assert ours == repr(np.random.RandomState(state).rand())


class _SlowFirst(torch.utils.data.Dataset):
    """Sample 0 waits until the loop has received the last one (an event shared with the
    forked workers, set by the loop: the order does not depend on the machine's load, as a
    sleep's, or an event set by the worker before sending its sample, did)."""
    def __init__(self):
        import multiprocessing
        self.last_received = multiprocessing.get_context("fork").Event()

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == 0:
            self.last_received.wait(timeout=30)
        return i


def test_out_of_order_loading_skips_the_busy_worker():
    """in_order=False: new indices go to workers with prefetch budget left, so the fast
    worker serves everything queued behind the slow sample (PyTorch's order)."""
    def program(L):
        dataset = _SlowFirst()
        loader = L.utils.data.DataLoader(dataset, batch_size=None, num_workers=2,
                                         in_order=False, prefetch_factor=1,
                                         multiprocessing_context="fork")
        received = []
        for x in loader:
            received.append(int(x))
            if received[-1] == 5:
                dataset.last_received.set()
        return received
    assert same_outcome(program) == [1, 2, 3, 4, 5, 0]


@pytest.mark.parametrize("sampler", [[0, 2], [0, 1.0], [True, False], [0, 5]])
@pytest.mark.parametrize("requires_grad", [False, True])
def test_tensor_dataset_batches_as_rows_stacked(sampler, requires_grad):
    """A TensorDataset batch is its rows stacked: float / bool indices fail or select as
    single rows do, and rows requiring grad give StackBackward0."""
    def program(L):
        x = L.arange(6.0).reshape(3, 2).requires_grad_(requires_grad)
        loader = L.utils.data.DataLoader(L.utils.data.TensorDataset(x), sampler=sampler,
                                         batch_size=2)
        try:
            return [(b.tolist(), b.requires_grad, type(b.grad_fn).__name__)
                    for (b,) in loader]
        except Exception as e:  # noqa: BLE001 - the class and message are compared
            return type(e).__name__, str(e)
    same_outcome(program)


def test_tensor_dataset_requiring_grad_fails_in_a_worker():
    def program(L):
        ds = L.utils.data.TensorDataset(L.ones(4, 1, requires_grad=True))
        loader = L.utils.data.DataLoader(ds, batch_size=2, num_workers=1,
                                         multiprocessing_context="fork")
        err = _error(lambda: list(loader))
        return err[0], err[1].splitlines()[-1]
    same_outcome(program)


class _NonLeaf(torch.utils.data.Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return {"x": [mindtorch.ones(2, requires_grad=True) * 2]}


def test_worker_refuses_to_send_a_non_leaf_requiring_grad():
    """PyTorch's multiprocessing tensor reduction refuses such a tensor (its loader then
    hangs); here the worker reports that error for the batch."""
    from torch.multiprocessing import reductions
    expected = _error(lambda: reductions.reduce_tensor(torch.ones(2, requires_grad=True) * 2))
    loader = mindtorch.utils.data.DataLoader(_NonLeaf(), batch_size=None, num_workers=1,
                                             multiprocessing_context="fork")
    err = _error(lambda: list(loader))
    assert err[0] == expected[0]
    assert err[1].startswith("Caught RuntimeError in DataLoader worker process 0.")
    assert err[1].splitlines()[-1] == f"RuntimeError: {expected[1]}"


class _Permuted(torch.utils.data.Dataset):
    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 2

    def __getitem__(self, i):
        images = self.lib.arange(48.0).reshape(2, 4, 3, 2)
        return {"chw": images[i].permute(2, 0, 1), "t": images[i, 0].t()}


def test_dense_views_from_workers_keep_their_strides():
    def program(L):
        loader = L.utils.data.DataLoader(_Permuted(L), batch_size=None, num_workers=1,
                                         multiprocessing_context="fork")
        return [(k, b[k].stride(), b[k].is_contiguous(), b[k].tolist())
                for b in loader for k in sorted(b)]
    same_outcome(program)


def test_dataset_kind_creates_fetchers():
    def program(L):
        kind = L.utils.data.dataloader._DatasetKind
        fetcher = kind.create_fetcher(kind.Map, [[1, 2], [3, 4]], True,
                                      L.utils.data.default_collate, False)
        items = kind.create_fetcher(kind.Iterable, range(3), False, lambda x: x * 10, False)
        return [t.tolist() for t in fetcher.fetch([1, 0])], items.fetch(None), \
            type(items).__name__
    same_outcome(program)


class _Threads(torch.utils.data.Dataset):
    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return 1

    def __getitem__(self, i):
        return self.lib.get_num_threads()


def test_workers_run_on_one_thread():
    def program(L):
        before = L.get_num_threads()
        L.set_num_threads(2)
        try:
            loader = L.utils.data.DataLoader(_Threads(L), batch_size=None, num_workers=1,
                                             multiprocessing_context="fork")
            return list(loader), L.get_num_threads()
        finally:
            L.set_num_threads(before)
    assert same_outcome(program) == ([1], 2)


class _TensorThenInt(torch.utils.data.Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        return mindtorch.ones(1) if i == 0 else 1


def test_worker_collation_of_a_tensor_then_a_number_fails_as_pytorch():
    loader = mindtorch.utils.data.DataLoader(_TensorThenInt(), batch_size=2, num_workers=1,
                                             multiprocessing_context="fork")
    err = _error(lambda: list(loader))
    assert err[0] == "AttributeError"  # PyTorch's worker asks every sample for its numel
    assert err[1].splitlines()[-1] == "AttributeError: 'int' object has no attribute 'numel'"


_GENERIC_NAMES = ["DataLoader", "Dataset", "IterableDataset", "TensorDataset", "ConcatDataset",
                  "ChainDataset", "Subset", "StackDataset", "Sampler", "SequentialSampler",
                  "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
                  "BatchSampler", "DistributedSampler"]


def test_data_classes_take_type_arguments_as_pytorch():
    """DataLoader[Tensor] in an annotation works; samplers of ints are not generic."""
    def program(L):
        out = []
        for name in _GENERIC_NAMES:
            cls = getattr(L.utils.data, name)
            err = _error(lambda cls=cls: cls[int])
            out.append((name, err and err[0]))

        class Pairs(L.utils.data.Dataset[tuple]):
            def __len__(self):
                return 2

            def __getitem__(self, i):
                return i, -i

        class Stream(L.utils.data.IterableDataset[int]):
            def __iter__(self):
                return iter([1, 2])

        rows = [[t.tolist() for t in b] for b in L.utils.data.DataLoader[int](Pairs())]
        mro = [c.__name__ for c in Stream.__mro__]
        return out, rows, [t.tolist() for t in L.utils.data.DataLoader(Stream())], mro
    same_outcome(program)


@pytest.mark.parametrize("fn", ["tensor", "as_tensor"])
@pytest.mark.parametrize("items", ["[np.int8(1), np.array(2, np.int8)]", "[1, np.array(2)]",
                                   "[np.array(1), np.array(2)]", "[[1], np.array([2])]",
                                   "[[np.array([1])], [np.array([2])]]", "[np.array([1.5])]",
                                   "[[1, 2], [np.array(3), 4]]", "[np.float32(1), 2.0]"])
def test_list_holding_numpy_arrays_warns_as_pytorch(fn, items):
    """"Creating a tensor from a list of numpy.ndarrays is extremely slow" for an array
    anywhere in the nest (default_collate of numpy scalars next to 0-d arrays), not when
    a 0-d array's len() fails first."""
    import numpy as np

    def program(L):
        before = L.is_warn_always_enabled()
        L.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                result = _error(lambda: getattr(L, fn)(eval(items, {"np": np}))) or "ok"
            return result, {str(x.message)[:40] for x in w}  # (PyTorch: once per list)
        finally:
            L.set_warn_always(before)
    same_outcome(program)
