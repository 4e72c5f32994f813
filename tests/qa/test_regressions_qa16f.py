"""Regression tests for QA round 16f (torch.save / torch.load both ways), each against torch."""
import io
import os
import pickle

import mindtorch
import numpy as np
import pytest

torch = pytest.importorskip("torch")


def _values(t):
    t = t.detach()
    if t.dtype.is_complex:
        return np.array(t.cpu().numpy())
    return np.array(t.double().cpu().numpy())


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the class and the message are compared
        return type(e).__name__, str(e).replace("mindtorch", "torch")


class _Marker:
    """A class the weights-only loader refuses unless allowlisted."""

    def __eq__(self, other):
        return type(other) is _Marker


@pytest.fixture
def env(monkeypatch):
    for name in ("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("variables, kwargs", [
    ({"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1"}, {}),
    ({"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "true"}, {"weights_only": True}),
    ({"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "yes"}, {"weights_only": False}),
    ({"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "0"}, {"weights_only": False}),
    ({"TORCH_FORCE_WEIGHTS_ONLY_LOAD": "1", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "Y"}, {}),
])
def test_weights_only_environment_variables(env, tmp_path, variables, kwargs):
    for name, value in variables.items():
        env.setenv(name, value)
    results = {}
    for lib in (mindtorch, torch):
        path = tmp_path / f"{lib.__name__}.pt"
        lib.save([_Marker(), lib.ones(2)], path)
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = _outcome(lambda lib=lib, path=path: lib.load(path, **kwargs))
        results[lib] = (got[0], got[1][0] if got[0] == "ok" else got[1],
                        [str(w.message) for w in caught])
    assert results[mindtorch] == results[torch]


@pytest.mark.parametrize("map_location", [None, "cpu", "device", {"cpu": "cpu"}, "callable"])
def test_load_of_a_safetensors_path_reads_it_with_safetensors(tmp_path, map_location):
    safetensors_torch = pytest.importorskip("safetensors.torch")
    path = tmp_path / "weights.safetensors"
    safetensors_torch.save_file({"w": torch.arange(6.0).reshape(2, 3),
                                 "b": torch.ones(2, dtype=torch.bfloat16)}, path)

    def load(lib):
        where = {"device": lib.device("cpu"),
                 "callable": lambda storage, location: storage}.get(map_location, map_location)
        return lib.load(str(path), map_location=where)
    ours, theirs = _outcome(lambda: load(mindtorch)), _outcome(lambda: load(torch))
    assert ours[0] == theirs[0]
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
        return
    assert list(ours[1]) == list(theirs[1])
    for k in theirs[1]:
        assert str(ours[1][k].dtype) == str(theirs[1][k].dtype)
        np.testing.assert_array_equal(_values(ours[1][k]), _values(theirs[1][k]))


def _torch_legacy_bytes(obj):
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=False)
    return buf.getvalue()


@pytest.mark.parametrize("build", [
    lambda z: z.conj(),
    lambda z: [z, z.conj()],
    lambda z: {"c": z.conj(), "neg": z.conj().imag.clone().conj()},
    lambda z: z.conj().imag,
])
@pytest.mark.parametrize("map_location", [None, "meta"])
def test_conj_views_of_torchs_legacy_format_keep_their_values(build, map_location):
    z = torch.tensor([1 + 2j, 3 - 4j, -5.5 + 0.25j])
    expected = build(z)
    loaded = mindtorch.load(io.BytesIO(_torch_legacy_bytes(expected)),
                            map_location=map_location)
    flat_e = expected if isinstance(expected, list) else list(expected.values()) \
        if isinstance(expected, dict) else [expected]
    flat_l = loaded if isinstance(loaded, list) else list(loaded.values()) \
        if isinstance(loaded, dict) else [loaded]
    for m, t in zip(flat_l, flat_e):
        assert str(m.dtype) == str(t.dtype) and tuple(m.shape) == tuple(t.shape)
        if map_location is None:
            np.testing.assert_array_equal(_values(m), _values(t.resolve_conj().resolve_neg()))


def _after_pickles(data):
    """What follows a legacy checkpoint's five pickles: its storages' counts and bytes."""
    import pickletools
    f = io.BytesIO(data)
    for _ in range(5):
        for _ in pickletools.genops(f):
            pass
    return f.read()


@pytest.mark.parametrize("build", [
    lambda L: L.ones(2, dtype=L.uint16),
    lambda L: {"f8": L.tensor([1.0, -2.5]).to(L.float8_e4m3fn)},  # (one storage: PyTorch
    # orders several by their keys, which are object ids)
    lambda L: L.arange(3.0).untyped_storage(),
])
def test_legacy_format_of_dtypes_without_a_storage_class(build):
    """PyTorch writes such storages' byte counts (and cannot read them back); mindtorch
    writes the same bytes and reads either file."""
    def legacy_bytes(lib):
        buf = io.BytesIO()
        lib.save(build(lib), buf, _use_new_zipfile_serialization=False)
        return buf.getvalue()
    ours, theirs = legacy_bytes(mindtorch), legacy_bytes(torch)
    assert _after_pickles(ours) == _after_pickles(theirs)
    expected = build(mindtorch)
    for data in (ours, theirs):
        loaded = mindtorch.load(io.BytesIO(data))
        if isinstance(expected, dict):
            for k in expected:
                assert loaded[k].dtype == expected[k].dtype
                assert loaded[k].float().tolist() == expected[k].float().tolist()
        elif isinstance(expected, mindtorch.Tensor):
            assert loaded.dtype == expected.dtype and loaded.tolist() == expected.tolist()
        else:
            assert loaded.nbytes() == expected.nbytes() and bytes(loaded.untyped()) == \
                bytes(expected)


def test_protocol_0_checkpoints_fail_to_load_as_torchs():
    def run(lib):
        buf = io.BytesIO()
        lib.save({"x": lib.ones(2)}, buf, pickle_protocol=0)
        buf.seek(0)
        return lib.load(buf, weights_only=False)
    assert _outcome(lambda: run(mindtorch)) == _outcome(lambda: run(torch))


def test_environment_flag_values_are_pytorchs(env, tmp_path):
    env.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "on")  # (not one of PyTorch's values)
    for lib in (mindtorch, torch):
        lib.save([_Marker()], tmp_path / "m.pt")
        with pytest.raises(pickle.UnpicklingError):
            lib.load(tmp_path / "m.pt")
    assert os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] == "on"


def _tagged_bytes_of(obj, tag, legacy):
    import torch.serialization as ts
    real = ts.location_tag
    ts.location_tag = lambda storage: tag
    try:
        buf = io.BytesIO()
        torch.save(obj, buf, _use_new_zipfile_serialization=not legacy)
    finally:
        ts.location_tag = real
    return buf.getvalue()


def _tagged_bytes(tag, legacy):
    """A torch checkpoint whose storages are tagged `tag` (as if saved on that device)."""
    return _tagged_bytes_of({"x": torch.arange(4.0)}, tag, legacy)


@pytest.mark.parametrize("tag", ["xpu", "xpu:1", "hpu:0", "mtia", "mps:0", "ipu", "npu:0",
                                 "privateuseone", "vulkan", "cuda:1", "cpu:1"])
@pytest.mark.parametrize("legacy", [False, True])
def test_storages_tagged_with_a_device_without_backend_fail_as_torchs(tag, legacy):
    data = _tagged_bytes(tag, legacy)
    assert _outcome(lambda: mindtorch.load(io.BytesIO(data))) == \
        _outcome(lambda: torch.load(io.BytesIO(data)))
    loaded = mindtorch.load(io.BytesIO(data), map_location="cpu")
    assert loaded["x"].tolist() == [0.0, 1.0, 2.0, 3.0]


def _with_data_pkl(data_pkl):
    """A torch checkpoint (one float storage of 4 elements, data/0) with its data.pkl
    replaced by these bytes."""
    import zipfile
    buf = io.BytesIO()
    torch.save({"x": torch.arange(4.0)}, buf)
    source = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for name in source.namelist():
            z.writestr(name, data_pkl if name.endswith("data.pkl") else source.read(name))
    return out.getvalue()


def _global(module, name):
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _text(s):
    return b"X" + len(s.encode()).to_bytes(4, "little") + s.encode()


def _storage_pid(*fields):
    return b"(" + _text("storage") + b"".join(fields) + b"tQ"


_FLOAT_STORAGE = _global("torch", "FloatStorage")
_HAND_WRITTEN = {
    "setitem_on_list": b"]K\x01K\x02s.",
    "setitems_on_list": b"](K\x01K\x02u.",
    "append_to_dict": b"}K\x01a.",
    "appends_to_dict": b"}(K\x01e.",
    "reduce_of_an_int": b"K\x01)R.",
    "reduce_on_empty_stack": b"R.",
    "newobj_of_an_int": b"K\x01)\x81.",
    "pid_not_a_tuple": _text("foo") + b"Q.",
    "pid_of_a_module": b"(" + _text("module") + b"tQ.",
    "pid_too_short": _storage_pid(_FLOAT_STORAGE),
    "pid_too_long": _storage_pid(_FLOAT_STORAGE, _text("0"), _text("cpu"), b"K\x04K\x00") + b".",
    "pid_missing_record": _storage_pid(_FLOAT_STORAGE, _text("7"), _text("cpu"), b"K\x04") + b".",
    "record_longer": _storage_pid(_FLOAT_STORAGE, _text("0"), _text("cpu"), b"K\x02") + b".",
    "record_shorter": _storage_pid(_FLOAT_STORAGE, _text("0"), _text("cpu"), b"K\x09") + b".",
    "allowed_reduce": _global("collections", "OrderedDict") + b")R.",
}


@pytest.mark.parametrize("name", list(_HAND_WRITTEN))
@pytest.mark.parametrize("weights_only", [True, False])
def test_hand_written_pickles_fail_as_torchs(name, weights_only):
    data = _with_data_pkl(b"\x80\x02" + _HAND_WRITTEN[name])

    def load(lib):
        loaded = lib.load(io.BytesIO(data), weights_only=weights_only)
        return type(loaded).__name__, len(loaded) if hasattr(loaded, "__len__") else None
    assert _outcome(lambda: load(mindtorch)) == _outcome(lambda: load(torch))


@pytest.mark.parametrize("case", ["transposed", "strided", "save_model_unforced",
                                  "save_model_forced", "contiguous_view"])
def test_safetensors_refuses_non_contiguous_tensors_as_safetensors_torch(tmp_path, case):
    pytest.importorskip("safetensors")
    import mindtorch.utils.safetensors as ours_st
    import safetensors.torch as theirs_st

    def run(lib, st):
        path = tmp_path / f"{lib.__name__}.safetensors"
        if case.startswith("save_model"):
            model = lib.nn.Linear(3, 2)
            with lib.no_grad():
                model.weight = lib.nn.Parameter(lib.ones(3, 2).t())
            st.save_model(model, path, force_contiguous=case.endswith("_forced"))
        else:
            base = lib.arange(12.0).reshape(3, 4)
            tensor = {"transposed": base.t(), "strided": base[:, ::2],
                      "contiguous_view": base[1:]}[case]
            st.save_file({"x": tensor}, path)
        return sorted((k, tuple(v.shape), v.flatten().tolist())
                      for k, v in st.load_file(path).items())
    assert _outcome(lambda: run(mindtorch, ours_st)) == _outcome(lambda: run(torch, theirs_st))


def _old_gpu_checkpoint(legacy):
    """What PyTorch < 1.13 wrote for GPU tensors: storages named torch.cuda.<X>Storage,
    tagged cuda:0."""
    import zipfile
    data = _tagged_bytes_of({"w": torch.arange(4.0), "i": torch.ones(2, dtype=torch.int64),
                             "h": torch.ones(3, dtype=torch.float16)}, "cuda:0", legacy)

    def to_cuda_names(pkl):
        for name in (b"FloatStorage", b"LongStorage", b"HalfStorage"):
            pkl = pkl.replace(b"ctorch\n" + name + b"\n", b"ctorch.cuda\n" + name + b"\n")
        return pkl
    if legacy:
        return to_cuda_names(data)
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for name in source.namelist():
            record = source.read(name)
            z.writestr(name, to_cuda_names(record) if name.endswith("data.pkl") else record)
    return out.getvalue()


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("map_location", [None, "cpu", {"cuda:0": "cpu"}])
def test_old_gpu_checkpoints_load_with_map_location(legacy, weights_only, map_location):
    data = _old_gpu_checkpoint(legacy)

    def load(lib):
        loaded = lib.load(io.BytesIO(data), map_location=map_location,
                          weights_only=weights_only)
        return {k: (str(v.dtype), v.device.type, v.tolist()) for k, v in loaded.items()}
    assert _outcome(lambda: load(mindtorch)) == _outcome(lambda: load(torch))


def test_legacy_tensor_types_are_allowlisted():
    buf = io.BytesIO()
    torch.save([torch.FloatTensor, torch.cuda.LongTensor, torch.sparse.DoubleTensor], buf)
    loaded = mindtorch.load(io.BytesIO(buf.getvalue()))
    assert loaded == [mindtorch.FloatTensor, mindtorch.cuda.LongTensor,
                      mindtorch.sparse.DoubleTensor]
    assert mindtorch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(
        buf.getvalue())) == []


def _checkpoint_bytes(legacy):
    buf = io.BytesIO()
    torch.save({"x": torch.arange(40.0), "name": "abc"}, buf,
               _use_new_zipfile_serialization=not legacy)
    return buf.getvalue()


def _flipped(data, at):
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


def _corruptions():
    zip_bytes, legacy_bytes = _checkpoint_bytes(False), _checkpoint_bytes(True)
    count_at = legacy_bytes.rindex(b"a.") + 2  # (the storage's element count)
    name_at = zip_bytes.index(b"abc")  # (inside data.pkl: a still valid pickle)
    byteorder_header = zip_bytes.index(b"PK\x03\x04", zip_bytes.index(b"storage_alignment"))
    proto_at = legacy_bytes.index(b"\x80\x02", 20)  # (a later pickle's PROTO 2)
    return {
        "zip_of_10_bytes": zip_bytes[:10],
        "zip_of_21_bytes": zip_bytes[:21],
        "legacy_cut_in_count": legacy_bytes[:count_at + 3],
        "legacy_protocol_version": legacy_bytes.replace(b"M\xe9\x03", b"M\xea\x03", 1),
        "pickle_text_flipped": zip_bytes[:name_at] + b"abd" + zip_bytes[name_at + 3:],
        "record_header_flipped": _flipped(zip_bytes, byteorder_header + 1),
        "legacy_protocol_253": legacy_bytes[:proto_at + 1] + b"\xfd" + legacy_bytes[proto_at + 2:],
    }


@pytest.mark.parametrize("name", list(_corruptions()))
@pytest.mark.parametrize("weights_only", [True, False])
def test_corrupt_files_fail_or_load_as_torchs(name, weights_only):
    import warnings
    data = _corruptions()[name]

    def load(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loaded = lib.load(io.BytesIO(data), weights_only=weights_only)
        return loaded["name"], loaded["x"].tolist()
    assert _outcome(lambda: load(mindtorch)) == _outcome(lambda: load(torch))


class _Outer:
    class Inner:
        """Pickled by protocol 2 as getattr(_Outer, "Inner")."""


def test_unsafe_globals_are_named_as_python_3_names():
    import functools

    def unsafe(lib):
        buf = io.BytesIO()
        lib.save([_Outer.Inner(), functools.partial(int, base=2)], buf)
        buf.seek(0)
        return sorted(lib.serialization.get_unsafe_globals_in_checkpoint(buf))
    assert unsafe(mindtorch) == unsafe(torch)


@pytest.mark.parametrize("writer", ["mindtorch", "torch"])
def test_save_into_a_gzip_stream_and_load_back(tmp_path, writer):
    """A gzip file in write mode says it can seek but cannot seek back: save streams."""
    import gzip
    lib = mindtorch if writer == "mindtorch" else torch
    path = tmp_path / "checkpoint.pt.gz"
    with gzip.open(path, "wb") as f:
        lib.save({"a": lib.arange(5.0), "b": [lib.ones(2, dtype=lib.int64)]}, f)
    for reader in (mindtorch, torch):
        with gzip.open(path, "rb") as f:
            loaded = reader.load(f)
        assert loaded["a"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
        assert loaded["b"][0].tolist() == [1, 1]


def test_checkpoint_written_through_a_file_handle_maps_in_place(tmp_path):
    path = tmp_path / "m.pt"
    with open(path, "wb") as f:
        mindtorch.save({"a": mindtorch.arange(100.0)}, f)
    for lib in (mindtorch, torch):
        assert lib.load(path, mmap=True)["a"][-2:].tolist() == [98.0, 99.0]


def _package_registry(lib):
    """The list register_package adds to (to restore it after a test)."""
    if lib is torch:
        import torch.serialization as ts
        return ts._package_registry
    from mindtorch import _serialization_config as config
    return config._PACKAGES


@pytest.mark.parametrize("priority", [5, 30])
@pytest.mark.parametrize("map_location", [None, "cpu", {"mydev:3": "cpu"}, "meta"])
def test_register_package_tags_and_restores_as_torchs(priority, map_location):
    def run(lib):
        log = []

        def tagger(storage):
            return "mydev:3" if storage.nbytes() == 12 else None

        def deserializer(storage, location):
            log.append((type(storage).__name__, location, storage.device.type))
            return storage if location.startswith("mydev") else None
        registry = _package_registry(lib)
        before = list(registry)
        lib.serialization.register_package(priority, tagger, deserializer)
        try:
            buf = io.BytesIO()
            lib.save({"a": lib.arange(3.0), "b": lib.ones(2)}, buf)
            buf.seek(0)
            loaded = _outcome(lambda: lib.load(buf, map_location=map_location))
            tags = [lib.serialization.location_tag(lib.ones(n).untyped_storage()) for n in (3, 2)]
        finally:
            registry[:] = before
        if loaded[0] == "ok":
            loaded = ("ok", {k: (v.device.type, v.tolist() if v.device.type != "meta" else None)
                             for k, v in loaded[1].items()})
        return loaded, log, tags
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("encoding", [None, "latin1"])
def test_python_2_strings_decode_as_utf_8_by_default(weights_only, encoding):
    """A legacy checkpoint whose pickle holds a Python 2 str (SHORT_BINSTRING) of UTF-8."""
    import pickletools
    legacy = _checkpoint_bytes(True)
    f = io.BytesIO(legacy)
    for _ in range(3):  # the magic number, protocol version and system info
        for _ in pickletools.genops(f):
            pass
    data = legacy[:f.tell()] + b"\x80\x02}q\x00U\x01aU\x05caf\xc3\xa9s." + b"\x80\x02]q\x00."
    kwargs = {} if encoding is None else {"encoding": encoding}

    def load(lib):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return lib.load(io.BytesIO(data), weights_only=weights_only, **kwargs)
    assert _outcome(lambda: load(mindtorch)) == _outcome(lambda: load(torch))


@pytest.mark.parametrize("writer", ["torch", "mindtorch"])
def test_allowlisted_mindtorch_classes_load_from_torch_checkpoints(writer):
    """safe_globals([torch.nn.utils.rnn.PackedSequence]) under `import mindtorch as torch`
    also admits the torch.nn... name PyTorch's checkpoints carry."""
    lib = torch if writer == "torch" else mindtorch
    buf = io.BytesIO()
    lib.save([lib.nn.utils.rnn.pack_padded_sequence(lib.ones(3, 2, 1), [3, 2]),
              lib.nn.Linear(2, 2)], buf)
    allowed = [mindtorch.nn.utils.rnn.PackedSequence, mindtorch.nn.Linear]
    assert mindtorch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(
        buf.getvalue())) != []
    with mindtorch.serialization.safe_globals(allowed):
        assert mindtorch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(
            buf.getvalue())) == []
        loaded = mindtorch.load(io.BytesIO(buf.getvalue()))
    assert type(loaded[0]) is mindtorch.nn.utils.rnn.PackedSequence
    assert loaded[0].batch_sizes.tolist() == [2, 2, 1]
    assert type(loaded[1]) is mindtorch.nn.Linear
    assert loaded[1](mindtorch.ones(1, 2)).shape == (1, 2)


def test_disable_byteorder_record_still_ends_with_one_as_torchs():
    import zipfile

    def names(lib):
        buf = io.BytesIO()
        lib.save(lib.ones(2), buf, _disable_byteorder_record=True)
        return zipfile.ZipFile(buf).namelist()
    assert names(mindtorch) == names(torch)


@pytest.mark.parametrize("legacy", [False, True])
def test_legacy_tensor_types_save_under_torchs_names(legacy):
    def save(lib):
        buf = io.BytesIO()
        lib.save([lib.FloatTensor, lib.cuda.LongTensor, lib.sparse.DoubleTensor, lib.FloatTensor],
                 buf, _use_new_zipfile_serialization=not legacy)
        return buf.getvalue()
    for data in (save(mindtorch), save(torch)):
        assert [repr(t) for t in torch.load(io.BytesIO(data))] == \
            [repr(t) for t in mindtorch.load(io.BytesIO(data))]
    assert mindtorch.load(io.BytesIO(save(mindtorch)))[0] is mindtorch.FloatTensor


class _WithFunctions:
    """An object holding functions, as a model's attributes do (self.act = F.gelu)."""

    def __init__(self, lib):
        f = lib.nn.functional
        self.functions = [f.gelu, f.cross_entropy, f.relu, lib.relu, lib.tanh, lib.add,
                          f.softplus, lib.special.erf, lib.linalg.norm, lib.fft.fft, f.linear,
                          f.avg_pool2d, lib.hann_window, lib.Tensor.add, f.logsigmoid]


@pytest.mark.parametrize("writer", ["torch", "mindtorch"])
def test_functions_pickled_in_whole_objects_load_in_both(writer):
    lib = torch if writer == "torch" else mindtorch
    buf = io.BytesIO()
    lib.save(_WithFunctions(lib), buf)
    expected = _WithFunctions(mindtorch).functions
    loaded = mindtorch.load(io.BytesIO(buf.getvalue()), weights_only=False).functions
    assert [getattr(f, "__name__", f) for f in loaded] == \
        [getattr(f, "__name__", f) for f in expected]
    assert all(a is b for a, b in zip(loaded, expected))
    if writer == "mindtorch":  # (torch reads the file too)
        assert len(torch.load(io.BytesIO(buf.getvalue()), weights_only=False).functions) == \
            len(expected)
