"""Regression tests for QA round 21a (whole user programs of common model families), each
against torch."""
import copy

import mindtorch
import pytest
from reference import same_errors

torch = pytest.importorskip("torch")


def _functions(L):
    """Custom autograd Functions with the backward bugs gradcheck exists to catch."""
    class IgnoresGradOutput(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return (x ** 2).sum()

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x          # right for g == 1 only

    class Noisy(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2 + L.rand_like(g) * 1e-3

    class ImaginaryPartIgnored(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * (1 + 2j)

        @staticmethod
        def backward(ctx, g):
            return g.real * 1.0   # drops the imaginary part's contribution (2 * g.imag)

    return IgnoresGradOutput, Noisy, ImaginaryPartIgnored


CASES = {
    "ignores_grad_output": lambda L, F, x, c: L.autograd.gradcheck(F[0].apply, (x,)),
    "ignores_grad_output_no_raise":
        lambda L, F, x, c: L.autograd.gradcheck(F[0].apply, (x,), raise_exception=False),
    "ignores_grad_output_among_outputs":
        lambda L, F, x, c: L.autograd.gradcheck(lambda b: (b * 2, F[0].apply(b)), (x,)),
    "not_reentrant": lambda L, F, x, c: L.autograd.gradcheck(F[1].apply, (x,)),
    "nondet_tol_then_mismatch":
        lambda L, F, x, c: L.autograd.gradcheck(F[1].apply, (x,), nondet_tol=1e-2),
    # the input index in the message counts the inputs that require grad only
    "index_among_differentiable_inputs":
        lambda L, F, x, c: L.autograd.gradcheck(lambda a, b: a + F[1].apply(b) * 0 +
                                                F[0].apply(b), (c, x), nondet_tol=1.0),
    "correct": lambda L, F, x, c: L.autograd.gradcheck(lambda a, b: (a * b).sin(), (c, x)),
    # complex outputs: the imaginary parts are checked first, then the real parts
    "complex_output_imaginary_part_wrong":
        lambda L, F, x, c: L.autograd.gradcheck(lambda a: a * 1j + a.conj() * 0 + F[2].apply(a),
                                                (x,)),
    "complex_output_correct":
        lambda L, F, x, c: L.autograd.gradcheck(lambda a: (a * (1 + 2j)).exp(), (x,)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_gradcheck_checks_reentrancy_and_grad_output_scaling(case):
    def program(L):
        L.manual_seed(0)
        x = L.randn(3, dtype=L.float64, requires_grad=True)
        c = L.randn(3, dtype=L.float64)
        return CASES[case](L, _functions(L), x, c)
    ours, theirs = same_errors(program)
    assert ours == theirs


ATEN_CALLS = {
    "sort": lambda A, x: A.sort(x, 1, True),
    "sort.default": lambda A, x: A.sort.default(x),
    "max.dim": lambda A, x: A.max.dim(x, 0),
    "topk": lambda A, x: A.topk(x, 1),
    "var_mean": lambda A, x: A.var_mean(x),
    "aminmax": lambda A, x: A.aminmax(x),
    "cummax": lambda A, x: A.cummax(x, 0),
    "split": lambda A, x: A.split(x, 1),
    "unbind": lambda A, x: A.unbind(x),
    "chunk": lambda A, x: A.chunk(x, 2),
    "tensor_split": lambda A, x: A.tensor_split(x, 2),
    "split_with_sizes": lambda A, x: A.split_with_sizes(x, [1, 1]),
    "max_all": lambda A, x: A.max(x),
    # Tensor[] first arguments, taken as *tensors by the Python functions
    "broadcast_tensors": lambda A, x: A.broadcast_tensors([x, x[0]]),
    "block_diag": lambda A, x: A.block_diag([x, x[:1]]),
    "cartesian_prod": lambda A, x: A.cartesian_prod([x[0], x[1]]),
}


@pytest.mark.parametrize("call", sorted(ATEN_CALLS))
def test_torch_ops_aten_results_are_plain_tuples_or_lists(call):
    """torch.ops.aten.<op> gives a plain tuple (not the named return_types) and a list for
    the operators returning Tensor[]."""
    outs = []
    for L in (mindtorch, torch):
        out = ATEN_CALLS[call](L.ops.aten, L.tensor([[3.0, 1.0], [2.0, 5.0]]))
        outs.append((type(out).__name__,
                     [t.tolist() for t in out] if isinstance(out, (tuple, list)) else out.tolist()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("name", ["Adam", "AdamW", "RMSprop", "Adagrad", "SGD", "NAdam"])
def test_optimizer_state_loaded_from_a_dict_is_updated_in_place(name):
    """After load_state_dict, the optimizer's state tensors are the loaded dict's (PyTorch
    updates them in place), also once the small tensors share flat buffers: a resumed
    checkpoint dict shows the live step counts and moments."""
    def program(L):
        L.manual_seed(0)
        model = L.nn.Sequential(L.nn.Linear(3, 4), L.nn.Linear(4, 2))
        kw = {"momentum": 0.9} if name in ("SGD", "RMSprop") else {}
        make = getattr(L.optim, name)
        opt = make(model.parameters(), lr=0.1, **kw)

        def step(o):
            o.zero_grad()
            model(L.ones(1, 3)).sum().backward()
            o.step()
        step(opt)
        loaded = copy.deepcopy(opt.state_dict())
        resumed = make(model.parameters(), lr=0.1, **kw)
        resumed.load_state_dict(loaded)
        before = {i: dict(s) for i, s in loaded["state"].items()}
        step(resumed)
        step(resumed)
        return [[k, (t is resumed.state[p][k]), L.round(t.double(), decimals=5).tolist()]
                for i, p in enumerate(model.parameters())
                for k, t in sorted(before[i].items())]
    ours, theirs = same_errors(program)
    assert ours == theirs


def _flex_calls(L):
    import importlib
    import warnings
    fa = importlib.import_module(L.__name__ + ".nn.attention.flex_attention")
    fa._WARNINGS_SHOWN.clear()
    q = L.ones(1, 1, 4, 2)
    calls = [("compiled", lambda: L.compile(fa.flex_attention)(q, q, q)),
             ("eager", lambda: fa.flex_attention(q, q, q)),
             ("eager again", lambda: fa.flex_attention(q, q, q)),
             ("lse", lambda: fa.flex_attention(q, q, q, return_lse=True)),
             ("lse again", lambda: fa.flex_attention(q, q, q, return_lse=True)),
             ("both", lambda: fa.flex_attention(q, q, q, return_lse=True,
                                                return_aux=fa.AuxRequest(lse=True))),
             ("is_compiling inside", lambda: L.compile(L.compiler.is_compiling)()),
             ("is_compiling in a compiled module",
              lambda: L.compile(type("M", (L.nn.Module,), {
                  "forward": lambda self: L.compiler.is_compiling()})())()),
             ("is_compiling outside", L.compiler.is_compiling)]
    seen = []
    for name, call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = call()
                out = out if isinstance(out, bool) else "tensor(s)"
            except ValueError as e:
                out = str(e)
        seen.append((name, out, [(w.category.__name__, str(w.message)) for w in caught
                                 if "flex" in str(w.message) or "lse" in str(w.message)]))
    return seen


def test_flex_attention_eager_warning_once_and_is_compiling_inside_compiled_code():
    """An eager flex_attention call warns once per process (a compiled call does not, nor
    does it count); return_lse warns once (FutureWarning) and refuses return_aux with it;
    torch.compiler.is_compiling() is True inside a compiled function or module."""
    assert _flex_calls(mindtorch) == _flex_calls(torch)
