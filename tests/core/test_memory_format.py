"""Memory formats against PyTorch: channels_last(_3d) strides of contiguous(), to(),
empty/empty_like/*_like/clone, is_contiguous(memory_format=), preserve_format rules,
Module.to(memory_format=), and values/strides of ops on channels-last inputs."""
import numpy as np
import pytest

import mindtorch
from reference import same_outcome

torch = pytest.importorskip("torch")


both = same_outcome


SHAPES4 = [(2, 3, 4, 5), (1, 3, 1, 1), (2, 1, 4, 4), (2, 3, 1, 1), (0, 3, 4, 5), (2, 0, 4, 5),
           (1, 1, 1, 1), (3, 2, 1, 5)]


def test_format_objects():
    def f(lib):
        fmts = (lib.contiguous_format, lib.channels_last, lib.channels_last_3d,
                lib.preserve_format)
        return [(repr(m), str(m)) for m in fmts] + [lib.channels_last == lib.channels_last,
                                                    lib.channels_last != lib.contiguous_format]
    both(f)
    assert isinstance(mindtorch.channels_last, mindtorch.memory_format)


@pytest.mark.parametrize("shape", SHAPES4)
def test_channels_last_strides(shape):
    def f(lib):
        x = lib.arange(float(np.prod(shape))).reshape(shape)
        c = x.contiguous(memory_format=lib.channels_last)
        e = lib.empty(shape, memory_format=lib.channels_last)
        return (c.stride(), c.tolist(), c.is_contiguous(),
                c.is_contiguous(memory_format=lib.channels_last),
                x.is_contiguous(memory_format=lib.channels_last), e.stride(),
                e.is_contiguous(memory_format=lib.channels_last),
                x.to(memory_format=lib.channels_last).stride(),
                c.to(memory_format=lib.contiguous_format).stride(), c.contiguous().stride(),
                c.contiguous().tolist(), x.clone(memory_format=lib.channels_last).stride(),
                lib.empty_like(x, memory_format=lib.channels_last).stride(),
                lib.zeros_like(x, memory_format=lib.channels_last).stride(),
                lib.ones_like(x, memory_format=lib.channels_last).stride(),
                lib.full_like(x, 2, memory_format=lib.channels_last).stride(),
                lib.rand_like(x, memory_format=lib.channels_last).stride(),
                lib.ones_like(c, memory_format=lib.contiguous_format).stride())
    both(f)


@pytest.mark.parametrize("shape", [(2, 3, 4, 5, 6), (1, 2, 1, 3, 1), (2, 3, 0, 1, 2)])
def test_channels_last_3d(shape):
    def f(lib):
        x = lib.arange(float(np.prod(shape))).reshape(shape)
        c = x.contiguous(memory_format=lib.channels_last_3d)
        return (c.stride(), c.tolist(), c.is_contiguous(memory_format=lib.channels_last_3d),
                c.is_contiguous(memory_format=lib.channels_last),
                lib.empty(shape, memory_format=lib.channels_last_3d).stride(),
                x.to(memory_format=lib.channels_last_3d).stride(), c.clone().stride())
    both(f)


def test_preserve_format_rules():
    def f(lib):
        x = lib.arange(120.).reshape(2, 3, 4, 5)
        c = x.contiguous(memory_format=lib.channels_last)
        return [lib.empty_like(c).stride(), lib.zeros_like(c).stride(), c.clone().stride(),
                lib.rand_like(c).stride(), c.to(lib.float64).stride(), c.double().stride(),
                c.to(lib.float64, memory_format=lib.contiguous_format).stride(),
                c.to(lib.float16).stride(),
                c[:, :, ::2].clone().stride(),  # not dense: dense strides in c's order
                c[:, :, ::2].contiguous().stride(), x[:, :, ::2].clone().stride(),
                c.permute(0, 2, 3, 1).is_contiguous(), c.permute(0, 2, 3, 1).stride(),
                c.reshape(2, -1).stride(), c.flatten(1).stride(),
                x.t().clone().stride() if x.dim() == 2 else x.transpose(1, 3).clone().stride(),
                c.to(memory_format=lib.channels_last) is c,
                c.to(memory_format=lib.preserve_format) is c,
                c.contiguous(memory_format=lib.channels_last) is c,
                x.contiguous(memory_format=lib.preserve_format).stride()]
    both(f)


@pytest.mark.parametrize("case", range(6))
def test_format_errors(case):
    def f(lib):
        x = lib.ones(2, 3, 4)
        calls = [lambda: x.contiguous(memory_format=lib.channels_last),
                 lambda: x.to(memory_format=lib.channels_last),
                 lambda: lib.empty(2, 3, 4, memory_format=lib.channels_last),
                 lambda: lib.empty(2, 3, 4, 5, memory_format=lib.preserve_format),
                 lambda: lib.ones(2, 3, 4, 5).contiguous(memory_format=lib.channels_last_3d),
                 lambda: (x.is_contiguous(memory_format=lib.channels_last),
                          x.is_contiguous(memory_format=lib.channels_last_3d),
                          lib.ones(2, 3, 4, 5).is_contiguous(memory_format=lib.channels_last_3d),
                          lib.ones(0, 3, 4, 5).is_contiguous(memory_format=lib.channels_last))]
        return calls[case]()
    both(f)


def test_program_qa_gap_channels_last():
    def f(lib):
        x = lib.ones(1, 3, 4, 4).to(memory_format=lib.channels_last)
        return x.stride(), x.is_contiguous(memory_format=lib.channels_last)
    both(f)


def test_module_to_memory_format():
    def f(lib):
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3), lib.nn.BatchNorm2d(4), lib.nn.Linear(2, 2))
        m.to(memory_format=lib.channels_last)
        return [(n, p.stride()) for n, p in m.named_parameters()] + \
            [(n, b.stride()) for n, b in m.named_buffers()]
    both(f)
    m = mindtorch.nn.Conv3d(2, 2, 1).to(mindtorch.float64, memory_format=mindtorch.channels_last_3d)
    assert m.weight.dtype is mindtorch.float64 and m.weight.stride() == (2, 1, 2, 2, 2)


def _pair(shape, seed=0):
    a = np.random.default_rng(seed).standard_normal(shape)
    return mindtorch.tensor(a), torch.tensor(a)


@pytest.mark.parametrize("op", [
    lambda lib, c, x: c + 1, lambda lib, c, x: c.relu(), lambda lib, c, x: c.sigmoid(),
    lambda lib, c, x: c + c[:, :1], lambda lib, c, x: c[:, :1] + c,
    lambda lib, c, x: lib.where(c > 0, c, 0.0), lambda lib, c, x: lib.empty_like(c).fill_(1),
    lambda lib, c, x: c * 2 - c.exp(), lambda lib, c, x: c.to(lib.float32),
])
def test_pointwise_keep_channels_last(op):
    (xm, xt) = _pair((2, 3, 4, 5))
    results = [op(lib, x.contiguous(memory_format=lib.channels_last), x)
               for lib, x in ((mindtorch, xm), (torch, xt))]
    assert [(r.stride(), tuple(r.shape)) for r in results] == \
        [(results[1].stride(), tuple(results[1].shape))] * 2
    np.testing.assert_allclose(results[0].numpy(), results[1].numpy(), rtol=1e-6)


@pytest.mark.parametrize("op", [
    lambda F, c, w: F.conv2d(c, w, padding=1), lambda F, c, w: F.max_pool2d(c, 2),
    lambda F, c, w: F.avg_pool2d(c, 2), lambda F, c, w: F.batch_norm(c, None, None,
                                                                    training=True),
    lambda F, c, w: F.interpolate(c, scale_factor=2), lambda F, c, w: F.adaptive_avg_pool2d(c, 1),
    lambda F, c, w: c.mean((2, 3)), lambda F, c, w: c * c.permute(0, 1, 3, 2).transpose(2, 3),
    lambda F, c, w: F.layer_norm(c, (4, 5)), lambda F, c, w: c.softmax(1),
])
def test_values_of_ops_on_channels_last(op):
    """Values (and gradients) whatever the strides (strides: see the report's notes)."""
    (xm, xt), (wm, wt) = _pair((2, 3, 4, 5)), _pair((4, 3, 3, 3), 1)
    res = []
    for lib, x, w in ((mindtorch, xm, wm), (torch, xt, wt)):
        c = x.contiguous(memory_format=lib.channels_last).requires_grad_()
        r = op(lib.nn.functional, c, w)
        r.pow(2).sum().backward()
        res.append((r.detach().numpy(), c.grad.numpy(), c.grad.shape))
    np.testing.assert_allclose(res[0][0], res[1][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=1e-10, atol=1e-12)


def test_meta_device():
    m = mindtorch.empty(2, 3, 4, 5, device="meta")
    t = torch.empty(2, 3, 4, 5, device="meta")
    for lib, x in ((mindtorch, m), (torch, t)):
        c = x.contiguous(memory_format=lib.channels_last)
        assert c.stride() == (60, 1, 15, 3) and c.is_contiguous(memory_format=lib.channels_last)
        assert lib.zeros_like(x, memory_format=lib.channels_last).stride() == (60, 1, 15, 3)
        assert lib.empty(2, 3, 4, 5, device="meta",
                         memory_format=lib.channels_last).stride() == (60, 1, 15, 3)


def test_convert_conv_weight_memory_format():
    def f(lib):
        net = lib.nn.Sequential(lib.nn.Conv2d(3, 4, 3), lib.nn.ConvTranspose2d(4, 2, 3),
                                lib.nn.Linear(2, 2), lib.nn.Sequential(lib.nn.Conv2d(2, 2, 1)))
        r = lib.nn.utils.convert_conv2d_weight_memory_format(net, lib.channels_last)
        net3 = lib.nn.Conv3d(2, 2, 1)
        lib.nn.utils.convert_conv3d_weight_memory_format(net3, lib.channels_last_3d)
        return (r is net, [p.stride() for p in net.parameters()], net3.weight.stride(),
                type(net[0].weight).__name__, net[0].weight.requires_grad)
    both(f)


def test_cpu_memory_format():
    def f(lib):
        x = lib.ones(2, 3, 4, 5)
        return (x.cpu(memory_format=lib.channels_last).stride(), x.cpu() is x,
                x.cpu(memory_format=lib.preserve_format) is x)
    both(f)


def test_gradient_layout_contract():
    """A leaf's .grad takes the leaf's strides (dense leaves) or is contiguous, whatever the
    backward formula returned: an expanded gradient (sum's) accumulates a second time."""
    def f(lib):
        x = lib.ones(2, 3, 4, 4).contiguous(memory_format=lib.channels_last).requires_grad_()
        w = lib.ones(5, 3, 3, 3).contiguous(memory_format=lib.channels_last).requires_grad_()
        lib.nn.functional.conv2d(x, w).sum().backward()
        r = [x.grad.stride(), w.grad.stride()]
        p = lib.ones(3, 4).t().requires_grad_()
        (p * 2).sum().backward()
        q = lib.ones(4, 3)[:, :2].requires_grad_()  # not dense: a contiguous gradient
        (q * 2).sum().backward()
        s = lib.ones(3, requires_grad=True)
        s.sum().backward()
        s.sum().backward()
        c = x.detach().requires_grad_()
        c.sum(1).sum().backward()
        c.mean().backward()
        r += [p.grad.stride(), q.grad.stride(), s.grad.stride(), s.grad.tolist(),
              c.grad.stride(), c.grad[0, 0, 0].tolist()]
        return r
    both(f)


_KEEPING = {  # ops whose cpu results keep a channels-last input's layout, as PyTorch's
    "conv2d": lambda F, c, c3: F.conv2d(c, c[:3, :, :3, :3].contiguous()),
    "conv3d": lambda F, c, c3: F.conv3d(c3, c3[:2, :, :1, :1, :1].contiguous()),
    # (float32 3-d convolutions keep channels_last_3d: PyTorch gives them oneDNN, except
    # for a 1x1x1 kernel on one thread, which tests here run on)
    "conv3d float32": lambda F, c, c3: F.conv3d(c3.float(),
                                                c3[:2, :, :2, :2, :2].float().contiguous()),
    "conv_transpose2d": lambda F, c, c3: F.conv_transpose2d(
        c, c.transpose(0, 1)[:, :2, :2, :2].contiguous()),
    "max_pool2d": lambda F, c, c3: F.max_pool2d(c, 2),
    "max_pool2d indices": lambda F, c, c3: F.max_pool2d(c, 2, return_indices=True)[1],
    "avg_pool2d": lambda F, c, c3: F.avg_pool2d(c, 2),
    "adaptive_avg_pool2d": lambda F, c, c3: F.adaptive_avg_pool2d(c, 3),
    "adaptive_max_pool2d": lambda F, c, c3: F.adaptive_max_pool2d(c, 3),
    "adaptive_avg_pool2d to 1": lambda F, c, c3: F.adaptive_avg_pool2d(c, 1),
    "max_pool3d": lambda F, c, c3: F.max_pool3d(c3, 2),
    "nearest": lambda F, c, c3: F.interpolate(c, scale_factor=2),
    "bilinear": lambda F, c, c3: F.interpolate(c, scale_factor=2, mode="bilinear"),
    "bicubic": lambda F, c, c3: F.interpolate(c, scale_factor=2, mode="bicubic"),
    "trilinear": lambda F, c, c3: F.interpolate(c3, scale_factor=2, mode="trilinear"),
    "reflect": lambda F, c, c3: F.pad(c, (1, 1, 1, 1), mode="reflect"),
    "replicate3d": lambda F, c, c3: F.pad(c3, (1, 1, 1, 1, 1, 1), mode="replicate"),
    "cat": lambda F, c, c3: mindtorch.cat([c, c], 1) if isinstance(c, mindtorch.Tensor)
    else torch.cat([c, c], 1),
    "cat mixed": lambda F, c, c3: mindtorch.cat([c, c.contiguous()], 1)
    if isinstance(c, mindtorch.Tensor) else torch.cat([c, c.contiguous()], 1),
    "batch_norm": lambda F, c, c3: F.batch_norm(c, None, None, training=True),
    "avg_pool3d (contiguous)": lambda F, c, c3: F.avg_pool3d(c3, 2),
}


@pytest.mark.parametrize("name", list(_KEEPING))
def test_result_layout_and_gradients(name):
    a, a3 = (np.random.default_rng(s).standard_normal(sh) for s, sh in
             ((0, (2, 4, 6, 6)), (1, (2, 4, 4, 4, 4))))
    res = []
    for lib in (mindtorch, torch):
        c = lib.tensor(a).contiguous(memory_format=lib.channels_last).requires_grad_()
        c3 = lib.tensor(a3).contiguous(memory_format=lib.channels_last_3d).requires_grad_()
        r = _KEEPING[name](lib.nn.functional, c, c3)
        if r.dtype.is_floating_point:
            r.pow(2).sum().backward()
        grads = [g.numpy() if g is not None else None for g in (c.grad, c3.grad)]
        res.append((r.stride(), r.detach().numpy(), grads))
    assert res[0][0] == res[1][0]
    tol = 1e-5 if res[0][1].dtype == np.float32 else 1e-10
    np.testing.assert_allclose(res[0][1], res[1][1], rtol=tol, atol=tol)
    for g, h in zip(res[0][2], res[1][2]):
        assert (g is None) == (h is None)
        if g is not None:
            np.testing.assert_allclose(g, h, rtol=tol * 10, atol=tol * 10)


def test_formats_pickle_and_copy_to_themselves():
    import copy
    import pickle
    for f in (mindtorch.channels_last, mindtorch.channels_last_3d, mindtorch.contiguous_format,
              mindtorch.preserve_format):
        assert pickle.loads(pickle.dumps(f)) is f and copy.deepcopy(f) is f
