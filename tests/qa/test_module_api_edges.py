"""Module, Parameter, containers, nn.init and nn.utils used wrongly or at their edges: each
action runs against both libraries and must end alike (same result, or the same builtin
exception class)."""
import numpy as np
import pytest

import mindtorch

torch = pytest.importorskip("torch")


def _net(L):
    net = L.nn.Sequential(L.nn.Linear(2, 3), L.nn.ReLU(), L.nn.Sequential(L.nn.Linear(3, 1)))
    net.register_buffer("buf", L.zeros(2))
    return net


def _outcome(fn, L):
    try:
        r = fn(L)
    except Exception as e:
        return ("raise", next(c for c in type(e).__mro__ if c.__module__ == "builtins").__name__)
    return ("ok", _plain(r))


def _plain(x):
    if isinstance(x, (mindtorch.Tensor, torch.Tensor)):
        return (type(x).__name__, tuple(x.shape), str(x.dtype).split(".")[-1], x.requires_grad)
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (int, float, str, bool, type(None))):
        return x
    return type(x).__name__


def _set(obj, name, value):
    setattr(obj, name, value)
    return obj


ACTIONS = {
    # registration
    "register_parameter_dotted": lambda L: L.nn.Module().register_parameter("a.b", None),
    "register_parameter_empty": lambda L: L.nn.Module().register_parameter("", None),
    "register_parameter_tensor": lambda L: L.nn.Module().register_parameter("w", L.zeros(1)),
    "register_parameter_int_name": lambda L: L.nn.Module().register_parameter(1, None),
    "register_parameter_existing_attr": lambda L: _net(L).register_parameter("training", None),
    "register_parameter_over_buffer": lambda L: _net(L).register_parameter("buf", L.nn.Parameter(L.zeros(1))),
    "register_parameter_none": lambda L: list(_set(L.nn.Module(), "x", None).named_parameters()),
    "register_buffer_dotted": lambda L: L.nn.Module().register_buffer("a.b", L.zeros(1)),
    "register_buffer_not_tensor": lambda L: L.nn.Module().register_buffer("b", 3),
    "register_buffer_none": lambda L: _net(L).register_buffer("b2", None),
    "register_buffer_over_param": lambda L: _net(L)[0].register_buffer("weight", L.zeros(1)),
    "register_buffer_before_init": lambda L: type("M", (L.nn.Module,), {"__init__": lambda s: s.register_buffer("b", L.zeros(1))})(),
    "param_before_init": lambda L: type("M", (L.nn.Module,), {"__init__": lambda s: setattr(s, "w", L.nn.Parameter(L.zeros(1)))})(),
    "module_before_init": lambda L: type("M", (L.nn.Module,), {"__init__": lambda s: setattr(s, "m", L.nn.Linear(1, 1))})(),
    "add_module_not_module": lambda L: L.nn.Module().add_module("m", 3),
    "add_module_dotted": lambda L: L.nn.Module().add_module("a.b", L.nn.ReLU()),
    "add_module_empty": lambda L: L.nn.Module().add_module("", L.nn.ReLU()),
    "add_module_existing_attr": lambda L: L.nn.Module().add_module("training", L.nn.ReLU()),
    "add_module_none": lambda L: [k for k, _ in _set_mod(L).named_children()],
    "assign_tensor_to_param": lambda L: _set(L.nn.Linear(2, 2), "weight", L.zeros(2, 2)),
    "assign_none_to_param": lambda L: list(dict(_set(L.nn.Linear(2, 2), "bias", None).named_parameters())),
    "assign_tensor_to_buffer": lambda L: _plain(_set(_net(L), "buf", L.ones(3)).buf),
    "assign_int_to_buffer": lambda L: _set(_net(L), "buf", 3),
    "assign_int_to_module": lambda L: _set(_net(L), "0", 3),
    "del_param": lambda L: list(dict(_del(L.nn.Linear(2, 2), "bias").named_parameters())),
    "del_missing": lambda L: _del(L.nn.Linear(2, 2), "nope"),
    "getattr_missing": lambda L: L.nn.Linear(2, 2).nope,
    # lookup
    "get_submodule": lambda L: type(_net(L).get_submodule("2.0")).__name__,
    "get_submodule_missing": lambda L: _net(L).get_submodule("2.5"),
    "get_submodule_not_module": lambda L: _net(L).get_submodule("0.weight"),
    "get_submodule_empty": lambda L: type(_net(L).get_submodule("")).__name__,
    "get_parameter": lambda L: _net(L).get_parameter("2.0.bias"),
    "get_parameter_missing": lambda L: _net(L).get_parameter("2.0.nope"),
    "get_parameter_buffer": lambda L: _net(L).get_parameter("buf"),
    "get_buffer": lambda L: _net(L).get_buffer("buf"),
    "get_buffer_param": lambda L: _net(L).get_buffer("0.weight"),
    # iteration
    "named_parameters_prefix": lambda L: [k for k, _ in _net(L).named_parameters(prefix="p", recurse=False)],
    "named_parameters_no_recurse": lambda L: [k for k, _ in _net(L)[0].named_parameters(recurse=False)],
    "named_modules_memo": lambda L: [k for k, _ in _shared(L).named_modules()],
    "named_modules_dup": lambda L: [k for k, _ in _shared(L).named_modules(remove_duplicate=False)],
    "named_parameters_dup": lambda L: [k for k, _ in _shared(L).named_parameters(remove_duplicate=False)],
    "state_dict_shared": lambda L: list(_shared(L).state_dict()),
    "state_dict_keep_vars": lambda L: [type(v).__name__ for v in _net(L).state_dict(keep_vars=True).values()],
    "state_dict_prefix": lambda L: list(_net(L).state_dict(prefix="x.")),
    "state_dict_positional_dest": lambda L: list(_net(L).state_dict({}, "y.")),
    # modes and conversions
    "train_bad_mode": lambda L: _net(L).train("yes"),
    "eval_returns_self": lambda L: _net(L).eval().training,
    "requires_grad_": lambda L: [p.requires_grad for p in _net(L).requires_grad_(False).parameters()],
    "to_int_dtype": lambda L: _net(L).to(L.int64),
    "to_complex": lambda L: [str(p.dtype) for p in L.nn.Linear(2, 2).to(L.complex64).parameters()],
    "half_buffers": lambda L: [str(b.dtype) for b in L.nn.BatchNorm1d(2).half().buffers()],
    "double_keeps_int": lambda L: str(L.nn.BatchNorm1d(2).double().num_batches_tracked.dtype),
    "to_bad_arg": lambda L: _net(L).to("nodevice"),
    "type_float": lambda L: [str(p.dtype) for p in _net(L).type(L.float64).parameters()],
    "zero_grad_none": lambda L: [p.grad for p in _trained(L).parameters()] if _trained(L).zero_grad() is None else 0,
    "zero_grad_false": lambda L: _zero_false(L),
    "apply_returns_self": lambda L: type(_net(L).apply(lambda m: None)).__name__,
    "load_state_dict_not_mapping": lambda L: _net(L).load_state_dict([1, 2]),
    "load_state_dict_tensor_type": lambda L: _net(L).load_state_dict({**_net(L).state_dict(), "buf": [0.0, 0.0]}),
    "load_state_dict_dtype_cast": lambda L: _load_dtype(L),
    "load_state_dict_assign_param_type": lambda L: type(_load_assign(L).weight).__name__,
    # containers
    "sequential_index": lambda L: type(_net(L)[-1]).__name__,
    "sequential_index_oob": lambda L: _net(L)[5],
    "sequential_slice": lambda L: type(_net(L)[1:]).__name__,
    "sequential_bad_index": lambda L: _net(L)["a"],
    "sequential_del": lambda L: len(_delitem(_net(L), 0)),
    "sequential_append_not_module": lambda L: _net(L).append(3),
    "sequential_add": lambda L: len(_net(L) + _net(L)),
    "sequential_mul": lambda L: len(_net(L) * 2),
    "sequential_mul_zero": lambda L: _net(L) * 0,
    "sequential_insert": lambda L: [type(m).__name__ for m in _net(L).insert(1, L.nn.Tanh())],
    "sequential_pop": lambda L: type(_net(L).pop(1)).__name__,
    "modulelist_bad": lambda L: L.nn.ModuleList([L.nn.ReLU(), 3]),
    "modulelist_index_oob": lambda L: L.nn.ModuleList([L.nn.ReLU()])[3],
    "modulelist_extend_not_iter": lambda L: L.nn.ModuleList().extend(L.nn.ReLU()),
    "modulelist_forward": lambda L: L.nn.ModuleList([L.nn.ReLU()])(L.zeros(1)),
    "moduledict_bad_key": lambda L: L.nn.ModuleDict({"a": L.nn.ReLU()})["b"],
    "moduledict_int_key": lambda L: L.nn.ModuleDict({1: L.nn.ReLU()}),
    "moduledict_update_bad": lambda L: L.nn.ModuleDict().update(3),
    "moduledict_update_pairs": lambda L: list(_md_update(L)),
    "parameterlist_tensor_converted": lambda L: [type(p).__name__ for p in L.nn.ParameterList([L.zeros(1), L.nn.Parameter(L.zeros(1))])],
    "parameterlist_other": lambda L: [type(p).__name__ for p in L.nn.ParameterList([L.zeros(1), "x", 3])],
    "parameterdict_bad_key": lambda L: L.nn.ParameterDict({"a": L.zeros(1)})["b"],
    "parameterdict_keys": lambda L: list(L.nn.ParameterDict({"b": L.zeros(1), "a": L.zeros(2)}).keys()),
    # Parameter
    "parameter_default": lambda L: L.nn.Parameter(),
    "parameter_int": lambda L: L.nn.Parameter(L.zeros(2, dtype=L.int64)),
    "parameter_int_no_grad": lambda L: L.nn.Parameter(L.zeros(2, dtype=L.int64), requires_grad=False),
    "parameter_of_parameter": lambda L: type(L.nn.Parameter(L.nn.Parameter(L.zeros(1)))).__name__,
    "parameter_non_leaf": lambda L: L.nn.Parameter(L.ones(2, requires_grad=True) * 2),
    "parameter_list_input": lambda L: L.nn.Parameter([1.0, 2.0]),
    "parameter_float_input": lambda L: L.nn.Parameter(3.0),
    "parameter_numpy_input": lambda L: L.nn.Parameter(np.ones(2)),
    "parameter_repr_prefix": lambda L: repr(L.nn.Parameter(L.ones(1))).split("\n")[0],
    # init
    "init_xavier_1d": lambda L: L.nn.init.xavier_uniform_(L.zeros(3)),
    "init_kaiming_0d": lambda L: L.nn.init.kaiming_normal_(L.zeros(())),
    "init_kaiming_bad_mode": lambda L: L.nn.init.kaiming_uniform_(L.zeros(2, 2), mode="x"),
    "init_kaiming_bad_nonlin": lambda L: L.nn.init.kaiming_uniform_(L.zeros(2, 2), nonlinearity="x"),
    "init_calculate_gain_bad": lambda L: L.nn.init.calculate_gain("x"),
    "init_calculate_gain_leaky_bad": lambda L: L.nn.init.calculate_gain("leaky_relu", "a"),
    "init_calculate_gain": lambda L: [L.nn.init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu", "selu")],
    "init_eye_3d": lambda L: L.nn.init.eye_(L.zeros(2, 2, 2)),
    "init_dirac_2d": lambda L: L.nn.init.dirac_(L.zeros(2, 2)),
    "init_orthogonal_1d": lambda L: L.nn.init.orthogonal_(L.zeros(3)),
    "init_sparse_3d": lambda L: L.nn.init.sparse_(L.zeros(2, 2, 2), 0.5),
    "init_uniform_int": lambda L: L.nn.init.uniform_(L.zeros(2, dtype=L.int64)),
    "init_trunc_empty": lambda L: L.nn.init.trunc_normal_(L.zeros(0, 3)),
    "init_xavier_empty": lambda L: L.nn.init.xavier_normal_(L.zeros(0, 3)),
    "init_kaiming_empty": lambda L: L.nn.init.kaiming_uniform_(L.zeros(0, 3)),
    "init_zeros_requires_grad": lambda L: L.nn.init.zeros_(L.nn.Parameter(L.ones(2))),
    # utils
    "clip_norm_empty": lambda L: L.nn.utils.clip_grad_norm_([], 1.0),
    "clip_norm_no_grads": lambda L: L.nn.utils.clip_grad_norm_(L.nn.Linear(2, 2).parameters(), 1.0),
    "clip_norm_inf": lambda L: L.nn.utils.clip_grad_norm_(_trained(L).parameters(), 1.0, norm_type="inf"),
    "clip_norm_nonfinite": lambda L: L.nn.utils.clip_grad_norm_([_nan_grad(L)], 1.0, error_if_nonfinite=True),
    "clip_norm_nonfinite_ok": lambda L: L.nn.utils.clip_grad_norm_([_nan_grad(L)], 1.0),
    "clip_norm_single_tensor": lambda L: L.nn.utils.clip_grad_norm_(next(_trained(L).parameters()), 0.1),
    "clip_value_negative": lambda L: L.nn.utils.clip_grad_value_(_trained(L).parameters(), -1.0),
    "p2v_empty": lambda L: L.nn.utils.parameters_to_vector([]),
    "p2v_not_tensor": lambda L: L.nn.utils.parameters_to_vector(3),
    "v2p_wrong_len": lambda L: L.nn.utils.vector_to_parameters(L.zeros(3), L.nn.Linear(2, 2).parameters()),
    "v2p_not_tensor": lambda L: L.nn.utils.vector_to_parameters([1.0], L.nn.Linear(2, 2).parameters()),
    "pad_sequence_empty": lambda L: L.nn.utils.rnn.pad_sequence([]),
    "pad_sequence_mixed_trailing": lambda L: L.nn.utils.rnn.pad_sequence([L.zeros(2, 3), L.zeros(1, 4)]),
    "pad_sequence_left": lambda L: L.nn.utils.rnn.pad_sequence([L.ones(2), L.ones(3)], padding_side="left"),
    "pad_sequence_bad_side": lambda L: L.nn.utils.rnn.pad_sequence([L.ones(2)], padding_side="middle"),
    "pad_sequence_0d": lambda L: L.nn.utils.rnn.pad_sequence([L.tensor(1.0)]),
    "pack_unsorted": lambda L: L.nn.utils.rnn.pack_padded_sequence(L.zeros(3, 2, 1), [1, 3]),
    "pack_zero_length": lambda L: L.nn.utils.rnn.pack_padded_sequence(L.zeros(3, 2, 1), [3, 0]),
}


def _del(obj, name):
    delattr(obj, name)
    return obj


def _delitem(seq, i):
    del seq[i]
    return seq


def _set_mod(L):
    m = L.nn.Module()
    m.add_module("a", None)
    m.b = L.nn.ReLU()
    return m


def _shared(L):
    lin = L.nn.Linear(2, 2)
    return L.nn.Sequential(lin, L.nn.ReLU(), lin)


def _trained(L):
    lin = L.nn.Linear(2, 2)
    lin(L.ones(3, 2)).sum().backward()
    return lin


def _zero_false(L):
    lin = _trained(L)
    lin.zero_grad(set_to_none=False)
    return [p.grad.tolist() for p in lin.parameters()]


def _nan_grad(L):
    p = L.nn.Parameter(L.ones(2))
    p.grad = L.tensor([float("nan"), 1.0])
    return p


def _load_dtype(L):
    lin = L.nn.Linear(2, 2)
    lin.load_state_dict({k: v.double() for k, v in L.nn.Linear(2, 2).state_dict().items()})
    return [str(p.dtype) for p in lin.parameters()]


def _load_assign(L):
    lin = L.nn.Linear(2, 2)
    lin.load_state_dict({k: v.double() for k, v in L.nn.Linear(2, 2).state_dict().items()}, assign=True)
    return lin


def _md_update(L):
    md = L.nn.ModuleDict({"x": L.nn.ReLU()})
    md.update([("b", L.nn.Tanh()), ("a", L.nn.ReLU())])
    return md.keys()


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_action_ends_alike(action):
    fn = ACTIONS[action]
    assert _outcome(fn, mindtorch) == _outcome(fn, torch)


@pytest.mark.parametrize("name", ["clip_norm_inf", "clip_norm_single_tensor"])
def test_clip_values(name):
    res = []
    for L in (mindtorch, torch):
        L.manual_seed(0)
        lin = L.nn.Linear(2, 2)
        with L.no_grad():
            lin.weight.copy_(L.tensor([[1.0, -2.0], [0.5, 3.0]]))
            lin.bias.copy_(L.tensor([0.5, -1.0]))
        lin(L.tensor([[1.0, 2.0], [3.0, -1.0]])).pow(2).sum().backward()
        if name == "clip_norm_inf":
            total = L.nn.utils.clip_grad_norm_(lin.parameters(), 1.0, norm_type="inf")
        else:
            total = L.nn.utils.clip_grad_norm_(lin.weight, 0.1)
        res.append([total.item()] + [p.grad.detach().numpy().copy() for p in lin.parameters()])
    for a, b in zip(*res):
        np.testing.assert_allclose(a, b, rtol=1e-6)
