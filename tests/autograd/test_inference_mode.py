"""Inference tensors against PyTorch: what inference_mode() makes, views and aliases,
in-place writes and saving for backward outside inference mode, nesting, decorators."""
import numpy as np
import pytest

import mindtorch
from reference import outcome, same_outcome

torch = pytest.importorskip("torch")


both = same_outcome


def test_program_qa_gap_inference_tensors():
    def f(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.inference_mode():
            y = x * 2
        return y.is_inference(), x.is_inference(), y.requires_grad, lib.is_inference(y)
    assert both(f) == (True, False, False, True)


def test_what_is_made_inside():
    def f(lib):
        x = lib.ones(2, requires_grad=True)
        n = lib.ones(2)
        with lib.inference_mode():
            made = [x * 2, lib.ones(3), lib.tensor([1.0, 2.0]), lib.from_numpy(np.ones(2)),
                    lib.as_tensor(np.ones(2), dtype=lib.float32), x.to(lib.float64),
                    x.double(), n.clone(), lib.tensor(x), lib.zeros_like(n), lib.arange(3),
                    lib.ones(2, requires_grad=True), lib.cat([n, n]), n.sum(),
                    lib.nn.functional.relu(n), lib.randn(2), lib.empty(1)]
            views = [n[0:1], n.view(2), n.detach(), n.t(), x[0], n.unsqueeze(0)]
            r = [lib.is_inference_mode_enabled(), lib.is_grad_enabled(),
                 [t.is_inference() for t in made], [t.is_inference() for t in views],
                 made[0][0:1].is_inference(), made[11].requires_grad]
            n.add_(1)  # in-place on a normal tensor: allowed, and it stays normal
            r.append((n.is_inference(), n._version, n.tolist()))
            with lib.inference_mode(False):
                r.append((lib.ones(1).is_inference(), lib.is_inference_mode_enabled(),
                          lib.is_grad_enabled(), made[1][0:1].is_inference()))
            r.append((lib.is_inference_mode_enabled(), lib.is_grad_enabled()))
        r.append((lib.is_inference_mode_enabled(), lib.is_grad_enabled(), x.is_inference()))
        return r
    both(f)


def test_outside_inference_mode():
    def f(lib):
        x = lib.ones(2, requires_grad=True)
        with lib.inference_mode():
            y = lib.ones(2) * 3
            w = lib.ones(1, 2)
        r = [y[0:1].is_inference(), y.detach().is_inference(), y.view(2).is_inference(),
             y.clone().is_inference(), (y + 1).is_inference(), y.data.is_inference()]
        r += [outcome(lambda: y.add_(1)), y.tolist(), outcome(lambda: y.zero_()),
              outcome(lambda: y[0:1].mul_(2)), outcome(lambda: y.copy_(x)),
              outcome(lambda: y.requires_grad_()), outcome(lambda: y._version),
              outcome(lambda: y.__setitem__(0, 5.0)), y.tolist()]
        # saved for backward: refused; used without being saved: allowed
        r += [outcome(lambda: x * y), (x + y).is_inference(), (x + y).requires_grad,
              outcome(lambda: lib.nn.functional.linear(x, w)),
              outcome(lambda: (x - y).sum().backward()), x.grad.tolist()]
        c = y.clone()  # the workaround: a normal tensor
        r += [c.is_inference(), (x * c).sum().item(), c.add_(1).tolist()]
        r.append(y.requires_grad_(False).is_inference())
        return r
    both(f)


def test_inplace_inside_on_inference_tensor_and_out():
    def f(lib):
        with lib.inference_mode():
            y = lib.ones(2)
            y.add_(1)
            out = lib.empty(2)
            lib.add(y, 1, out=out)
            r = [y.tolist(), out.is_inference(), out.tolist(), outcome(lambda: y._version)]
        normal = lib.empty(2)
        with lib.inference_mode():
            lib.mul(y, 2, out=normal)  # writing a normal tensor in inference mode
        r.append((normal.is_inference(), normal.tolist(), normal._version))
        r.append(outcome(lambda: lib.add(y, 1, out=y)))
        return r
    both(f)


def test_modules_and_decorators():
    def f(lib):
        lib.manual_seed(0)
        lin = lib.nn.Linear(2, 2)
        x = lib.ones(1, 2)

        @lib.inference_mode()
        def g():
            return lin(x)

        @lib.inference_mode
        def h():
            return lin(x) * 2

        @lib.inference_mode(False)
        def k():
            return lin(x)

        with lib.inference_mode():
            made = lib.nn.Linear(2, 2)
            o = lin(x)
        r = [g().is_inference(), h().is_inference(), k().is_inference(), o.is_inference(),
             made.weight.is_inference(), made.weight.requires_grad, lin.weight.is_inference(),
             outcome(lambda: made(lib.ones(1, 2, requires_grad=True))),
             (o * 2).is_inference(), outcome(lambda: (lin(o) ** 2).sum().backward()),
             lib.is_inference_mode_enabled()]
        return r
    both(f)


def test_generator_function_and_threads_state():
    @mindtorch.inference_mode()
    def gen():
        yield mindtorch.ones(1)
        yield mindtorch.is_inference_mode_enabled()
    g = gen()
    assert next(g).is_inference() and not mindtorch.is_inference_mode_enabled()
    assert next(g) is True


def test_meta_device():
    def f(lib):
        with lib.inference_mode():
            m = lib.empty(2, 3, device="meta") + 1
        return (m.is_inference(), m.t().is_inference(), outcome(lambda: m.add_(1)),
                outcome(lambda: lib.ones(3, device="meta", requires_grad=True) * m[0]))
    both(f)


def test_views_of_normal_tensors_made_inside():
    def f(lib):
        x, xr = lib.ones(2), lib.ones(2, requires_grad=True)
        with lib.inference_mode():
            v, vr, d = x[0:1], xr[0:1], xr.detach()[0:1]
            w = xr.view(2)
        with lib.no_grad():
            g = xr[1:]
        return (v.is_inference(), vr.is_inference(), vr.requires_grad, v.add_(1).tolist(),
                outcome(lambda: vr.add_(1)), outcome(lambda: w.mul_(2)),
                outcome(lambda: g.add_(1)), d.add_(1).tolist(), x.tolist(), xr.tolist())
    both(f)
