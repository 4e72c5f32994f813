"""Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict against PyTorch: the
same operations on both, comparing names, order, reprs and errors."""
from collections import OrderedDict

import numpy as np
import pytest

import mindtorch as mt
from mindtorch import nn

from test_module import MT, TH, to_mt

torch = pytest.importorskip("torch")


def layers(C, n=4):
    """Distinct small layers: Lin(1, 1), Lin(1, 2), ... and an Act."""
    return [C[0](1, i + 1) for i in range(n - 1)] + [C[1]()]


def describe(x):
    """A comparable picture of a container (or of any result of an operation on one)."""
    if isinstance(x, (mt.nn.Module, torch.nn.Module)):
        return (type(x).__name__, repr(x), [n for n, _ in x.named_parameters()],
                [n for n, _ in x.named_modules()], list(x.state_dict()))
    if isinstance(x, (mt.Tensor, torch.Tensor)):
        return ("T", tuple(x.shape), str(x.dtype), type(x).__name__)
    if isinstance(x, (list, tuple)):
        return [describe(v) for v in x]
    return x


def same(op):
    """op(lib, C) on both libraries; results and exceptions must match (messages with
    'torch' for 'mindtorch')."""
    out = []
    for lib, C in ((mt, MT), (torch, TH)):
        try:
            out.append(("ok", describe(op(lib, C))))
        except Exception as e:
            out.append(("error", type(e).__name__, str(e).replace("mindtorch", "torch")
                        .replace("test_module.MT", "test_module.")))
    assert out[0] == out[1]
    return out[0]


SEQUENTIAL_OPS = [
    lambda lib, C: lib.nn.Sequential(*layers(C)),
    lambda lib, C: lib.nn.Sequential(OrderedDict([("a", C[0](2, 3)), ("b", C[1]())])),
    lambda lib, C: lib.nn.Sequential(),
    lambda lib, C: lib.nn.Sequential(*layers(C))[1],
    lambda lib, C: lib.nn.Sequential(*layers(C))[-1],
    lambda lib, C: lib.nn.Sequential(*layers(C))[1:3],
    lambda lib, C: lib.nn.Sequential(*layers(C))[::-2],
    lambda lib, C: lib.nn.Sequential(OrderedDict([("a", C[0](2, 3)), ("b", C[1]())]))[1:],
    lambda lib, C: lib.nn.Sequential(*layers(C))[4],
    lambda lib, C: lib.nn.Sequential(*layers(C))[-5],
    lambda lib, C: lib.nn.Sequential(*layers(C))["0"],
    lambda lib, C: len(lib.nn.Sequential(*layers(C))),
    lambda lib, C: lib.nn.Sequential(*layers(C)).append(C[0](5, 5)),
    lambda lib, C: lib.nn.Sequential(*layers(C)).insert(1, C[0](7, 7)),
    lambda lib, C: lib.nn.Sequential(*layers(C)).insert(-1, C[0](7, 7)),
    lambda lib, C: lib.nn.Sequential(*layers(C)).insert(4, C[0](7, 7)),
    lambda lib, C: lib.nn.Sequential(*layers(C)).insert(5, C[0](7, 7)),
    lambda lib, C: lib.nn.Sequential(*layers(C)).insert(0, 3),
    lambda lib, C: lib.nn.Sequential(*layers(C)).extend([C[0](8, 8), C[1]()]),
    lambda lib, C: lib.nn.Sequential(*layers(C)) + lib.nn.Sequential(C[0](9, 9)),
    lambda lib, C: lib.nn.Sequential(*layers(C)) + [C[0](9, 9)],
    lambda lib, C: lib.nn.Sequential(*layers(C, 2)) * 2,
    lambda lib, C: 3 * lib.nn.Sequential(*layers(C, 2)),
    lambda lib, C: lib.nn.Sequential(*layers(C, 2)) * 0,
    lambda lib, C: lib.nn.Sequential(*layers(C, 2)) * 1.5,
]


def _mutate(lib, C, how):
    s = lib.nn.Sequential(*layers(C))
    result = how(s)
    return [s, result]


SEQUENTIAL_MUTATIONS = [
    lambda s: s.pop(1),
    lambda s: s.pop(-1),
    lambda s: s.__delitem__(0),
    lambda s: s.__delitem__(slice(1, 3)),
    lambda s: s.__delitem__(7),
    lambda s: s.__setitem__(2, s[0]),
    lambda s: s.__setitem__(-1, s[0]),
    lambda s: s.__setitem__(9, s[0]),
    lambda s: s.__iadd__(type(s)(s[0])),
    lambda s: s.__imul__(2),
]


@pytest.mark.parametrize("op", SEQUENTIAL_OPS)
def test_sequential(op):
    same(op)


@pytest.mark.parametrize("how", SEQUENTIAL_MUTATIONS)
def test_sequential_mutations(how):
    same(lambda lib, C: _mutate(lib, C, how))


def test_sequential_forward_and_iter():
    s, t = nn.Sequential(MT[0](3, 4), MT[1](), MT[0](4, 2)), \
        torch.nn.Sequential(TH[0](3, 4), TH[1](), TH[0](4, 2))
    x = torch.linspace(-1, 1, 6).reshape(2, 3)
    np.testing.assert_allclose(s(to_mt(x)).detach().numpy(), t(x).detach().numpy(), rtol=1e-6)
    assert [type(m).__name__ for m in s] == [type(m).__name__ for m in t]
    assert "0" not in dir(s) and "forward" in dir(s)


MODULE_LIST_OPS = [
    lambda lib, C: lib.nn.ModuleList(layers(C)),
    lambda lib, C: lib.nn.ModuleList(),
    lambda lib, C: lib.nn.ModuleList([C[0](2, 2) for _ in range(3)] + [C[1](), C[1](),
                                                                       C[0](2, 2)]),
    lambda lib, C: lib.nn.ModuleList([lib.nn.Sequential(C[0](2, 2), C[1]())] * 2),
    lambda lib, C: lib.nn.ModuleList(layers(C))[2],
    lambda lib, C: lib.nn.ModuleList(layers(C))[-1],
    lambda lib, C: lib.nn.ModuleList(layers(C))[1:],
    lambda lib, C: lib.nn.ModuleList(layers(C))[9],
    lambda lib, C: lib.nn.ModuleList(layers(C))[1.0],
    lambda lib, C: lib.nn.ModuleList(layers(C)) + lib.nn.ModuleList(layers(C, 2)),
    lambda lib, C: lib.nn.ModuleList(layers(C)) + [C[1]()],
    lambda lib, C: lib.nn.ModuleList(layers(C)).extend(layers(C, 2)),
    lambda lib, C: lib.nn.ModuleList(layers(C)).extend(3),
    lambda lib, C: lib.nn.ModuleList(layers(C)).append(C[1]()),
    lambda lib, C: lib.nn.ModuleList([3]),
    lambda lib, C: len(lib.nn.ModuleList(layers(C))),
]


@pytest.mark.parametrize("op", MODULE_LIST_OPS)
def test_module_list(op):
    same(op)


def _ml_mutate(lib, C, how):
    m = lib.nn.ModuleList(layers(C))
    return [m, how(m)]


@pytest.mark.parametrize("how", [
    lambda m: m.insert(1, m[0]), lambda m: m.insert(4, m[0]), lambda m: m.pop(0),
    lambda m: m.pop(-2), lambda m: m.__delitem__(slice(0, 4, 2)), lambda m: m.__delitem__(-1),
    lambda m: m.__setitem__(1, m[3]), lambda m: m.__setitem__(4, m[3]),
    lambda m: m.__iadd__(list(m)),
])
def test_module_list_mutations(how):
    same(lambda lib, C: _ml_mutate(lib, C, how))


def dict_layers(C):
    return {"b": C[0](2, 3), "a": C[1](), "c": C[0](3, 1)}


MODULE_DICT_OPS = [
    lambda lib, C: lib.nn.ModuleDict(dict_layers(C)),
    lambda lib, C: lib.nn.ModuleDict(list(dict_layers(C).items())),
    lambda lib, C: lib.nn.ModuleDict(),
    lambda lib, C: lib.nn.ModuleDict(dict_layers(C))["c"],
    lambda lib, C: lib.nn.ModuleDict(dict_layers(C))["zz"],
    lambda lib, C: list(lib.nn.ModuleDict(dict_layers(C))),
    lambda lib, C: list(lib.nn.ModuleDict(dict_layers(C)).keys()),
    lambda lib, C: [k for k, _ in lib.nn.ModuleDict(dict_layers(C)).items()],
    lambda lib, C: len(lib.nn.ModuleDict(dict_layers(C))),
    lambda lib, C: "a" in lib.nn.ModuleDict(dict_layers(C)),
    lambda lib, C: lib.nn.ModuleDict(dict_layers(C)).pop("a"),
    lambda lib, C: lib.nn.ModuleDict(3),
    lambda lib, C: lib.nn.ModuleDict([3]),
    lambda lib, C: lib.nn.ModuleDict([("a", C[1](), 1)]),
    lambda lib, C: lib.nn.ModuleDict({"a.b": C[1]()}),
    lambda lib, C: lib.nn.ModuleDict({"training": C[1]()}),
]


@pytest.mark.parametrize("op", MODULE_DICT_OPS)
def test_module_dict(op):
    same(op)


def test_module_dict_mutation():
    def op(lib, C):
        d = lib.nn.ModuleDict(dict_layers(C))
        d["z"] = C[0](1, 1)
        del d["b"]
        d.update(lib.nn.ModuleDict({"y": C[1]()}))
        d.update([("x", C[1]())])
        d2 = lib.nn.ModuleDict(dict_layers(C))
        d2.clear()
        return [d, d2, list(d.values())]
    same(op)


def plist(lib):
    return [lib.nn.Parameter(lib.ones(2, 3)), lib.zeros(4, dtype=lib.float64),
            lib.nn.Parameter(lib.ones(1), requires_grad=False), "text", 3]


PARAM_LIST_OPS = [
    lambda lib, C: lib.nn.ParameterList(plist(lib)),
    lambda lib, C: lib.nn.ParameterList(),
    lambda lib, C: lib.nn.ParameterList(plist(lib))[1],
    lambda lib, C: lib.nn.ParameterList(plist(lib))[-2],
    lambda lib, C: lib.nn.ParameterList(plist(lib))[1:3],
    lambda lib, C: lib.nn.ParameterList(plist(lib))[7],
    lambda lib, C: len(lib.nn.ParameterList(plist(lib))),
    lambda lib, C: list(lib.nn.ParameterList(plist(lib)))[:3],
    lambda lib, C: lib.nn.ParameterList(plist(lib)).append(lib.ones(1)),
    lambda lib, C: lib.nn.ParameterList(plist(lib)).extend(lib.ones(2)),
    lambda lib, C: lib.nn.ParameterList(plist(lib)).extend([lib.ones(2)]),
    lambda lib, C: lib.nn.ParameterList(plist(lib))(1),
    lambda lib, C: [p.requires_grad for p in lib.nn.ParameterList(plist(lib))[:3]],
]


@pytest.mark.parametrize("op", PARAM_LIST_OPS)
def test_parameter_list(op):
    same(op)


def test_parameter_list_setitem():
    def op(lib, C):
        pl = lib.nn.ParameterList(plist(lib))
        pl[0] = lib.zeros(5)
        pl[-1] = lib.nn.Parameter(lib.ones(1))
        return [pl, type(pl[0]).__name__]
    same(op)


def pdict(lib):
    return {"w": lib.nn.Parameter(lib.ones(2, 3)), "a": lib.zeros(4, dtype=lib.float64),
            "s": "text"}


PARAM_DICT_OPS = [
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)),          # a dict is sorted by key
    lambda lib, C: lib.nn.ParameterDict(OrderedDict(pdict(lib))),
    lambda lib, C: lib.nn.ParameterDict(list(pdict(lib).items())),
    lambda lib, C: lib.nn.ParameterDict(),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib))["a"],
    lambda lib, C: lib.nn.ParameterDict(pdict(lib))["zz"],
    lambda lib, C: lib.nn.ParameterDict(pdict(lib))[1],
    lambda lib, C: list(lib.nn.ParameterDict(pdict(lib))),
    lambda lib, C: list(reversed(lib.nn.ParameterDict(pdict(lib)))),
    lambda lib, C: list(lib.nn.ParameterDict(pdict(lib)).values()),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).get("q", 4),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).copy(),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).pop("w"),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).popitem(),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).setdefault("n", lib.ones(1)),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)).fromkeys(["x", "y"], lib.ones(1)),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib)) | lib.nn.ParameterDict({"z": lib.ones(3)}),
    lambda lib, C: lib.nn.ParameterDict(3),
    lambda lib, C: lib.nn.ParameterDict([(1,)]),
    lambda lib, C: lib.nn.ParameterDict(pdict(lib))(1),
]


@pytest.mark.parametrize("op", PARAM_DICT_OPS)
def test_parameter_dict(op):
    same(op)


def test_parameter_dict_mutation():
    def op(lib, C):
        d = lib.nn.ParameterDict(pdict(lib))
        d["new"] = lib.ones(2)
        del d["a"]
        d |= lib.nn.ParameterDict({"z": lib.ones(1)})
        d2 = lib.nn.ParameterDict(pdict(lib))
        d2.clear()
        return [d, d2, "new" in d, len(d)]
    same(op)


def test_containers_in_a_model_state_dict_roundtrip():
    def build(lib, C):
        root = lib.nn.Module()
        root.seq = lib.nn.Sequential(C[0](2, 2), lib.nn.ModuleList([C[0](2, 2)]))
        root.pl = lib.nn.ParameterList([lib.ones(2), lib.zeros(1)])
        root.pd = lib.nn.ParameterDict({"k": lib.ones(3)})
        return root
    m, t = build(mt, MT), build(torch, TH)
    assert list(m.state_dict()) == list(t.state_dict())
    assert repr(m) == repr(t)
    m.load_state_dict({k: to_mt(v) + 1 for k, v in t.state_dict().items()})
    assert m.pl[0].tolist() == [2.0, 2.0] and type(m.pl[0]) is nn.Parameter


def test_deprecated_container():
    with pytest.warns(FutureWarning, match="`nn.Container` is deprecated"):
        c = nn.Container(a=MT[1](), b=MT[0](1, 2))
    with pytest.warns(FutureWarning):
        t = torch.nn.Container(a=TH[1](), b=TH[0](1, 2))
    assert repr(c) == repr(t)
