"""Regression tests for QA round 12f (nn.utils: prune, fusion, stateless, rnn packing, lazy
modules, init), each against torch."""
import importlib

import mindtorch
import numpy as np
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _w(L, *shape, seed=0):
    return L.tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _linear(L, i=6, o=5):
    m = L.nn.Linear(i, o)
    with L.no_grad():
        m.weight.copy_(_w(L, o, i))
        m.bias.copy_(_w(L, o, seed=1))
    return m


def _prune(L):
    return importlib.import_module(L.__name__ + ".nn.utils.prune")


@pytest.mark.parametrize("case", ["importance_module", "importance_tensor", "custom_mask"])
def test_prune_shape_refusals_say_both_shapes(case):
    """PyTorch raises AssertionError naming both shapes (not a bare `assert`, which -O drops)."""
    def program(L):
        m, P = _linear(L), _prune(L)
        if case == "importance_module":
            P.l1_unstructured(m, "weight", amount=0.5, importance_scores=_w(L, 5, 5))
        elif case == "importance_tensor":
            P.L1Unstructured(0.5).prune(_w(L, 5, 6), importance_scores=_w(L, 5, 5))
        else:
            P.custom_from_mask(m, "weight", L.ones(3, 3))
    ours, _ = same_errors(program)
    assert ours[0] == "AssertionError"


def _net(L):
    class Net(L.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = _linear(L, 3, 3)
            self.register_buffer("buf", L.ones(3))

        def forward(self, x):
            return self.a(x) + self.buf
    return Net()


@pytest.mark.parametrize("values", [
    {"a.training": "tensor"},          # attribute that is not a tensor
    {"a": "tensor"},                   # a submodule's name
    {"a.weight.x": "tensor"},          # a path through a parameter
    {"": "tensor"},                    # empty name
    {"a.weight": 3},                   # value that is not a tensor
    {"q.weight": "tensor"},            # no such submodule
    {"a.bias": None},
    {"a.newthing": "tensor"},
])
def test_functional_call_refuses_as_pytorchs_member_accessor(values):
    def program(L):
        m = _net(L)
        given = {k: L.ones(3) if v == "tensor" else v for k, v in values.items()}
        out = L.func.functional_call(m, given, (_w(L, 2, 3),))
        return out.detach().numpy().tolist(), hasattr(m.a, "newthing"), m.a.bias is None
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert ours[1][1:] == theirs[1][1:]
        np.testing.assert_allclose(ours[1][0], theirs[1][0], rtol=1e-6)


def test_prune_container_structured_without_dim_message():
    def program(L):
        P = _prune(L)

        class NoDim(P.BasePruningMethod):
            PRUNING_TYPE = "structured"

            def compute_mask(self, t, default_mask):
                return default_mask
        first, second = P.L1Unstructured(amount=2), NoDim()
        first._tensor_name = second._tensor_name = "w"
        container = P.PruningContainer(first)
        container.add_pruning_method(second)
        t = _w(L, 4, 5)
        container.compute_mask(t, L.ones_like(t))
    assert same_errors(program)[0][0] == "AttributeError"


@pytest.mark.parametrize("new_style", [False, True])
@pytest.mark.parametrize("dim", [-3, -2, 1, 2, 5])
def test_weight_norm_dim_out_of_range(new_style, dim):
    """norm_except_dim refuses a dim past the weight's (PyTorch's transpose); was wrapped."""
    def program(L):
        m = _linear(L, 3, 4)
        wn = L.nn.utils.parametrizations.weight_norm if new_style else L.nn.utils.weight_norm
        wn(m, dim=dim)
        return m.weight.detach().numpy().tolist()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


def _double(L):
    class Double(L.nn.Module):
        def forward(self, x):
            return x.double()
    return Double()


@pytest.mark.parametrize("swap", [False, True])
def test_remove_parametrizations_dtype_changed_by_unsafe_parametrization(swap):
    """leave_parametrized=True writes back through set_ (refused across dtypes, reported
    as PyTorch reports it for Parameters), or swaps under the __future__ flag."""
    def program(L):
        L.__future__.set_swap_module_params_on_conversion(swap)
        try:
            m = _linear(L, 4, 4)
            L.nn.utils.parametrize.register_parametrization(m, "weight", _double(L), unsafe=True)
            L.nn.utils.parametrize.remove_parametrizations(m, "weight")
            return str(m.weight.dtype).split(".")[1], type(m.weight).__name__
        finally:
            L.__future__.set_swap_module_params_on_conversion(False)
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_parametrization_assignment_bumps_the_originals_version():
    def program(L):
        m = _linear(L, 4, 4)
        L.nn.utils.parametrize.register_parametrization(m, "weight", L.nn.Identity())
        original = m.parametrizations.weight.original
        before = original._version
        with L.no_grad():
            m.weight = _w(L, 4, 4, seed=3)
        return original._version - before, original.detach().numpy().tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("orthogonal_map", [None, "matrix_exp", "cayley", "householder"])
def test_orthogonal_keeps_the_map_as_pytorchs_enum(orthogonal_map):
    def program(L):
        m = _linear(L, 4, 3)
        L.nn.utils.parametrizations.orthogonal(m, orthogonal_map=orthogonal_map)
        chosen = m.parametrizations.weight[0].orthogonal_map
        return type(chosen).__name__, chosen.name, chosen.value, m.weight.detach().numpy().tolist()
    ours, theirs = same_errors(program)
    assert ours[1][:3] == theirs[1][:3]
    np.testing.assert_allclose(ours[1][3], theirs[1][3], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("args,kwargs", [
    (("float64", False, False), {}), (("float64", False), {}),
    (("cpu", "float64", False, True), {}), ((), {"dtype": "float64", "copy": False}),
    ((), {"dtype": "float64", "non_blocking": True}), (("float64",), {"copy": True}),
])
def test_packed_sequence_to_refuses_copy_as_parse_to(args, kwargs):
    def program(L):
        def conv(v):
            return getattr(L, v) if v == "float64" else v
        p = L.nn.utils.rnn.pack_sequence([L.ones(2, 2), L.ones(3, 2)], enforce_sorted=False)
        q = p.to(*map(conv, args), **{k: conv(v) for k, v in kwargs.items()})
        return str(q.data.dtype).split(".")[1], str(q.sorted_indices.dtype).split(".")[1]
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_functional_call_hands_rebound_buffers_back_to_the_dict():
    """A forward that rebinds a buffer: the new tensor is written into the given dict."""
    def program(L):
        class Counter(L.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("count", L.zeros(()))

            def forward(self, x):
                self.count = self.count + 1
                return x
        m = Counter()
        given = {"count": L.tensor(5.0)}
        L.func.functional_call(m, given, (L.ones(1),))
        return given["count"].item(), m.count.item()
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("method,args", [
    ("get_tensor", ("a.weight",)), ("get_tensor", ("a.foo",)), ("get_tensor", ("a.training",)),
    ("del_tensor", ("a.foo",)), ("swap_tensor", ("a.zzz", "tensor")),
    ("swap_submodule", ("zz", "module")), ("swap_submodule", ("a", "tensor")),
    ("set_tensors", (["a.weight"], [])), ("check_keys", (["a.weight", "zz"],)),
    ("swap_tensors_dict", ({"a.weight": "tensor", "a.zzz": "tensor"},)),
])
def test_named_member_accessor(method, args):
    def program(L):
        m = _net(L)
        accessor = importlib.import_module(
            L.__name__ + ".nn.utils._named_member_accessor").NamedMemberAccessor(m)

        def conv(v):
            if isinstance(v, dict):
                return {k: conv(x) for k, x in v.items()}
            return {"tensor": L.ones(1), "module": L.nn.Identity()}.get(v, v) \
                if isinstance(v, str) else v
        out = getattr(accessor, method)(*map(conv, args))
        return repr(out).replace("mindtorch", "torch"), sorted(m.state_dict())
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("weights_only", [False, True])
def test_save_of_uninitialized_lazy_state_dict(weights_only):
    """Uninitialized parameters / buffers are saved as their class (weights_only refuses
    them, as PyTorch); they were saved as plain Parameters."""
    import io

    def program(L):
        buffer = io.BytesIO()
        L.save(L.nn.LazyBatchNorm1d().state_dict(), buffer)
        buffer.seek(0)
        try:
            loaded = L.load(buffer, weights_only=weights_only)
        except Exception as e:  # noqa: BLE001 - (the message names mindtorch's own API)
            return type(e).__name__, "GLOBAL torch.nn.parameter.UninitializedParameter" in str(e)
        return {k: type(v).__name__ for k, v in loaded.items()}
    assert program(mindtorch) == program(torch)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
@pytest.mark.parametrize("dim", [0, 1, None])
@pytest.mark.parametrize("new_style", [False, True])
def test_weight_norm_of_reduced_precision_weights_as_pytorchs_fused_kernel(dtype, dim, new_style):
    """torch._weight_norm computes the first / last dim in float and rounds once (it was
    computed in the weight's dtype: bfloat16 results off by an ulp)."""
    import warnings

    def program(L):
        m = L.nn.Linear(8, 16)
        with L.no_grad():
            m.weight.copy_(_w(L, 16, 8))
        m = m.to(getattr(L, dtype))
        wn = L.nn.utils.parametrizations.weight_norm if new_style else L.nn.utils.weight_norm
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            wn(m, dim=dim)
        return m.weight.detach().float().numpy()
    np.testing.assert_allclose(program(mindtorch), program(torch),
                               rtol=0 if dtype != "float32" else 1e-6, atol=0)


@pytest.mark.parametrize("call", [
    "norm_except_dim(v)", "norm_except_dim(v, 1, 1)", "norm_except_dim(v, 3, -1)",
    "norm_except_dim(v, 2, -3)", "norm_except_dim(v, 2, 3)", "norm_except_dim(v, 2.5)",
    "norm_except_dim(v.long())", "norm_except_dim(v[0, 0])", "norm_except_dim(v[0, 0, 0])",
    "_weight_norm(v, g)", "_weight_norm(v.bfloat16(), g.bfloat16())",
    "_weight_norm(v.half(), g)", "_weight_norm(v.double(), g)",
    "_weight_norm(v, g.reshape(1, 2, 1), 1)", "_weight_norm(v, g.reshape(1, 1, 2), -1)",
    "_weight_norm_interface(v, g.reshape(2))", "_weight_norm_interface(v.half(), g.half())",
    "_weight_norm_interface(v, g, 1)", "_weight_norm_interface(v.long(), g.long())",
])
def test_weight_norm_functions(call):
    def program(L):
        v, g = _w(L, 2, 2, 3), _w(L, 2, 1, 1, seed=1)
        out = eval(f"L.{call}", {"L": L, "v": v, "g": g})
        outs = out if isinstance(out, tuple) else (out,)
        return [(str(o.dtype).split(".")[1], tuple(o.shape), o.float().numpy().tolist())
                for o in outs]
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        for (d1, s1, x1), (d2, s2, x2) in zip(ours[1], theirs[1]):
            assert (d1, s1) == (d2, s2)
            np.testing.assert_allclose(x1, x2, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("call", [
    "_validate_pruning_amount_init(-1)", "_validate_pruning_amount_init('a')",
    "_validate_pruning_amount(5, 4)", "_compute_nparams_toprune(0.5, 7)",
    "_compute_nparams_toprune(3, 5)", "_validate_structured_pruning(t[0])",
    "_validate_pruning_dim(t, 2)", "_compute_norm(t, 1, -1)", "_compute_norm(t, 'fro', 0)",
    "_compute_norm(t, 2, 2)", "_compute_norm(t, 2, -3)",
])
def test_prune_private_helpers_custom_methods_import(call):
    def program(L):
        out = eval(f"P.{call}", {"P": _prune(L), "t": _w(L, 3, 4)})
        return out.numpy().tolist() if hasattr(out, "numpy") else out
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)


@pytest.mark.parametrize("call", [
    "p.cuda()", "p.cuda(0)", "p.cpu() is p", "str(p.cpu(L.float64).data.dtype)",
    "p.cpu(non_blocking=True) is p",
])
def test_packed_sequence_cpu_cuda_take_tensor_to_arguments(call):
    """cpu() / cuda() read Tensor.to's arguments, moving to the device only when those do
    not lead there (cuda(0): an accelerator index, refused here as by PyTorch)."""
    def program(L):
        p = L.nn.utils.rnn.pack_sequence([L.ones(2, 2), L.ones(1, 2)])
        return str(eval(call, {"L": L, "p": p})).replace("mindtorch", "torch")
    try:
        expected = ("ok", program(torch))
    except Exception as e:  # noqa: BLE001 - the class is compared
        expected = (next(c for c in type(e).__mro__ if c.__module__ == "builtins"),)
    if expected[0] == "ok":
        assert program(mindtorch) == expected[1]
    else:
        with pytest.raises(expected[0]):
            program(mindtorch)
