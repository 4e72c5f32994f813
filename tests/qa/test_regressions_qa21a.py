"""Regression tests for QA round 21a (whole user programs of common model families), each
against torch."""
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

    return IgnoresGradOutput, Noisy


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
