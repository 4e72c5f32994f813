"""The *_copy functions and the unsafe splits against PyTorch: values, layout (a fresh
contiguous tensor), gradients, node names, out=, and errors."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, same_outcome, to_torch, torch

RNG = np.random.default_rng(0)


def _pair(shape, dtype=np.float64, transposed=False):
    a = RNG.standard_normal(shape).astype(dtype)
    if transposed:
        a = np.ascontiguousarray(a.swapaxes(0, -1)).swapaxes(0, -1)
    return mindtorch.from_numpy(a.copy()), torch.from_numpy(a.copy())


CASES = [
    ("view_copy", (2, 3, 4), ((6, -1),)),
    ("view_copy", (2, 3, 4), ((24,),), True),  # not a view of a transposed tensor: a copy
    ("permute_copy", (2, 3, 4), ((2, 0, 1),)),
    ("permute_copy", (3, 4), ((-1, 0),), True),
    ("transpose_copy", (2, 3, 4), (0, 2)),
    ("t_copy", (3, 4), ()),
    ("t_copy", (4,), ()),
    ("expand_copy", (3, 1), ((2, 3, 4),)),
    ("expand_copy", (3, 1), ((3, -1),)),
    ("squeeze_copy", (3, 1, 4, 1), ()),
    ("squeeze_copy", (3, 1, 4, 1), (1,)),
    ("squeeze_copy", (1, 2, 1), ((0, 2),)),
    ("unsqueeze_copy", (3, 4), (-1,)),
    ("unsqueeze_copy", (), (0,)),
    ("select_copy", (3, 4), (1, -1), True),
    ("slice_copy", (5, 4), (0, 1, 4, 2)),
    ("slice_copy", (5, 4), (1, None, -1)),
    ("diagonal_copy", (3, 4), ()),
    ("diagonal_copy", (2, 3, 4), (1, 2, 0)),
    ("as_strided_copy", (3, 4), ((2, 2), (1, 2))),
    ("as_strided_copy", (3, 4), ((3,), (5,), 1)),
    ("unfold_copy", (7,), (0, 3, 2)),
    ("unfold_copy", (4, 5), (1, 2, 1), True),
    ("alias_copy", (3, 4), (), True),
    ("unbind_copy", (3, 4), (1,)),
    ("split_copy", (5, 4), (2,)),
    ("split_copy", (5, 4), (3, -1), True),
    ("split_with_sizes_copy", (5, 4), ([1, 0, 3], 1)),
    ("unsafe_split", (5, 4), (2,)),
    ("unsafe_chunk", (5, 4), (3, 1)),
    ("unsafe_split_with_sizes", (5, 4), ([2, 3],)),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_values_layout_and_gradients_match_torch(case):
    name, shape, args, *tr = case
    m, t = _pair(shape, transposed=bool(tr))
    m.requires_grad_()
    t.requires_grad_()
    rm, rt = getattr(mindtorch, name)(m, *args), getattr(torch, name)(t, *args)
    assert isinstance(rm, tuple) == isinstance(rt, tuple)
    assert_same(rm, rt, check_stride=True)
    pieces_m = rm if isinstance(rm, tuple) else (rm,)
    pieces_t = rt if isinstance(rt, tuple) else (rt,)
    assert [p.grad_fn.name() for p in pieces_m] == [p.grad_fn.name() for p in pieces_t]
    # the copies own their memory; unsafe pieces share it but are not views
    for p in pieces_m:
        assert p._base is None
    # gradient with distinct upstream values (the last piece gets none)
    ups = [RNG.standard_normal(tuple(p.shape)) for p in pieces_t]
    keep = len(ups) - 1 if len(ups) > 1 else 1
    sm = sum((p * mindtorch.from_numpy(u)).sum() for p, u in zip(pieces_m[:keep], ups))
    st = sum((p * torch.from_numpy(u)).sum() for p, u in zip(pieces_t[:keep], ups))
    gm, = mindtorch.autograd.grad(sm, m)
    gt, = torch.autograd.grad(st, t)
    assert_same(gm, gt, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0])
def test_dtypes_and_meta(case):
    name, shape, args, *_ = case
    for dt in (np.int64, np.float32, np.complex64):
        m, t = _pair(shape, dt)
        assert_same(getattr(mindtorch, name)(m, *args), getattr(torch, name)(t, *args),
                    check_stride=True)
    r = getattr(mindtorch, name)(mindtorch.empty(shape, device="meta"), *args)
    ref = getattr(torch, name)(torch.empty(shape, device="meta"), *args)
    for p, q in zip(r if isinstance(r, tuple) else (r,), ref if isinstance(ref, tuple) else (ref,)):
        assert p.device.type == "meta" and tuple(p.shape) == tuple(q.shape)
        assert p.stride() == q.stride()


def test_copies_do_not_alias_and_unsafe_splits_share_memory():
    x = mindtorch.arange(6.)
    c = mindtorch.view_copy(x, (2, 3))
    c.add_(1)
    assert x.tolist() == [0., 1., 2., 3., 4., 5.]
    p = mindtorch.unsafe_split(x, 3)
    p[0].add_(1)  # writes the input's memory; versions are the pieces' own (as PyTorch's)
    assert x.tolist() == [1., 2., 3., 3., 4., 5.]
    assert p[0]._version == 1 and x._version == 0 and p[1]._version == 0
    assert not p[0]._is_view()
    assert mindtorch.Tensor.unsafe_chunk(x, 2)[1].tolist() == [3., 4., 5.]
    assert [q.tolist() for q in x.unsafe_split_with_sizes([4, 2])] == [[1., 2., 3., 3.],
                                                                      [4., 5.]]


def test_view_copy_dtype_and_detach_copy():
    m, t = _pair((2, 3), np.float32)
    assert_same(mindtorch.view_copy(m, mindtorch.int32), torch.view_copy(t, torch.int32))
    assert_same(mindtorch.view_copy(m, dtype=mindtorch.int16),
                torch.view_copy(t, dtype=torch.int16))
    m.requires_grad_()
    t.requires_grad_()
    assert not mindtorch.view_copy(m, mindtorch.float32).requires_grad
    assert not torch.view_copy(t, torch.float32).requires_grad
    d, e = mindtorch.detach_copy(m), torch.detach_copy(t)
    assert d.requires_grad and e.requires_grad
    assert d.grad_fn.name() == e.grad_fn.name() == "torch::autograd::NotImplemented"
    assert type(d.grad_fn).__name__ == type(e.grad_fn).__name__ == "NotImplemented"
    assert_same(d, e)
    with pytest.raises(RuntimeError, match="derivative for aten::detach_copy is not implemented"):
        d.sum().backward()


def test_view_as_real_and_complex_copies():
    a = RNG.standard_normal((3, 2))
    m, t = mindtorch.from_numpy(a), torch.from_numpy(a)
    assert_same(mindtorch.view_as_complex_copy(m), torch.view_as_complex_copy(t))
    mc, tc = mindtorch.view_as_complex(m), torch.view_as_complex(t)
    assert_same(mindtorch.view_as_real_copy(mc), torch.view_as_real_copy(tc), check_stride=True)
    m.requires_grad_()
    t.requires_grad_()
    gm = mindtorch.autograd.grad(mindtorch.view_as_real_copy(mindtorch.view_as_complex(m))
                                 .pow(2).sum(), m)[0]
    gt = torch.autograd.grad(torch.view_as_real_copy(torch.view_as_complex(t)).pow(2).sum(), t)[0]
    assert_same(gm, gt)
    assert mindtorch.view_as_real_copy(mindtorch.view_as_complex(m)).grad_fn.name() == \
        "ViewAsRealBackward0_copy"


@pytest.mark.parametrize("call", [
    lambda T, x: T.view_as_complex_copy(x),
    lambda T, x: T.select_copy(T.view_as_complex(x), 0, 1),
    lambda T, x: T.slice_copy(T.view_as_complex(x), 0, 1),
])
def test_complex_results_refused_when_recorded_as_torch(call):
    def run(T):
        x = T.zeros(3, 2, requires_grad=True)
        return call(T, x).shape
    same_outcome(run)


def test_out():
    m, t = _pair((2, 3))
    om, ot = mindtorch.empty(0, dtype=mindtorch.float64), torch.empty(0, dtype=torch.float64)
    assert mindtorch.permute_copy(m, (1, 0), out=om) is om
    torch.permute_copy(t, (1, 0), out=ot)
    assert_same(om, ot, check_stride=True)
    for T in (mindtorch, torch):
        x = T.zeros(2, 3)
        with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got "
                                               "long int instead"):
            T.t_copy(x, out=T.empty(0, dtype=T.int64))
    # several results: a list, written as copy_ writes (casting), None returned
    outs_m = [mindtorch.empty(3, dtype=mindtorch.int64), mindtorch.empty(3)]
    outs_t = [torch.empty(3, dtype=torch.int64), torch.empty(3)]
    assert mindtorch.split_copy(mindtorch.arange(6.), 3, out=outs_m) is None
    torch.split_copy(torch.arange(6.), 3, out=outs_t)
    assert_same(outs_m, outs_t)
    same_outcome(lambda T: T.split_copy(T.arange(6.), 3, out=[T.empty(3)]))
    same_outcome(lambda T: T.unbind_copy(T.zeros(2, 2), out=[T.empty(2)]))
    same_outcome(lambda T: T.split_with_sizes_copy(T.zeros(3), [1, 2], out=[T.empty(1)]))
    same_outcome(lambda T: T.split_copy(T.arange(6.), 3, out=[T.empty(0), T.empty(0)]))


@pytest.mark.parametrize("call", [
    lambda T: T.unsafe_split(T.zeros(4), -1),
    lambda T: T.unsafe_split(T.tensor(1.), 1),
    lambda T: T.unsafe_split(T.zeros(4), [1, 3]),
    lambda T: T.unsafe_chunk(T.zeros(4), 0),
    lambda T: T.unsafe_chunk(T.tensor(1.), 1),
    lambda T: T.unsafe_split_with_sizes(T.zeros(4), [1, 2]),
    lambda T: T.unsafe_split_with_sizes(T.zeros(4), [-1, 5]),
    lambda T: T.split_copy(T.zeros(4), -1),
    lambda T: T.split_copy(T.zeros(4), 0),
    lambda T: T.unbind_copy(T.zeros(2, 3), 5),
    lambda T: T.unbind_copy(T.tensor(1.)),
    lambda T: T.select_copy(T.zeros(2, 3), 0, 5),
    lambda T: T.permute_copy(T.zeros(2, 3), (1,)),
    lambda T: T.permute_copy(T.zeros(2, 3), (1, 1)),
    lambda T: T.transpose_copy(T.zeros(2, 3), 0, 2),
    lambda T: T.view_copy(T.zeros(6), (4,)),
    lambda T: T.expand_copy(T.zeros(3, 2), (3, 4)),
    lambda T: T.squeeze_copy(T.zeros(2, 3), 2),
    lambda T: T.diagonal_copy(T.zeros(2, 3), 0, 1, 1),
    lambda T: T.as_strided_copy(T.zeros(4), (3,), (2,)),
    lambda T: T.unfold_copy(T.zeros(4), 0, 5, 1),
    lambda T: T.t_copy(T.zeros(2, 3, 4)),
], ids=range(22))
def test_errors_as_torch(call):
    same_outcome(lambda T: [tuple(r.shape) for r in call(T)] if isinstance(call(T), tuple)
                 else tuple(call(T).shape))


def test_public_names():
    assert not hasattr(mindtorch.Tensor, "view_copy") and not hasattr(torch.Tensor, "view_copy")
    for name in ("unsafe_split", "unsafe_chunk", "unsafe_split_with_sizes"):
        assert hasattr(mindtorch.Tensor, name) and hasattr(torch.Tensor, name)
    x = to_torch(mindtorch.zeros(2))
    assert x.shape == (2,)
