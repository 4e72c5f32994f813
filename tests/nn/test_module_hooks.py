"""Module hooks against PyTorch: forward (pre) hooks, full backward (pre) hooks, global hooks;
call order and the arguments the hooks receive."""
import warnings

import numpy as np
import pytest

import mindtorch as mt
from mindtorch.nn.modules import module as mt_module_mod

from test_module import MT, TH, to_mt

torch = pytest.importorskip("torch")
from torch.nn.modules import module as th_module_mod  # noqa: E402


def plain(x):
    """Hook arguments in a comparable form (tensors as rounded lists)."""
    if isinstance(x, (mt.Tensor, torch.Tensor)):
        return ("T", np.round(np.asarray(x.detach().numpy(), dtype=np.float64), 6).tolist())
    if isinstance(x, (tuple, list)):
        return tuple(plain(v) for v in x)
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (mt.nn.Module, torch.nn.Module)):
        return ("M", type(x).__name__)
    return x


def run_both(scenario):
    """scenario(lib, Lin, Act, log) for both libraries; the logs must match."""
    logs = []
    for lib, classes in ((mt, MT), (torch, TH)):
        log = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scenario(lib, classes, log)
        logs.append([plain(e) for e in log])
    assert logs[0] == logs[1]
    return logs[0]


def double(lib, x):
    return lib.tensor(x, dtype=lib.float64)


def test_forward_pre_and_post_hooks_order_and_results():
    def scenario(lib, C, log):
        m = C[0](3, 2).double()
        m.register_forward_pre_hook(lambda mod, args: log.append(("pre1", args)))
        m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))       # replaces args
        m.register_forward_pre_hook(lambda mod, args: log.append(("pre0", args)), prepend=True)
        m.register_forward_pre_hook(lambda mod, args, kw: log.append(("prekw", args, kw)),
                                    with_kwargs=True)
        m.register_forward_pre_hook(lambda mod, args: args[0] + 1)        # non-tuple result
        m.register_forward_hook(lambda mod, args, out: log.append(("post", args, out)))
        m.register_forward_hook(lambda mod, args, out: out * 10)
        m.register_forward_hook(lambda mod, args, kw, out: log.append(("postkw", kw, out)),
                                with_kwargs=True)
        m.register_forward_hook(lambda mod, args, out: log.append(("first", out)),
                                prepend=True)
        log.append(("result", m(double(lib, [[1.0, 2.0, 3.0]]))))
    log = run_both(scenario)
    assert [e[0] for e in log] == ["pre0", "pre1", "prekw", "first", "post", "postkw", "result"]


def test_pre_hook_with_kwargs_replaces_args_and_kwargs():
    class Scaled:
        @staticmethod
        def make(lib):
            class S(lib.nn.Module):
                def forward(self, x, *, scale=1.0):
                    return x * scale
            return S

    def scenario(lib, C, log):
        m = Scaled.make(lib)()
        m.register_forward_pre_hook(lambda mod, args, kw: (args, {"scale": kw["scale"] * 3}),
                                    with_kwargs=True)
        log.append(m(double(lib, [1.0]), scale=2.0))
        m2 = Scaled.make(lib)()
        m2.register_forward_pre_hook(lambda mod, args, kw: 5, with_kwargs=True)
        try:
            m2(double(lib, [1.0]))
        except RuntimeError as e:
            log.append(("error", str(e)))
    run_both(scenario)


def test_handles_remove_and_context_manager():
    def scenario(lib, C, log):
        m = C[1]()
        h1 = m.register_forward_hook(lambda mod, a, o: log.append("h1"))
        h2 = m.register_forward_hook(lambda mod, a, o: log.append("h2"), with_kwargs=False,
                                     always_call=True)
        m(lib.ones(1))
        h1.remove()
        h1.remove()  # twice is fine
        m(lib.ones(1))
        h2.remove()
        log.append(len(m._forward_hooks_always_called))
        with m.register_forward_pre_hook(lambda mod, a: log.append("ctx")):
            m(lib.ones(1))
        m(lib.ones(1))
        log.append(len(m._forward_pre_hooks))
    assert run_both(scenario) == ["h1", "h2", "h2", 0, "ctx", 0]


def test_always_call_hook_runs_when_forward_raises():
    def scenario(lib, C, log):
        class Boom(lib.nn.Module):
            def forward(self, x):
                raise ValueError("boom")
        m = Boom()
        m.register_forward_hook(lambda mod, a, o: log.append(("always", o)), always_call=True)
        m.register_forward_hook(lambda mod, a, o: log.append("never"))
        try:
            m(lib.ones(1))
        except ValueError as e:
            log.append(str(e))
    assert run_both(scenario) == [("always", None), "boom"]


def test_global_forward_hooks():
    def scenario(lib, C, log):
        mod = mt_module_mod if lib is mt else th_module_mod
        seq = lib.nn.Sequential(C[1](), C[1]())
        hs = [mod.register_module_forward_pre_hook(
                  lambda m, a: log.append(("gpre", type(m).__name__))),
              mod.register_module_forward_hook(
                  lambda m, a, o: log.append(("gpost", type(m).__name__)))]
        seq[0].register_forward_hook(lambda m, a, o: log.append("local"))
        try:
            seq(lib.ones(1))
        finally:
            for h in hs:
                h.remove()
        seq(lib.ones(1))
    log = run_both(scenario)
    assert log[0] == ("gpre", "Sequential") and log.count("local") == 2


# -- backward hooks ------------------------------------------------------------------------

def two_input_module(lib):
    class Two(lib.nn.Module):
        def forward(self, x, flag, y):
            return x * y + (x if flag else y), (x - y) * 2
    return Two


@pytest.mark.parametrize("y_grad", [True, False])
def test_full_backward_hook_arguments(y_grad):
    def scenario(lib, C, log):
        m = two_input_module(lib)()
        m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", go)))
        m.register_full_backward_hook(lambda mod, gi, go: log.append(("hook", gi, go)))
        x = double(lib, [1.0, -2.0]).requires_grad_()
        y = double(lib, [3.0, 0.5]).requires_grad_(y_grad)
        a, b = m(x, True, y)
        log.append(("out_grad", a.requires_grad, b.requires_grad))
        (a.sum() * 2 + (b * b).sum()).backward()
        log.append(("x.grad", x.grad))
        log.append(("y.grad", y.grad))
    log = run_both(scenario)
    assert [e[0] for e in log] == ["out_grad", "pre", "hook", "x.grad", "y.grad"]


def test_full_backward_hook_replaces_grad_input_and_pre_hook_grad_output():
    def scenario(lib, C, log):
        m = C[0](3, 2).double()
        m.register_full_backward_pre_hook(lambda mod, go: (go[0] * 3,))
        m.register_full_backward_hook(lambda mod, gi, go: log.append(("seen", gi, go)))
        m.register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1,))
        x = double(lib, [[1.0, 2.0, 3.0]]).requires_grad_()
        m(x).sum().backward()
        log.append(("x.grad", x.grad))
        log.append(("w.grad", m.weight.grad))  # parameter gradients use the modified go
    run_both(scenario)


def test_full_backward_hook_in_sequential_order():
    def scenario(lib, C, log):
        seq = lib.nn.Sequential(C[0](2, 3), C[1](), C[0](3, 1)).double()
        for i, layer in enumerate(seq):
            layer.register_full_backward_hook(
                lambda mod, gi, go, i=i: log.append((i, gi, go)))
            layer.register_full_backward_pre_hook(lambda mod, go, i=i: log.append((i, "pre")))
        x = double(lib, [[0.5, -1.0], [2.0, 1.0]]).requires_grad_()
        seq(x).sum().backward()
        log.append(x.grad)
    log = run_both(scenario)
    assert [e[0] for e in log[:-1]] == [2, 2, 1, 1, 0, 0]


def test_full_backward_hook_inputs_without_grad():
    def scenario(lib, C, log):
        m = C[0](2, 2).double()
        m.register_full_backward_hook(lambda mod, gi, go: log.append(("hook", gi, go)))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            m(double(lib, [[1.0, 2.0]])).sum().backward()
        log.append(any("Full backward hook is firing" in str(x.message) for x in w))
        m2 = C[0](2, 2).double()
        m2.register_full_backward_hook(lambda mod, gi, go: (lib.ones(2),))
        try:
            m2(double(lib, [[1.0, 2.0]])).sum().backward()
        except RuntimeError as e:
            log.append(str(e))
    assert run_both(scenario)[1] is True


def test_full_backward_hook_wrong_length():
    def scenario(lib, C, log):
        m = C[0](2, 2).double()
        m.register_full_backward_hook(lambda mod, gi, go: (gi[0], gi[0]))
        x = double(lib, [[1.0, 2.0]]).requires_grad_()
        try:
            m(x).sum().backward()
        except RuntimeError as e:
            log.append(str(e))
        m2 = C[0](2, 2).double()
        m2.register_full_backward_pre_hook(lambda mod, go: ())
        try:
            m2(x).sum().backward()
        except RuntimeError as e:
            log.append(str(e))
    assert len(run_both(scenario)) == 2


def test_no_grad_forward_skips_backward_hooks():
    def scenario(lib, C, log):
        m = C[0](2, 2)
        m.register_full_backward_hook(lambda mod, gi, go: log.append("hook"))
        x = lib.ones(1, 2, requires_grad=True)
        with lib.no_grad():
            out = m(x)
        log.append(out.requires_grad)
        out2 = m(x)
        log.append(out2.grad_fn is not None)
    assert run_both(scenario) == [False, True]


def test_global_full_backward_hook_and_mixing_errors():
    def scenario(lib, C, log):
        mod = mt_module_mod if lib is mt else th_module_mod
        h = mod.register_module_full_backward_hook(
            lambda m, gi, go: log.append(("global", type(m).__name__, gi)))
        try:
            m = C[0](2, 1).double()
            x = double(lib, [[1.0, 2.0]]).requires_grad_()
            m(x).sum().backward()
        finally:
            h.remove()
        m(x).sum().backward()
        m.register_full_backward_hook(lambda *a: None)
        try:
            m.register_backward_hook(lambda *a: None)
        except RuntimeError as e:
            log.append(str(e))
    assert len(run_both(scenario)) == 2


def test_legacy_backward_hook():
    def scenario(lib, C, log):
        m = C[0](2, 1).double()
        m.register_backward_hook(lambda mod, gi, go: log.append(("legacy", len(gi), go)))
        x = double(lib, [[1.0, 2.0]]).requires_grad_()
        m(x).sum().backward()
    assert run_both(scenario)[0][0] == "legacy"


def test_hooks_do_not_change_results():
    x = torch.linspace(-1, 1, 8, dtype=torch.float64).reshape(2, 4)
    m, t = MT[3]().double(), TH[3]().double()
    for mod in m.modules():
        mod.register_full_backward_hook(lambda *a: None)
        mod.register_forward_hook(lambda *a: None)
    xm = to_mt(x).requires_grad_()
    xt = x.clone().requires_grad_()
    m(xm).backward()
    t(xt).backward()
    np.testing.assert_allclose(xm.grad.numpy(), xt.grad.numpy(), rtol=1e-12)
    for p, q in zip(m.parameters(), t.parameters()):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_full_backward_hook_with_inplace_forward_refused():
    # PyTorch refuses an in-place op on the hooked module's input/output aliases
    for lib in (mt, torch):
        m = lib.nn.ReLU(inplace=True)
        m.register_full_backward_hook(lambda *a: None)
        x = lib.tensor([[1.0, -2.0]], requires_grad=True)
        with pytest.raises(RuntimeError, match="Output 0 of BackwardHookFunction is a view"):
            m(x * 1)
        m2 = lib.nn.ReLU(inplace=False)
        m2.register_full_backward_hook(lambda *a: None)
        m2(x * 1).sum().backward()
        assert x.grad.tolist() == [[1.0, 0.0]]


def test_global_registration_hooks():
    def scenario(lib, C, log):
        mod = mt_module_mod if lib is mt else th_module_mod
        handles = [
            mod.register_module_parameter_registration_hook(
                lambda m, n, p: log.append(("param", type(m).__name__, n))),
            mod.register_module_buffer_registration_hook(
                lambda m, n, b: log.append(("buffer", n)) or (b * 2 if b is not None else b)),
            mod.register_module_module_registration_hook(
                lambda m, n, s: log.append(("module", n, type(s).__name__))),
        ]
        try:
            m = C[2](2)
            m.child = C[1]()
            m.add_module("other", None)
            log.append(m.running_mean)
        finally:
            for h in handles:
                h.remove()
        m.extra = C[1]()
    log = run_both(scenario)
    assert ("param", "Norm", "weight") in log and ("module", "child", "Act") in log
