"""cat / concat / concatenate / stack against PyTorch: dtype promotion, dims (negative,
bad), legacy 1-D empty tensors, non-contiguous inputs, error classes, and the meta
device's shapes/dtypes."""
import numpy as np
import pytest

import mindtorch
from reference import assert_same, torch
from test_reduction import check, check_meta, make

torch.set_num_threads(1)

JOIN = {
    "cat": lambda L, ts, d: L.cat(ts, d),
    "concat": lambda L, ts, d: L.concat(ts, dim=d),
    "concatenate": lambda L, ts, d: L.concatenate(ts, d),
    "stack": lambda L, ts, d: L.stack(ts, d),
}


def _both(name, tensors, dim):
    fn = lambda L, *ts: JOIN[name](L, list(ts), dim)  # noqa: E731
    check(fn, *tensors)
    check_meta(fn, *tensors)


@pytest.mark.parametrize("name", sorted(JOIN))
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("int64", "float32"),
                                    ("uint8", "int8"), ("bool", "bool"), ("bool", "int16"),
                                    ("float16", "bfloat16"), ("float64", "complex64"),
                                    ("int32", "int32", "int64")], ids=str)
def test_dtypes(name, dtypes):
    ts = [make((2, 3), d) for d in dtypes]
    for dim in (0, 1, -1, -2):
        _both(name, ts, dim)


@pytest.mark.parametrize("name", sorted(JOIN))
def test_shapes_and_dims(name):
    for shape in [(3,), (2, 3), (2, 3, 4), (2, 0, 3)]:
        ts = [make(shape, "float32") for _ in range(3)]
        for dim in range(-len(shape) - 2, len(shape) + 2):
            _both(name, ts, dim)


def test_cat_different_sizes_along_dim():
    a, b, c = make((2, 3), "float32"), make((2, 1), "float32"), make((2, 0), "float32")
    for dim in (1, -1):
        _both("cat", [a, b, c], dim)
    _both("cat", [make((1, 3, 2), "int64"), make((4, 3, 2), "int64")], 0)


def test_non_contiguous_inputs():
    a = make((3, 2), "float32").transpose(0, 1)
    b = make((2, 6), "float32").as_strided((2, 3), (6, 2), 1)
    wide = mindtorch.tensor([[1.0, 2.0, 3.0]]).expand(2, 3)
    for name in JOIN:
        for dim in (0, 1):
            _both(name, [a, b, wide], dim)


def test_legacy_empty_tensors_are_skipped():
    e = mindtorch.ones(0)
    a = make((2, 3), "float32")
    for ts, dim in [([e, a], 0), ([a, e], 1), ([e, a], -1), ([e, e], 0), ([e], 5),
                    ([e, e], -2), ([e, a, e], 1)]:
        _both("cat", ts, dim)
    # skipped tensors still take part in the result dtype
    _both("cat", [make((0,), "int8"), make((2,), "uint8")], 0)
    _both("cat", [make((0,), "float64"), make((2, 2), "float32")], 1)
    _both("stack", [e, e], 0)
    _both("stack", [e, e], 1)


@pytest.mark.parametrize("tensors, dim", [
    ([(2, 3), (2, 2)], 0),          # sizes differ off the cat dim
    ([(2, 3), (3,)], 0),            # ranks differ
    ([(), ()], 0),                  # 0-dim tensors cannot be concatenated
    ([(0,), ()], 0),
    ([(2, 3), (2, 3)], 2),          # bad dims
    ([(2, 3), (2, 3)], -3),
    ([(0,), (2, 3)], 2),
    ([(0, 3), (0, 2)], 0),
])
def test_cat_errors(tensors, dim):
    _both("cat", [make(s, "float32") for s in tensors], dim)


@pytest.mark.parametrize("tensors, dim", [
    ([(2, 3), (3, 2)], 0),
    ([(2, 3), (2,)], 0),
    ([(2, 3), (2, 3)], 3),
    ([(2, 3), (2, 3)], -4),
    ([(), ()], 1),
])
def test_stack_errors(tensors, dim):
    _both("stack", [make(s, "float32") for s in tensors], dim)


def test_zero_dim_stack():
    ts = [mindtorch.tensor(1.0), mindtorch.tensor(2)]
    _both("stack", ts, 0)
    _both("stack", ts, -1)


@pytest.mark.parametrize("name", sorted(JOIN))
def test_argument_errors(name):
    a = make((2, 3), "float32")
    fn = getattr(mindtorch, name)
    with pytest.raises(TypeError):
        fn(a, 0)                    # a Tensor, not a sequence of them
    with pytest.raises(TypeError):
        fn([a, 1], 0)
    with pytest.raises(TypeError):
        fn([a, a], 0.5)
    with pytest.raises(TypeError):
        fn([a, a], None)
    with pytest.raises(ValueError if name != "stack" else RuntimeError):
        fn([], 0)
    check(lambda L: getattr(L, name)([], 0))


def test_mixed_devices():
    a = make((2, 3), "float32")
    with pytest.raises(RuntimeError):
        mindtorch.cat([a, a.to("meta")])
    with pytest.raises(RuntimeError):
        mindtorch.stack([a.to("meta"), a])


def test_out_and_freshness():
    a, b = make((2, 3), "float32"), make((2, 3), "float32")
    out = mindtorch.empty(0)
    assert mindtorch.cat([a, b], 1, out=out) is out
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a.numpy(), b.numpy()], 1))
    r = mindtorch.cat([a])
    r.fill_(0)
    assert a.abs().sum().item() > 0
    s = mindtorch.stack([a])
    s.fill_(0)
    assert a.abs().sum().item() > 0


@pytest.mark.parametrize("repeats", [[2 ** 62, 1, 1], [2 ** 63 - 1, 1, 0], [2 ** 40, 0, 0],
                                     [-1, 2, 2], [3, 0, 1], [2 ** 62], [2 ** 40], [0]])
@pytest.mark.parametrize("dim", [0, None])
def test_repeat_interleave_huge_repeats(repeats, dim):
    # refused (RuntimeError) before allocating, never a hang
    def run(L, as_int):
        r = repeats[0] if as_int else L.tensor(repeats)
        return L.repeat_interleave(L.ones(3, 2), r, dim=dim)
    for as_int in (True, False) if len(repeats) == 1 else (False,):
        try:
            expected = run(torch, as_int)
        except RuntimeError:
            with pytest.raises(RuntimeError):
                run(mindtorch, as_int)
            continue
        assert_same(run(mindtorch, as_int), expected)
    if dim == 0 and len(repeats) == 3 and min(repeats) >= 0 and sum(repeats) < 100:
        assert_same(mindtorch.repeat_interleave(mindtorch.tensor(repeats)),
                    torch.repeat_interleave(torch.tensor(repeats)))


@pytest.mark.parametrize("dtypes", [("bfloat16", "int64", "0-dim float32"),
                                    ("int32", "0-dim float32"),
                                    ("float16", "0-dim float64"), ("uint8", "0-dim int64"),
                                    ("float32", "0-dim complex128"), ("bool", "0-dim int64")])
def test_block_diag_promotes_as_result_type(dtypes):
    # a 0-dim input takes part in the dtype as a scalar would (torch.result_type)
    def run(L):
        ts = [L.full((), -1, dtype=getattr(L, d.split()[-1])) if d.startswith("0-dim")
              else L.ones(2, 3, dtype=getattr(L, d)) for d in dtypes]
        return L.block_diag(*ts)
    assert_same(run(mindtorch), run(torch))


@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 0, 3)], ids=str)
def test_stack_many_tensors_kernel_and_decomposition(shape):
    """cpu's stack kernel (a cat into the result with two dims merged) and the
    decomposition other devices use (unsqueeze views + cat) both give torch's values,
    dtype and (contiguous) strides, for every dim and mixed dtypes."""
    from mindtorch._ops import OPS
    ts = [make(shape, "float32") for _ in range(63)] + [make(shape, "int64")]
    if shape:
        ts[1] = make((1,) + shape[1:], "float32").expand(shape)  # stride 0
    if len(shape) == 2:
        ts[2] = make(shape[::-1], "float32").t()  # non-contiguous
    ths = [torch.from_numpy(t.numpy().copy()) for t in ts]
    for dim in range(-len(shape) - 1, len(shape) + 1):
        expected = torch.stack(ths, dim)
        for got in (mindtorch.stack(ts, dim), OPS["stack"].decomposition(ts, dim)):
            assert_same(got, expected)
            assert got.stride() == expected.stride()


def test_stack_records_through_its_formula():
    a = mindtorch.tensor([1.0, 2.0], requires_grad=True)
    b = mindtorch.tensor([3.0, 4.0], requires_grad=True)
    s = mindtorch.stack([a, b.detach(), b], 1)
    assert type(s.grad_fn).__name__ == "StackBackward0"
    (s * mindtorch.arange(6.0).reshape(2, 3)).sum().backward()
    assert a.grad.tolist() == [0.0, 3.0] and b.grad.tolist() == [2.0, 5.0]
