"""nn.Module against PyTorch: registration, iteration, state_dict, modes, conversions, repr.

The same module tree is built with mindtorch and torch (classes made by `classes(lib)`) and
the results compared."""
import copy
import pickle
from collections import OrderedDict

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

torch = pytest.importorskip("torch")


def classes(lib):
    """Small layers written against `lib` (mindtorch or torch) so both trees match."""
    F = lib.nn.functional

    class Lin(lib.nn.Module):
        def __init__(self, i, o, bias=True, device=None, dtype=None):
            super().__init__()
            self.in_features, self.out_features = i, o
            self.weight = lib.nn.Parameter(lib.empty(o, i, device=device, dtype=dtype))
            if bias:
                self.bias = lib.nn.Parameter(lib.empty(o, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
            if self.weight.device.type != "meta":
                with lib.no_grad():
                    self.weight.copy_(lib.linspace(-1, 1, o * i).reshape(o, i))
                    if bias:
                        self.bias.copy_(lib.linspace(-0.5, 0.5, o))

        def forward(self, x):
            return F.linear(x, self.weight, self.bias)

        def extra_repr(self):
            return (f"in_features={self.in_features}, out_features={self.out_features}, "
                    f"bias={self.bias is not None}")

    class Act(lib.nn.Module):
        def forward(self, x):
            return F.relu(x)

    class Norm(lib.nn.Module):
        _version = 2

        def __init__(self, n):
            super().__init__()
            self.weight = lib.nn.Parameter(lib.ones(n))
            self.register_buffer("running_mean", lib.zeros(n))
            self.register_buffer("scratch", lib.zeros(n), persistent=False)
            self.register_buffer("num_batches_tracked", lib.tensor(0))
            self.register_buffer("absent", None)

        def forward(self, x):
            return x * self.weight + self.running_mean

        def extra_repr(self):
            return f"{self.weight.shape[0]}\nsecond line"

    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = Lin(4, 6)
            self.act = Act()
            self.body = lib.nn.Sequential(Lin(6, 6), Act(), Norm(6))
            self.shared = self.fc1                      # the same module twice
            self.blocks = lib.nn.ModuleList([Lin(6, 6, bias=False) for _ in range(3)])
            self.blocks.append(Act())
            self.heads = lib.nn.ModuleDict({"a": Lin(6, 2), "b": Lin(6, 3)})
            self.scale = lib.nn.Parameter(lib.tensor([1.5]))
            self.tied = self.fc1.weight                 # a parameter under two names
            self.empty = None
            self.register_module("none_child", None)

        def forward(self, x):
            x = self.act(self.fc1(x))
            x = self.body(x)
            for b in self.blocks:
                x = b(x)
            return (self.heads["a"](x) * self.scale).sum() + self.heads["b"](x).sum()

    return Lin, Act, Norm, Net


MT, TH = classes(mt), classes(torch)
for _cls in MT:  # module-level names, so pickle finds the classes
    _cls.__qualname__ = "MT" + _cls.__name__
    globals()[_cls.__qualname__] = _cls


def pair(which=3):
    return MT[which](), TH[which]()


def to_mt(t):
    return mt.tensor(t.detach().numpy())


def shapes(items):
    return [(k, tuple(v.shape)) for k, v in items]


# -- registration and iteration ----------------------------------------------------------

@pytest.mark.parametrize("kw", [{}, {"prefix": "model"}, {"recurse": False},
                                {"remove_duplicate": False},
                                {"prefix": "p", "remove_duplicate": False}])
def test_named_parameters_and_buffers(kw):
    m, t = pair()
    assert shapes(m.named_parameters(**kw)) == shapes(t.named_parameters(**kw))
    assert shapes(m.named_buffers(**kw)) == shapes(t.named_buffers(**kw))


def test_iterators():
    m, t = pair()
    assert [tuple(p.shape) for p in m.parameters()] == [tuple(p.shape) for p in t.parameters()]
    assert len(list(m.parameters(recurse=False))) == len(list(t.parameters(recurse=False)))
    assert [tuple(b.shape) for b in m.buffers()] == [tuple(b.shape) for b in t.buffers()]
    assert [n for n, _ in m.named_children()] == [n for n, _ in t.named_children()]
    assert [type(c).__name__ for c in m.children()] == [type(c).__name__ for c in t.children()]
    assert [n for n, _ in m.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in m.named_modules(prefix="x", remove_duplicate=False)] == \
        [n for n, _ in t.named_modules(prefix="x", remove_duplicate=False)]
    assert [type(c).__name__ for c in m.modules()] == [type(c).__name__ for c in t.modules()]
    # shared modules and parameters are the same objects
    assert m.shared is m.fc1 and m.tied is m.fc1.weight


def test_state_dict_keys_metadata_and_values():
    m, t = pair()
    sd, tsd = m.state_dict(), t.state_dict()
    assert type(sd) is OrderedDict
    assert list(sd) == list(tsd)
    assert dict(sd._metadata) == dict(tsd._metadata)
    for k in sd:
        assert type(sd[k]) is mt.Tensor and not sd[k].requires_grad
        np.testing.assert_array_equal(sd[k].numpy(), tsd[k].numpy())
    kv = m.state_dict(keep_vars=True)
    assert kv["fc1.weight"] is m.fc1.weight
    assert list(m.state_dict(prefix="pre.")) == list(t.state_dict(prefix="pre."))
    dest = OrderedDict()
    assert m.state_dict(destination=dest) is dest and list(dest) == list(tsd)
    # values share the parameters' data (detached views of them)
    with mt.no_grad():
        m.fc1.bias.add_(1)
    assert sd["fc1.bias"].tolist() == m.fc1.bias.tolist()


def test_getattr_and_dir():
    m, t = pair()
    assert m.fc1.weight is m._modules["fc1"]._parameters["weight"]
    assert m.body[2].running_mean is m.body[2]._buffers["running_mean"]
    assert m.empty is None and m.none_child is None and m.fc1.bias is not None
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        m.nope
    with pytest.raises(AttributeError):
        t.nope
    d = dir(m)
    for name in ("fc1", "scale", "tied", "forward", "training", "empty"):
        assert name in d
    assert d == sorted(d)
    assert [k for k in dir(m.body) if k.isdigit()] == []


def test_assignment_moves_between_tables():
    for lib, mod in ((mt, mt.nn.Module()), (torch, torch.nn.Module())):
        mod.x = lib.nn.Parameter(lib.ones(1))
        assert "x" in mod._parameters
        mod.register_buffer("b", lib.ones(1))
        mod.b = lib.zeros(2)                    # a tensor assigned to a buffer name
        assert mod._buffers["b"].shape == (2,)
        mod.c = lib.ones(1)                     # a plain tensor is a plain attribute
        assert "c" in mod.__dict__ and "c" not in mod._buffers
        mod.c = lib.nn.Parameter(lib.ones(1))   # becomes a parameter
        assert "c" not in mod.__dict__ and "c" in mod._parameters
        mod.b = lib.nn.Linear(1, 1) if lib is torch else MT[0](1, 1)
        assert "b" in mod._modules and "b" not in mod._buffers
        mod.x = None                            # parameter names accept None
        assert mod._parameters["x"] is None
        mod.nb = lib.nn.Buffer(lib.ones(1), persistent=False)
        assert "nb" in mod._buffers and "nb" in mod._non_persistent_buffers_set
        assert "nb" not in mod.state_dict()
        mod.nb = lib.zeros(1)                   # keeps being non-persistent
        assert "nb" in mod._non_persistent_buffers_set
        del mod.nb
        assert "nb" not in mod._buffers
        del mod.c, mod.b
        assert not hasattr(mod, "c") and not hasattr(mod, "b")


@pytest.mark.parametrize("case", [
    lambda lib, m: setattr(m, "fc1", lib.ones(1)),          # tensor to a module name
    lambda lib, m: setattr(m, "scale", lib.ones(1)),        # tensor to a parameter name
    lambda lib, m: setattr(m.body[2], "running_mean", 3),   # non-tensor to a buffer name
    lambda lib, m: m.register_parameter("w", lib.ones(1)),
    lambda lib, m: m.register_parameter("a.b", None),
    lambda lib, m: m.register_parameter("", None),
    lambda lib, m: m.register_parameter(1, None),
    lambda lib, m: m.register_parameter("forward", None),
    lambda lib, m: m.register_parameter("fc1", None),
    lambda lib, m: m.register_parameter(
        "w", lib.nn.Parameter(lib.ones(1, requires_grad=True)) * 2),
    lambda lib, m: m.register_buffer("a.b", None),
    lambda lib, m: m.register_buffer("", None),
    lambda lib, m: m.register_buffer(3, None),
    lambda lib, m: m.register_buffer("scale", None),
    lambda lib, m: m.register_buffer("x", [1.0]),
    lambda lib, m: m.add_module("x", lib.ones(1)),
    lambda lib, m: m.add_module(1, lib.nn.Module()),
    lambda lib, m: m.add_module("a.b", lib.nn.Module()),
    lambda lib, m: m.add_module("", lib.nn.Module()),
    lambda lib, m: m.add_module("scale", lib.nn.Module()),
    lambda lib, m: m.train("yes"),
    lambda lib, m: m.get_submodule("body.nope"),
    lambda lib, m: m.get_submodule("scale.x"),
    lambda lib, m: m.get_submodule("scale"),
    lambda lib, m: m.get_parameter("body.0.nope"),
    lambda lib, m: m.get_parameter("body.2.running_mean"),
    lambda lib, m: m.get_buffer("body.2.weight"),
    lambda lib, m: m.get_buffer("body.2.nope"),
    lambda lib, m: m.set_submodule("", lib.nn.Module()),
    lambda lib, m: m.set_submodule("act", 3),
    lambda lib, m: m.set_submodule("body.new", lib.nn.Module(), strict=True),
    lambda lib, m: m.set_submodule("scale", lib.nn.Module()),
    lambda lib, m: lib.nn.Module(3),
    lambda lib, m: lib.nn.Module(x=3),
    lambda lib, m: lib.nn.Module().to(lib.int64),
    lambda lib, m: lib.nn.Module()(lib.ones(1)),
])
def test_errors(case):
    m, t = pair()
    try:
        case(torch, t)
    except Exception as e:
        expected, msg = type(e), str(e)
    else:
        raise AssertionError("torch did not raise")
    with pytest.raises(expected) as info:
        case(mt, m)
    assert str(info.value).replace("mindtorch", "torch") == msg


def test_assign_before_init():
    class Early(nn.Module):
        def __init__(self, what):
            self.x = what
            super().__init__()

    for value, text in ((nn.Parameter(mt.ones(1)), "cannot assign parameters before"),
                        (nn.Module(), "cannot assign module before Module.__init__() call")):
        with pytest.raises(AttributeError, match=text.replace("(", r"\(").replace(")", r"\)")):
            Early(value)

    class EarlyBuffer(nn.Module):
        def __init__(self):
            self.register_buffer("b", mt.ones(1))

    with pytest.raises(AttributeError, match="cannot assign buffer before"):
        EarlyBuffer()
    Early(3)  # plain attributes are fine


def test_missing_forward_message():
    with pytest.raises(NotImplementedError,
                       match=r'Module \[Module\] is missing the required "forward" function'):
        nn.Module()(mt.ones(1))


def test_get_submodule_parameter_buffer():
    m, t = pair()
    assert m.get_submodule("") is m
    assert m.get_submodule("body.0") is m.body[0]
    assert m.get_parameter("body.0.weight") is m.body[0].weight
    assert m.get_parameter("scale") is m.scale
    assert m.get_buffer("body.2.running_mean") is m.body[2].running_mean
    new = MT[1]()
    m.set_submodule("body.1", new)
    assert m.body[1] is new


def test_call_super_init():
    class Base:
        def __init__(self, a, b=0):
            self.seen = (a, b)

    class Mixed(nn.Module, Base):
        call_super_init = True

    x = Mixed(1, b=2)
    assert x.seen == (1, 2) and x.training


# -- state dict loading ------------------------------------------------------------------

def load_both(m, t, sd_builder, **kw):
    """load_state_dict on both; returns (mindtorch result or exception, torch's)."""
    out = []
    for mod, lib in ((m, mt), (t, torch)):
        src = sd_builder(lib)
        try:
            out.append(mod.load_state_dict(src, **kw))
        except Exception as e:
            out.append(e)
    return out


def torch_sd():
    return TH[3]().state_dict()


@pytest.mark.parametrize("edit,kw", [
    (lambda sd: sd, {}),
    (lambda sd: {k: v for k, v in sd.items() if "heads" not in k}, {}),
    (lambda sd: {**sd, "extra.weight": sd["scale"], "fc1.extra": sd["scale"]}, {}),
    (lambda sd: {**{k: v for k, v in sd.items() if k != "scale"}, "body.9.w": sd["scale"]},
     {}),
    (lambda sd: {**{k: v for k, v in sd.items() if k != "scale"}, "body.9.w": sd["scale"]},
     {"strict": False}),
    (lambda sd: {**sd, "fc1.bias": sd["fc1.bias"][:3]}, {}),
    (lambda sd: {**sd, "fc1.bias": sd["fc1.bias"][:3], "nope": sd["scale"]}, {}),
    (lambda sd: {**sd, "fc1.bias": sd["fc1.bias"][:3]}, {"strict": False}),
    (lambda sd: {**sd, "body.2.num_batches_tracked": sd["scale"].new_zeros(1)}, {}),
    (lambda sd: {**sd, "scale": 3.0}, {}),
    (lambda sd: {k: v for k, v in sd.items() if k != "body.2.running_mean"}, {}),
    (lambda sd: {**sd, "body.2.scratch": sd["body.2.running_mean"]}, {}),
])
def test_load_state_dict_reports(edit, kw):
    m, t = pair()
    src = edit(torch_sd())
    res_t = None
    try:
        res_t = t.load_state_dict(src, **kw)
    except Exception as e:
        res_t = e
    conv = {k: (to_mt(v) if isinstance(v, torch.Tensor) else v) for k, v in src.items()}
    try:
        res_m = m.load_state_dict(conv, **kw)
    except Exception as e:
        res_m = e
    assert type(res_m) is type(res_t) or (isinstance(res_t, tuple) and
                                          type(res_m).__name__ == "_IncompatibleKeys")
    if isinstance(res_t, Exception):
        assert str(res_m) == str(res_t).replace("torch.Size", "torch.Size")
    else:
        assert res_m.missing_keys == res_t.missing_keys
        assert res_m.unexpected_keys == res_t.unexpected_keys
        assert repr(res_m) == repr(res_t)
        assert res_m == res_t
        for (k, v), (k2, v2) in zip(m.state_dict().items(), t.state_dict().items()):
            assert k == k2
            np.testing.assert_array_equal(v.numpy(), v2.numpy())


def test_load_state_dict_copies_in_place():
    m, t = pair()
    w = m.fc1.weight
    sd = {k: to_mt(v) * 0 + 2 for k, v in t.state_dict().items()}
    m.load_state_dict(sd)
    assert m.fc1.weight is w and w.tolist()[0][0] == 2.0 and w.requires_grad
    sd["fc1.weight"].fill_(5)
    assert w.tolist()[0][0] == 2.0  # copied, not aliased
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        m.load_state_dict([("a", 1)])


def test_load_state_dict_assign():
    m = MT[0](3, 2)
    w = mt.ones(2, 3, dtype=mt.float64)
    res = m.load_state_dict({"weight": w, "bias": mt.zeros(2)}, assign=True)
    assert repr(res) == "<All keys matched successfully>"
    assert type(m.weight) is nn.Parameter and m.weight.dtype is mt.float64
    assert m.weight.requires_grad
    w.fill_(7)
    assert m.weight.tolist()[0][0] == 7.0  # assign keeps the given data


def test_load_state_dict_meta_assign():
    with mt.device("meta"):
        m = MT[3]()
    assert all(p.is_meta for p in m.parameters())
    sd = {k: to_mt(v) for k, v in TH[3]().state_dict().items()}
    m.load_state_dict(sd, assign=True)
    assert not any(p.is_meta for p in m.parameters())
    assert m.shared is m.fc1
    x = torch.linspace(-1, 1, 8).reshape(2, 4)
    t = TH[3]()
    np.testing.assert_allclose(m(to_mt(x)).item(), t(x).item(), rtol=1e-6)


def test_load_from_state_dict_override_and_hooks():
    class Versioned(MT[2]):
        def _load_from_state_dict(self, sd, prefix, meta, strict, missing, unexpected, errors):
            key = prefix + "num_batches_tracked"
            if meta.get("version", 1) < 2 and key not in sd:
                sd[key] = mt.tensor(7)
            super()._load_from_state_dict(sd, prefix, meta, strict, missing, unexpected,
                                          errors)

    m = nn.Sequential(Versioned(2))
    sd = m.state_dict()
    del sd["0.num_batches_tracked"]
    sd._metadata["0"]["version"] = 1
    seen = []
    m[0].register_load_state_dict_post_hook(lambda mod, keys: seen.append(
        (type(mod).__name__, list(keys.missing_keys))))
    m[0].register_load_state_dict_pre_hook(lambda mod, *args: seen.append(args[1]))
    assert repr(m.load_state_dict(sd)) == "<All keys matched successfully>"
    assert m[0].num_batches_tracked.item() == 7
    assert seen == ["0.", ("Versioned", [])]


def test_state_dict_hooks():
    m = MT[0](2, 2)
    calls = []
    m.register_state_dict_pre_hook(lambda mod, prefix, keep: calls.append(("pre", prefix)))
    m.register_state_dict_post_hook(lambda mod, sd, prefix, meta: calls.append(("post",
                                                                                list(sd))))
    sd = nn.Sequential(m).state_dict()
    assert calls == [("pre", "0."), ("post", ["0.weight", "0.bias"])]
    assert list(sd) == ["0.weight", "0.bias"]


def test_extra_state():
    class WithExtra(nn.Module):
        def __init__(self):
            super().__init__()
            self.value = 1

        def get_extra_state(self):
            return {"value": self.value}

        def set_extra_state(self, state):
            self.value = state["value"]

    m = nn.Sequential(WithExtra())
    sd = m.state_dict()
    assert list(sd) == ["0._extra_state"]
    sd["0._extra_state"] = {"value": 5}
    m.load_state_dict(sd)
    assert m[0].value == 5
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "0._extra_state"'):
        m.load_state_dict({})
    with pytest.raises(RuntimeError, match="Unexpected key"):
        nn.Sequential(nn.Module()).load_state_dict({"0._extra_state": 1})


# -- repr, modes, gradients, conversion ------------------------------------------------

def test_repr_matches_torch():
    m, t = pair()
    assert repr(m) == repr(t)
    assert str(m.body) == str(t.body)
    assert repr(nn.Module()) == repr(torch.nn.Module()) == "Module()"
    assert repr(MT[2](3)) == repr(TH[2](3))  # multi-line extra_repr


def test_train_eval():
    m, t = pair()
    assert m.eval() is m
    assert [x.training for x in m.modules()] == [x.training for x in t.eval().modules()]
    m.body.train()
    t.body.train()
    assert [x.training for x in m.modules()] == [x.training for x in t.modules()]
    assert m.train(False) is m and not m.body[0].training


def test_forward_backward_matches_torch():
    m, t = pair()
    m.double()
    t.double()
    x = torch.linspace(-2, 2, 12, dtype=torch.float64).reshape(3, 4)
    out_m, out_t = m(to_mt(x)), t(x)
    np.testing.assert_allclose(out_m.item(), out_t.item(), rtol=1e-12)
    out_m.backward()
    out_t.backward()
    for (n, p), (n2, q) in zip(m.named_parameters(), t.named_parameters()):
        assert n == n2
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_zero_grad():
    m, t = pair()
    m(mt.ones(2, 4)).backward()
    m.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.any() for p in m.parameters())
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())
    # a gradient with history is detached before being zeroed
    p = m.scale
    p.grad = mt.ones(1, requires_grad=True) * 2
    m.zero_grad(set_to_none=False)
    assert p.grad.grad_fn is None and p.grad.tolist() == [0.0]


def test_requires_grad_and_apply():
    m = MT[3]()
    assert m.requires_grad_(False) is m
    assert not any(p.requires_grad for p in m.parameters())
    m.requires_grad_()
    assert all(p.requires_grad for p in m.parameters())
    seen = []
    assert m.apply(lambda mod: seen.append(type(mod).__name__)) is m
    t = TH[3]()
    tseen = []
    t.apply(lambda mod: tseen.append(type(mod).__name__))
    assert seen == tseen


@pytest.mark.parametrize("call,dtype", [
    (lambda m: m.double(), "float64"), (lambda m: m.half(), "float16"),
    (lambda m: m.bfloat16(), "bfloat16"), (lambda m: m.double().float(), "float32"),
    (lambda m: m.to(mt.float64), "float64"), (lambda m: m.to("cpu", mt.float64), "float64"),
    (lambda m: m.to(dtype=mt.float64), "float64"), (lambda m: m.to(device="cpu"), "float32"),
    (lambda m: m.to(mt.ones(1, dtype=mt.float64)), "float64"), (lambda m: m.cpu(), "float32"),
])
def test_dtype_conversions(call, dtype):
    m = MT[3]()
    params = list(m.parameters())
    m.scale.grad = mt.ones(1)
    assert call(m) is m
    assert list(m.parameters()) == params  # the same Parameter objects, converted in place
    assert all(str(p.dtype) == f"torch.{dtype}" for p in m.parameters())
    assert all(type(p) is nn.Parameter and p.requires_grad for p in m.parameters())
    assert str(m.scale.grad.dtype) == f"torch.{dtype}"
    # integer buffers keep their dtype; float buffers follow
    assert m.body[2].num_batches_tracked.dtype is mt.int64
    assert str(m.body[2].running_mean.dtype) == f"torch.{dtype}"
    assert m.tied is m.fc1.weight


def test_type_converts_every_tensor():
    m, t = pair()
    m.type(mt.float64)
    t.type(torch.float64)
    assert [str(b.dtype) for b in m.buffers()] == [str(b.dtype) for b in t.buffers()]


def test_to_errors():
    m = MT[0](2, 2)
    with pytest.raises(TypeError, match="nn.Module.to only accepts floating point"):
        m.to(mt.int32)
    with pytest.raises(TypeError):
        m.to("cpu", "float")
    with pytest.warns(UserWarning, match="Complex modules"):
        m.to(mt.complex64)
    assert m.weight.dtype is mt.complex64


def test_meta_construction_and_to_empty():
    with mt.device("meta"):
        m = MT[3]()
    assert all(p.is_meta for p in m.parameters()) and all(b.is_meta for b in m.buffers())
    assert shapes(m.named_parameters()) == shapes(TH[3]().named_parameters())
    out = m(mt.empty(5, 4, device="meta"))
    assert out.is_meta and out.shape == ()
    m2 = MT[0](3, 5, device="meta", dtype=mt.float64)
    assert m2.weight.is_meta and m2.weight.dtype is mt.float64
    with pytest.raises(NotImplementedError, match="to_empty"):
        MT[0](2, 2, device="meta").to("cpu")
    params = list(m.parameters())
    assert m.to_empty(device="cpu") is m
    assert list(m.parameters()) == params and not any(p.is_meta for p in params)
    assert all(p.requires_grad for p in params)
    assert m.body[2].num_batches_tracked.dtype is mt.int64
    assert m.shared is m.fc1 and m.tied is m.fc1.weight
    m3 = MT[0](2, 2, device="meta")
    m3.to_empty(device="cpu", recurse=False)
    assert m3.weight.device.type == "cpu"
    m4 = nn.Sequential(MT[0](2, 2, device="meta"))
    m4.to_empty(device="cpu", recurse=False)
    assert m4[0].weight.is_meta  # children untouched


def test_deepcopy_and_pickle():
    m = MT[3]()
    m.register_forward_hook(_module_level_hook)
    for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert type(clone) is type(m) and repr(clone) == repr(m)
        assert clone.shared is clone.fc1 and clone.tied is clone.fc1.weight
        assert clone.fc1.weight is not m.fc1.weight
        assert type(clone.fc1.weight) is nn.Parameter and clone.fc1.weight.requires_grad
        assert list(clone.state_dict()) == list(m.state_dict())
        for a, b in zip(clone.state_dict().values(), m.state_dict().values()):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert "scratch" in clone.body[2]._non_persistent_buffers_set
        assert len(clone._forward_hooks) == 1
        x = mt.ones(2, 4)
        assert clone(x).item() == m(x).item()


def _module_level_hook(module, args, output):
    return None


def test_setstate_fills_missing_tables():
    m = MT[0](2, 2)
    state = m.__dict__.copy()
    for key in ("_forward_hooks_always_called", "_backward_pre_hooks",
                "_non_persistent_buffers_set", "_state_dict_pre_hooks"):
        del state[key]
    fresh = MT[0].__new__(MT[0])
    fresh.__setstate__(state)
    assert fresh(mt.ones(1, 2)).shape == (1, 2)
    assert list(fresh.state_dict()) == ["weight", "bias"]
