"""torch.utils._pytree (its common part): nested tuples, lists, dicts (and OrderedDict,
defaultdict, deque), namedtuples and registered classes flatten to a list of leaves and a
TreeSpec that rebuilds the structure; tree_map and friends apply functions to the leaves."""
import collections
import dataclasses

__all__ = [
    "GetAttrKey",
    "LeafSpec",
    "MappingKey",
    "SequenceKey",
    "TreeSpec",
    "is_namedtuple",
    "is_namedtuple_class",
    "is_namedtuple_instance",
    "keystr",
    "register_pytree_node",
    "tree_all",
    "tree_all_only",
    "tree_any",
    "tree_any_only",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_is_leaf",
    "tree_iter",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_",
    "tree_map_only",
    "tree_map_only_",
    "tree_map_with_path",
    "tree_structure",
    "tree_unflatten",
]


@dataclasses.dataclass(frozen=True)
class _Node:
    flatten: object    # obj -> (children, context)
    unflatten: object  # (children, context) -> obj
    keys: object = None  # obj -> the children's key entries (for the *_with_path functions)


# -- key paths: how each child is reached from its parent ----------------------------------

@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self):
        return f"[{self.idx!r}]"

    def get(self, sequence):
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    key: object

    def __str__(self):
        return f"[{self.key!r}]"

    def get(self, mapping):
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self):
        return f".{self.name}"

    def get(self, obj):
        return getattr(obj, self.name)


def keystr(kp):
    return "".join(str(k) for k in kp)


def _dict_flatten(d):
    return list(d.values()), list(d.keys())


def _dict_flatten_with_keys(d):
    values, keys = _dict_flatten(d)
    return [(MappingKey(k), v) for k, v in zip(keys, values)], keys


def _seq_keys(t):
    return [SequenceKey(i) for i in range(len(t))]


def _map_keys(d):
    return [MappingKey(k) for k in d]


def _list_flatten_with_keys(t):
    return list(zip(_seq_keys(t), t)), None


_tuple_flatten_with_keys = _list_flatten_with_keys


SUPPORTED_NODES = {
    tuple: _Node(lambda t: (list(t), None), lambda c, _: tuple(c), _seq_keys),
    list: _Node(lambda t: (list(t), None), lambda c, _: list(c), _seq_keys),
    dict: _Node(_dict_flatten, lambda c, keys: dict(zip(keys, c)), _map_keys),
    collections.OrderedDict: _Node(
        _dict_flatten, lambda c, keys: collections.OrderedDict(zip(keys, c)), _map_keys),
    collections.defaultdict: _Node(
        lambda d: (list(d.values()), [d.default_factory, list(d.keys())]),
        lambda c, ctx: collections.defaultdict(ctx[0], zip(ctx[1], c)), _map_keys),
    collections.deque: _Node(lambda d: (list(d), d.maxlen),
                             lambda c, maxlen: collections.deque(c, maxlen=maxlen), _seq_keys),
}
_NAMEDTUPLE = _Node(lambda t: (list(t), type(t)), lambda c, cls: cls(*c),
                    lambda t: [GetAttrKey(f) for f in t._fields])


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                         to_dumpable_context=None, from_dumpable_context=None,
                         flatten_with_keys_fn=None):
    """Make instances of cls inner nodes: flatten_fn(obj) -> (children, context),
    unflatten_fn(children, context) -> obj."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    keys = None if flatten_with_keys_fn is None else \
        (lambda obj: [k for k, _ in flatten_with_keys_fn(obj)[0]])
    SUPPORTED_NODES[cls] = _Node(flatten_fn, lambda c, ctx: unflatten_fn(c, ctx), keys)


def is_namedtuple_class(cls):
    return isinstance(cls, type) and issubclass(cls, tuple) and \
        isinstance(getattr(cls, "_fields", None), tuple)


def is_namedtuple_instance(obj):
    return is_namedtuple_class(type(obj))


def is_namedtuple(obj):
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def _node_of(tree):
    node = SUPPORTED_NODES.get(type(tree))
    if node is None and is_namedtuple_instance(tree):
        return _NAMEDTUPLE, "namedtuple"
    return node, type(tree)


def tree_is_leaf(tree, is_leaf=None):
    if is_leaf is not None and is_leaf(tree):
        return True
    return _node_of(tree)[0] is None


class TreeSpec:
    """The structure of a pytree: its node type, context (dict keys, namedtuple class, ...)
    and the specs of its children; a leaf is the spec without type."""

    def __init__(self, type, context, children_specs):  # (torch's names)
        self.type, self.context, self._children = type, context, list(children_specs)
        self.num_leaves = 1 if type is None else sum(c.num_leaves for c in self._children)
        self.num_nodes = 1 + sum(c.num_nodes for c in self._children)
        self.num_children = len(self._children)

    def is_leaf(self):
        return self.type is None

    def children(self):
        return list(self._children)

    def child(self, index):
        return self._children[index]

    children_specs = property(children)

    def unflatten(self, leaves):
        return tree_unflatten(leaves, self)

    def __eq__(self, other):
        return isinstance(other, TreeSpec) and (self.type, self.context, self._children) == \
            (other.type, other.context, other._children)

    def __hash__(self):
        return id(self)

    def __repr__(self, indent=0):
        if self.is_leaf():
            return "*"
        name = "namedtuple" if self.type == "namedtuple" else self.type.__name__
        pad = " " * (indent + 2)
        children = (",\n" + pad).join(c.__repr__(indent + 2) for c in self._children)
        return f"TreeSpec({name}, {self.context}, [{children}])"


def LeafSpec():  # (torch's name: a class there)
    return TreeSpec(None, None, [])


def _flatten(tree, leaves, is_leaf):
    if is_leaf is not None and is_leaf(tree):
        leaves.append(tree)
        return LeafSpec()
    node, kind = _node_of(tree)
    if node is None:
        leaves.append(tree)
        return LeafSpec()
    children, context = node.flatten(tree)
    return TreeSpec(kind, context, [_flatten(c, leaves, is_leaf) for c in children])


def tree_flatten(tree, is_leaf=None):
    """(the leaves in order, the TreeSpec that tree_unflatten rebuilds the tree from)."""
    leaves = []
    spec = _flatten(tree, leaves, is_leaf)
    return leaves, spec


def tree_unflatten(leaves, treespec):
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but "
                         f"the spec refers to a pytree that holds {treespec.num_leaves} items "
                         f"({treespec}).")
    it = iter(leaves)

    def build(spec):
        if spec.is_leaf():
            return next(it)
        node = _NAMEDTUPLE if spec.type == "namedtuple" else SUPPORTED_NODES[spec.type]
        return node.unflatten([build(c) for c in spec.children()], spec.context)
    return build(treespec)


def _paths(tree, path, out, is_leaf):
    node = None if is_leaf is not None and is_leaf(tree) else _node_of(tree)[0]
    if node is None:
        out.append(path)
        return
    if node.keys is None:
        raise ValueError(f"Did not find a flatten_with_keys_fn for type: {type(tree)}. Please "
                         f"pass a flatten_with_keys_fn argument to register_pytree_node.")
    for k, child in zip(node.keys(tree), node.flatten(tree)[0]):
        _paths(child, path + (k,), out, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    """([(key path, leaf), ...], TreeSpec): each leaf with the keys that reach it."""
    paths = []
    _paths(tree, (), paths, is_leaf)
    leaves, spec = tree_flatten(tree, is_leaf)
    return list(zip(paths, leaves)), spec


def tree_leaves_with_path(tree, is_leaf=None):
    return tree_flatten_with_path(tree, is_leaf)[0]


def tree_map_with_path(func, tree, *rests, is_leaf=None):
    pairs, spec = tree_flatten_with_path(tree, is_leaf)
    others = [tree_leaves(r) for r in rests]
    return tree_unflatten([func(kp, x, *xs) for (kp, x), *xs in zip(pairs, *others)], spec)


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_iter(tree, is_leaf=None):
    return iter(tree_leaves(tree, is_leaf))


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    """func applied to the leaves of tree (and the matching leaves of rests), in tree's
    structure."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = [tree_leaves(r) for r in rests]
    return tree_unflatten([func(*xs) for xs in zip(leaves, *others)], spec)


def tree_map_(func, tree, *rests, is_leaf=None):
    """func called on the leaves for its effect; returns tree."""
    leaves = tree_leaves(tree, is_leaf)
    others = [tree_leaves(r) for r in rests]
    for xs in zip(leaves, *others):
        func(*xs)
    return tree


def _only(types, func):
    def fn(x):
        return func(x) if isinstance(x, types) else x
    return fn


def tree_map_only(type_or_types, func, tree, is_leaf=None):
    return tree_map(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types, func, tree, is_leaf=None):
    return tree_map_(_only(type_or_types, func), tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None):
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None):
    return any(map(pred, tree_leaves(tree, is_leaf)))


def tree_all_only(type_or_types, pred, tree, is_leaf=None):
    return all(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))


def tree_any_only(type_or_types, pred, tree, is_leaf=None):
    return any(pred(x) for x in tree_leaves(tree, is_leaf) if isinstance(x, type_or_types))
