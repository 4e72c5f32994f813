"""Regressions found by QA round 7d (autograd semantics, bad-input errors), each compared
with PyTorch: the error class and message, or the values."""
import mindtorch
import pytest
import torch

M = mindtorch


def outcome(f):
    """What f() gives: ('ok', value) or (error class name, message)."""
    try:
        return "ok", f()
    except Exception as e:  # the class and the message are what is compared
        return type(e).__name__, str(e)


def same_outcome(program):
    ours, theirs = outcome(lambda: program(M)), outcome(lambda: program(torch))
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
    return ours, theirs


@pytest.mark.parametrize("build", ["add_sum", "mul_scalar", "view_sum", "saves_tensor", "exp",
                                   "mean", "add_alpha", "mul_plain", "linear_nobias"])
def test_second_backward_frees_only_saved_tensors(build):
    def program(m):
        a = m.ones(3, requires_grad=True)
        y = {"add_sum": lambda: (a + 1).sum(), "mul_scalar": lambda: (a * 2).sum(),
             "view_sum": lambda: a.view(3, 1).expand(3, 2).sum(),
             "saves_tensor": lambda: (a * a).sum(), "exp": lambda: a.exp().sum(),
             "mean": lambda: a.mean(), "add_alpha": lambda: m.add(a, a, alpha=2).sum(),
             "mul_plain": lambda: (a * m.ones(3)).sum(),
             "linear_nobias": lambda: m.nn.functional.linear(a, m.ones(2, 3)).sum()}[build]()
        y.backward()
        y.backward()
        return a.grad.tolist()
    ours, theirs = same_outcome(program)
    assert ours == theirs


@pytest.mark.parametrize("op", ["t_", "squeeze_", "unsqueeze_", "mul_"])
def test_version_error_names_overload_node(op):
    def program(m):
        x = m.ones(3, 1, requires_grad=True) * 1
        z = x * x
        {"t_": lambda: x.t_(), "squeeze_": lambda: x.squeeze_(),
         "unsqueeze_": lambda: x.unsqueeze_(0), "mul_": lambda: x.mul_(2)}[op]()
        z.sum().backward()
    same_outcome(program)


@pytest.mark.parametrize("how", ["tensor", "new_tensor"])
def test_copy_construct_drops_history(how):
    for m in (M, torch):
        a = m.ones(3, requires_grad=True) * 2
        with pytest.warns(UserWarning, match="To copy construct from a tensor"):
            t = m.tensor(a) if how == "tensor" else a.new_tensor(a)
        assert (t.requires_grad, t.is_leaf, t.grad_fn) == (False, True, None)
        assert t.tolist() == [2.0, 2.0, 2.0]


def test_set_grad_enabled_bad_argument():
    same_outcome(lambda m: m.set_grad_enabled("x"))


def test_backward_create_graph_warns_once_per_process():
    import warnings

    from mindtorch import _warn_once
    _warn_once._seen.discard("backward_create_graph")
    x = M.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        (x ** 3).sum().backward(create_graph=True)
        (x ** 3).sum().backward(create_graph=True)
        M.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert [str(m.message)[:60] for m in w] == [
        "Using backward() with create_graph=True will create a refere"]
    assert x.grad.tolist() == [6.0, 24.0]
