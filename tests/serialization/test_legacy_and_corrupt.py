"""save(_use_new_zipfile_serialization=False) writes PyTorch's legacy (pre-zip) format,
which torch.load(weights_only=True) reads; load of bytes that are no checkpoint raises
what torch.load raises."""
import io
import pickle
import zipfile

import mindtorch as mt
import pytest
import torch
from ser_helpers import same_tensor, shares_storage
from test_torch_files import _mindtorch_objects


def _legacy_bytes(obj, **kw):
    buf = io.BytesIO()
    mt.save(obj, buf, _use_new_zipfile_serialization=False, **kw)
    return buf.getvalue()


def test_legacy_save_loads_in_torch_and_back(tmp_path):
    objs = _mindtorch_objects()
    path = tmp_path / "legacy.pt"
    mt.save(objs, path, _use_new_zipfile_serialization=False)
    assert not zipfile.is_zipfile(path)
    for loaded in (torch.load(path, weights_only=True), torch.load(path, weights_only=False)):
        assert list(loaded) == list(objs)
        for k, m in objs.items():
            if isinstance(m, mt.Tensor):
                same_tensor(m, loaded[k])
        for k in ("row", "col", "tr", "step"):
            assert loaded[k].untyped_storage().data_ptr() == \
                loaded["base"].untyped_storage().data_ptr()
        n = loaded["nested"]
        assert n["dt"] is torch.bfloat16 and n["size"] == torch.Size([1, 2])
        assert n["a"][1] == (2, 3.5, "s", None) and n["c"] == 1j and n["b"] == b"x"
    back = mt.load(path)
    for k, m in objs.items():
        if isinstance(m, mt.Tensor):
            t = torch.load(path)[k]
            same_tensor(back[k], t)
    assert all(shares_storage(back[k], back["base"]) for k in ("row", "col", "tr", "step"))
    assert back["nested"]["dt"] is mt.bfloat16


def test_legacy_save_structure_matches_torch():
    """The same pickles as torch's writer, storage keys aside (PyTorch names storages by
    their address)."""
    m = _legacy_bytes({"w": mt.arange(4.0).reshape(2, 2), "n": 3})
    buf = io.BytesIO()
    torch.save({"w": torch.arange(4.0).reshape(2, 2), "n": 3}, buf,
               _use_new_zipfile_serialization=False)
    ours, theirs = io.BytesIO(m), io.BytesIO(buf.getvalue())
    for _ in range(3):  # magic number, protocol version, system info
        assert pickle.load(ours) == pickle.load(theirs)
    assert ours.read()[-24:] == theirs.read()[-24:]  # count + bytes of the one storage


@pytest.mark.parametrize("protocol", [2, 3])
def test_legacy_save_to_stream_and_state_dict(protocol):
    model = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.BatchNorm1d(4))
    raw = _legacy_bytes(model.state_dict(), pickle_protocol=protocol)
    theirs = torch.load(io.BytesIO(raw))
    tm = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    tm.load_state_dict(theirs)
    for k, v in model.state_dict().items():
        same_tensor(v, theirs[k])
    assert list(mt.load(io.BytesIO(raw))) == list(model.state_dict())


def test_legacy_save_many_storages_and_empty():
    """More than ten storages: PyTorch orders the trailing data by the keys as strings."""
    objs = [mt.full((i,), float(i)) for i in range(12)] + [mt.zeros(0, dtype=mt.int64)]
    raw = _legacy_bytes(objs)
    for a, b in zip(objs, torch.load(io.BytesIO(raw))):
        same_tensor(a, b)
    for a, b in zip(objs, mt.load(io.BytesIO(raw))):
        assert a.tolist() == b.tolist() and a.dtype == b.dtype


def _torch_zip():
    buf = io.BytesIO()
    torch.save({"a": torch.arange(3.0)}, buf)
    return buf.getvalue()


def _zip_without(names):
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(_torch_zip())) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if not any(info.filename.endswith(n) for n in names):
                dst.writestr(info, src.read(info))
    return out.getvalue()


def _legacy_torch():
    buf = io.BytesIO()
    torch.save({"a": torch.arange(3.0)}, buf, _use_new_zipfile_serialization=False)
    return buf.getvalue()


CORRUPT = {
    "garbage": lambda: b"not a checkpoint",
    "empty": lambda: b"",
    "truncated_zip": lambda: _torch_zip()[:len(_torch_zip()) // 2],
    "zip_header_only": lambda: _torch_zip()[:40],
    "zip_without_files": lambda: _zip_without(["data.pkl", "version"]),
    "zip_without_data_pkl": lambda: _zip_without(["data.pkl"]),
    "pickle_of_int": lambda: pickle.dumps(5, protocol=2),
    "truncated_legacy_data": lambda: _legacy_torch()[:-5],
}


def _outcome(lib, raw, kw):
    try:
        lib.load(io.BytesIO(raw), **kw)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e), str(e)
    return None, None


@pytest.mark.parametrize("kw", [{}, {"weights_only": False}], ids=["weights_only", "full"])
@pytest.mark.parametrize("case", list(CORRUPT))
def test_corrupt_input_raises_like_torch(case, kw):
    raw = CORRUPT[case]()
    t_cls, t_msg = _outcome(torch, raw, kw)
    m_cls, m_msg = _outcome(mt, raw, kw)
    assert t_cls is not None and m_cls is t_cls, (m_cls, m_msg, t_cls, t_msg)
    # the first words of torch's message (miniz's and c10's notes left out)
    head = t_msg.split(".")[0].split(" In PyTorch")[0][:40]
    if t_cls is not EOFError:
        assert m_msg.startswith(head), (m_msg, t_msg)
    if case == "garbage" and kw:
        assert m_msg == t_msg == "invalid load key, 'n'."


def test_empty_file_on_disk(tmp_path):
    (tmp_path / "e.pt").write_bytes(b"")
    with pytest.raises(EOFError):
        torch.load(tmp_path / "e.pt")
    with pytest.raises(EOFError):
        mt.load(tmp_path / "e.pt")
    with pytest.raises(EOFError, match="Ran out of input"):
        mt.load(tmp_path / "e.pt", weights_only=False)


@pytest.mark.parametrize("legacy", [False, True])
def test_saving_a_local_object_raises_the_c_picklers_error(legacy):
    """A module holding a lambda (or class) defined in a function: AttributeError 'Can't
    pickle local object', as torch.save (the C pickler) raises."""
    def run(lib):
        model = lib.nn.Linear(2, 2)
        model.act = lambda x: x
        with pytest.raises(AttributeError) as err:
            lib.save(model, io.BytesIO(), _use_new_zipfile_serialization=not legacy)
        return str(err.value)
    assert run(mt) == run(torch)
