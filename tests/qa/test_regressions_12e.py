"""Regression tests for QA round 12e (issue 5's surface: nn.Module, Parameter, serialization,
safetensors), each against torch."""
import copy
import pickle

import mindtorch
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def test_module_to_invalid_arguments_message():
    def program(L):
        try:
            L.nn.Linear(1, 1).to(1, 2, 3, 4)
        except TypeError as e:
            return str(e)
    assert same_outcome(program).endswith(")\n")


@pytest.mark.parametrize("how", ["pickle", "deepcopy", "copy"])
@pytest.mark.parametrize("kind", ["tensor", "parameter"])
def test_user_attributes_survive_pickling(how, kind):
    def program(L):
        t = L.ones(2) if kind == "tensor" else L.nn.Parameter(L.ones(2), requires_grad=False)
        t.note = {"k": 3}
        new = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy,
               "copy": copy.copy}[how](t)
        return type(new).__name__, getattr(new, "note", None), new.requires_grad, new.tolist()
    same_outcome(program)


class Sub(mindtorch.Tensor):
    pass


def test_subclass_with_attributes_pickles():
    t = mindtorch.ones(2).as_subclass(Sub)
    t.note = 5
    new = pickle.loads(pickle.dumps(t))
    assert type(new) is Sub and new.note == 5


def _st(L):
    import importlib
    return importlib.import_module("safetensors.torch" if L is torch else "mindtorch.utils.safetensors")


def test_safetensors_load_file_keeps_the_file_order(tmp_path):
    def program(L):
        path = str(tmp_path / f"{L.__name__}.safetensors")
        _st(L).save_file({"z": L.empty(0), "y": L.ones(1), "b": L.ones(0), "u": L.ones(1, dtype=L.float64),
                          "c": L.ones(2, dtype=L.int8), "d": L.empty(0, dtype=L.int8),
                          "a": L.ones(2, dtype=L.bfloat16)}, path)
        return list(_st(L).load_file(path))
    same_outcome(program)


def test_safetensors_refuses_sparse_and_missing_files(tmp_path):
    def program(L):
        out = []
        for fn in (lambda: _st(L).save_file({"a": L.eye(2).to_sparse(), "b": L.ones(1)},
                                            str(tmp_path / "s")),
                   lambda: _st(L).load_file(str(tmp_path / "missing"))):
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - the class and message are compared
                out.append((type(e).__name__, str(e)))
        return out
    same_outcome(program)


def test_serialization_config_module(tmp_path):
    import importlib
    import io
    import zipfile

    def program(L):
        config = importlib.import_module(L.__name__ + ".utils.serialization.config")
        assert L.utils.serialization.config is config
        defaults = (config.load.mmap, config.load.endianness, config.load.mmap_flags,
                    config.save.compute_crc32, config.save.storage_alignment)
        path = str(tmp_path / f"{L.__name__}.pt")
        config.save.storage_alignment = 128
        try:
            L.save({"a": L.arange(3.)}, path)
        finally:
            config.save.storage_alignment = 64
        with zipfile.ZipFile(path) as zf:
            alignment = zf.read(zf.namelist()[0].split("/")[0] + "/.storage_alignment")
            data = next(i for i in zf.infolist() if i.filename.endswith("data/0"))
        config.load.mmap = True  # load(mmap=None) follows it
        try:
            loaded = L.load(path)["a"].tolist()
            buf = io.BytesIO()
            L.save(L.ones(1), buf)
            buf.seek(0)
            L.load(buf)
        except ValueError as e:
            error = str(e)
        finally:
            config.load.mmap = False
        with open(path, "rb") as fh:  # the local header: 30 bytes, then name and extra field
            fh.seek(data.header_offset + 26)
            lengths = fh.read(4)
        start = data.header_offset + 30 + int.from_bytes(lengths[:2], "little") + \
            int.from_bytes(lengths[2:], "little")
        return defaults, alignment, start % 128, loaded, error
    same_outcome(program)


SHARED_METHOD_CLASSES = ["ZeroPad2d", "ConstantPad1d", "ReflectionPad3d", "CircularPad2d",
                         "ReplicationPad1d", "BatchNorm2d", "LocalResponseNorm", "MaxUnpool2d",
                         "AvgPool3d", "FractionalMaxPool2d", "LazyConv2d", "LazyConvTranspose1d",
                         "Threshold", "ELU", "Hardtanh"]


@pytest.mark.parametrize("name", SHARED_METHOD_CLASSES)
@pytest.mark.parametrize("args,kwargs", [((), {}), ((1,) * 12, {}), ((), {"bogus": 1})])
def test_constructor_argument_errors_name_the_class(name, args, kwargs):
    same_outcome(lambda L: repr(getattr(L.nn, name)(*args, **kwargs)), quiet=True)


FORWARD_CLASSES = [("Conv2d", (1, 1, 1)), ("ConvTranspose1d", (1, 1, 1)), ("Dropout", ()),
                   ("FeatureAlphaDropout", ()), ("ReflectionPad2d", (1,)),
                   ("ReplicationPad3d", (1,)), ("FractionalMaxPool3d", (2,)),
                   ("LazyConv1d", (1, 1))]


@pytest.mark.parametrize("name,ctor", FORWARD_CLASSES)
@pytest.mark.parametrize("args,kwargs", [((), {}), ((1,) * 3, {}), ((None,), {"bogus": 1})])
def test_forward_argument_errors_name_the_class(name, ctor, args, kwargs):
    def program(L):
        kw = {"output_ratio": 0.5} if name.startswith("Fractional") else {}
        return getattr(L.nn, name)(*ctor, **kw)(*args, **kwargs)
    same_outcome(program, quiet=True)


@pytest.mark.parametrize("dtypes", [("long", "float"), ("long", "long"), ("int", "float"),
                                    ("float", "long"), ("bool", "bool")])
def test_binary_cross_entropy_checks_target_dtype_first(dtypes):
    def program(L):
        x, y = (getattr(L.full((2,), 0.5), d)() for d in dtypes)
        return L.nn.BCELoss()(x, y)
    same_outcome(program)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("dtype", ["long", "bool", "half", "float"])
@pytest.mark.parametrize("fn", ["rrelu", "rrelu_", "F.rrelu", "F.rrelu_inplace"])
def test_rrelu_dtype_refusals_by_mode(training, dtype, fn):
    def program(L):
        x = getattr(L.ones(2), dtype)()
        f = {"rrelu": L.rrelu, "rrelu_": L.rrelu_, "F.rrelu": L.nn.functional.rrelu,
             "F.rrelu_inplace": lambda x, training: L.nn.functional.rrelu(
                 x, training=training, inplace=True)}[fn]
        return f(x, training=training).dtype is x.dtype
    same_outcome(program)


def _own_untyped(L):
    x = L.arange(3.)
    return [x, x.untyped_storage()]


def _view_typed_and_base(L):
    x = L.arange(3, dtype=L.int16)
    return [x[1:], x.storage(), x]


STORAGE_OBJECTS = {
    "untyped": lambda L: L.arange(4.).untyped_storage(),
    "typed": lambda L: L.arange(4.).storage(),
    "tensor_and_untyped_other": lambda L: [L.arange(4.), L.arange(4.).untyped_storage()],
    "tensor_and_own_untyped": _own_untyped,
    "view_typed_and_base": _view_typed_and_base,
}


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("writer", ["mindtorch", "torch"])
@pytest.mark.parametrize("case", sorted(STORAGE_OBJECTS))
def test_saved_storages_load_as_typed_storages(case, writer, legacy):
    if legacy and "untyped" in case:
        pytest.skip("PyTorch's legacy reader fails on untyped storages (no dtype)")
    import io
    import warnings

    def program(L):
        W = mindtorch if writer == "mindtorch" else torch
        buf = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (TypedStorage's deprecation)
            W.save(STORAGE_OBJECTS[case](W), buf, _use_new_zipfile_serialization=not legacy)
            buf.seek(0)
            loaded = L.load(buf)
            items = loaded if isinstance(loaded, list) else [loaded]
            if case == "view_typed_and_base":
                items[2][2] = 9  # the view, the storage and the base share memory again
            return [(type(x).__name__, str(x.dtype), x.tolist()) for x in items]
    same_outcome(program)


CONJ_NEG_VIEWS = {
    "conj": lambda t: t.conj(),
    "neg_imag": lambda t: t.conj().imag,
    "conj_slice": lambda t: t.conj()[1:],
    "neg_of_neg": lambda t: t.conj().imag.neg(),
    "conj_requires_grad": lambda t: t.conj().requires_grad_(),
}


@pytest.mark.parametrize("view", sorted(CONJ_NEG_VIEWS))
def test_torch_checkpoints_of_conjugate_and_negative_views(view):
    import io
    buf = io.BytesIO()
    saved = CONJ_NEG_VIEWS[view](torch.tensor([1 + 2j, 3 - 1j]))
    torch.save({"v": saved, "layouts": [torch.strided, torch.sparse_coo]}, buf)
    for map_location in (None, "meta"):
        buf.seek(0)
        loaded = mindtorch.load(buf, map_location=map_location)
        v = loaded["v"]
        assert (tuple(v.shape), str(v.dtype), v.requires_grad) == \
            (tuple(saved.shape), str(saved.dtype), saved.requires_grad)
        if map_location is None:
            assert v.tolist() == saved.resolve_conj().resolve_neg().tolist()
        assert loaded["layouts"] == [mindtorch.strided, mindtorch.sparse_coo]
        assert [repr(x) for x in loaded["layouts"]] == ["torch.strided", "torch.sparse_coo"]


@pytest.mark.parametrize("kwargs", [{"pin_memory": True, "pin_memory_device": "cpu"},
                                    {"pin_memory": True}, {"pin_memory_device": "cpu"}])
def test_dataloader_pin_memory_device_deprecation(kwargs):
    import warnings

    def program(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            batches = [b.tolist() for b in L.utils.data.DataLoader(list(range(4)), batch_size=2,
                                                                    **kwargs)]
        return batches, [(w.category.__name__, str(w.message)) for w in caught]
    same_outcome(program)


@pytest.mark.parametrize("path", ["optim.lr_scheduler.CyclicLR", "optim.lr_scheduler.OneCycleLR",
                                  "nn.MultiheadAttention", "serialization.LoadEndianness",
                                  "serialization.set_default_mmap_options"])
def test_classes_live_where_pytorch_defines_them(path):
    import functools
    import pickle

    def program(L):
        cls = functools.reduce(getattr, path.split("."), L)
        return cls.__module__.replace("mindtorch", "torch"), cls.__qualname__
    same_outcome(program)
    w = mindtorch.nn.Parameter(mindtorch.ones(1))
    sched = mindtorch.optim.lr_scheduler.OneCycleLR(
        mindtorch.optim.SGD([w], lr=0.1, momentum=0.9), 1.0, total_steps=3)
    assert type(pickle.loads(pickle.dumps(sched))) is type(sched)


class _MyParameter(mindtorch.nn.Parameter):
    pass


class _TorchMyParameter(torch.nn.Parameter):
    pass


@pytest.mark.parametrize("requires_grad", [True, False])
def test_parameter_subclass_repr(requires_grad):
    def program(L):
        cls = _MyParameter if L is mindtorch else _TorchMyParameter
        p = cls(L.ones(2), requires_grad=requires_grad)
        return repr(p).replace("_TorchMyParameter", "_MyParameter"), str(p).replace("_Torch", "_")
    same_outcome(program)


class _SevenItems(mindtorch.utils.data.IterableDataset):
    def __iter__(self):
        return iter(range(7))

    def __len__(self):
        return 4

    def __repr__(self):
        return "SevenItems"


class _TorchSevenItems(torch.utils.data.IterableDataset):
    __iter__, __len__, __repr__ = _SevenItems.__iter__, _SevenItems.__len__, _SevenItems.__repr__


@pytest.mark.parametrize("num_workers", [0, 2])
def test_iterable_dataset_length_warning(num_workers):
    import warnings

    def program(L):
        ds = _SevenItems() if L is mindtorch else _TorchSevenItems()
        loader = L.utils.data.DataLoader(ds, batch_size=2, num_workers=num_workers)
        n = len(loader)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            batches = [b.tolist() for b in loader]
        return n, sorted(batches), [str(w.message) for w in caught]
    same_outcome(program)


class SafeFoo:
    pass


class SafeBar:
    pass


SAFE_ENTRIES = {
    "classes": [SafeFoo, SafeBar],
    "named_pairs": [(SafeFoo, f"{__name__}.SafeFoo"), (SafeBar, f"{__name__}.SafeBar")],
    "long_tuple": [(SafeFoo, f"{__name__}.SafeFoo", 1), SafeBar],
    "name_not_str": [(SafeFoo, 3), SafeBar],
    "not_a_class": [1, SafeFoo, SafeBar],
    "one_missing": [SafeFoo],
}


@pytest.mark.parametrize("case", sorted(SAFE_ENTRIES))
def test_add_safe_globals_entries_checked_at_load(case):
    import io

    def program(L):
        S = L.serialization
        S.clear_safe_globals()
        buf = io.BytesIO()
        L.save([SafeFoo(), SafeBar()], buf)
        buf.seek(0)
        try:
            S.add_safe_globals(SAFE_ENTRIES[case])
            listed = sorted(repr(x).split(" at ")[0] for x in S.get_safe_globals())
            try:
                loaded = [type(x).__name__ for x in L.load(buf)]
            except Exception as e:  # noqa: BLE001 - the class and the message's end compared
                loaded = (type(e).__name__, str(e)[-150:])
            plain = io.BytesIO()  # (a file of allowlisted globals never reads the entries)
            L.save({"t": L.ones(1)}, plain)
            plain.seek(0)
            return listed, loaded, list(L.load(plain))
        finally:
            S.clear_safe_globals()
    same_outcome(program)


def test_skip_data(tmp_path):
    import io
    import warnings

    def program(L):
        S, path = L.serialization, str(tmp_path / f"{L.__name__}.pt")
        t = L.arange(6.).reshape(2, 3)
        with S.skip_data():
            L.save({"t": t, "v": t[1], "i": L.arange(3)}, path)
        written = {k: v.tolist() for k, v in L.load(path).items()}  # (zeros: the bytes' space)
        L.save({"t": t}, path)
        with S.skip_data():
            unread = L.load(path)["t"].shape
        out = [written, unread, L.load(path)["t"].tolist()]
        with S.skip_data(materialize_fake_tensors=True), \
                warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                L.save(t, io.BytesIO(), _use_new_zipfile_serialization=False)
            except RuntimeError as e:
                out.append(str(e))
            buf = io.BytesIO()
            L.save(L.ones(2, device="meta"), buf)
        buf.seek(0)
        return out, L.load(buf).shape, [str(w.message) for w in caught]
    same_outcome(program)


def test_serialization_module_names():
    import warnings

    def program(L):
        S = L.serialization
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=S.SourceChangeWarning)
            warnings.simplefilter("ignore")
            storage_type = S.normalize_storage_type(L.FloatStorage).__name__
        return ([getattr(S, n) for n in ["MAGIC_NUMBER", "PROTOCOL_VERSION", "DEFAULT_PROTOCOL",
                                         "STORAGE_KEY_SEPARATOR", "LONG_SIZE", "INT_SIZE",
                                         "SHORT_SIZE", "MAP_PRIVATE", "MAP_SHARED"]],
                S.SourceChangeWarning.__mro__[1:], storage_type)
    same_outcome(program)


TO_CALLS = {
    "memory_format_positional": lambda L: L.nn.Conv2d(1, 2, 2).to(L.channels_last),
    "tensor_memory_format_positional": lambda L: L.ones(1).to(L.channels_last),
    "layout_positional": lambda L: L.ones(1).to(L.strided),
    "memory_format_as_device": lambda L: L.ones(1).to(device=L.channels_last),
    "module_copy_keyword": lambda L: L.nn.Linear(2, 2).to(L.float64, copy=True),
    "module_copy_positional": lambda L: L.nn.Linear(2, 2).to(L.float64, False, True),
    "module_copy_false": lambda L: L.nn.Linear(2, 2).to("cpu", L.float64, False, False),
    "module_tensor_copy": lambda L: L.nn.Linear(2, 2).to(L.ones(1), copy=False),
}


@pytest.mark.parametrize("call", sorted(TO_CALLS))
def test_to_refuses_memory_formats_and_module_copy(call):
    same_outcome(lambda L: repr(TO_CALLS[call](L)), quiet=True)


REQUIRES_GRAD_CALLS = {
    "positional_int": lambda L: L.ones(1).requires_grad_(0),
    "keyword_int": lambda L: L.ones(1).requires_grad_(requires_grad=0),
    "module_keyword_int": lambda L: L.nn.Linear(1, 1).requires_grad_(requires_grad=0),
    "parameter_positional_int": lambda L: L.nn.Parameter(L.ones(1)).requires_grad_(0),
    "unknown_keyword": lambda L: L.ones(1).requires_grad_(foo=1),
    "keyword_and_unknown": lambda L: L.ones(1).requires_grad_(requires_grad=True, foo=2),
    "keyword_true": lambda L: L.ones(1).requires_grad_(requires_grad=True).requires_grad,
}


@pytest.mark.parametrize("call", sorted(REQUIRES_GRAD_CALLS))
def test_requires_grad_argument_errors(call):
    same_outcome(lambda L: repr(REQUIRES_GRAD_CALLS[call](L)))


@pytest.mark.parametrize("make", ["keyword_int", "positional_int", "none", "int_data", "no_data"])
def test_parameter_requires_grad_must_be_bool(make):
    def program(L):
        return repr({"keyword_int": lambda: L.nn.Parameter(L.ones(1), requires_grad=1),
                     "positional_int": lambda: L.nn.Parameter(L.ones(1), 0),
                     "none": lambda: L.nn.Parameter(L.ones(1), requires_grad=None),
                     "int_data": lambda: L.nn.Parameter(L.ones(1, dtype=L.int64), 1),
                     "no_data": lambda: L.nn.Parameter(None, 1)}[make]())
    same_outcome(program)


WRONG_TYPE_CALLS = {
    "elu_alpha": lambda L: L.nn.functional.elu(L.ones(1), alpha="x"),
    "relu_list": lambda L: L.nn.functional.relu([1.0]),
    "leaky_relu_ndarray": lambda L: L.nn.LeakyReLU()(__import__("numpy").ones(2)),
    "layer_norm_none": lambda L: L.nn.LayerNorm(2)(None),
    "kl_div_list": lambda L: L.nn.KLDivLoss()([1.0], L.ones(1)),
    "hinge_embedding_none": lambda L: L.nn.HingeEmbeddingLoss()(None, L.ones(1)),
    "adaptive_max_pool1d_list": lambda L: L.nn.AdaptiveMaxPool1d(2)([1.0]),
}


@pytest.mark.parametrize("call", sorted(WRONG_TYPE_CALLS))
def test_argument_type_errors_name_the_public_function(call):
    same_outcome(WRONG_TYPE_CALLS[call])


WRONG_INPUT_MODULES = {
    "mse": lambda L: L.nn.MSELoss(), "bce_logits": lambda L: L.nn.BCEWithLogitsLoss(),
    "adaptive_avg_pool2d": lambda L: L.nn.AdaptiveAvgPool2d((2, 2)),
    "dropout2d": lambda L: L.nn.Dropout2d(), "glu": lambda L: L.nn.GLU(),
    "softmax": lambda L: L.nn.Softmax(dim=1), "lp_pool1d": lambda L: L.nn.LPPool1d(2, 2),
    "embedding": lambda L: L.nn.Embedding(4, 2), "cross_entropy": lambda L: L.nn.CrossEntropyLoss(),
    "nll": lambda L: L.nn.NLLLoss(), "margin_ranking": lambda L: L.nn.MarginRankingLoss(),
    "max_unpool2d": lambda L: L.nn.MaxUnpool2d(2), "softmin": lambda L: L.nn.Softmin(0),
}


@pytest.mark.parametrize("kind", ["list", "ndarray", "none"])
@pytest.mark.parametrize("module", sorted(WRONG_INPUT_MODULES))
def test_modules_given_non_tensors_fail_as_pytorch(module, kind):
    import numpy as np

    def program(L):
        bad = {"list": [1.0, 2.0], "ndarray": np.ones((2, 3), np.float32), "none": None}[kind]
        m = WRONG_INPUT_MODULES[module](L)
        n_inputs = {"margin_ranking": 3, "max_unpool2d": 2}.get(module, 1 if module in (
            "adaptive_avg_pool2d", "dropout2d", "glu", "softmax", "lp_pool1d", "embedding",
            "softmin") else 2)
        return m(bad, *[L.ones(2)] * (n_inputs - 1))
    same_outcome(program, quiet=True)


RNN_UTIL_CALLS = {
    "pad_lists": lambda L: L.nn.utils.rnn.pad_sequence([[1, 2], [3]]),
    "pad_array": lambda L: L.nn.utils.rnn.pad_sequence(__import__("numpy").ones((2, 3))),
    "pad_second_list": lambda L: L.nn.utils.rnn.pad_sequence([L.ones(2), [3]]),
    "pack_list": lambda L: L.nn.utils.rnn.pack_padded_sequence([1, 2], [2]),
    "pack_list_unsorted": lambda L: L.nn.utils.rnn.pack_padded_sequence([1, 2], [2],
                                                                         enforce_sorted=False),
}


@pytest.mark.parametrize("call", sorted(RNN_UTIL_CALLS))
def test_rnn_utils_given_non_tensors(call):
    same_outcome(RNN_UTIL_CALLS[call])


@pytest.mark.parametrize("name", ["fractional_max_pool2d", "fractional_max_pool3d",
                                  "fractional_max_pool2d_with_indices",
                                  "fractional_max_pool3d_with_indices", "linear_cross_entropy"])
def test_functional_missing_arguments_name_pytorchs_function(name):
    same_outcome(lambda L: getattr(L.nn.functional, name)())
