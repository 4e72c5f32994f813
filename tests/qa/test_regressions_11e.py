"""Regression tests for QA round 11e (the examples in PyTorch's docstrings, run under
mindtorch and torch: /work/scratch/qa11e/docex.py), each against torch."""
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")

_LAYOUTS = {
    "contiguous": lambda L: L.empty(2, 3, 4, 5),
    "leading_one": lambda L: L.empty(1, 2, 3, 4),
    "channels_last": lambda L: L.empty(2, 3, 4, 5).to(memory_format=L.channels_last),
    "channels_last_c1": lambda L: L.empty(2, 1, 4, 5).to(memory_format=L.channels_last),
    "transposed": lambda L: L.empty(2, 3).t(),
    "permuted": lambda L: L.empty(2, 3, 4).permute(2, 0, 1),
    "expanded": lambda L: L.empty(3, 1).expand(3, 3),
    "equal_strides": lambda L: L.empty(4).as_strided((2, 2), (1, 1)),
    "1d": lambda L: L.empty(4),
}
_CHECKS = {
    "false": lambda L: False, "true": lambda L: True, "empty_list": lambda L: [],
    "cl": lambda L: [L.channels_last], "contig": lambda L: [L.contiguous_format],
    "both": lambda L: [L.contiguous_format, L.channels_last],
    "str": lambda L: "ILLEGAL", "int_list": lambda L: [1],
}


@pytest.mark.parametrize("check", sorted(_CHECKS))
@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
def test_dim_order_ambiguity_check(layout, check):
    # ambiguity_check was ignored (Tensor.dim_order docstring example)
    same_outcome(lambda L: _LAYOUTS[layout](L).dim_order(ambiguity_check=_CHECKS[check](L)))


_POST_ACC_RETURNS = {
    "none": lambda L, p: None, "itself": lambda L, p: p,
    "itself_updated": lambda L, p: p.add_(p.grad, alpha=-0.01),  # the docstring's SGD step
    "other": lambda L, p: L.ones(3), "detached": lambda L, p: p.detach(),
    "resized": lambda L, p: L.ones(2), "retyped": lambda L, p: p.double(),
    "not_tensor": lambda L, p: "s",
}


@pytest.mark.parametrize("kind", sorted(_POST_ACC_RETURNS))
def test_post_accumulate_grad_hook_return_value(kind):
    # returning the tensor itself (p.add_(...)) raised "should return None"
    def run(L):
        v = L.tensor([1., 2., 3.], requires_grad=True)
        v.register_post_accumulate_grad_hook(lambda p: _POST_ACC_RETURNS[kind](L, p))
        (v * 2).sum().backward()
        return v.detach().tolist(), v.grad.tolist()
    same_outcome(run)
