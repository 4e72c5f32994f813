"""torch.utils._pytree (flatten / unflatten / tree_map / registration, TreeSpec's repr) and
torch.types' aliases, against PyTorch."""
import collections
import importlib

import mindtorch
import pytest
from reference import torch

P = collections.namedtuple("P", "x y")
TREES = [{"a": 1, "b": (2, [3, None])}, (1, 2), [1], collections.OrderedDict(a=1, b=2),
         P(1, [2, 3]), None, 5, {"b": 1, "a": 2}, collections.defaultdict(list, {"k": [1, 2]}),
         collections.deque([1, 2], maxlen=3), (), [[], {}]]


def pytree(lib):
    return importlib.import_module(lib.__name__ + ".utils._pytree")


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_flatten_unflatten_as_torch(tree):
    def run(lib):
        p = pytree(lib)
        leaves, spec = p.tree_flatten(tree)
        back = p.tree_unflatten(leaves, spec)
        return [leaves, repr(spec), spec.num_leaves, spec.num_nodes, back, type(back),
                spec.is_leaf(), p.tree_structure(tree) == spec]
    assert run(mindtorch) == run(torch)


def test_tree_map_family_and_registration():
    def run(lib):
        p = pytree(lib)

        class Pt:
            def __init__(self, a, b):
                self.a, self.b = a, b
        p.register_pytree_node(Pt, lambda o: ([o.a, o.b], None), lambda c, ctx: Pt(*c))
        leaves, spec = p.tree_flatten([Pt(1, 2)])
        out = [p.tree_map(lambda x: x * 2, {"a": 1, "b": (2, [3])}),
               p.tree_map(lambda a, b: a + b, [1, 2], [3, 4]),
               p.tree_map_only(int, lambda x: -x, [1, 2.0, (3,)]),
               p.tree_map_only((int, float), str, {"a": 1.5, "b": "x"}),
               p.tree_leaves([1, [2, [3]]]), list(p.tree_iter((1, [2]))),
               p.tree_all(lambda x: x > 0, [1, 2]), p.tree_any(lambda x: x > 1, (1, 2)),
               p.tree_all_only(int, lambda x: x > 0, [1, "a"]),
               p.tree_is_leaf(1), p.tree_is_leaf([1]),
               p.tree_flatten([[1], [2]], is_leaf=lambda x: isinstance(x, list) and len(x) == 1)[0],
               p.tree_structure({"q": 1}) == p.tree_structure({"r": 1}),
               p.is_namedtuple(P(1, 2)), leaves, p.tree_unflatten([5, 6], spec)[0].b]
        seen = []
        p.tree_map_(seen.append, {"a": 1, "b": [2]})
        out.append(seen)
        with pytest.raises(ValueError):
            p.tree_unflatten([1], p.tree_structure((1, 2)))
        with pytest.raises(ValueError):
            p.register_pytree_node(Pt, lambda o: ([], None), lambda c, ctx: None)
        return out
    assert run(mindtorch) == run(torch)


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_key_paths_as_torch(tree):
    def run(lib):
        p = pytree(lib)
        pairs, spec = p.tree_flatten_with_path(tree)
        return [[(repr(kp), p.keystr(kp), x) for kp, x in pairs], repr(spec),
                p.tree_map_with_path(lambda kp, x: (p.keystr(kp), x), tree)]
    assert run(mindtorch) == run(torch)


def test_key_entries_and_flatten_with_keys_registration():
    def run(lib):
        p = pytree(lib)

        class Box(dict):  # transformers registers its ModelOutputs this way
            pass

        class Bare:
            pass
        p.register_pytree_node(Box, p._dict_flatten, lambda c, k: Box(zip(k, c)),
                               flatten_with_keys_fn=p._dict_flatten_with_keys)
        p.register_pytree_node(Bare, lambda o: ([], None), lambda c, ctx: Bare())
        with pytest.raises(ValueError, match="flatten_with_keys_fn"):
            p.tree_flatten_with_path([Bare()])
        return [repr(p.tree_leaves_with_path(Box(a=1, b=[2]))),
                p.tree_map_with_path(lambda kp, a, b: a + b, [1, (2,)], [10, (20,)]),
                repr(p._list_flatten_with_keys([5])), repr(p._tuple_flatten_with_keys((5,))),
                p.SequenceKey(1).get([5, 6]), p.MappingKey("a").get({"a": 3}),
                p.GetAttrKey("x").get(P(7, 8)), str(p.GetAttrKey("x")), p.keystr(())]
    assert run(mindtorch) == run(torch)


def test_types_aliases():
    from mindtorch import types as ours
    theirs = importlib.import_module("torch.types")
    assert ours.Number == theirs.Number
    for name in ("Device", "FileLike", "Tensor", "_int", "_float", "_bool", "_dtype", "_device",
                 "_layout", "_size", "_TensorOrTensors", "IntLikeType"):
        assert hasattr(ours, name) and hasattr(theirs, name)
    assert ours.Tensor is mindtorch.Tensor and ours._device is mindtorch.device
