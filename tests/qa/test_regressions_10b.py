"""QA round 10b (programs in the style of pytorch.org's tutorials and recipes):
regressions, each compared with PyTorch."""
import warnings

import mindtorch
import pytest
import torch
from reference import same_errors, same_outcome


def _warned_count(lib, fn):
    # a warning under the "default" action is shown once per location; a kernel that
    # entered catch_warnings reset that registry and the warning repeated every call
    x = lib.randn(1, 1, 4, 5, dtype=lib.float64)
    theta = lib.eye(2, 3, dtype=lib.float64).unsqueeze(0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for _ in range(3):
            fn(lib, x, theta)
    return [str(w.message)[:40] for w in seen]


@pytest.mark.parametrize("fn", [
    lambda lib, x, th: lib.nn.functional.affine_grid(th, x.shape),
    lambda lib, x, th: lib.nn.functional.grid_sample(
        x, lib.nn.functional.affine_grid(th, x.shape, align_corners=False)),
    lambda lib, x, th: (lib.linspace(0, 1, 5), lib.nn.functional.affine_grid(th, x.shape)),
])
def test_default_filtered_warning_shown_once(fn):
    assert _warned_count(mindtorch, fn) == _warned_count(torch, fn)
    assert len(_warned_count(mindtorch, fn)) == 1


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("padding_mode", [0, 1, 2])
@pytest.mark.parametrize("size", [(7, 7), (28, 28), (13, 6)])
@pytest.mark.parametrize("path", ["kernel", "decomposition"])
def test_grid_sample_identity_grid_gradient(dtype, padding_mode, size, path):
    # the spatial transformer tutorial starts from the identity theta: its grid points sit
    # on pixels, where PyTorch's fused (x + 1) * size / 2 - 0.5 (float64 too) can fall an
    # ulp below the integer, so the bilinear grid gradient takes the pixel pair below
    from mindtorch._ops.decls import sampling

    def program(lib):
        lib.manual_seed(0)
        dt = getattr(lib, dtype)
        theta = lib.tensor([[[1., 0, 0], [0, 1, 0]], [[1.3, 0.2, -0.1], [-0.2, 0.7, 0.3]]],
                           dtype=dt, requires_grad=True)
        img = lib.randn(2, 3, *size, dtype=dt)
        grid = lib.nn.functional.affine_grid(theta, img.shape, align_corners=False)
        if path == "decomposition" and lib is mindtorch:
            out = sampling._grid_sampler_nd(img, grid, 0, padding_mode, False)
            _, g = sampling._grid_sampler_nd_backward(2 * out, img, grid, 0, padding_mode,
                                                      False)
        else:
            grid.retain_grad()
            out = lib.grid_sampler(img, grid, 0, padding_mode, False)
            out.pow(2).sum().backward()
            g = grid.grad
        return out.tolist(), g[0].tolist()
    ours, theirs = same_errors(program)
    tol = 1e-9 if dtype == "float64" else 1e-3
    for a, b in zip(ours[1], theirs[1]):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), rtol=tol, atol=tol)


def test_jvp_of_grad_result_does_not_require_grad():
    # jvp(grad(f)) (Hessian-vector products, the Jacobians tutorial): grad's inputs inside
    # the dual level are the transform's own leaves; the tangent leaked their graph
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(4, dtype=lib.float64)
        t = lib.linspace(-1, 1, 4, dtype=lib.float64)
        w = lib.randn(4, dtype=lib.float64, requires_grad=True)
        F = lib.func
        rows = []
        for fn in (F.grad(lambda v: v.sin().sum()), F.jacrev(lambda v: v.exp() * v),
                   F.grad(lambda v: (w * v.sin()).sum())):
            out, tangent = F.jvp(fn, (x,), (t,))
            rows.append((out.requires_grad, tangent.requires_grad, out.tolist(),
                         tangent.tolist()))
        out, tangent = F.jvp(F.grad(lambda v: (w * v.sin()).sum()), (x,), (t,))
        tangent.sum().backward()
        xr = x.clone().requires_grad_()
        out, tangent2 = F.jvp(F.grad(lambda v: v.pow(3).sum()), (xr,), (t,))
        tangent2.sum().backward()
        return rows, w.grad.tolist(), tangent2.requires_grad, xr.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours[1][2] == theirs[1][2]
    for a, b in zip(ours[1][0], theirs[1][0]):
        assert a[:2] == b[:2]
        assert torch.allclose(torch.tensor(a[2:]), torch.tensor(b[2:]), rtol=1e-12)
    assert torch.allclose(torch.tensor(ours[1][1]), torch.tensor(theirs[1][1]), rtol=1e-12)
    assert torch.allclose(torch.tensor(ours[1][3]), torch.tensor(theirs[1][3]), rtol=1e-12)


def _exp_functions(lib):
    class JvpOnly(lib.autograd.Function):  # the forward-mode AD tutorial's Fn
        @staticmethod
        def forward(ctx, x):
            ctx.result = x.exp()
            return ctx.result

        @staticmethod
        def jvp(ctx, g):
            return g * ctx.result

    class WrongJvp(JvpOnly):
        @staticmethod
        def jvp(ctx, g):
            return g * ctx.result * 2
    return JvpOnly, WrongJvp


@pytest.mark.parametrize("which", [0, 1])
@pytest.mark.parametrize("backward_ad", [False, True])
@pytest.mark.parametrize("raise_exception", [False, True])
def test_gradcheck_forward_ad(which, backward_ad, raise_exception):
    # check_forward_ad / check_backward_ad were ignored: a jvp-only Function failed
    # the backward check PyTorch does not run, and a wrong jvp passed
    def program(lib):
        x = lib.linspace(-1, 1, 4, dtype=lib.float64, requires_grad=True)
        fn = _exp_functions(lib)[which].apply
        return lib.autograd.gradcheck(fn, (x,), check_forward_ad=True,
                                      check_backward_ad=backward_ad,
                                      check_undefined_grad=False,
                                      raise_exception=raise_exception)
    ours, theirs = same_errors(program)
    if ours[0] == "ok":
        assert ours == theirs
    else:
        assert ours[1].split("numerical")[0] == theirs[1].split("numerical")[0]


@pytest.mark.parametrize("fn", [lambda v: v.sin() * v, lambda v: (v * v.conj()).real + v.abs(),
                                lambda v: v * v])
def test_gradcheck_forward_ad_values(fn):
    def program(lib):
        lib.manual_seed(0)
        x = lib.randn(3, dtype=lib.complex128, requires_grad=True)
        y = lib.randn(2, 2, dtype=lib.float64, requires_grad=True)
        return (lib.autograd.gradcheck(fn, (x,), check_forward_ad=True),
                lib.autograd.gradcheck(fn, (y,), check_forward_ad=True))
    ours, theirs = same_errors(program)
    assert ours == theirs == ("ok", (True, True))


def test_gradgradcheck_draws_from_the_global_generator():
    # PyTorch's gradgradcheck draws its output gradients with make_tensor from the global
    # generator (the double-backward tutorial's later random numbers depend on it)
    def program(lib):
        lib.manual_seed(0)
        x = lib.rand(3, 3, dtype=lib.float64, requires_grad=True)
        ok = lib.autograd.gradgradcheck(lambda v: v.sin() * v, x)
        ok2 = lib.autograd.gradgradcheck(lambda v: (v.exp(), v * 2), x,
                                         gen_non_contig_grad_outputs=True)
        return ok, ok2, lib.rand(4, dtype=lib.float64).tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


def _once_sort(lib):
    from importlib import import_module
    once = import_module(lib.__name__ + ".autograd.function").once_differentiable

    class Sort(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i

        @staticmethod
        @once
        def backward(ctx, gv, gi):
            i, = ctx.saved_tensors
            return lib.zeros_like(gv).scatter_(0, i, gv)
    return Sort


@pytest.mark.parametrize("case", ["create_graph", "double", "double_unused", "backward"])
def test_once_differentiable_under_create_graph(case):
    # PyTorch hangs a backward that raises from a once_differentiable backward's results
    # (they require grad); they did not require grad, so errors differed
    def program(lib):
        a = lib.tensor([3., 1., 2.], dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad((_once_sort(lib).apply(a)[0] ** 2).sum(), a, create_graph=True)
        if case == "create_graph":
            return g.tolist(), g.requires_grad, g.grad_fn.name()
        if case == "backward":
            (g * a).sum().backward()
            return a.grad
        return lib.autograd.grad(g.sum(), a, allow_unused=case == "double_unused")
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("rule", ["none", "generate", "staticmethod", "both"])
@pytest.mark.parametrize("batched", [True, False])
def test_function_vmap_rule_required(rule, batched):
    # "Extending torch.func with autograd.Function": vmap over a Function needs a vmap
    # staticmethod or generate_vmap_rule=True (not both); an unbatched call needs neither
    def program(lib):
        attrs = {"forward": staticmethod(lambda x: x * 2),
                 "setup_context": staticmethod(lambda ctx, inputs, output: None),
                 "backward": staticmethod(lambda ctx, g: g * 2)}
        if rule in ("generate", "both"):
            attrs["generate_vmap_rule"] = True
        if rule in ("staticmethod", "both"):
            attrs["vmap"] = staticmethod(lambda info, in_dims, x: (x * 2, in_dims[0]))
        Double = type("Double", (lib.autograd.Function,), attrs)
        x = lib.arange(6, dtype=lib.float64).reshape(2, 3)
        w = lib.ones(3, dtype=lib.float64)
        if batched:
            out = lib.func.vmap(Double.apply)(x)
        else:
            out = lib.func.vmap(lambda v: v + Double.apply(w))(x)
        return out.tolist(), Double.generate_vmap_rule
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("value", ["np.float64(1.5)", "np.int32(2)", "[1, 2]", "None", "'x'",
                                   "decimal.Decimal(1)", "fractions.Fraction(1)", "np.bool_(1)"])
def test_from_numpy_refusal_names_the_type_as_cpython(value):
    # the tensors tutorial's NumPy bridge: a NumPy scalar is no ndarray; PyTorch names
    # its type by tp_name (numpy.float64)
    import decimal
    import fractions

    import numpy as np
    obj = eval(value, {"np": np, "decimal": decimal, "fractions": fractions})
    assert same_outcome(lambda lib: lib.from_numpy(obj))[0] == "TypeError"


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("size", [(2, 1, 28, 28), (3, 2, 5, 7), (2, 1, 4, 5, 6), (1, 1, 1, 7)])
@pytest.mark.parametrize("align_corners", [False, True])
def test_affine_grid_bits_and_sampled_gradient(dtype, size, align_corners):
    # PyTorch's batched product of base grid and theta sums its terms in order (no fused
    # multiply-add at any size); BLAS's matmul put points an ulp off, which moves
    # grid_sample's gradient where a point sits on a pixel
    def program(lib):
        lib.manual_seed(0)
        nd = len(size) - 2
        theta = (lib.eye(nd, nd + 1, dtype=lib.float64) +
                 0.1 * lib.randn(size[0], nd, nd + 1, dtype=lib.float64))
        theta = theta.to(getattr(lib, dtype)).requires_grad_()
        grid = lib.nn.functional.affine_grid(theta, size, align_corners=align_corners)
        img = lib.randn(size, dtype=getattr(lib, dtype))
        out = lib.nn.functional.grid_sample(img, grid, align_corners=align_corners)
        out.pow(2).sum().backward()
        return grid.tolist(), theta.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours[1][0] == theirs[1][0]  # bit for bit
    tol = 1e-9 if dtype == "float64" else 1e-3
    assert torch.allclose(torch.tensor(ours[1][1]), torch.tensor(theirs[1][1]), rtol=tol,
                          atol=tol)



@pytest.mark.parametrize("theta, size", [((2, 2, 3), (2, 2, 6, 7, 7)), ((2, 3, 4), (2, 3, 4, 5)),
                                         ((2, 2, 3), (3, 3, 4, 5)), ((2, 3, 3), (2, 3, 4, 5)),
                                         ((2, 6), (2, 3, 4, 5)), ((2, 2, 3, 1), (2, 3, 4, 5))])
def test_affine_grid_generator_shape_errors(theta, size):
    # (the op itself, as the fuzzer calls it: PyTorch's errors are its batched product's)
    same_errors(lambda lib: lib.affine_grid_generator(lib.ones(theta), size, False))

def _custom_ops(lib, tag):
    T = lib.Tensor

    def muladd(a: T, b: T, c: float) -> T:
        return a * b + c

    def many(a: T, b: T | None, c: list[float], d: bool, e: str, n: int,
             g: list[T], h: float | None = None) -> T:
        return a * n
    return (lib.library.custom_op(f"qa10b_{tag}::muladd", mutates_args=())(muladd),
            lib.library.custom_op(f"qa10b_{tag}::many", mutates_args=())(many))


_CALLS = [lambda A, m, o: m(A, A, "x"), lambda A, m, o: m(A, 3, 1.0), lambda A, m, o: m(A, A),
          lambda A, m, o: m(A, A, 1.0, 2), lambda A, m, o: m(A, A, c=1.0, d=2),
          lambda A, m, o: m(A, A, True), lambda A, m, o: m(A, A, None),
          lambda A, m, o: o(A, 1, [1.], True, "s", 2, [A]),
          lambda A, m, o: o(A, None, 1.0, True, "s", 2, [A]),
          lambda A, m, o: o(A, None, [1], 1, "s", True, (A,), 2),
          lambda A, m, o: o(A, None, [1.], True, 1, 2, [A]),
          lambda A, m, o: o(A, None, [1.], True, "s", 2.5, [A]),
          lambda A, m, o: o(A, None, [1.], True, "s", 2, [1]),
          lambda A, m, o: o(A, None, [1.], True, "s", 2, [A], "x")]


@pytest.mark.parametrize("k", range(len(_CALLS)))
def test_custom_op_bad_arguments_are_runtime_errors(k):
    # the custom Python operators tutorial: PyTorch's dispatcher refuses a bad call to a
    # custom op with a RuntimeError naming the declaration (mindtorch raised TypeErrors)
    def program(lib):
        muladd, many = _custom_ops(lib, f"{k}_{lib.__name__}")
        out = _CALLS[k](lib.ones(2), muladd, many)
        return out.tolist()
    from reference import tagged_outcome
    ours = tagged_outcome(lambda: program(mindtorch))
    theirs = tagged_outcome(lambda: program(torch))
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert ours == theirs
    else:
        assert ours[1].replace("mindtorch", "torch") == theirs[1].split("\nCast error")[0]


def test_custom_op_schema_prints_as_text():
    def program(lib):
        muladd, _ = _custom_ops(lib, f"s_{lib.__name__}")
        return str(muladd._opoverload._schema)
    ours, theirs = same_errors(program)
    assert ours[1].replace("mindtorch", "torch") == theirs[1]


@pytest.mark.parametrize("case", ["pow_self", "exp_result", "twice", "after_backward",
                                  "not_callable", "unknown"])
def test_raw_saved_register_hooks(case):
    # "Hooks for autograd saved tensors": grad_fn._raw_saved_<name>.register_hooks(pack,
    # unpack) routes one saved value through a pair of hooks
    def program(lib):
        log = []
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = x.exp() if case == "exp_result" else x.pow(2)
        name = "result" if case == "exp_result" else "self"
        if case == "after_backward":
            y.sum().backward()
        if case == "unknown":
            return y.grad_fn._raw_saved_nothing
        raw = getattr(y.grad_fn, "_raw_saved_" + name)
        pack = 1 if case == "not_callable" else (lambda t: (log.append("pack"), t * 2)[1])
        raw.register_hooks(pack, lambda t: (log.append("unpack"), t)[1])
        if case == "twice":
            raw.register_hooks(lambda t: t, lambda t: t)
        g, = lib.autograd.grad(y.sum(), x)
        return log, g.tolist()
    ours, theirs = same_errors(program) if case not in ("not_callable",) else \
        (None, None)
    if case == "not_callable":
        from reference import tagged_outcome
        assert tagged_outcome(lambda: program(mindtorch))[0] == \
            tagged_outcome(lambda: program(torch))[0] == "TypeError"
        return
    assert ours == theirs


def test_old_lr_scheduler_name_is_a_subclass():
    # PyTorch's _LRScheduler subclasses LRScheduler (not an alias): built-in and new-style
    # schedulers are not instances of it; old-style subclasses still work
    def program(lib):
        S = lib.optim.lr_scheduler
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=1.0)

        class Old(S._LRScheduler):
            def get_lr(self):
                return [b * 0.5 ** self.last_epoch for b in self.base_lrs]
        old = Old(opt)
        opt.step()
        old.step()
        return (isinstance(S.StepLR(opt, 1), S._LRScheduler), isinstance(old, S.LRScheduler),
                issubclass(S._LRScheduler, S.LRScheduler), S._LRScheduler is S.LRScheduler,
                old.get_last_lr())
    ours, theirs = same_errors(program)
    assert ours == theirs


@pytest.mark.parametrize("case", ["head_major", "keys_head_major", "mask", "causal", "gqa",
                                  "dropout", "vdim", "float32", "permuted"])
def test_sdpa_output_laid_out_like_query(case):
    # the SDPA tutorial's CausalSelfAttention: q.view(b, l, h, d).transpose(1, 2) in, and
    # y.transpose(1, 2).view(b, l, h * d) after: PyTorch's cpu flash kernel returns
    # empty_like(query), so that view works (the math path, with dropout or another value
    # head size, returns a contiguous result)
    def program(lib):
        lib.manual_seed(0)
        dt = lib.float32 if case == "float32" else lib.float64
        q = lib.randn(2, 5, 3, 4, dtype=dt).transpose(1, 2)
        k = lib.randn(2, 3, 6, 4, dtype=dt)
        v = lib.randn(2, 3, 6, 5 if case == "vdim" else 4, dtype=dt)
        kw = {}
        if case == "keys_head_major":
            q = q.contiguous()
            k = lib.randn(2, 6, 3, 4, dtype=dt).transpose(1, 2)
        if case == "mask":
            kw["attn_mask"] = lib.randn(5, 6, dtype=dt)
        if case == "causal":
            kw["is_causal"] = True
        if case == "gqa":
            k, v, kw["enable_gqa"] = k[:, :1], v[:, :1], True
        if case == "dropout":
            kw["dropout_p"] = 0.5
        if case == "permuted":
            q = lib.randn(5, 3, 2, 4, dtype=dt).permute(2, 1, 0, 3)
        q.requires_grad_()
        y = lib.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
        y.pow(2).sum().backward()
        return y.stride(), y.tolist(), q.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours[1][0] == theirs[1][0]
    tol = 1e-4 if case == "float32" else 1e-10
    for a, b in zip(ours[1][1:], theirs[1][1:]):
        assert torch.allclose(torch.tensor(a, dtype=torch.float64),
                              torch.tensor(b, dtype=torch.float64), rtol=tol, atol=tol)
