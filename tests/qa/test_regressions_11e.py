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


@pytest.mark.parametrize("driver", ["gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("shapes", [((1, 3, 3), (2, 3, 3)), ((2, 1, 3, 3), (1, 3, 3, 2)),
                                    ((1, 1, 4, 3), (2, 3, 4, 2)), ((2, 3, 3), (1, 3, 3)),
                                    ((2, 3, 3), (2, 3)), ((4, 3), (4, 2))])
def test_lstsq_rank_and_singular_values_keep_inputs_batch(shapes, driver):
    # they were broadcast to the solution's batch (linalg.lstsq docstring example: rank)
    def run(L):
        A = L.randn(*shapes[0], dtype=L.float64)
        B = L.randn(*shapes[1], dtype=L.float64)
        r = L.linalg.lstsq(A, B, driver=driver)
        return ([tuple(t.shape) for t in r], r.rank.tolist(),
                [round(v, 8) for v in r.singular_values.flatten().tolist()],
                [round(v, 8) for v in r.solution.flatten().tolist()])
    same_outcome(run)


def test_lstsq_rank_of_broadcast_rank_deficient_input():
    def run(L):
        A = L.randn(1, 3, 3, dtype=L.float64)
        A[:, 0].zero_()
        return L.linalg.lstsq(A, L.randn(2, 3, 3, dtype=L.float64)).rank.tolist()
    same_outcome(run)


_LAYOUT_BACKWARDS = {
    "mul_sum": lambda p: (p * 2).sum().backward(),  # the docstring example
    "contiguous": lambda p: (p * 2).contiguous().sum().backward(),
    "retained": lambda p: p.backward(p.detach().contiguous()),
}


@pytest.mark.parametrize("enable", [True, False])
@pytest.mark.parametrize("kind", sorted(_LAYOUT_BACKWARDS))
def test_enforce_grad_layout_policy(kind, enable):
    # torch.autograd.enforce_grad_layout_policy was missing
    def run(L):
        p = L.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).requires_grad_()
        with L.autograd.enforce_grad_layout_policy(enable):
            _LAYOUT_BACKWARDS[kind](p)
        return p.grad.stride(), p.grad.tolist()
    same_outcome(run)


def test_enforce_grad_layout_policy_call_and_decorator():
    def run(L):
        p = L.ones(2, 3).t().requires_grad_()
        L.autograd.enforce_grad_layout_policy(False)  # a call takes effect at once
        (p * 2).contiguous().sum().backward()
        first = p.grad.stride()
        L.autograd.enforce_grad_layout_policy(True)
        deco = L.autograd.enforce_grad_layout_policy(False)(lambda: None)
        p.grad = None
        (p * 2).contiguous().sum().backward()  # the decorator restored the policy
        return first, p.grad.stride(), deco() is None
    same_outcome(run)


def test_grad_dtype_docstring_and_engine_cast():
    # Tensor.grad_dtype (PyTorch 2.13) was missing
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        seen = [x.grad_dtype, L.ones(2).grad_dtype]
        x.grad_dtype = L.float16
        (x * 2).sum().backward()
        (x * 3).sum().backward()  # accumulated in float16
        seen += [x.grad_dtype, x.grad.dtype, x.grad.tolist()]
        x.grad = None
        x.grad_dtype = None
        (x.double() * 2).sum().backward()  # (the cast's backward gives float32 already)
        seen.append(x.grad.dtype)
        x.grad = L.ones(2, dtype=L.float64)  # None: any dtype may be assigned
        seen.append(x.grad.dtype)
        return [str(v) for v in seen]
    same_outcome(run)


_GRAD_DTYPE_ERRORS = {
    "get_non_leaf": lambda L, x: (x * 2).grad_dtype,
    "set_non_leaf": lambda L, x: setattr(x * 2, "grad_dtype", L.float16),
    "set_str": lambda L, x: setattr(x, "grad_dtype", "float16"),
    "assign_other_dtype": lambda L, x: setattr(x, "grad", L.ones(2, dtype=L.float64)),
    "assign_after_set": lambda L, x: (setattr(x, "grad_dtype", L.float64),
                                      setattr(x, "grad", L.ones(2))),
    "set_with_grad": lambda L, x: (setattr(x, "grad", L.ones(2)),
                                   setattr(x, "grad_dtype", L.float16)),
    "set_same_as_grad": lambda L, x: (setattr(x, "grad", L.ones(2)),
                                      setattr(x, "grad_dtype", L.float32), str(x.grad_dtype)),
}


@pytest.mark.parametrize("kind", sorted(_GRAD_DTYPE_ERRORS))
def test_grad_dtype_errors(kind):
    def run(L):
        x = L.tensor([1.0, 2.0], requires_grad=True)
        r = _GRAD_DTYPE_ERRORS[kind](L, x)
        return str(r[-1]) if isinstance(r, tuple) else None
    same_outcome(run, quiet=True)
