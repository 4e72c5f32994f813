"""View ops against PyTorch: shape, strides, storage offset and values; storage, version
counter and `_base` shared with the input; contiguity; errors."""
import numpy as np
import pytest

import mindtorch
from reference import same_error, torch

M = mindtorch





def _base(m, kind):
    """The same (2, 3, 4) float tensor in module m, laid out as `kind`."""
    x = m.arange(24.0).reshape(2, 3, 4)
    if kind == "contiguous":
        return x
    if kind == "transposed":
        return x.transpose(0, 2)                        # (4, 3, 2), strides (1, 4, 12)
    if kind == "sliced":
        return x.narrow(2, 1, 2)                        # (2, 3, 2), offset 1
    if kind == "strided":
        return m.arange(60.0).as_strided((2, 3, 4), (25, 7, 2), 3)
    raise ValueError(kind)


KINDS = ["contiguous", "transposed", "sliced", "strided"]

# name -> fn(tensor); applied to each base layout (some need a particular rank: all bases
# are 3-d)
VIEWS = {
    "view_flat": lambda x: x.view(-1) if x.is_contiguous() else x.reshape(-1),
    "reshape": lambda x: x.reshape(x.shape[0], -1),
    "reshape_tuple": lambda x: x.reshape((-1,)),
    "reshape_same": lambda x: x.reshape(x.shape),
    "transpose": lambda x: x.transpose(0, 1),
    "transpose_neg": lambda x: x.transpose(-1, -3),
    "swapaxes": lambda x: x.swapaxes(1, 2),
    "permute": lambda x: x.permute(2, 0, 1),
    "permute_tuple": lambda x: x.permute((1, 2, 0)),
    "t_of_2d": lambda x: x.select(0, 1).t(),
    "T": lambda x: x.select(0, 0).T,
    "mT": lambda x: x.mT,
    "expand": lambda x: x.unsqueeze(0).expand(3, -1, -1, -1),
    "expand_size1": lambda x: x.narrow(1, 0, 1).expand(-1, 5, -1),
    "expand_as": lambda x: x.narrow(0, 0, 1).expand_as(x),
    "squeeze": lambda x: x.narrow(1, 0, 1).squeeze(),
    "squeeze_dim": lambda x: x.narrow(1, 0, 1).squeeze(1),
    "squeeze_dim_noop": lambda x: x.squeeze(0),
    "squeeze_dims": lambda x: x.narrow(0, 0, 1).narrow(1, 0, 1).squeeze((0, 1)),
    "unsqueeze0": lambda x: x.unsqueeze(0),
    "unsqueeze_last": lambda x: x.unsqueeze(-1),
    "unsqueeze_mid": lambda x: x.unsqueeze(2),
    "flatten": lambda x: x.flatten(),
    "flatten_range": lambda x: x.flatten(1, 2),
    "flatten_same": lambda x: x.flatten(1, 1),
    "unflatten": lambda x: x.flatten(1, 2).unflatten(1, (x.shape[1], -1)),
    "narrow": lambda x: x.narrow(1, 1, 2),
    "narrow_neg_start": lambda x: x.narrow(-1, -2, 1),
    "select": lambda x: x.select(1, 2),
    "select_neg": lambda x: x.select(-1, -1),
    "unbind": lambda x: x.unbind(1),
    "split": lambda x: x.split(2, 1),
    "split_sizes": lambda x: x.split([1, 2], 1),
    "chunk": lambda x: x.chunk(2, 0),
    "chunk_uneven": lambda x: x.chunk(2, 1),
    "diagonal": lambda x: x.diagonal(),
    "diagonal_offset": lambda x: x.diagonal(1, 1, 2),
    "diagonal_neg": lambda x: x.diagonal(-1, -1, 0),
    "as_strided": lambda x: x.as_strided((2, 2), (1, 2)),
    "as_strided_offset": lambda x: x.as_strided((3,), (2,), 1),
    "movedim": lambda x: x.movedim(0, -1),
    "movedim_many": lambda x: x.movedim((0, 1), (2, 0)),
    "moveaxis": lambda x: x.moveaxis(1, 0),
    "unfold": lambda x: x.unfold(2, 2, 1),
    "unfold_step": lambda x: x.unfold(0, 1, 2),
    "view_as": lambda x: x.contiguous().view(x.numel()).view_as(x.contiguous()),
    "view_of_view": lambda x: x.select(0, 0).unsqueeze(0).transpose(0, 1),
}


def _check_same(mr, tr):
    assert tuple(mr.shape) == tuple(tr.shape)
    assert mr.stride() == tr.stride()
    assert mr.storage_offset() == tr.storage_offset()
    assert mr.is_contiguous() == tr.is_contiguous()
    np.testing.assert_array_equal(mr.numpy(), tr.numpy())


def _results(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_like_torch(name, kind):
    fn = VIEWS[name]
    mb, tb = _base(M, kind), _base(torch, kind)
    try:
        tres = fn(tb)
    except Exception:  # the op does not apply to this layout; both must refuse
        same_error(lambda: fn(mb), lambda: fn(tb))
        return
    mres = fn(mb)
    assert len(_results(mres)) == len(_results(tres))
    for mr, tr in zip(_results(mres), _results(tres)):
        _check_same(mr, tr)
        shares = tr.untyped_storage().data_ptr() == tb.untyped_storage().data_ptr()
        if shares:  # a view in torch must be a view here too
            assert mr.untyped_storage().data_ptr() == mb.untyped_storage().data_ptr()
            assert mr.untyped_storage() is mb.untyped_storage()
            assert mr._version_counter is mb._version_counter


@pytest.mark.parametrize("kind", KINDS)
def test_empty_narrow_keeps_offset(kind):
    _check_same(_base(M, kind).narrow(1, 3, 0), _base(torch, kind).narrow(1, 3, 0))


@pytest.mark.parametrize("name", ["transpose", "permute", "select", "narrow", "expand",
                                  "unsqueeze0", "diagonal", "unfold", "as_strided", "flatten"])
def test_views_share_data_version_and_base(name):
    base = M.arange(24.0).reshape(2, 3, 4).clone()
    v = VIEWS[name](base)
    assert v._base is base
    assert v.data_ptr() == base.data_ptr() + v.storage_offset() * base.element_size()
    assert base._version == 0
    base.fill_(7.0)  # writes through the shared storage, bumps the shared counter
    assert (v.numpy() == 7.0).all()
    assert v._version == base._version == 1
    if name not in ("expand",):  # an expanded view has overlapping elements
        v.fill_(1.0) if name != "as_strided" else v.zero_()
        assert base._version == 2


def test_base_is_the_root():
    base = M.arange(6.0)
    v = base.view(2, 3)
    tb = torch.arange(6.0)
    assert tb._base is None and tb.view(2, 3).t()._base is tb  # the reference agrees
    w = v.t().select(0, 1)
    assert base._base is None and v._base is base and w._base is base
    c = v.t().contiguous()
    assert c._base is None and c.is_contiguous()
    assert v.contiguous() is v  # already contiguous: no copy, like torch
    d = M.arange(6.0).clone()
    assert d._base is None


def test_data_ptr_like_torch():
    m, t = M.arange(24.0).reshape(2, 3, 4), torch.arange(24.0).reshape(2, 3, 4)
    for f in (lambda x: x.select(1, 2), lambda x: x.narrow(2, 1, 2), lambda x: x.diagonal(1, 1, 2)):
        assert f(m).data_ptr() - m.data_ptr() == f(t).data_ptr() - t.data_ptr()


def test_reshape_of_transposed_copies_and_view_raises():
    m, t = M.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    r = m.t().reshape(6)
    np.testing.assert_array_equal(r.numpy(), t.t().reshape(6).numpy())
    assert r.is_contiguous() and r.untyped_storage() is not m.untyped_storage()
    same_error(lambda: m.t().view(6), lambda: t.t().view(6))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        m.t().view(6)
    # reshape of a contiguous tensor stays a view
    assert m.reshape(3, 2)._base is m._base is not None


def test_contiguous_copies_values_with_dense_strides():
    m, t = _base(M, "transposed"), _base(torch, "transposed")
    mc, tc = m.contiguous(), t.contiguous()
    _check_same(mc, tc)
    assert mc.untyped_storage() is not m.untyped_storage()


@pytest.mark.parametrize("shape,stride,expected", [
    ((2, 3), (3, 1), True), ((2, 3), (1, 2), False), ((1, 3), (7, 1), True),
    ((3, 1), (1, 9), True), ((2, 0), (9, 9), True), ((), (), True),
    ((0, 3), (1, 5), True),
    ((2, 2), (0, 1), False),
])
def test_is_contiguous_like_torch(shape, stride, expected):
    m = M.zeros(64).as_strided(shape, stride)
    t = torch.zeros(64).as_strided(shape, stride)
    assert m.is_contiguous() == t.is_contiguous() == expected


def test_zero_dim_and_empty_views():
    for m, t in ((M.tensor(5.0), torch.tensor(5.0)), (M.zeros(0, 3), torch.zeros(0, 3))):
        for f in (lambda x: x.reshape(-1), lambda x: x.unsqueeze(0), lambda x: x.flatten(),
                  lambda x: x.view(1, -1) if x.numel() else x.view(0, 3, 1),
                  lambda x: x.squeeze(), lambda x: x.expand(2, *x.shape)):
            _check_same(f(m), f(t))
    _check_same(M.tensor(5.0).t(), torch.tensor(5.0).t())
    _check_same(M.tensor(5.0).view(()), torch.tensor(5.0).view(()))


def test_split_chunk_unbind_edge_cases():
    m, t = M.arange(10.0), torch.arange(10.0)
    for f in (lambda x: x.split(3), lambda x: x.split(20), lambda x: x.chunk(3),
              lambda x: x.chunk(4), lambda x: x.chunk(20), lambda x: x.split([0, 10]),
              lambda x: x.unbind(), lambda x: x.split_with_sizes([4, 6])):
        mr, tr = f(m), f(t)
        assert isinstance(mr, tuple) and len(mr) == len(tr)
        for a, b in zip(mr, tr):
            _check_same(a, b)
    e, te = M.zeros(0, 2), torch.zeros(0, 2)
    assert len(e.chunk(3)) == len(te.chunk(3))
    assert len(e.unbind(0)) == len(te.unbind(0)) == 0


def test_split_of_empty_dim():
    e, te = M.zeros(0, 2), torch.zeros(0, 2)
    assert len(e.split(2)) == len(te.split(2)) == 1


ERRORS = [
    lambda x: x.view(5, 5),
    lambda x: x.view(-1, -1),
    lambda x: x.view(-2, 12),
    lambda x: x.reshape(7, -1),
    lambda x: x.transpose(0, 3),
    lambda x: x.transpose(-4, 0),
    lambda x: x.permute(0, 1),
    lambda x: x.permute(0, 1, 1),
    lambda x: x.permute(0, 1, 3),
    lambda x: x.t(),
    lambda x: x.expand(2, 5, 4),
    lambda x: x.expand(4),
    lambda x: x.expand(-1, 2, 3, 4),
    lambda x: x.squeeze(3),
    lambda x: x.unsqueeze(4),
    lambda x: x.unsqueeze(-5),
    lambda x: x.flatten(2, 1),
    lambda x: x.flatten(0, 3),
    lambda x: x.unflatten(1, (2, 2)),
    lambda x: x.unflatten(1, (-1, -1)),
    lambda x: x.narrow(1, 2, 2),
    lambda x: x.narrow(1, -4, 1),
    lambda x: x.narrow(1, 1, -1),
    lambda x: x.narrow(3, 0, 1),
    lambda x: x.select(1, 3),
    lambda x: x.select(1, -4),
    lambda x: x.select(3, 0),
    lambda x: x.unbind(3),
    lambda x: x.split([1, 1], 1),
    lambda x: x.split(0, 1),
    lambda x: x.chunk(0),
    lambda x: x.diagonal(0, 1, 1),
    lambda x: x.diagonal(0, 0, 3),
    lambda x: x.as_strided((5, 5), (5, 1)),
    lambda x: x.as_strided((2,), (1, 1)),
    lambda x: x.as_strided((2,), (-1,)),
    lambda x: x.movedim((0, 0), (1, 2)),
    lambda x: x.movedim((0, 1), (1,)),
    lambda x: x.movedim(0, 3),
    lambda x: x.unfold(2, 5, 1),
    lambda x: x.unfold(2, 2, 0),
    lambda x: x.unfold(3, 1, 1),
    lambda x: x.view(2.5),
    lambda x: x.reshape("a"),
]


@pytest.mark.parametrize("fn", ERRORS)
def test_errors_like_torch(fn):
    same_error(lambda: fn(M.arange(24.0).reshape(2, 3, 4)),
               lambda: fn(torch.arange(24.0).reshape(2, 3, 4)))




@pytest.mark.parametrize("fn", [
    lambda x: x.select(0, 0), lambda x: x.transpose(0, 1), lambda x: x.unbind(0),
    lambda x: x.squeeze(1), lambda x: x.unsqueeze(2), lambda x: x.diagonal(),
    lambda x: x.permute(0), lambda x: x.movedim(0, 1),
    lambda x: x.narrow(0, 0, 1),
    lambda x: x.split(1),
    lambda x: x.chunk(1),
])
def test_zero_dim_errors_like_torch(fn):
    same_error(lambda: fn(M.tensor(1.0)), lambda: fn(torch.tensor(1.0)))


def test_zero_dim_movedim_to_itself():
    _check_same(M.tensor(1.0).movedim(0, 0), torch.tensor(1.0).movedim(0, 0))


# -- check order (fuzzer findings) ---------------------------------------------------------

@pytest.mark.parametrize("step", [0, -1, 2])
def test_slice_step_must_be_positive(step):
    # aten::slice and slice_scatter: RuntimeError; Python indexing: ValueError (its own)
    x, t = M.arange(6.0), torch.arange(6.0)
    same_error(lambda: M._OPS["slice"].binding(x, 0, 0, 5, step),
               lambda: torch.ops.aten.slice(t, 0, 0, 5, step))
    src_m, src_t = x[0:5:2] if step > 0 else x, t[0:5:2] if step > 0 else t
    same_error(lambda: x.slice_scatter(src_m, 0, 0, 5, step),
               lambda: t.slice_scatter(src_t, 0, 0, 5, step))
    same_error(lambda: x[::step], lambda: t[::step])


@pytest.mark.parametrize("dims", [(0, 5), (0, 0, 5), (0, 5, 0), (5, 0, 0), (0, 0, 1),
                                  (0, 1, 3), (2, 0, 1), (-1, 0, 1), (0,), (0, 1, 2, 3)])
def test_permute_check_order(dims):
    # PyTorch: the length, then each dim in turn wrapped (IndexError) and checked for repeats
    x, t = M.zeros(2, 3, 4), torch.zeros(2, 3, 4)
    same_error(lambda: x.permute(dims), lambda: t.permute(dims))
    same_error(lambda: M.permute(x, dims=dims), lambda: torch.permute(t, dims=dims))
    same_error(lambda: x.permute(*dims), lambda: t.permute(*dims))
    if len(set(dims)) == 3 and max(dims) < 3:
        assert x.permute(dims).shape == t.permute(dims).shape


@pytest.mark.parametrize("name", ["movedim", "moveaxis"])
@pytest.mark.parametrize("source,destination", [
    ((0, 0), (1, 2)), ((0, 5), (1, 2)), ((0, 1), (1, 1)), ((0, 1), (5, 1)), ((0, 0), (5, 1)),
    ((0, 5), (1, 1)), ((0,), (1, 2)), ((5,), (1, 2)), ((5, 0), (0, 0)), (0, 2),
    ((0, -1), (-1, 0))])
def test_movedim_check_order(name, source, destination):
    # PyTorch: the lengths, then every dim wrapped, then repeats in source, in destination
    x, t = M.zeros(2, 3, 4), torch.zeros(2, 3, 4)
    same_error(lambda: getattr(M, name)(x, source, destination),
               lambda: getattr(torch, name)(t, source, destination))
    same_error(lambda: getattr(x, name)(source, destination),
               lambda: getattr(t, name)(source, destination))
