"""Storage APIs against PyTorch: Tensor.storage() (TypedStorage), untyped_storage(),
set_(), is_set_to(), data_ptr()/storage_offset() of views, sharing and pinning."""
import warnings

import pytest

import mindtorch
from reference import cpu_build_only, outcome, same_outcome

torch = pytest.importorskip("torch")
LIBS = [mindtorch, torch]


def both(fn):
    return same_outcome(fn, quiet=True)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int16", "uint8", "bool",
                                   "bfloat16", "float16", "complex64", "int8"])
def test_typed_storage_elements(dtype):
    def f(lib):
        x = lib.tensor([[0, 1, 2], [3, 0, 5]]).to(getattr(lib, dtype))
        s = x[1].storage()  # a view's storage is the whole storage
        return (s.size(), len(s), s.nbytes(), str(s.dtype), str(s.device), s.element_size(),
                s[1], s[-1], type(s[4]).__name__, s.tolist(), list(s), str(s), repr(s),
                s.data_ptr() == x.data_ptr(), s.untyped().nbytes(), s.is_shared())
    both(f)


def test_typed_storage_writes_and_errors():
    def f(lib):
        x = lib.arange(6.)
        s = x.storage()
        s[2] = 7.5
        out = [x.tolist()]
        s2 = x.clone().storage()
        s2.fill_(3)
        out.append((x.tolist(), s2.tolist()))
        out.append(outcome(lambda: s[6]))
        out.append(outcome(lambda: s[-7]))
        out.append(outcome(lambda: s[0:2]))
        s.copy_(lib.ones(6).storage())
        out.append(x.tolist())
        out.append(s.clone().tolist() == s.tolist() and s.clone().data_ptr() != s.data_ptr())
        out.append(s.cpu().data_ptr() == s.data_ptr())
        out.append(s.type())
        return out
    both(f)


def test_storage_warns_once_as_torch():
    # PyTorch warns once per process: whether the first call warns depends on what ran before,
    # so compare the second call, which warns in neither library
    for lib in LIBS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lib.ones(1).storage()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.ones(1).storage()
        assert not w
    import mindtorch._storage as S
    S._warned[0] = False
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        mindtorch.ones(1).storage()


def test_untyped_storage_bytes():
    def f(lib):
        x = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float32)
        u = x[1:].untyped_storage()
        out = [u.nbytes(), u.size(), len(u), u[4], u[-1], type(u[0]).__name__, u.tolist(),
               str(u), u.element_size(), u.data_ptr() == x.data_ptr(), u.cpu() is u,
               u.is_shared(), u.is_pinned(), u.device.type, u.type()]
        u[0] = 5
        out.append(x.tolist())
        out.append(outcome(lambda: u[12]))
        out.append(outcome(lambda: u.copy_(lib.ones(2).untyped_storage())))
        c = u.clone()
        c.fill_(0)
        out.append((x.tolist()[1:], c.tolist()))
        u.copy_(lib.zeros(3).untyped_storage())
        out.append(x.tolist())
        return out
    both(f)


def test_untyped_storage_constructor_and_is_storage():
    def f(lib):
        u = lib.UntypedStorage(4)
        u.fill_(9)
        return u.tolist(), lib.is_storage(u), lib.is_storage(lib.ones(1).storage()), \
            lib.is_storage(lib.ones(1))
    both(f)


def test_data_ptr_and_offset_of_views():
    def f(lib):
        x = lib.arange(24, dtype=lib.float64).reshape(2, 3, 4)
        views = [x[1], x[:, 1], x[..., 2:], x.t(), x.view(-1)[5:], x.select(2, 3), x.detach()]
        return [(v.storage_offset(), v.data_ptr() - x.data_ptr(),
                 v.untyped_storage().data_ptr() == x.data_ptr(),
                 v.untyped_storage().nbytes()) for v in views]
    both(f)


def test_set_forms():
    def f(lib):
        x = lib.arange(6.).reshape(2, 3)
        y = lib.empty(0)
        out = []
        y.set_(x.untyped_storage(), 2, (2, 2), (1, 2))
        out.append((y.tolist(), y.stride(), y.storage_offset(), y.is_set_to(x), y._version))
        y.set_(x.untyped_storage(), 1, (2,))
        out.append((y.tolist(), y.stride()))
        y.set_(x.untyped_storage())
        out.append((y.shape, y.tolist()))
        y.set_(x.storage(), 1, [2])
        out.append(y.tolist())
        z = lib.empty(3).set_(x.t())
        out.append((z.is_set_to(x.t()), z.is_set_to(x), z.shape, z.stride(),
                    z.data_ptr() == x.data_ptr()))
        x[0, 0] = 9
        out.append(z.tolist())  # shares x's memory
        z.set_()
        out.append((z.shape, z.stride(), z.untyped_storage().nbytes(), z.tolist()))
        v = x[0]
        v.set_(x.clone())
        out.append((v.shape, v.data_ptr() != x.data_ptr()))
        out.append((x.is_set_to(x), x.is_set_to(x.view(6)), x.is_set_to(x.t())))
        return out
    both(f)


@pytest.mark.parametrize("case", range(7))
def test_set_errors(case):
    def f(lib):
        x = lib.arange(6.)
        meta = lib.empty(2, device="meta")
        calls = [
            lambda: lib.empty(0, dtype=lib.int64).set_(x),
            lambda: lib.empty(0, dtype=lib.int8).set_(x.storage()),
            lambda: lib.empty(0).set_(meta),
            lambda: lib.empty(0).set_(x.untyped_storage(), -1, (1,)),
            lambda: lib.empty(0).set_(x.untyped_storage(), 0, (1,), (1, 1)),
            lambda: lib.ones(2, requires_grad=True).set_(x[:2]),
            lambda: lib.empty(0).set_(3),
        ]
        r = outcome(calls[case])
        return r[:1] + (r[1].split("\n")[0],) if isinstance(r, tuple) else r
    r = both(f)
    assert isinstance(r, tuple) and r[0] in ("RuntimeError", "TypeError")


def test_set_under_no_grad_and_out_of_bounds():
    def f(lib):
        a = lib.ones(2, requires_grad=True)
        with lib.no_grad():
            a.set_(lib.arange(3.)[1:])
        return a.tolist(), a.requires_grad, a.is_leaf
    both(f)
    # PyTorch grows the storage here; mindtorch refuses (its storages do not resize in place)
    x = mindtorch.arange(6.)
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 24"):
        mindtorch.empty(0).set_(x.untyped_storage(), 0, (5, 5))


@cpu_build_only
def test_sharing_and_pinning():
    def f(lib):
        x = lib.arange(4.0)
        v = x[1:]
        r = [x.is_shared(), x.is_pinned(), outcome(lambda: x.pin_memory()),
             x.storage().is_pinned(), x.untyped_storage().is_shared()]
        p = x.data_ptr()
        r += [x.share_memory_() is x, x.is_shared(), v.is_shared(), x.storage().is_shared(),
              x.untyped_storage().is_shared(), x.data_ptr() == p, x.tolist()]
        x.add_(1)
        r += [x.tolist(), x.share_memory_().is_shared(), lib.ones(0).share_memory_().is_shared()]
        m = lib.nn.Linear(2, 2)
        m.share_memory()
        r.append([p.is_shared() for p in m.parameters()])
        return r
    r = both(f)
    assert r[6] is True


def _child(t):
    t.mul_(10)


def test_shared_memory_is_seen_by_forked_processes():
    import multiprocessing as mp
    x = mindtorch.arange(4.0).share_memory_()
    proc = mp.get_context("fork").Process(target=_child, args=(x,))
    proc.start()
    proc.join()
    assert proc.exitcode == 0 and x.tolist() == [0.0, 10.0, 20.0, 30.0]
    y = mindtorch.arange(4.0)  # not shared: the child changes its own copy
    proc = mp.get_context("fork").Process(target=_child, args=(y,))
    proc.start()
    proc.join()
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_meta():
    def f(lib):
        m = lib.empty(2, 3, device="meta")
        return (str(m.untyped_storage()), str(m.storage()), m.untyped_storage().nbytes(),
                m.storage().size(), m.data_ptr(), m.untyped_storage().data_ptr(),
                m.is_shared(), m.is_pinned(),
                outcome(lambda: m.untyped_storage()[0]), outcome(lambda: m.storage().tolist()),
                outcome(lambda: m.pin_memory()), outcome(lambda: m.share_memory_()))
    both(f)
    # (torch has no meta kernel for is_set_to; set_ itself is metadata)
    m = mindtorch.empty(2, 3, device="meta")
    n = mindtorch.empty(0, device="meta").set_(m.untyped_storage(), 1, (2,), (2,))
    assert n.is_set_to(mindtorch.empty(0, device="meta").set_(n)) and n.stride() == (2,)
    assert (n + 1).shape == (2,) and n.device.type == "meta"


def test_storage_module():
    from mindtorch.storage import TypedStorage, UntypedStorage
    assert TypedStorage is mindtorch.TypedStorage and UntypedStorage is mindtorch.UntypedStorage
    assert isinstance(mindtorch.ones(1).untyped_storage(), UntypedStorage)


def test_typed_storage_construction_and_names():
    def f(lib):
        r = [lib.TypedStorage(3).size(), lib.TypedStorage([1, 2], dtype=lib.int64).tolist(),
             lib.TypedStorage(dtype=lib.float64).size()]
        s = lib.TypedStorage(2, dtype=lib.float16, device="meta")
        r += [str(s.dtype), s.device.type, lib.tensor([1, 2]).storage().type(),
              lib.tensor([1.0], device="meta").storage().type(),
              lib.UntypedStorage(3).type(), lib.tensor([1.0, 2.0]).storage().is_cuda,
              outcome(lambda: lib.tensor([1.0, 2.0]).storage().copy_(lib.tensor([3.0, 4.0]))),
              lib.tensor([True, False]).untyped_storage().tolist()]
        return r
    both(f)


def test_storage_from_file_slices_and_asarray_like_torch(tmp_path):
    """What safetensors' safe_open(framework="pt") does: a storage of a file's bytes, slices
    of it sharing memory, read as tensors through asarray."""
    path = tmp_path / "bytes"
    path.write_bytes(bytes(range(10)))

    def run(lib):
        s = lib.UntypedStorage.from_file(str(path), False, 8)
        part = lib.asarray(s[2:6], dtype=lib.uint8)
        out = [s.nbytes(), s[2], s[2:5].nbytes(), list(s[2:5]), part.tolist(),
               part.view(lib.int16).tolist(), s[1:1].nbytes(), s[-3:].nbytes(), s[5:2].nbytes()]
        s[3] = 99  # the slice shares the bytes
        out.append(part.tolist())
        with pytest.raises(RuntimeError) as e:
            s[::2]
        out.append(str(e.value))
        filled = lib.UntypedStorage(16)
        filled.fill_(1)
        out += [lib.asarray(filled).tolist(), lib.asarray(filled, dtype=lib.float32).shape,
                lib.asarray(lib.UntypedStorage(3), dtype=lib.int16).shape]
        return out
    assert run(mindtorch) == run(torch)
    shared = mindtorch.UntypedStorage.from_file(str(path), True, 4)
    shared[0] = 7
    del shared
    assert path.read_bytes()[:2] == b"\x07\x01"  # shared=True maps the file
