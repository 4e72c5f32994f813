"""torch.utils.checkpoint against PyTorch: reentrant and non-reentrant forms give the
unchecked values and gradients (inputs and parameters), dropout inside a segment draws
the same mask on recomputation, the reentrant form's no-grad-input pitfall, errors,
checkpoint_sequential."""
import warnings

import numpy as np
import pytest
import torch

import mindtorch


def build(lib, seed=0):
    rng = np.random.RandomState(seed)
    model = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.Tanh(), lib.nn.Linear(5, 4),
                              lib.nn.GELU(), lib.nn.Linear(4, 2)).double()
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.from_numpy(rng.uniform(-0.5, 0.5, tuple(p.shape))))
    x = lib.from_numpy(np.random.RandomState(seed + 1).randn(6, 3)).requires_grad_()
    return model, x


def grads_of(lib, run):
    model, x = build(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = run(lib, model, x)
    (out ** 2).sum().backward()
    return [out.detach().numpy(), x.grad.numpy()] + [p.grad.numpy() for p in model.parameters()]


RUNS = {
    "reentrant": lambda L, m, x: L.utils.checkpoint.checkpoint(m, x, use_reentrant=True),
    "non_reentrant": lambda L, m, x: L.utils.checkpoint.checkpoint(m, x, use_reentrant=False),
    "segment": lambda L, m, x: m[4](L.utils.checkpoint.checkpoint(
        lambda h: m[3](m[2](m[1](m[0](h)))), x, use_reentrant=True)),
    "sequential": lambda L, m, x: L.utils.checkpoint.checkpoint_sequential(
        m, 2, x, use_reentrant=True),
    "sequential3": lambda L, m, x: L.utils.checkpoint.checkpoint_sequential(
        m, 3, x, use_reentrant=False),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_values_and_gradients_as_torch(name):
    got, want = grads_of(mindtorch, RUNS[name]), grads_of(torch, RUNS[name])
    plain = grads_of(mindtorch, lambda L, m, x: m(x))
    for g, w, p in zip(got, want, plain):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(g, p, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("reentrant", [True, False])
def test_dropout_recomputed_with_the_same_mask(reentrant):
    drop = mindtorch.nn.Dropout(0.5)
    x = mindtorch.ones(4, 8, dtype=mindtorch.float64, requires_grad=True)
    out = mindtorch.utils.checkpoint.checkpoint(lambda t: drop(t) * t, x,
                                                use_reentrant=reentrant)
    out.sum().backward()
    kept = (out.detach() != 0).double()
    # d/dx (mask * 2 * x * x) = 4 x mask: the recomputed mask is the forward's
    assert mindtorch.equal(x.grad, 4 * kept)


def test_reentrant_without_grad_inputs():
    for lib in (torch, mindtorch):
        model, x = build(lib)
        with pytest.warns(UserWarning, match="None of the inputs"):
            out = lib.utils.checkpoint.checkpoint(model, x.detach(), use_reentrant=True)
        assert not out.requires_grad
        out = lib.utils.checkpoint.checkpoint(model, x.detach(), use_reentrant=False)
        assert out.requires_grad
        with pytest.raises(ValueError, match="Unexpected keyword arguments: k"):
            lib.utils.checkpoint.checkpoint(lambda a, k=1: a, x, use_reentrant=True, k=2)
        with pytest.warns(UserWarning, match="use_reentrant"):
            lib.utils.checkpoint.checkpoint(model, x)


def test_reentrant_node_name_as_torch():
    names = []
    for lib in (torch, mindtorch):
        model, x = build(lib)
        out = lib.utils.checkpoint.checkpoint(model, x, use_reentrant=True)
        names.append(type(out.grad_fn).__name__)
    assert names[1] == names[0] == "CheckpointFunctionBackward"


def _recording(lib):
    calls = []

    def segment(t, scale=1.0):
        calls.append(1)
        return (t ** 3).sin() * scale
    return calls, segment


def test_non_reentrant_recomputes_in_backward():
    # the segment runs again in backward (its activations are not kept), as in PyTorch;
    # under no_grad it runs once; a retained graph's second backward reruns it again
    counts = []
    for lib in (torch, mindtorch):
        calls, segment = _recording(lib)
        x = lib.tensor([0.5, 2.0], dtype=lib.float64, requires_grad=True)
        out = lib.utils.checkpoint.checkpoint(segment, x, scale=2.0, use_reentrant=False)
        seen = [len(calls)]
        out.sum().backward(retain_graph=True)
        seen.append(len(calls))
        out.sum().backward()
        seen.append(len(calls))
        with lib.no_grad():
            lib.utils.checkpoint.checkpoint(segment, x, use_reentrant=False)
        counts.append((seen + [len(calls)], x.grad.tolist()))
    assert counts[1] == counts[0]


def test_non_reentrant_create_graph():
    # second-order gradients through a non-reentrant segment: its rerun keeps a graph
    results = []
    for lib in (torch, mindtorch):
        _, segment = _recording(lib)
        x = lib.tensor([0.5, 2.0, -1.0], dtype=lib.float64, requires_grad=True)
        out = lib.utils.checkpoint.checkpoint(segment, x, use_reentrant=False)
        g, = lib.autograd.grad(out.sum(), x, create_graph=True)
        gg, = lib.autograd.grad(g.sum(), x)
        results.append(np.concatenate([g.detach().numpy(), gg.numpy()]))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-12, atol=1e-12)


def test_sequential_keyword_arguments():
    for lib in (torch, mindtorch):
        model, x = build(lib)
        for reentrant in (True, False):
            with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
                lib.utils.checkpoint.checkpoint_sequential(model, 1, x, use_reentrant=reentrant,
                                                           foo=1)
            out = lib.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=reentrant,
                                                             preserve_rng_state=False)
            assert tuple(out.shape) == (6, 2)


def test_helpers_as_torch():
    got = []
    for lib in (torch, mindtorch):
        cp = lib.utils.checkpoint
        x = lib.ones(2, dtype=lib.float64, requires_grad=True)
        d = cp.detach_variable((x, 3))
        row = [d[0] is x, d[0].requires_grad, d[1], issubclass(cp.CheckpointError, RuntimeError),
               cp.get_device_states(x), [type(c).__name__ for c in cp.noop_context_fn()]]
        with pytest.raises(RuntimeError, match="Only tuple of tensors is supported. Got "
                                               "Unsupported input type: list"):
            cp.detach_variable([x])
        with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
            cp.check_backward_validity((lib.ones(1), 2))
        with cp.set_checkpoint_early_stop(False), cp.set_checkpoint_debug_enabled(True):
            out = cp.checkpoint(lambda t: t.exp(), x, use_reentrant=False)
        out.sum().backward()
        row.append(x.grad.tolist())
        got.append(row)
    assert got[1] == got[0]


def test_context_fn():
    # the forward and the rerun run in context_fn()'s two managers (non-reentrant only)
    import contextlib
    for lib in (torch, mindtorch):
        seen = []

        @contextlib.contextmanager
        def mark(name):
            seen.append(name)
            yield

        x = lib.tensor([0.5, 1.0], requires_grad=True)
        out = lib.utils.checkpoint.checkpoint(lambda t: t.sin() * t, x, use_reentrant=False,
                                              context_fn=lambda: (mark("fwd"), mark("rerun")))
        out.sum().backward()
        assert seen == ["fwd", "rerun"]
        with pytest.raises(ValueError, match="Passing `context_fn` or `debug` is only "
                                             "supported when use_reentrant=False."):
            lib.utils.checkpoint.checkpoint(lambda t: t, x, use_reentrant=True,
                                            context_fn=lambda: (mark("a"), mark("b")))


def test_non_reentrant_checks_determinism_check():
    for m in (mindtorch, torch):
        x = m.ones(2, requires_grad=True)
        with pytest.raises(ValueError, match="determinism_check should be one of"):
            m.utils.checkpoint.checkpoint(lambda t: t * 2, x, use_reentrant=False,
                                          determinism_check="bogus")


def test_selective_checkpoint_policy_api():
    # the selective-checkpointing helpers: PyTorch's enum, context pair and checks; the
    # values and gradients are the unchecked run's
    for lib in (torch, mindtorch):
        C = lib.utils.checkpoint
        assert [(p.name, p.value) for p in C.CheckpointPolicy] == [
            ("MUST_SAVE", 0), ("PREFER_SAVE", 1), ("MUST_RECOMPUTE", 2),
            ("PREFER_RECOMPUTE", 3), ("MUST_CPU_OFFLOAD", 4), ("PREFER_CPU_OFFLOAD", 5)]
        with pytest.raises(TypeError, match="must be either a function or a list of ops"):
            C.create_selective_checkpoint_contexts(3)
        ctx = C.SelectiveCheckpointContext(is_recompute=False)
        assert ctx.is_recompute is False and ctx.op_output is None

    def run(lib):
        C = lib.utils.checkpoint
        w = lib.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)

        def policy(ctx, op, *args, **kwargs):
            return C.CheckpointPolicy.PREFER_RECOMPUTE
        out = C.checkpoint(lambda x: (x @ w).relu().sum(), lib.ones(3, 2), use_reentrant=False,
                           context_fn=lambda: C.create_selective_checkpoint_contexts(policy))
        out.backward()
        return out.item(), w.grad.tolist()
    assert run(mindtorch) == run(torch)
