"""Regressions found by the autograd QA programs (tests/integration/programs_qa_autograd.py),
each compared with PyTorch: error types and messages, and values where there are some."""
import mindtorch
import pytest
import torch
from reference import assert_same, same_errors, tagged_outcome

M = mindtorch
LIBS = [M, torch]


@pytest.mark.parametrize("bad", ["size", "dtype", "int"])
def test_tensor_hook_result_checked(bad):
    def program(m):
        x = m.ones(3, requires_grad=True)

        def my_hook(g):
            return {"size": g[:1], "dtype": g.double(), "int": 3}[bad]
        x.register_hook(my_hook)
        (x * 2).sum().backward()
    same_errors(program)


def test_non_leaf_hook_result_checked():
    def program(m):
        x = m.ones(3, requires_grad=True)
        y = x * 2
        y.register_hook(lambda g: g.sum())
        y.sum().backward()
    same_errors(program)


def test_data_has_its_own_version_counter():
    for m in LIBS:
        x = m.ones(3, requires_grad=True)
        with m.no_grad():
            x.mul_(2)
        d = x.data
        d.add_(1)
        assert (x._version, d._version) == (1, 1)
        assert x.tolist() == [3.0, 3.0, 3.0]


def test_data_setter_needs_a_tensor():
    same_errors(lambda m: setattr(m.ones(2, requires_grad=True), "data", [1, 2]))


def test_requires_grad_setter_message():
    same_errors(lambda m: setattr(m.arange(2), "requires_grad", True))
    same_errors(lambda m: m.arange(2).requires_grad_())


def test_materialize_grads_with_allow_unused_false_runs_nothing():
    for m in LIBS:
        a = m.ones(2, requires_grad=True)
        y = (a * a).sum()
        with pytest.raises(ValueError, match="Expected allow_unused to be True"):
            m.autograd.grad(y, a, allow_unused=False, materialize_grads=True)
        assert m.autograd.grad(y, a)[0].tolist() == [2.0, 2.0]  # the graph is still there


def test_grad_is_grads_batched():
    def program(m):
        x = m.tensor([1.0, 2.0, 3.0], dtype=m.float64, requires_grad=True)
        w = m.arange(6.0, dtype=m.float64).reshape(2, 3).requires_grad_()
        u = m.ones(1, dtype=m.float64, requires_grad=True)
        out = (w @ x.sin()) * 2
        gw, gx, gu = m.autograd.grad(out, (w, x, u), m.eye(2, dtype=m.float64) * 3,
                                     is_grads_batched=True, allow_unused=True)
        assert gu is None
        return gw, gx
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)


def test_grad_is_grads_batched_shape_mismatch():
    def program(m):
        x = m.ones(3, requires_grad=True)
        m.autograd.grad(x * 2, x, m.ones(2, 4), is_grads_batched=True)
    same_errors(program)


def test_node_hook_must_return_one_value_per_gradient():
    def program(m):
        a = m.ones(2, requires_grad=True)
        b = a * 2
        b.grad_fn.register_hook(lambda gi, go: (gi[0] * 10,))
        b.sum().backward()
    same_errors(program)


def test_accumulate_grad_node_hooks_run():
    for m in LIBS:
        log = []
        c = m.ones(2, requires_grad=True)
        acc = (c * 1).grad_fn.next_functions[0][0]
        acc.register_prehook(lambda go: (log.append(("pre", go[0].tolist())), (go[0] * 3,))[1])
        acc.register_hook(lambda gi, go: log.append(("post", gi, go[0].tolist())))
        (c * 1).sum().backward()
        assert log == [("pre", [1.0, 1.0]), ("post", (), [3.0, 3.0])]
        assert c.grad.tolist() == [3.0, 3.0]


def test_saved_attributes_of_formula_nodes():
    def program(m):
        x = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
        w = m.tensor([3.0, 4.0], dtype=m.float64, requires_grad=True)
        mul, s, p, e = (x * w).grad_fn, x.sum(0, keepdim=True).grad_fn, x.pow(3).grad_fn, \
            x.exp().grad_fn
        assert (s._saved_dim, s._saved_keepdim, s._saved_self_sym_sizes, p._saved_exponent) \
            == ((0,), True, (2,), 3)
        assert mul._saved_self is x
        return mul._saved_self, mul._saved_other, e._saved_result
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)
    for m in LIBS:
        x = m.ones(2, requires_grad=True)
        y = x * x
        y.sum().backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            y.grad_fn._saved_self
        with pytest.raises(AttributeError):
            (x * x).grad_fn._saved_nothing
        with pytest.raises(AttributeError):
            (x + x).grad_fn._saved_self


def test_custom_function_mark_dirty_version_and_leaf():
    def program(m):
        class AddOne_(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                return x.add_(1)

            @staticmethod
            def backward(ctx, g):
                return g
        a = m.ones(2, requires_grad=True) * 1
        assert AddOne_.apply(a)._version == 2
        AddOne_.apply(m.ones(2, requires_grad=True))
    same_errors(program)


@pytest.mark.parametrize("case", ["output", "jacobian", "vjp", "vhp", "strategy", "vectorize"])
def test_functional_strict_messages(case):
    def program(m):
        F = m.autograd.functional
        x = m.ones(2)
        if case == "output":
            F.jacobian(lambda a: m.ones(2), x, strict=True)
        elif case == "jacobian":
            F.jacobian(lambda a, b: a * 2, (x, x), strict=True)
        elif case == "vjp":
            F.vjp(lambda a: a.detach(), x, x, strict=True)
        elif case == "vhp":
            F.vhp(lambda a: (a * 2).sum(), x, x, strict=True)
        elif case == "strategy":
            F.jacobian(lambda a: a, x, strategy="bad")
        else:
            F.jacobian(lambda a: a, x, strict=True, vectorize=True)
    same_errors(program)


def test_save_on_cpu_and_disabled_hooks():
    def program(m):
        a = m.tensor([2.0, 3.0], dtype=m.float64, requires_grad=True)
        with m.autograd.graph.save_on_cpu(pin_memory=True):
            g, = m.autograd.grad((a.sin() * a.cos()).sum(), a)
        with m.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
            with pytest.raises(RuntimeError, match="^no hooks here$"):
                m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        with m.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
        return g
    assert_same(program(M), program(torch))


@pytest.mark.parametrize("case", ["empty_inputs", "fewer_grads", "no_grads", "extra_grads"])
def test_backward_argument_counts(case):
    def program(m):
        a = m.ones(2, requires_grad=True)
        if case == "empty_inputs":
            (a * 2).sum().backward(inputs=[])
        elif case == "fewer_grads":
            m.autograd.backward([a * 2, a * 3], [m.ones(2)])
        elif case == "no_grads":
            m.autograd.grad([(a * 2).sum()], [a], [])
        else:  # extra gradients are ignored
            m.autograd.backward([a * 2], [m.ones(2), m.ones(2)])
            return a.grad.tolist()
    ours, theirs = same_errors(program)
    assert ours == theirs


def test_register_multi_grad_hook():
    def program(m):
        a, b = m.ones(2, requires_grad=True), m.ones(2, requires_grad=True)
        log = []
        h = m.autograd.graph.register_multi_grad_hook(
            (a, b), lambda gs: log.append([None if g is None else g.tolist() for g in gs]))
        (a * 2).sum().backward()
        (a * 2 + b * 3).sum().backward()
        (a * b).sum().backward(inputs=(a,))
        h.remove()
        (a * 2).sum().backward()
        m.autograd.graph.register_multi_grad_hook((a, b), lambda g: log.append(g.tolist()),
                                                  mode="any")
        (a * 5 + b * 7).sum().backward()
        return log
    assert program(M) == program(torch)
    same_errors(lambda m: m.autograd.graph.register_multi_grad_hook((), print, mode="x"))


def test_increment_version():
    for m in LIBS:
        k = m.ones(2)
        m.autograd.graph.increment_version(k)
        m.autograd.graph.increment_version([k, k[:1]])
        assert k._version == 3


@pytest.mark.parametrize("case", ["linear", "leaf_tanh", "tanh", "dict_out"])
def test_non_full_backward_hook_warnings(case):
    import warnings

    def program(m):
        class Dict(m.nn.Module):
            def forward(self, x):
                return {"y": x * 2}
        mod, inp = {"linear": (m.nn.Linear(2, 2), m.ones(1, 2, requires_grad=True)),
                    "leaf_tanh": (m.nn.Tanh(), m.ones(2, requires_grad=True)),
                    "tanh": (m.nn.Tanh(), m.ones(2, requires_grad=True) * 2),
                    "dict_out": (Dict(), m.ones(2, requires_grad=True))}[case]
        calls = []
        mod.register_backward_hook(lambda mod_, gi, go: calls.append((len(gi), len(go))))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            out = mod(inp)
            (out["y"] if case == "dict_out" else out).sum().backward()
        return calls, [(x.category, str(x.message)) for x in w]
    assert program(M) == program(torch)


def test_save_for_backward_names_the_bad_argument():
    def program(m):
        class SaveInt(m.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, None, 3)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g
        SaveInt.apply(m.ones(2, requires_grad=True))
    same_errors(program)


def test_version_error_hint_under_anomaly_mode():
    import warnings

    def program(m):
        x = m.ones(2, requires_grad=True)
        y = x.exp()
        z = y * 2
        y.add_(1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with m.autograd.detect_anomaly():
                z.sum().backward()
    same_errors(program)


def test_detect_anomaly_is_not_a_decorator():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same_errors(lambda m: m.autograd.detect_anomaly()(print))
    for m in LIBS:
        with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
            d = m.autograd.detect_anomaly(check_nan=False)
        with d:
            assert m.is_anomaly_enabled() and not m.is_anomaly_check_nan_enabled()
        assert not m.is_anomaly_enabled() and m.is_anomaly_check_nan_enabled()


@pytest.mark.parametrize("ops", [("relu_", "sigmoid_"), ("exp_", "mul_"), ("tanh_", "zero_"),
                                 ("sigmoid_", "add_")])
def test_output_saved_by_inplace_op_is_version_checked(ops):
    def program(m):
        x = m.tensor([-1.0, 0.5, 2.0], requires_grad=True)
        y = x * 1
        getattr(y, ops[0])()
        second = getattr(y, ops[1])
        second(2) if ops[1] in ("mul_", "add_") else second()
        y.sum().backward()
    same_errors(program)


def test_inplace_op_output_still_differentiable():
    def program(m):
        x = m.tensor([-1.0, 0.5, 2.0], dtype=m.float64, requires_grad=True)
        y = (x * 1).tanh_()
        z = (y * 3).exp_()
        (z * z).sum().backward()
        return x.grad
    assert_same(program(M), program(torch))


def test_out_tensor_requiring_grad_refused():
    same_errors(lambda m: m.mul(m.ones(3), 2, out=m.ones(3, requires_grad=True)))
    for m in LIBS:
        out = m.ones(3, requires_grad=True)
        with m.no_grad():
            m.mul(m.ones(3), 2, out=out)
        assert out.tolist() == [2.0, 2.0, 2.0]


def test_non_leaf_grad_warning_text():
    import warnings
    texts = []
    for m in LIBS:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            (m.ones(2, requires_grad=True) * 2).grad
        texts.append(str(w[0].message).split(" (Triggered")[0])
    assert texts[0] == texts[1]


def test_pack_hook_sees_saved_outputs_with_their_grad_fn():
    def program(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        seen = []

        def pack(t):
            seen.append((t.requires_grad, t.grad_fn.name() if t.grad_fn else None, t.is_leaf))
            return t
        with m.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            y = x.exp()
            (y * x).sum().backward()
        return seen, [round(v, 4) for v in x.grad.tolist()]
    assert program(M) == program(torch)


@pytest.mark.parametrize("case", ["hessian_vector", "hessian_linear_strict", "hessian_tuple",
                                  "jvp_v_size", "vjp_v_size", "vjp_v_count", "vhp_v_none",
                                  "jacobian_float_out", "jacobian_list_in", "tuple_bad_entry",
                                  "hvp_not_scalar"])
def test_functional_argument_messages(case):
    def program(m):
        F, ones = m.autograd.functional, m.ones
        if case == "hessian_vector":
            F.hessian(lambda t: t * 2, ones(2))
        elif case == "hessian_linear_strict":
            F.hessian(lambda t: t.sum() * 2, ones(2), strict=True)
        elif case == "hessian_tuple":
            F.hessian(lambda t: (t.sum(),), ones(2))
        elif case == "jvp_v_size":
            F.jvp(lambda t: t * 2, ones(2), ones(3))
        elif case == "vjp_v_size":
            F.vjp(lambda a, b: (a * 2, b), (ones(2), ones(1)), (ones(2), ones(3)))
        elif case == "vjp_v_count":
            F.vjp(lambda t: t * 2, ones(2), (ones(2), ones(2)))
        elif case == "vhp_v_none":
            F.vhp(lambda t: t.sum(), ones(2))
        elif case == "jacobian_float_out":
            F.jacobian(lambda t: 3.0, ones(2))
        elif case == "jacobian_list_in":
            F.jacobian(lambda t: t, [1.0, 2.0])
        elif case == "tuple_bad_entry":
            F.jacobian(lambda a, b: a, (ones(2), 2.0))
        else:
            F.hvp(lambda t: t * 1, ones(2), ones(2))
    same_errors(program)


def test_gradient_edges_in_autograd_grad():
    def program(m):
        get = m.autograd.graph.get_gradient_edge
        x = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
        h = x * 3
        y = h.exp().sum()
        e = get(h)
        assert type(e).__name__ == "GradientEdge" and e.node is h.grad_fn and e.output_nr == 0
        g1, = m.autograd.grad(y, e, retain_graph=True)
        g2, g3 = m.autograd.grad(y, [get(x), h], retain_graph=True)
        g4, = m.autograd.grad(get(h), x, grad_outputs=g1)
        g5, = m.autograd.grad(get((x * 2).sum()), x)
        return g1, g2, g3, g4, g5
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)
    same_errors(lambda m: m.autograd.graph.get_gradient_edge(m.ones(2)))


def test_create_graph_first_gradient_is_a_recorded_copy():
    import warnings

    def program(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            (x ** 3).sum().backward(create_graph=True)
            first = (x.grad.grad_fn.name(), x.grad._version, x.grad.tolist())
            x.grad.sum().backward()
            x.grad = None
            w = x * 1
            w.backward(m.ones(2, requires_grad=True), create_graph=True)
        return first, x.grad.grad_fn.name()
    assert program(M) == program(torch)


def test_allow_mutation_on_saved_tensors():
    def program(m):
        allow = m.autograd.graph.allow_mutation_on_saved_tensors
        with allow():
            a = m.tensor([[0.5, 1.0, 2.0]], dtype=m.float64, requires_grad=True)
            b = a.clone()
            out = (b ** 2).sum()
            b.sin_()
            out.backward()
        with allow(), pytest.raises(RuntimeError, match="cannot be nested"):
            allow().__enter__()
        with allow():
            x = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
            g, = m.autograd.grad((x * 1).pow(3).sum(), x, create_graph=True)
            g2, = m.autograd.grad(g.sum(), x)
            w = x.sin() * x.sin()
        with pytest.raises(AssertionError, match="Trying to backward outside"):
            w.sum().backward()
        return a.grad, b, g, g2
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)


def test_gradcheck_without_inputs_requiring_grad_message():
    same_errors(lambda m: m.autograd.gradcheck(lambda t: t.sum(),
                                                (m.ones(2, dtype=m.float64),)))


@pytest.mark.parametrize("dtypes", [("float32", "complex64"), ("complex64", "float32")])
def test_grad_output_complexness_must_match(dtypes):
    def program(m):
        x = m.ones(2, dtype=getattr(m, dtypes[0]), requires_grad=True)
        m.autograd.grad(x * 2, x, m.ones(2, dtype=getattr(m, dtypes[1])))
    same_errors(program)


def test_non_leaf_grad_warns_only_while_unset():
    import warnings
    for m in LIBS:
        x = m.ones(2, requires_grad=True)
        h = x * x
        (h * h).sum().backward(inputs=[h])
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            assert h.grad.tolist() == [2.0, 2.0]
        assert not w


@pytest.mark.parametrize("case", ["view_of_base", "add_", "exp_", "relu_"])
def test_retain_grad_follows_an_in_place_write(case):
    def program(m):
        a = m.arange(4.0, dtype=m.float64).requires_grad_()
        if case == "view_of_base":
            d = a.clone()
            d.retain_grad()
            d.view(2, 2)[0, 1] = 7
            (d * d).sum().backward()
            return d.grad, a.grad
        y = a * 2
        y.retain_grad()
        getattr(y, case)(*((1,) if case == "add_" else ()))
        (y * y).sum().backward()
        return y.grad, a.grad
    for a, b in zip(program(M), program(torch)):
        assert_same(a, b)


def test_variable_makes_a_new_leaf():
    for m in LIBS:
        x = m.ones(2, requires_grad=True)
        y = x * 2
        for t in (x, y):
            v = m.autograd.Variable(t)
            assert v is not t and v.is_leaf and not v.requires_grad and v.grad_fn is None
            assert v.data_ptr() == t.data_ptr()


@pytest.mark.parametrize("case", ["grad_no_inputs", "grad_int_input", "grad_int_output",
                                  "backward_int", "backward_input_without_grad"])
def test_autograd_argument_errors(case):
    def program(m):
        x = m.ones(2, requires_grad=True)
        y = (x * 2).sum()
        if case == "grad_no_inputs":
            m.autograd.grad(y, [])
        elif case == "grad_int_input":
            m.autograd.grad(y, [x, 3])
        elif case == "grad_int_output":
            m.autograd.grad([y, 3], x)
        elif case == "backward_int":
            m.autograd.backward(3)
        else:
            m.autograd.backward(y, inputs=[m.ones(2)])
    same_errors(program)


def test_enable_grad_inside_inference_mode_records_nothing():
    for m in LIBS:
        x = m.ones(2, requires_grad=True)
        with m.inference_mode():
            with m.enable_grad():
                assert m.is_grad_enabled() and m.is_inference_mode_enabled()
                y = x * 2
                assert not y.requires_grad and y.is_inference()
            with m.set_grad_enabled(True):
                assert m.is_grad_enabled()
            assert not m.is_grad_enabled()
            with m.inference_mode(False):
                assert m.is_grad_enabled() and (x * 2).requires_grad
        assert m.is_grad_enabled() and not m.is_inference_mode_enabled()


def test_anomaly_nan_warning_is_a_user_warning_ending_at_the_forward_line():
    """PyTorch's 'Error detected in SqrtBackward0' is a UserWarning whose traceback ends at
    the user's forward line (no generated binding frames after it)."""
    import warnings
    for m in (mindtorch, torch):
        x = m.tensor([0.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with m.autograd.detect_anomaly():
                y = m.sqrt(x) * 0  # forward line
                with pytest.raises(RuntimeError, match="returned nan values in its 0th output"):
                    y.backward()
        found = [c for c in w if "Error detected in SqrtBackward0" in str(c.message)]
        assert len(found) == 1 and found[0].category is UserWarning
        trace = str(found[0].message).split(" (Triggered internally")[0].rstrip()
        assert trace.endswith("y = m.sqrt(x) * 0  # forward line"), trace[-200:]


def test_gradcheck_complex_inputs_of_non_holomorphic_functions():
    """Finite differences along both the real and the imaginary part of a complex input
    (PyTorch's convention: grad = dL/dRe + 1j dL/dIm), so abs, angle, conj * t, ... pass
    and a wrong backward is caught, as in PyTorch."""
    fns = [lambda t: t.abs(), lambda t: (t * t).abs(), lambda t: (t * t).real, lambda t: t * t,
           lambda t: t.conj() * t, lambda t: t.angle(), lambda t: t.exp()]

    def run(m):
        z = m.tensor([1 + 2j, -0.5 + 0.3j], dtype=m.complex128, requires_grad=True)

        class Wrong(m.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t.abs()

            @staticmethod
            def backward(ctx, g):
                return g + 0j  # (drops the z / |z| factor)
        return [m.autograd.gradcheck(f, (z,)) for f in fns] + \
            [m.autograd.gradgradcheck(fns[1], (z,)),
             m.autograd.gradcheck(Wrong.apply, (z,), raise_exception=False)]
    assert run(mindtorch) == run(torch) == [True] * 8 + [False]
