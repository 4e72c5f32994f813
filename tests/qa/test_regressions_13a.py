"""Regression tests for QA round 13a (torch.optim, lr_scheduler, swa_utils), each against
torch."""
import mindtorch
import numpy as np
import pytest
from reference import same_outcome

torch = pytest.importorskip("torch")


def test_sparse_adam_refuses_sparse_parameters_first():
    # (PyTorch checks for sparse parameters before complex ones, with their indices)
    def program(L):
        dense = L.ones(2, requires_grad=True)
        sparse = L.ones(3).to_sparse().requires_grad_()
        cplx = L.ones(2, dtype=L.complex64, requires_grad=True)
        return L.optim.SparseAdam([{"params": [dense]}, {"params": [cplx, sparse]}])
    same_outcome(program)


def _steps(lib, name, kwargs, dtype, shapes=((5,), (3, 4), (7,), (2, 2)), steps=10):
    """name(**kwargs) over parameters of `dtype` fed the same gradients in both libraries."""
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal(s)).to(getattr(lib, dtype)).requires_grad_()
              for s in shapes]
    opt = getattr(lib.optim, name)(params, **kwargs)
    for _ in range(steps):
        for p in params:
            p.grad = lib.tensor(rng.standard_normal(tuple(p.shape))).to(getattr(lib, dtype))
        opt.step()
    return [p.detach().double().numpy() for p in params], opt.state_dict()


FOREACH_CASES = [("ASGD", {"lr": 0.05, "t0": 3}), ("ASGD", {"lr": 0.05, "weight_decay": 0.1}),
                 ("NAdam", {"lr": 0.05}), ("NAdam", {"lr": 0.05, "weight_decay": 0.1}),
                 ("RAdam", {"lr": 0.05}), ("RAdam", {"lr": 0.05, "weight_decay": 0.1})]


@pytest.mark.parametrize("name,kwargs,dtype",
                         [(n, k, d) for n, k in FOREACH_CASES for d in ["float64"]]
                         + [(n, k, d) for n, k in FOREACH_CASES[:2]
                            for d in ["float16", "bfloat16"]], ids=str)
def test_foreach_true_follows_torchs_foreach_arithmetic(name, kwargs, dtype):
    # foreach=True runs PyTorch's multi-tensor functions, which order NAdam's denominator,
    # RAdam's step and ASGD's whole update (eta computed in the step tensor's float32)
    # otherwise than the single-tensor ones: ASGD's float64 parameters were ~1e-8 off,
    # 16-bit ones (whose kernels agree bit for bit) an ulp off here and there. (Not 16-bit
    # NAdam / RAdam: PyTorch's cpu _foreach_mul_ rounds its scalar to 16 bits first.)
    kwargs = dict(kwargs, foreach=True)
    ours, our_state = _steps(mindtorch, name, kwargs, dtype)
    theirs, their_state = _steps(torch, name, kwargs, dtype)
    exact = dtype != "float64"
    for m, t in zip(ours, theirs):
        if exact:
            assert np.array_equal(m, t)
        else:  # (float64: PyTorch fuses the last multiply-adds, NumPy rounds them twice)
            np.testing.assert_allclose(m, t, rtol=1e-13, atol=1e-15)
    for i, st in their_state["state"].items():
        for key, v in st.items():
            got = our_state["state"][i][key]
            assert str(got.dtype).split(".")[-1] == str(v.dtype).split(".")[-1], key
            np.testing.assert_allclose(got.double().numpy(), v.double().numpy(),
                                       rtol=0 if exact else 1e-13, atol=0 if exact else 1e-15)


@pytest.mark.parametrize("op", ["addcmul", "addcdiv", "addcmul_", "addcdiv_"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_addc_ops_cast_a_wider_zero_dim_operand_to_the_16_bit_type_first(op, dtype):
    # TensorIterator casts a float32 0-dim tensor1/tensor2 to the 16-bit common type before
    # computing in float32 (ASGD's foreach step multiplies by its float32 eta so)
    rng = np.random.default_rng(0)
    a, b, c = rng.standard_normal(500), rng.standard_normal(500), rng.random(500) + 0.5

    def program(L):
        dt = getattr(L, dtype)
        x, y, z = (L.tensor(v).to(dt) for v in (a, b, c))
        scalar = L.tensor(0.04987654, dtype=L.float32)
        first = getattr(x.clone(), op)(y, scalar, value=-1)
        second = getattr(x.clone(), op)(scalar, z, value=0.3)
        return first.float().tolist(), second.float().tolist()
    same_outcome(program)


@pytest.mark.parametrize("name,kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9,
                                                  "weight_decay": 0.1}),
                                         ("RMSprop", {"weight_decay": 0.1})], ids=str)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16_bit_parameters_step_per_tensor(name, kwargs, dtype):
    # ATen's 16-bit kernels round a tensor's vector-loop elements and its scalar tail
    # differently: concatenated into flat buffers, the tails moved (an ulp off here and
    # there); by default they step per tensor now, as PyTorch's single-tensor functions
    shapes = ((5,), (3, 20), (7,), (40, 3), (33,))
    ours, _ = _steps(mindtorch, name, kwargs, dtype, shapes)
    theirs, _ = _steps(torch, name, kwargs, dtype, shapes)
    for m, t in zip(ours, theirs):
        assert np.array_equal(m, t)


@pytest.mark.parametrize("name", ["Adam", "NAdam", "RAdam", "Adamax", "ASGD"])
def test_flat_buffers_dropped_after_a_step_with_too_few_gradients(name):
    # step 1 had too few gradients for the flat path (per tensor: parameter 3 missed it),
    # step 2 reused the flat buffers built at step 0, whose `step` counts then differed:
    # parameter 3 took the others' bias correction
    rng = np.random.default_rng(0)
    shapes = [(3,), (0,), (2, 0), (4,), (5,)]
    inits = [rng.standard_normal(s) for s in shapes]
    grads = [[rng.standard_normal(s) for s in shapes] for _ in range(6)]

    def run(lib):
        ps = [lib.tensor(a).requires_grad_() for a in inits]
        opt = getattr(lib.optim, name)(ps)
        for k, step_grads in enumerate(grads):
            for i, (p, g) in enumerate(zip(ps, step_grads)):
                skip = (i == 3 and k % 2) or (i == 4 and k < 3)
                p.grad = None if skip else lib.tensor(g)
            opt.step()
        return [p.detach().numpy() for p in ps]
    for m, t in zip(run(mindtorch), run(torch)):
        np.testing.assert_allclose(m, t, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name,kwargs", [("AdamW", {}), ("Adam", {"weight_decay": 0.1,
                                                                   "decoupled_weight_decay": True}),
                                         ("RAdam", {}), ("RAdam", {"weight_decay": 0.1,
                                                                   "decoupled_weight_decay": True})],
                         ids=str)
def test_differentiable_learned_lr_reaches_the_decay_and_radams_step(name, kwargs):
    # differentiable=True with a tensor lr that requires grad: the decoupled decay's factor
    # 1 - lr * wd and RAdam's step keep lr in the graph, as PyTorch (lr.grad was missing
    # their part, or None for RAdam)
    def program(L):
        rng = np.random.default_rng(0)
        x = L.tensor(rng.standard_normal(4), requires_grad=True)
        lr = L.tensor(0.01, dtype=L.float64, requires_grad=True)
        w = x.clone()
        opt = getattr(L.optim, name)([w], lr=lr, differentiable=True, **kwargs)
        for _ in range(7):  # (RAdam rectifies from its 6th step on)
            w.grad = L.tensor(rng.standard_normal(4))
            opt.step()
        (w * w).sum().backward()
        return [w.tolist(), x.grad.tolist(), lr.grad.item()]
    ours, theirs = program(mindtorch), program(torch)
    # (the float32 bias correction's sqrt is PyTorch's MKL one, an ulp off at times)
    np.testing.assert_allclose(np.hstack([*ours[:2], ours[2]]),
                               np.hstack([*theirs[:2], theirs[2]]), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name,kwargs", [("Adam", {}), ("AdamW", {}),
                                         ("Adam", {"amsgrad": True, "maximize": True}),
                                         ("AdamW", {"amsgrad": True, "lr": 0.01})], ids=str)
def test_fused_adam_float32_to_the_bit_tails_included(name, kwargs):
    # PyTorch's fused cpu Adam rounds the second moment of each tensor's last
    # n % 8 float32 elements (its scalar loop) as fma(v, beta2, (c * g) * g); its vector
    # loops, the rest, round as the unfused ops and take an exact sqrt (the unfused path's
    # is MKL's, an ulp off at times): float32 parameters bit-identical to PyTorch's fused
    shapes = ((3, 4), (5,), (), (2, 1, 3), (7,), (17,), (31,), (20, 33))
    kwargs = dict(kwargs, fused=True)
    ours, our_state = _steps(mindtorch, name, kwargs, "float32", shapes)
    theirs, their_state = _steps(torch, name, kwargs, "float32", shapes)
    for m, t in zip(ours, theirs):
        assert np.array_equal(m, t)
    for i, st in their_state["state"].items():
        for key, v in st.items():
            assert np.array_equal(our_state["state"][i][key].numpy(), v.numpy()), (i, key)


def test_fused_sgd_momentum_buffer_tails():
    # the same scalar loop in PyTorch's fused SGD: the last n % 8 float32 elements take
    # the momentum as fma(buf, momentum, g); the buffers (gradients only: no decay) are
    # bit-identical now (the parameters' add_(alpha=-lr) is rounded twice here, see 13a's
    # README)
    shapes = ((3, 4), (5,), (), (7,), (17,), (31,), (20, 33))
    kwargs = {"lr": 0.01, "momentum": 0.9, "fused": True}
    _, ours = _steps(mindtorch, "SGD", kwargs, "float32", shapes)
    _, theirs = _steps(torch, "SGD", kwargs, "float32", shapes)
    for i, st in theirs["state"].items():
        assert np.array_equal(ours["state"][i]["momentum_buffer"].numpy(),
                              st["momentum_buffer"].numpy()), i


def test_sgd_state_dict_without_fused_loads_unfused():
    # a state_dict from before `fused` existed: PyTorch's SGD.__setstate__ fills False
    def program(L):
        ps = [L.nn.Parameter(L.ones(3))]
        opt = L.optim.SGD(ps, lr=0.1, momentum=0.9)
        sd = opt.state_dict()
        del sd["param_groups"][0]["fused"]
        opt.load_state_dict(sd)
        return opt.param_groups[0]["fused"], opt.defaults["fused"]
    same_outcome(program)


@pytest.mark.parametrize("name", ["Adam", "AdamW", "SGD", "Adagrad"])
@pytest.mark.parametrize("dtypes,sparse", [(["complex64"], False),
                                           (["float32", "complex64"], False),
                                           (["complex64", "float32"], False),
                                           (["float64", "complex128"], False),
                                           (["float32", "float32"], True)], ids=str)
def test_fused_refuses_what_pytorchs_fused_kernels_refuse(name, dtypes, sparse):
    # at step(): non-floating parameters (Adam at each state's creation, SGD / Adagrad the
    # first parameter, once), then SGD's kernel has no complex one, Adagrad refuses complex
    # parameters and sparse gradients, SGD sparse gradients; all stepped before
    def program(L):
        ps = [L.nn.Parameter(L.ones(3, dtype=getattr(L, dt))) for dt in dtypes]
        extra = {"momentum": 0.9} if name == "SGD" else {}
        opt = getattr(L.optim, name)(ps, lr=0.1, fused=True, **extra)
        outcomes = []
        for _ in range(2):
            for p in ps:
                p.grad = L.ones(3, dtype=p.dtype)
            if sparse:
                ps[-1].grad = ps[-1].grad.to_sparse()
            try:
                opt.step()
                outcomes.append("ok")
            except (RuntimeError, NotImplementedError) as e:
                outcomes.append((type(e).__name__, str(e)))
        return outcomes
    same_outcome(program)


def test_hand_written_optimizer_imports_torch_optim_optimizer_helpers():
    # copies of PyTorch's optimizers (Lion, schedule-free, ...) import these from
    # torch.optim.optimizer: they were missing
    import importlib

    def program(L):
        O = importlib.import_module(L.__name__ + ".optim.optimizer")

        class Sign(O.Optimizer):
            def __init__(self, params: O.ParamsT, lr=0.1, differentiable=False):
                super().__init__(params, {"lr": lr, "differentiable": differentiable})

            @O._use_grad_for_differentiable
            def step(self, closure=None):
                for group in self.param_groups:
                    ps = [p for p in group["params"] if p.grad is not None]
                    choice = O._default_to_fused_or_foreach(ps, group["differentiable"], True)
                    for p in ps:
                        p.add_(p.grad.sign(), alpha=-O._get_value(group["lr"]))
                return choice, L.is_grad_enabled()

        p = L.nn.Parameter(L.tensor([1.0, -2.0, 3.0]))
        opt = Sign([p], lr=L.tensor(0.5))
        p.grad = L.tensor([0.3, -0.1, 0.0])
        grouped = O.Optimizer._group_tensors_by_device_and_dtype([[p, L.ones(2)], [p, p]], True)
        return (opt.step(), p.tolist(), str(O._get_scalar_dtype()), O._to_scalar(L.ones(1)).dim(),
                O._get_fused_kernels_supported_devices(), next(iter(grouped.values()))[1],
                O._get_foreach_kernels_supported_devices(), type(O._foreach_doc).__name__)
    same_outcome(program)
