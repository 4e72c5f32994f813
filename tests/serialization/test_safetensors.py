"""mindtorch.utils.safetensors against safetensors.torch."""
import numpy as np
import pytest
import torch

import mindtorch as mt

st = pytest.importorskip("safetensors.torch")
ms = pytest.importorskip("mindtorch.utils.safetensors")

from ser_helpers import host  # noqa: E402

DTYPES = ["float64", "float32", "float16", "bfloat16", "int64", "int32", "int16", "int8",
          "uint8", "bool", "complex64"]


def _pairs():
    rng = np.random.default_rng(0)
    out = {}
    for d in DTYPES:
        values = rng.standard_normal((3, 4)) * 10
        if d == "complex64":
            values = values + 1j * rng.standard_normal((3, 4))
        t = torch.from_numpy(values).to(getattr(torch, d))
        out[d] = (mt.tensor(host(t)).to(getattr(mt, d)), t)
    return out


def _same(m, t):
    assert str(m.dtype) == str(t.dtype) and tuple(m.shape) == tuple(t.shape)
    np.testing.assert_array_equal(host(m), host(t))


def test_mindtorch_bytes_load_in_safetensors_torch():
    pairs = _pairs()
    data = ms.save({k: m for k, (m, _) in pairs.items()}, metadata={"format": "pt"})
    loaded = st.load(data)
    assert sorted(loaded) == sorted(pairs)
    for k, (_, t) in pairs.items():
        _same(ms.load(data)[k], t)
        assert torch.equal(loaded[k], t)


def test_safetensors_torch_files_load(tmp_path):
    pairs = _pairs()
    st.save_file({k: t for k, (_, t) in pairs.items()}, tmp_path / "t.safetensors",
                 metadata={"a": "b"})
    loaded = ms.load_file(tmp_path / "t.safetensors")
    for k, (_, t) in pairs.items():
        _same(loaded[k], t)
        assert loaded[k].device.type == "cpu"
    loaded["float32"].add_(1)  # writable
    meta = ms.load_file(str(tmp_path / "t.safetensors"), device="meta")
    assert meta["int8"].device.type == "meta" and meta["int8"].shape == (3, 4)
    for k, (_, t) in pairs.items():
        _same(ms.load(st.save({k: t}))[k], t)


def test_file_round_trip_and_layouts(tmp_path):
    base = mt.arange(24.0).reshape(4, 6)
    tensors = {"t": base.t(), "step": mt.arange(10)[::3], "scalar": mt.tensor(1.5),
               "empty": mt.zeros(0, 3), "bf": mt.arange(6.0).to(mt.bfloat16).reshape(2, 3).t(),
               "mask": mt.tensor([[True, False], [False, True]]).t()}
    for k, v in tensors.items():  # non-contiguous tensors are refused, as safetensors.torch
        if not v.is_contiguous():
            with pytest.raises(ValueError, match=f"non contiguous tensor: `{k}`"):
                ms.save_file({k: v}, tmp_path / "n.safetensors")
    tensors = {k: v.contiguous() for k, v in tensors.items()}
    ms.save_file(tensors, tmp_path / "m.safetensors", metadata={"k": "v"})
    back = ms.load_file(tmp_path / "m.safetensors")
    theirs = st.load_file(tmp_path / "m.safetensors")
    for k, v in tensors.items():
        assert back[k].dtype == v.dtype and back[k].shape == v.shape
        assert back[k].is_contiguous()
        np.testing.assert_array_equal(host(back[k]), host(v))
        _same(v, theirs[k])
    from safetensors import safe_open
    with safe_open(tmp_path / "m.safetensors", framework="pt") as f:
        assert f.metadata() == {"k": "v"}


def test_errors_like_safetensors_torch():
    x = mt.zeros(4)
    for tensors in ({"a": x, "b": x}, {"a": x, "b": x[1:3]}):
        with pytest.raises(RuntimeError, match="Some tensors share memory"):
            ms.save(tensors)
    ms.save({"a": x[:2], "b": x[2:]})  # disjoint parts of one storage are fine
    with pytest.raises(ValueError, match="Expected a dict of"):
        ms.save([x])
    with pytest.raises(ValueError, match="Key `a` is invalid"):
        ms.save({"a": np.zeros(2)})
    with pytest.raises(KeyError):
        ms.save({"a": mt.zeros(2, dtype=mt.complex128)})
    with pytest.raises(KeyError):
        st.save({"a": torch.zeros(2, dtype=torch.complex128)})


class Tied(mt.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = mt.nn.Linear(3, 5, bias=False)
        self.head = mt.nn.Linear(3, 5, bias=False)
        self.head.weight = self.emb.weight


class TiedTorch(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Linear(3, 5, bias=False)
        self.head = torch.nn.Linear(3, 5, bias=False)
        self.head.weight = self.emb.weight


def test_save_and_load_model_with_tied_weights(tmp_path):
    model = Tied()
    with pytest.raises(RuntimeError, match="Some tensors share memory"):
        ms.save_file(model.state_dict(), tmp_path / "x.safetensors")
    ms.save_model(model, tmp_path / "tied.safetensors")
    with open(tmp_path / "tied.safetensors", "rb") as fh:
        names = st.load(fh.read()).keys()
    assert sorted(names) == ["emb.weight"]
    fresh = Tied()
    assert ms.load_model(fresh, tmp_path / "tied.safetensors") == (set(), [])
    assert fresh.head.weight.tolist() == model.emb.weight.tolist()
    # interop: the same file in safetensors.torch, and its file in mindtorch
    tmodel = TiedTorch()
    st.load_model(tmodel, tmp_path / "tied.safetensors")
    np.testing.assert_array_equal(host(tmodel.head.weight), host(model.emb.weight))
    st.save_model(tmodel, tmp_path / "torch_tied.safetensors")
    again = Tied()
    ms.load_model(again, tmp_path / "torch_tied.safetensors")
    np.testing.assert_array_equal(host(again.emb.weight), host(tmodel.emb.weight))
    with pytest.raises(RuntimeError, match='Error\\(s\\) in loading state_dict for Linear:\n'
                                           '    Missing key\\(s\\) in state_dict: "bias", '
                                           '"weight"'):
        ms.load_model(mt.nn.Linear(3, 5), tmp_path / "tied.safetensors")
    missing, unexpected = ms.load_model(mt.nn.Linear(3, 5), tmp_path / "tied.safetensors",
                                        strict=False)
    assert missing == {"weight", "bias"} and unexpected == ["emb.weight"]


def test_load_without_torch_installed(tmp_path):
    import subprocess
    import sys
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3).to(torch.bfloat16)
    st.save_file({"w": t, "m": torch.tensor([True, False])}, tmp_path / "x.safetensors")
    script = ("import sys; sys.modules['torch'] = None\n"
              "import mindtorch.utils.safetensors as ms\n"
              f"d = ms.load_file({str(tmp_path / 'x.safetensors')!r})\n"
              "print(d['w'].dtype, d['w'].float().tolist(), d['m'].tolist())\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[0] == \
        "torch.bfloat16 [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] [True, False]"
