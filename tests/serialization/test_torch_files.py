"""Files written by torch.save load in mindtorch (also without PyTorch installed), and
files written by mindtorch.save load in torch.load(weights_only=True)."""
import io
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest
import torch

import mindtorch as mt
from ser_helpers import DTYPES, host, same, same_tensor, shares_storage, torch_objects


@pytest.fixture(scope="module")
def torch_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("torch_files")
    objs = torch_objects()
    for name, obj in objs.items():
        torch.save(obj, d / f"{name}.pt")
    return d, objs


@pytest.mark.parametrize("name", ["state_dict", "optimizer", "dtypes", "views", "odd", "nested"])
def test_torch_checkpoints_load(torch_files, name):
    d, objs = torch_files
    same(mt.load(d / f"{name}.pt"), objs[name])
    with open(d / f"{name}.pt", "rb") as fh:  # file objects as well as paths
        same(mt.load(fh), objs[name])
    same(mt.load(str(d / f"{name}.pt"), weights_only=False), objs[name])


def test_views_share_storage_again(torch_files):
    d, _ = torch_files
    v = mt.load(d / "views.pt")
    for k in ("row", "col", "t", "step", "flat"):
        assert shares_storage(v[k], v["base"]), k
    v["base"][1, 2] = 100.0
    assert v["row"][2].item() == 100.0 and v["col"][1].item() == 100.0
    assert v["t"][2, 1].item() == 100.0
    sd = mt.load(d / "state_dict.pt")
    assert isinstance(sd, dict) and type(sd).__name__ == "OrderedDict"
    assert sd._metadata[""]["version"] == 1 and sd._metadata["1"]["version"] == 2


def test_state_dict_loads_into_mindtorch_model(torch_files):
    d, objs = torch_files
    model = mt.nn.Sequential(mt.nn.Conv2d(2, 3, 3), mt.nn.BatchNorm2d(3), mt.nn.Flatten(),
                             mt.nn.Linear(12, 2))
    model.load_state_dict(mt.load(d / "state_dict.pt"))
    tmodel = torch.nn.Sequential(torch.nn.Conv2d(2, 3, 3), torch.nn.BatchNorm2d(3),
                                 torch.nn.Flatten(), torch.nn.Linear(12, 2))
    tmodel.load_state_dict(objs["state_dict"])
    x = np.random.default_rng(0).standard_normal((2, 2, 4, 4)).astype(np.float32)
    model.eval(), tmodel.eval()
    np.testing.assert_allclose(model(mt.tensor(x)).detach().numpy(),
                               tmodel(torch.from_numpy(x)).detach().numpy(), rtol=1e-5,
                               atol=1e-6)


_WITHOUT_TORCH = textwrap.dedent("""
    import json, sys
    sys.modules["torch"] = None  # any import of torch fails
    import mindtorch as mt
    out = {}
    def flat(x, key):
        if isinstance(x, mt.Tensor):
            y = x.float() if x.dtype is mt.bfloat16 else x
            v = y.detach().numpy()
            if v.dtype.kind == "c":
                v = [v.real.tolist(), v.imag.tolist()]
            else:
                v = v.tolist()
            out[key] = [str(x.dtype), list(x.shape), list(x.stride()), x.storage_offset(),
                        x.requires_grad, type(x).__name__, v]
        elif isinstance(x, dict):
            for k, v in x.items():
                flat(v, f"{key}/{k}")
        elif isinstance(x, (list, tuple)):
            for i, v in enumerate(x):
                flat(v, f"{key}/{i}")
        else:
            out[key] = repr(x)
    for path in sys.argv[1:]:
        flat(mt.load(path), path.rsplit("/", 1)[-1])
    v = mt.load([p for p in sys.argv[1:] if p.endswith("views.pt")][0])
    out["shared"] = all(v[k].untyped_storage() is v["base"].untyped_storage()
                        for k in ("row", "col", "t", "step", "flat"))
    out["torch_loaded"] = "torch" in sys.modules and sys.modules["torch"] is not None
    print(json.dumps(out))
""")


def test_torch_files_load_without_torch(torch_files):
    d, objs = torch_files
    paths = [str(d / f"{n}.pt") for n in objs]
    run = subprocess.run([sys.executable, "-c", _WITHOUT_TORCH, *paths], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got.pop("shared") is True and got.pop("torch_loaded") is False

    def check(x, key):
        if isinstance(x, torch.Tensor):
            dtype, shape, stride, offset, rg, cls, values = got[key]
            assert dtype == str(x.dtype) and shape == list(x.shape), key
            assert stride == list(x.stride()) and offset == x.storage_offset(), key
            assert rg == x.requires_grad, key
            assert cls == ("Parameter" if isinstance(x, torch.nn.Parameter) else "Tensor")
            v = host(x)
            if v.dtype.kind == "c":
                v = [v.real, v.imag]
            want = np.array(v)
            np.testing.assert_array_equal(np.array(values).reshape(want.shape), want,
                                          err_msg=key)
        elif isinstance(x, dict):
            for k, v in x.items():
                check(v, f"{key}/{k}")
        elif isinstance(x, (list, tuple)) and not isinstance(x, torch.Size):
            for i, v in enumerate(x):
                check(v, f"{key}/{i}")
    for name, obj in objs.items():
        check(obj, f"{name}.pt")
    assert got["nested.pt/s"] == "'text'" and got["nested.pt/dt"] == "torch.float16"


def _mindtorch_objects():
    base = mt.arange(24, dtype=mt.float32).reshape(4, 6)
    objs = {f"t_{d}": (mt.arange(12, dtype=mt.float64).reshape(3, 4) - 5).to(getattr(mt, d))
            for d in DTYPES}
    objs.update(base=base, row=base[1], col=base[:, 2], tr=base.t(), step=base[::2, 1::3],
                scalar=mt.tensor(2.5), empty=mt.zeros(0, 2), grad=mt.ones(3, requires_grad=True),
                param=mt.nn.Parameter(mt.ones(2, 2)),
                frozen=mt.nn.Parameter(mt.zeros(2), requires_grad=False),
                nested={"a": [mt.ones(1), (2, 3.5, "s", None)], "dt": mt.bfloat16,
                        "size": mt.Size([1, 2]), "dev": mt.device("cpu"), "c": 1j, "b": b"x"})
    return objs


def test_mindtorch_files_load_in_torch(tmp_path):
    objs = _mindtorch_objects()
    mt.save(objs, tmp_path / "m.pt")
    loaded = torch.load(tmp_path / "m.pt", weights_only=True)
    assert list(loaded) == list(objs)
    for k, m in objs.items():
        if isinstance(m, mt.Tensor):
            same_tensor(m, loaded[k])
    for k in ("row", "col", "tr", "step"):
        assert loaded[k].untyped_storage().data_ptr() == loaded["base"].untyped_storage().data_ptr()
    n = loaded["nested"]
    assert n["dt"] is torch.bfloat16 and n["size"] == torch.Size([1, 2])
    assert n["dev"] == torch.device("cpu") and n["a"][1] == (2, 3.5, "s", None)
    assert n["c"] == 1j and n["b"] == b"x"
    # memory-mapped loading needs PyTorch's 64-byte alignment of the records
    mapped = torch.load(tmp_path / "m.pt", weights_only=True, mmap=True)
    torch.testing.assert_close(mapped["t_float64"], loaded["t_float64"])


def test_archive_layout_matches_torch(tmp_path):
    mt.save({"a": mt.ones(3), "b": mt.zeros(2, dtype=mt.int64)}, tmp_path / "ckpt.pt")
    torch.save({"a": torch.ones(3), "b": torch.zeros(2, dtype=torch.int64)},
               tmp_path / "ckpt_torch.pt")
    ours = zipfile.ZipFile(tmp_path / "ckpt.pt")
    theirs = zipfile.ZipFile(tmp_path / "ckpt_torch.pt")
    assert [n.replace("ckpt/", "") for n in ours.namelist()] == \
        [n.replace("ckpt_torch/", "") for n in theirs.namelist()]
    assert all(i.compress_type == zipfile.ZIP_STORED for i in ours.infolist())
    for rel in ("byteorder", "version", ".format_version", ".storage_alignment"):
        assert ours.read(f"ckpt/{rel}") == theirs.read(f"ckpt_torch/{rel}")
    assert len(ours.read("ckpt/.data/serialization_id")) == 40
    buf = io.BytesIO()
    mt.save(mt.ones(1), buf)
    assert zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()[0] == "archive/data.pkl"


def test_save_to_streams_and_path_like(tmp_path):
    class Stream:  # write-only, not seekable
        def __init__(self):
            self.chunks = []

        def write(self, b):
            self.chunks.append(bytes(b))
            return len(b)
    s = Stream()
    mt.save({"x": mt.arange(4)}, s)
    out = torch.load(io.BytesIO(b"".join(s.chunks)))
    assert out["x"].tolist() == [0, 1, 2, 3]
    path = pathlib.Path(tmp_path) / "p.pt"
    mt.save([1, 2.0, "three"], path)
    assert mt.load(path) == [1, 2.0, "three"] == torch.load(path)
    mt.save(7, os.fspath(path))
    assert mt.load(os.fspath(path)) == 7
    buf = io.BytesIO(b"junk")  # saving after existing bytes of a file object
    buf.seek(4)
    mt.save(mt.ones(2), buf)
    buf.seek(4)
    assert mt.load(buf).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("name", ["state_dict", "optimizer", "dtypes", "views", "odd", "nested"])
def test_torch_legacy_format_loads(tmp_path, name):
    obj = torch_objects()[name]
    torch.save(obj, tmp_path / "legacy.pt", _use_new_zipfile_serialization=False)
    assert not zipfile.is_zipfile(tmp_path / "legacy.pt")
    same(mt.load(tmp_path / "legacy.pt"), obj)
    with open(tmp_path / "legacy.pt", "rb") as fh:
        same(mt.load(fh, weights_only=False), obj)
    if name == "views":
        v = mt.load(tmp_path / "legacy.pt")
        assert all(shares_storage(v[k], v["base"]) for k in ("row", "col", "t", "step"))
        meta = mt.load(tmp_path / "legacy.pt", map_location="meta")
        assert meta["t"].device.type == "meta" and meta["t"].stride() == (1, 6)


def test_legacy_format_is_restricted_too(tmp_path):
    class Payload:
        def __reduce__(self):
            return os.system, ("true",)
    torch.save({"x": Payload()}, tmp_path / "evil.pt", _use_new_zipfile_serialization=False)
    import pickle
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        mt.load(tmp_path / "evil.pt")
    with pytest.raises(RuntimeError, match="mmap can only be used with files saved with"):
        mt.load(tmp_path / "evil.pt", mmap=True)


@pytest.mark.parametrize("zip64_limit", [None, 1000])
def test_records_are_64_byte_aligned(tmp_path, monkeypatch, zip64_limit):
    import struct
    if zip64_limit:  # records past the limit get a zip64 field in their local header
        monkeypatch.setattr(zipfile, "ZIP64_LIMIT", zip64_limit)
    mt.save({"a": mt.ones(300), "b": mt.arange(500.0), "c": mt.ones(3, dtype=mt.int8)},
            tmp_path / "al.pt")
    raw = (tmp_path / "al.pt").read_bytes()
    for info in zipfile.ZipFile(tmp_path / "al.pt").infolist():
        name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26:
                                                       info.header_offset + 30])
        assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0, info.filename
    monkeypatch.undo()
    out = torch.load(tmp_path / "al.pt", mmap=True)
    assert out["b"][-1].item() == 499.0 and out["c"].tolist() == [1, 1, 1]


@pytest.mark.parametrize("writer, reader", [(torch, mt), (mt, torch), (mt, mt)])
def test_tensor_python_attributes_round_trip(writer, reader):
    # attributes set on a tensor travel as PyTorch's _rebuild_from_type_v2 state
    u = writer.arange(3.0)
    u.note, u.count = "scaled", 3
    buf = io.BytesIO()
    writer.save({"u": u, "plain": writer.ones(1)}, buf)
    buf.seek(0)
    d = reader.load(buf)
    assert (d["u"].note, d["u"].count, d["u"].tolist()) == ("scaled", 3, [0.0, 1.0, 2.0])
    assert type(d["u"]) is reader.Tensor and not hasattr(d["plain"], "note")


def test_torchscript_archive(tmp_path):
    # torch.load of a TorchScript archive warns (it dispatches to jit.load) and refuses it
    # under weights_only with PyTorch's message; mindtorch runs no TorchScript, so
    # weights_only=False and jit.load raise NotImplementedError
    import warnings
    path = tmp_path / "scripted.pt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), path)
    messages = []
    for lib in (torch, mt):
        with pytest.warns(UserWarning, match="looks like a TorchScript archive dispatching"):
            with pytest.raises(RuntimeError) as e:
                lib.load(path)
        messages.append(str(e.value))
    assert messages[1] == messages[0]
    with pytest.warns(UserWarning, match="TorchScript archive"):
        with pytest.raises(NotImplementedError, match="does not run"):
            mt.load(path, weights_only=False)
    with warnings.catch_warnings():  # (jit.load's own warning is its DeprecationWarning)
        warnings.simplefilter("error", UserWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(NotImplementedError, match="TorchScript"):
            mt.jit.load(path)
