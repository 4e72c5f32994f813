"""The meta device: tensors with shape, dtype and strides but no data."""
import pytest

import mindtorch
import mindtorch_meta


def test_factories_and_metadata():
    t = mindtorch.empty(2, 3, dtype=mindtorch.float64, device="meta")
    assert t.device == mindtorch.device("meta") and t.is_meta
    assert t.shape == (2, 3) and t.stride() == (3, 1) and t.dtype is mindtorch.float64
    assert mindtorch.zeros(4, device="meta").shape == (4,)
    assert mindtorch.full((2,), 7, device="meta").dtype is mindtorch.int64


def test_default_device_context():
    with mindtorch.device("meta"):
        t = mindtorch.ones(5, 6)
        a = mindtorch.arange(10)
    assert t.device.type == "meta" and a.shape == (10,) and a.dtype is mindtorch.int64
    assert mindtorch.ones(1).device.type == "cpu"


def test_ops_give_shapes_and_dtypes_without_data():
    a = mindtorch.empty(3, 1, device="meta", dtype=mindtorch.int32)
    b = mindtorch.empty(4, device="meta")
    c = a + b
    assert c.shape == (3, 4) and c.dtype is mindtorch.float32 and c.device.type == "meta"
    assert (a < 2).dtype is mindtorch.bool
    assert a.t().shape == (1, 3) and c.reshape(-1).shape == (12,)


def test_no_data_access():
    t = mindtorch.ones(2, device="meta")
    with pytest.raises(TypeError):
        t.numpy()
    with pytest.raises(NotImplementedError):
        t.cpu()
    with pytest.raises(NotImplementedError):
        t.tolist()


def test_to_meta_and_broadcast_error():
    t = mindtorch.tensor([[1.0, 2.0]]).to("meta")
    assert t.shape == (1, 2) and t.device.type == "meta"
    with pytest.raises(RuntimeError, match="must match"):
        mindtorch.empty(2, 3, device="meta") + mindtorch.empty(4, device="meta")


def test_mixing_devices_raises():
    with pytest.raises(RuntimeError, match="meta is not on the expected device cpu"):
        mindtorch.ones(3) + mindtorch.ones(3, device="meta")
    # a 0-dim cpu tensor may join a meta computation, as in PyTorch
    assert (mindtorch.tensor(2.0) * mindtorch.ones(3, device="meta")).device.type == "meta"


def test_infer_api_for_other_backends():
    a = mindtorch.empty(3, 1, device="meta")
    shape, dtype = mindtorch_meta.infer("add", a, mindtorch.empty(2, 1, 4, device="meta",
                                                                  dtype=mindtorch.float64))
    assert shape == (2, 3, 4) and dtype is mindtorch.float64
    assert mindtorch_meta.infer("arange", 0, 10, 3) == ((4,), mindtorch.int64)


def test_infer_covers_composite_ops_through_their_decompositions():
    a, b = mindtorch.ones(2, 3), mindtorch.ones(3, 4)
    assert mindtorch_meta.infer("matmul", a, b) == ((2, 4), mindtorch.float32)
    assert mindtorch_meta.infer("stack", [a, a], 1) == ((2, 2, 3), mindtorch.float32)
    assert mindtorch_meta.infer("silu", a) == ((2, 3), mindtorch.float32)
    assert mindtorch_meta.infer("zeros", (2, 3), mindtorch.int32, None) == ((2, 3),
                                                                           mindtorch.int32)
    with pytest.raises(RuntimeError, match="same dtype"):
        mindtorch_meta.infer("mm", a, b.double())
