"""mindtorch.utils.safetensors against safetensors.torch: every dtype as 0-dim/empty/2-D in
both directions, names and metadata errors, shared tensors, save_model/load_model reports."""
import pytest

import mindtorch
from reference import same_error

torch = pytest.importorskip("torch")
ts = pytest.importorskip("safetensors.torch")
import mindtorch.utils.safetensors as ms  # noqa: E402

DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
          "bool", "complex64"]
BOTH = ((mindtorch, ms), (torch, ts))


def _tensors(L, dt):
    dt = getattr(L, dt)
    return {"a": (L.arange(6) % 3).reshape(2, 3).to(dt), "s": L.tensor(1).to(dt), "e": L.zeros(0, 2).to(dt)}


def _plain(d):
    return {k: (str(v.dtype).split(".")[-1], tuple(v.shape),
                v.tolist() if v.dtype in (torch.bool, mindtorch.bool) or v.is_complex() else v.double().tolist())
            for k, v in d.items()}


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("writer,reader", [(ms, ms), (ms, ts), (ts, ms)], ids=["mt-mt", "mt-st", "st-mt"])
def test_dtype_round_trip(tmp_path, dt, writer, reader):
    src = _tensors(mindtorch if writer is ms else torch, dt)
    path = str(tmp_path / "x.safetensors")
    writer.save_file(src, path, metadata={"format": "pt"})
    loaded = reader.load_file(path)
    assert _plain(loaded) == _plain(_tensors(torch, dt))
    assert list(loaded) == sorted(src)


BAD = [
    lambda L, S, p: S.save_file({"a": L.ones(2)}, p, metadata={"k": 1}),
    lambda L, S, p: S.save_file({1: L.ones(2)}, p),
    lambda L, S, p: S.save_file([L.ones(2)], p),
    lambda L, S, p: S.save_file({"a": [1.0]}, p),
    lambda L, S, p: (lambda b: S.save_file({"a": b, "b": b}, p))(L.ones(4)),
    lambda L, S, p: (lambda b: S.save_file({"a": b[:2], "b": b[2:]}, p))(L.ones(4)),
    lambda L, S, p: S.load(b"garbage"),
    lambda L, S, p: S.load(b""),
    lambda L, S, p: S.load_file(p + ".missing"),
    lambda L, S, p: S.save_file({}, p),
    lambda L, S, p: S.save_file({"a": L.ones(2, requires_grad=True)}, p),
]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_errors(tmp_path, i):
    p = str(tmp_path / "bad.safetensors")
    same_error(lambda: BAD[i](mindtorch, ms, p), lambda: BAD[i](torch, ts, p))


def _tied(L):
    m = L.nn.Sequential(L.nn.Embedding(3, 2), L.nn.Linear(2, 3))
    m[1].weight = m[0].weight
    return m


@pytest.mark.parametrize("case", ["tied", "missing_strict", "missing_lenient", "shape"])
def test_save_and_load_model(tmp_path, case):
    out = []
    for L, S in BOTH:
        p = str(tmp_path / f"{case}-{L.__name__}.safetensors")
        torch.manual_seed(0)
        src = _tied(L) if case == "tied" else L.nn.Linear(2, 3, bias=case == "shape")
        S.save_model(src, p)
        dst = _tied(L) if case == "tied" else L.nn.Linear(2, 4 if case == "shape" else 3)
        try:
            res = S.load_model(dst, p, strict=case != "missing_lenient")
            out.append((sorted(res[0]), sorted(res[1])) if isinstance(res, tuple) else res)
        except Exception as e:
            out.append(next(c for c in type(e).__mro__ if c.__module__ == "builtins").__name__)
    assert out[0] == out[1]
