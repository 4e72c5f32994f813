"""mindtorch.load is safe by default (PyTorch's weights_only rules) and honours
map_location; mindtorch objects round-trip."""
import collections
import io
import os
import pickle
import warnings
import zipfile

import numpy as np
import pytest
import torch

import mindtorch as mt
import mindtorch.serialization as ser


class Payload:
    """Runs a shell command when unpickled."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


class Custom:
    def __init__(self, v=0):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, Custom) and other.v == self.v


@pytest.mark.parametrize("writer", ["torch", "mindtorch"])
def test_code_in_a_pickle_does_not_run(tmp_path, writer):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.pt"
    obj = {"w": torch.ones(2) if writer == "torch" else mt.ones(2), "x": Payload(marker)}
    (torch.save if writer == "torch" else mt.save)(obj, path)
    with pytest.raises(pickle.UnpicklingError) as e:
        mt.load(path)
    assert str(e.value).startswith("Weights only load failed")
    assert "GLOBAL posix.system whose module posix is blocked" in str(e.value) or \
        "GLOBAL os.system" in str(e.value)
    assert not marker.exists()
    # explicitly trusting the file runs it: weights_only=False is a full unpickle
    mt.load(path, weights_only=False)
    assert marker.exists()


def _raw_checkpoint(tmp_path, payload):
    """A checkpoint whose data.pkl is `payload` (hand-written pickles)."""
    path = tmp_path / "raw.pt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("raw/data.pkl", payload)
        z.writestr("raw/byteorder", "little")
        z.writestr("raw/version", "3\n")  # PyTorch's reader requires the record
    return path


@pytest.mark.parametrize("payload,fragment", [
    (b"\x80\x02cbuiltins\neval\nX\x04\x00\x00\x001+1q\x00\x85R.", "GLOBAL eval was not"),
    (b"\x80\x02c__builtin__\ngetattr\n.", "GLOBAL getattr was not"),
    (b"\x80\x02csubprocess\nPopen\n.", "GLOBAL subprocess.Popen was not"),
    (b"\x80\x02cos\nsystem\n.", "GLOBAL os.system whose module os is blocked"),
    (b"\x80\x04\x8c\x08builtins\x8c\x04exec\x93.", "Unsupported operand 140"),  # as torch
    (b"\x80\x02X\x04\x00\x00\x00evil\x85Q.", "Only persistent_load of storage is allowed"),
])
def test_hand_written_pickles_refused(tmp_path, payload, fragment):
    path = _raw_checkpoint(tmp_path, payload)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as e:
        mt.load(path)
    assert fragment in str(e.value)


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_weights_only_runs_protocol_2_opcodes_only(protocol):
    # PyTorch's weights-only unpickler knows protocol 2's opcodes (warning for another
    # protocol), so protocol 4's FRAME refuses the file; weights_only=False loads it
    def load(L):
        buf = io.BytesIO()
        L.save([L.ones(1), {"a": (1, 2.5)}], buf, pickle_protocol=protocol)
        buf.seek(0)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                got = repr(L.load(buf))
            except pickle.UnpicklingError as e:
                got = str(e)
        buf.seek(0)
        assert repr(L.load(buf, weights_only=False)) == "[tensor([1.]), {'a': (1, 2.5)}]"
        return got, [str(m.message) for m in w]
    assert load(mt) == load(torch)


def test_out_of_bounds_geometry_refused(tmp_path):
    mt.save({"t": mt.arange(4.0)}, tmp_path / "ok.pt")
    z = zipfile.ZipFile(tmp_path / "ok.pt")
    pkl = z.read("ok/data.pkl")
    # shape (4,) -> (9,): would read past the 16-byte storage
    bad = pkl.replace(b"K\x04\x85", b"K\x09\x85", 1)
    assert bad != pkl
    with zipfile.ZipFile(tmp_path / "bad.pt", "w") as out:
        for info in z.infolist():
            out.writestr(info.filename.replace("ok/", "bad/"),
                         bad if info.filename.endswith("data.pkl") else z.read(info))
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 16"):
        mt.load(tmp_path / "bad.pt")


def test_custom_classes_need_allowlisting(tmp_path):
    path = tmp_path / "c.pt"
    mt.save({"c": Custom(3), "t": mt.ones(1)}, path)
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL "
                                                     f"{__name__}.Custom was not an allowed"):
        mt.load(path)
    with ser.safe_globals([Custom]):
        assert mt.load(path)["c"] == Custom(3)
    with pytest.raises(pickle.UnpicklingError):
        mt.load(path)
    ser.add_safe_globals([Custom])
    try:
        assert Custom in ser.get_safe_globals() and mt.load(path)["c"] == Custom(3)
    finally:
        ser.clear_safe_globals()
    assert mt.load(path, weights_only=False)["c"] == Custom(3)


def test_not_a_checkpoint(tmp_path):
    (tmp_path / "x.pt").write_bytes(pickle.dumps({"a": 1}, protocol=2))
    with pytest.raises(RuntimeError, match="Invalid magic number; corrupt file"):
        mt.load(tmp_path / "x.pt")
    with pytest.raises(RuntimeError, match="mmap can only be used with files saved with"):
        mt.load(io.BytesIO(b""), mmap=True)  # (PyTorch reads it as a legacy file first)
    mt.save({"a": mt.ones(1)}, tmp_path / "y.pt")
    with pytest.raises(RuntimeError, match="Parent directory .*nowhere does not exist"):
        mt.save(1, tmp_path / "nowhere" / "x.pt")
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit "
                                           "pickle_module is specified"):
        mt.load(tmp_path / "y.pt", pickle_module=pickle, weights_only=True)
    assert mt.load(tmp_path / "y.pt", pickle_module=pickle)["a"].tolist() == [1.0]


def _retarget(src, dst, location):
    """Rewrite a checkpoint as if its storages had been saved on `location`."""
    z = zipfile.ZipFile(src)
    pkl = z.read("src/data.pkl")
    new = location.encode()
    pkl = pkl.replace(b"X\x03\x00\x00\x00cpu", b"X" + len(new).to_bytes(4, "little") + new)
    with zipfile.ZipFile(dst, "w") as out:
        for info in z.infolist():
            out.writestr(info.filename.replace("src/", "dst/"),
                         pkl if info.filename.endswith("data.pkl") else z.read(info))


def test_map_location(tmp_path):
    torch.save({"a": torch.arange(6.0).reshape(2, 3), "b": torch.ones(2, dtype=torch.int32)},
               tmp_path / "src.pt")
    _retarget(tmp_path / "src.pt", tmp_path / "dst.pt", "cuda:0")
    with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
        mt.load(tmp_path / "dst.pt")
    for where in ("cpu", mt.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
        out = mt.load(tmp_path / "dst.pt", map_location=where)
        assert out["a"].device.type == "cpu" and out["a"].tolist() == [[0, 1, 2], [3, 4, 5]]
    seen = []
    out = mt.load(tmp_path / "src.pt", map_location=lambda s, loc: seen.append(loc))
    assert seen == ["cpu", "cpu"] and out["b"].tolist() == [1, 1]  # None: the saved place
    meta = mt.load(tmp_path / "src.pt", map_location="meta")
    assert meta["a"].device.type == "meta" and meta["a"].shape == (2, 3)
    assert meta["b"].dtype == mt.int32
    meta = mt.load(tmp_path / "src.pt", map_location={"cpu": "meta"})
    assert meta["b"].device.type == "meta"
    with pytest.raises(TypeError, match="map_location should return a storage"):
        mt.load(tmp_path / "src.pt", map_location=lambda s, loc: 3)


def test_mmap_load(tmp_path):
    mt.save({"a": mt.arange(10.0), "b": mt.arange(3)}, tmp_path / "m.pt")
    out = mt.load(tmp_path / "m.pt", mmap=True)
    assert out["a"].tolist() == list(map(float, range(10))) and out["b"].tolist() == [0, 1, 2]
    out["a"].add_(1)  # copy-on-write: the file keeps its values
    assert mt.load(tmp_path / "m.pt")["a"].tolist() == list(map(float, range(10)))


def test_mindtorch_round_trip(tmp_path):
    base = mt.arange(12.0).reshape(3, 4)
    obj = {"v": base.t(), "base": base, "row": base[2], "bf": mt.ones(2, 2, dtype=mt.bfloat16),
           "p": mt.nn.Parameter(mt.randn(3)), "g": mt.zeros(2, requires_grad=True),
           "meta": mt.empty(2, 5, device="meta"), "num": 3, "f": 2.5, "l": [1, (2, "x")],
           "od": collections.OrderedDict(k=mt.tensor([True, False]))}
    obj["od"]._metadata = {"": {"version": 1}}
    mt.save(obj, tmp_path / "r.pt")
    back = mt.load(tmp_path / "r.pt")
    assert back["v"].untyped_storage() is back["base"].untyped_storage()
    assert back["row"].untyped_storage() is back["base"].untyped_storage()
    assert back["v"].stride() == (1, 4) and back["row"].storage_offset() == 8
    for k in ("v", "base", "row", "bf", "p", "g"):
        assert back[k].dtype == obj[k].dtype and back[k].requires_grad == obj[k].requires_grad
        np.testing.assert_array_equal(back[k].detach().float().numpy(),
                                      obj[k].detach().float().numpy())
    assert type(back["p"]) is mt.nn.Parameter and back["p"].requires_grad
    assert back["meta"].device.type == "meta" and back["meta"].shape == (2, 5)
    assert back["num"] == 3 and back["f"] == 2.5 and back["l"] == [1, (2, "x")]
    assert back["od"]._metadata == {"": {"version": 1}}
    assert back["od"]["k"].tolist() == [True, False]
    mt.save(3.25, tmp_path / "s.pt")
    assert mt.load(tmp_path / "s.pt") == 3.25 == torch.load(tmp_path / "s.pt")


def test_module_and_optimizer_state_round_trip(tmp_path):
    model = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.BatchNorm1d(4), mt.nn.Linear(4, 1))
    opt = mt.optim.Adam(model.parameters(), lr=0.1)
    model(mt.randn(5, 3)).sum().backward()
    opt.step()
    mt.save({"model": model.state_dict(), "opt": opt.state_dict()}, tmp_path / "ck.pt")
    ck = mt.load(tmp_path / "ck.pt")
    fresh = mt.nn.Sequential(mt.nn.Linear(3, 4), mt.nn.BatchNorm1d(4), mt.nn.Linear(4, 1))
    fresh.load_state_dict(ck["model"])
    for (k, a), (_, b) in zip(model.state_dict().items(), fresh.state_dict().items()):
        assert a.tolist() == b.tolist(), k
    opt2 = mt.optim.Adam(fresh.parameters(), lr=0.1)
    opt2.load_state_dict(ck["opt"])
    assert opt2.state_dict()["param_groups"] == opt.state_dict()["param_groups"]
    # and PyTorch reads both
    tck = torch.load(tmp_path / "ck.pt", weights_only=True)
    tmodel = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4),
                                 torch.nn.Linear(4, 1))
    tmodel.load_state_dict(tck["model"])
    topt = torch.optim.Adam(tmodel.parameters(), lr=0.1)
    topt.load_state_dict(tck["opt"])
    assert topt.state_dict()["state"][0]["step"].item() == 1.0
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    fresh.eval(), tmodel.eval()
    np.testing.assert_allclose(fresh(mt.tensor(x)).detach().numpy(),
                               tmodel(torch.from_numpy(x)).detach().numpy(), rtol=1e-5,
                               atol=1e-6)


def test_same_storage_as_two_dtypes_refused(tmp_path):
    a = mt.zeros(4)
    b = mt.Tensor._make(a._storage, (4,), (1,), 0, mt.int32)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        mt.save([a, b], tmp_path / "x.pt")


def _crafted(tmp_path, reduce_value):
    """A checkpoint holding one mindtorch tensor's storage and an object pickled as
    reduce_value(ref), ref standing for that storage."""
    from mindtorch import _pickle_torch as P

    class Marker:
        pass

    class Crafting(P.TorchPickler):
        def reducer_override(self, obj):
            if isinstance(obj, Marker):
                t = mt.arange(4.0)
                return reduce_value(self._storage_ref(t._storage, t.dtype), P)
            return super().reducer_override(obj)
    buf = io.BytesIO()
    pickler = Crafting(buf, protocol=2)
    pickler.dump({"x": Marker()})
    path = tmp_path / "crafted.pt"
    with open(path, "wb") as fh:
        ser._write_archive(fh, "crafted", buf.getvalue(), pickler.storages, False)
    return path


def test_pickles_cannot_rewrite_tensor_geometry(tmp_path):
    args = lambda ref: (ref, 0, (4,), (1,), False, collections.OrderedDict())  # noqa: E731
    ok = _crafted(tmp_path, lambda ref, P: (P._utils("_rebuild_tensor_v2"), args(ref)))
    assert mt.load(ok)["x"].tolist() == [0.0, 1.0, 2.0, 3.0]
    for state in ({"_shape": (10 ** 6,)}, (None, {"_stride": (10 ** 6,)}), {"dtype": mt.float64}):
        bad = _crafted(tmp_path, lambda ref, P: (P._utils("_rebuild_tensor_v2"), args(ref),
                                                 state))
        with pytest.raises(pickle.UnpicklingError, match="Can only build OrderedDict"):
            mt.load(bad)
        via_type = _crafted(tmp_path, lambda ref, P: (
            P.Global("torch._tensor", "_rebuild_from_type_v2"),
            (P._utils("_rebuild_tensor_v2"), P.Global("torch", "Tensor"), args(ref),
             state if isinstance(state, dict) else state[1])))
        with pytest.raises(pickle.UnpicklingError, match="cannot restore attribute"):
            mt.load(via_type)
    user = _crafted(tmp_path, lambda ref, P: (
        P.Global("torch._tensor", "_rebuild_from_type_v2"),
        (P._utils("_rebuild_tensor_v2"), P.Global("torch", "Tensor"), args(ref),
         {"note": "kept"})))
    assert mt.load(user)["x"].note == "kept"


def test_whole_module_needs_weights_only_false(tmp_path):
    model = mt.nn.Sequential(mt.nn.Linear(2, 3), mt.nn.ReLU())
    mt.save(model, tmp_path / "full.pt")
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL mindtorch.nn.modules.container."
                                                     "Sequential was not an allowed global"):
        mt.load(tmp_path / "full.pt")
    again = mt.load(tmp_path / "full.pt", weights_only=False)
    x = mt.randn(4, 2)
    assert type(again) is mt.nn.Sequential and again(x).tolist() == model(x).tolist()
    # PyTorch's whole-module pickles load as the mindtorch modules of the same names
    torch.save(torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU()), tmp_path / "t.pt")
    tm = torch.load(tmp_path / "t.pt", weights_only=False)
    mm = mt.load(tmp_path / "t.pt", weights_only=False)
    assert type(mm[0]) is mt.nn.Linear and type(mm[1]) is mt.nn.ReLU
    xt = np.random.default_rng(0).standard_normal((3, 2)).astype(np.float32)
    np.testing.assert_allclose(mm(mt.tensor(xt)).detach().numpy(),
                               tm(torch.from_numpy(xt)).detach().numpy(), rtol=1e-6)


def test_not_a_pickle_message_is_torchs():
    import io
    with pytest.raises(pickle.UnpicklingError) as ours:
        mt.load(io.BytesIO(b"not a checkpoint"))
    with pytest.raises(pickle.UnpicklingError) as theirs:
        torch.load(io.BytesIO(b"not a checkpoint"))
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("writer", ["torch", "mindtorch"])
def test_get_unsafe_globals_in_checkpoint(tmp_path, writer):
    # the GLOBALs weights_only would refuse, read statically (safe_globals counted), as torch
    W = torch if writer == "torch" else mt
    obj = {"arr": np.arange(3), "t": W.ones(2), "od": collections.OrderedDict(a=W.zeros(1)),
           "s": {1, 2}, "sz": W.Size([2]), "dt": W.float16, "p": W.nn.Parameter(W.ones(1)),
           "c": collections.Counter("ab"), "x": Custom(1)}
    path = tmp_path / "g.pt"
    W.save(obj, path)
    for lib in (torch, mt):
        got = [sorted(lib.serialization.get_unsafe_globals_in_checkpoint(path))]
        with lib.serialization.safe_globals([np.ndarray, Custom]):
            with open(path, "rb") as fh:
                got.append(sorted(lib.serialization.get_unsafe_globals_in_checkpoint(fh)))
        if lib is torch:
            expected = got
    assert got == expected
    assert "numpy.ndarray" in expected[0] and "numpy.ndarray" not in expected[1]
    with pytest.raises(ValueError, match="Expected input to be a checkpoint"):
        mt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b"not a zip"))
