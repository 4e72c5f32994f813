"""mindtorch.save/load and load_state_dict at their edges, in every direction against torch
(mindtorch -> mindtorch, mindtorch -> torch, torch -> mindtorch): every dtype as 0-dim, empty
and non-contiguous tensors, Parameters and requires_grad, nested containers, identity and
storage sharing, map_location forms, bad files (error classes), strict=False loading."""
import io
import pickle

import numpy as np
import pytest

import mindtorch
from reference import same_error
from serialization.ser_helpers import DTYPES, same

torch = pytest.importorskip("torch")

DIRECTIONS = [(mindtorch, mindtorch), (mindtorch, torch), (torch, mindtorch)]
IDS = ["mt-mt", "mt-torch", "torch-mt"]


def _objects(L):
    """One object per case, built the same way in library L."""
    rng = np.random.default_rng(0)
    data = rng.standard_normal((3, 4)) * 5
    out = {}
    for d in DTYPES:
        dt = getattr(L, d)
        full = L.tensor(data).to(dt)
        out[f"{d}-0dim"] = full[1, 2]  # a 0-dim view with an offset
        out[f"{d}-empty"] = L.zeros(0, 3, dtype=dt)
        out[f"{d}-T"] = full.t()
        out[f"{d}-step"] = full[::2, 1::2]
    base = L.arange(12.0)
    p = L.nn.Parameter(L.ones(2))
    out["grad_leaf"] = L.ones(3, requires_grad=True)
    out["nonleaf"] = L.ones(3, requires_grad=True) * 2
    out["param_frozen"] = L.nn.Parameter(L.ones(2, 2), requires_grad=False)
    out["param_list"] = [p, L.nn.Parameter(L.zeros(1, 0))]
    out["identity"] = {"a": p, "b": p, "c": [p]}
    out["views"] = (base, base[2:5], base.view(3, 4)[:, 1], base.reshape(2, 6).t())
    out["nested"] = {"x": [1, 2.5, "s", None, True, (base[:2], {"deep": [base[3:4]]})],
                     "y": {1: b"bytes", (1, 2): 1 + 2j}, "z": {1, 2}, "ba": bytearray(b"ab"), "big": 2 ** 70, "nan": float("nan"), "e": [], "d": {}}
    out["meta_types"] = [L.float16, L.Size([2, 0]), L.device("cpu"), L.int64]
    return out


CASES = sorted(_objects(mindtorch))


def _roundtrip(src, dst, obj, **load_kw):
    buf = io.BytesIO()
    src.save(obj, buf)
    buf.seek(0)
    return dst.load(buf, **load_kw)


def _as(L, obj, mt_obj):
    return obj if L is torch else mt_obj


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("src,dst", DIRECTIONS, ids=IDS)
def test_round_trip(src, dst, name):
    tobj, mobj = _objects(torch)[name], _objects(mindtorch)[name]
    loaded = _roundtrip(src, dst, _as(src, tobj, mobj))
    if dst is mindtorch:
        same(loaded, tobj)
    else:  # loaded by torch: compare with what torch itself round-trips
        same(_roundtrip(mindtorch, mindtorch, mobj), loaded)


@pytest.mark.parametrize("src,dst", DIRECTIONS, ids=IDS)
def test_identity_and_shared_storage_survive(src, dst):
    o = _objects(src)
    loaded = _roundtrip(src, dst, {"identity": o["identity"], "views": o["views"]})
    ident = loaded["identity"]
    assert ident["a"] is ident["b"] is ident["c"][0]
    base, part, col, tr = loaded["views"]
    with dst.no_grad():
        base[3] = 100.0
    assert part[1].item() == 100.0 and col[0].item() == 1.0 and tr[3, 0].item() == 100.0


@pytest.mark.parametrize("loc", ["cpu", "device", "dict", "callable", None])
def test_map_location_forms(loc):
    maps = {"cpu": "cpu", "device": mindtorch.device("cpu"), "dict": {"cpu": "cpu"},
            "callable": lambda storage, where: storage, None: None}
    t = _roundtrip(torch, mindtorch, {"w": torch.arange(3.0)}, map_location=maps[loc])
    assert t["w"].tolist() == [0.0, 1.0, 2.0] and t["w"].device.type == "cpu"


class _Custom:
    pass


def _bad_files(tmp_path):
    zipped = io.BytesIO()
    torch.save({"w": torch.ones(2)}, zipped)
    raw = zipped.getvalue()
    return {
        "missing": str(tmp_path / "nope.pt"),
        "directory": str(tmp_path),
        "garbage": io.BytesIO(b"this is not a checkpoint"),
        "empty": io.BytesIO(b""),
        "cut_pickle": io.BytesIO(b"\x80\x02"),
        "truncated": io.BytesIO(raw[: len(raw) // 2]),
        "pickle_custom": io.BytesIO(pickle.dumps(_Custom())),
    }


@pytest.mark.parametrize("case", ["missing", "directory", "garbage", "empty", "cut_pickle", "truncated",
                                  "pickle_custom"])
def test_bad_files(tmp_path, case):
    same_error(lambda: mindtorch.load(_bad_files(tmp_path)[case]),
               lambda: torch.load(_bad_files(tmp_path)[case]))


def test_weights_only_refuses_custom_classes_in_both_directions():
    for L in (mindtorch, torch):
        for load in (mindtorch.load, torch.load):
            buf = io.BytesIO()
            L.save({"obj": _Custom()}, buf)
            buf.seek(0)
            with pytest.raises(pickle.UnpicklingError):
                load(buf)
            buf.seek(0)
            assert isinstance(load(buf, weights_only=False)["obj"], _Custom)


_module_lambda = lambda: 1  # noqa: E731  (not importable by its name: PicklingError)


def test_save_errors(tmp_path):
    same_error(lambda: mindtorch.save({"f": _module_lambda}, io.BytesIO()),
               lambda: torch.save({"f": _module_lambda}, io.BytesIO()))
    same_error(lambda: mindtorch.save(mindtorch.ones(1), str(tmp_path)),
               lambda: torch.save(torch.ones(1), str(tmp_path)))
    same_error(lambda: mindtorch.save(mindtorch.ones(1), str(tmp_path / "no" / "such" / "x.pt")),
               lambda: torch.save(torch.ones(1), str(tmp_path / "no" / "such" / "x.pt")))


# -------------------------------------------------------------- load_state_dict(strict=False)

def _net(L):
    class Net(L.nn.Module):
        def __init__(self, extra=False):
            super().__init__()
            self.lin = L.nn.Linear(3, 2)
            self.bn = L.nn.BatchNorm1d(2)
            self.register_buffer("tmp", L.zeros(1), persistent=False)
            if extra:
                self.head = L.nn.Linear(2, 1)
    return Net


def _report(res):
    return sorted(res.missing_keys), sorted(res.unexpected_keys)


@pytest.mark.parametrize("edit", ["none", "drop", "add", "both", "rename_prefix", "extra_model"])
def test_strict_false_reports_keys(edit):
    out = []
    for L in (mindtorch, torch):
        Net = _net(L)
        sd = Net().state_dict()
        if edit in ("drop", "both"):
            del sd["bn.running_var"], sd["lin.bias"]
        if edit in ("add", "both"):
            sd["ghost.weight"], sd["lin.extra"], sd["tmp"] = L.ones(1), L.ones(1), L.ones(1)
        if edit == "rename_prefix":
            sd = {"module." + k: v for k, v in sd.items()}
        model = Net(extra=edit == "extra_model")
        res = model.load_state_dict(sd, strict=False)
        out.append((_report(res), type(res).__name__, res._fields))
        try:
            model.load_state_dict(sd)
            out.append("ok")
        except RuntimeError as e:
            out.append(str(e).replace("torch.", "").replace("mindtorch.", ""))
    assert out[:2] == out[2:]


def test_strict_false_still_refuses_shape_mismatch():
    msgs = []
    for L in (mindtorch, torch):
        Net = _net(L)
        sd = Net().state_dict()
        sd["lin.weight"] = L.zeros(5, 3)
        sd["bn.num_batches_tracked"] = L.zeros(2)  # a 0-dim buffer given a 1-D value
        with pytest.raises(RuntimeError) as e:
            Net().load_state_dict(sd, strict=False)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]


@pytest.mark.parametrize("assign", [False, True])
def test_load_torch_checkpoint_into_meta_model(assign):
    sd = torch.nn.Linear(3, 2).state_dict()
    path = io.BytesIO()
    torch.save(sd, path)
    path.seek(0)
    with mindtorch.device("meta"):
        m = mindtorch.nn.Linear(3, 2)
    loaded = mindtorch.load(path)
    if assign:
        m.load_state_dict(loaded, assign=True)
    else:
        m = m.to_empty(device="cpu")
        m.load_state_dict(loaded)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(m(mindtorch.tensor(x)).detach().numpy(),
                               torch.nn.functional.linear(torch.tensor(x), sd["weight"], sd["bias"]).numpy(),
                               rtol=1e-6, atol=1e-6)
    assert isinstance(m.weight, mindtorch.nn.Parameter) and m.weight.device.type == "cpu"
