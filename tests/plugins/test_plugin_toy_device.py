"""An out-of-tree device (the `toy` backend of examples/toy_backend, installed as a real
distribution) computing real results, its device module, missing kernels, the CPU
fallback and device mismatches."""
import pytest

from plugintools import run_json, status

TOY_SESSION = """
import numpy as np
T = mindtorch.tensor
x = T([1., 2.]).to('toy')
out['device'] = str(x.device)
out['is_toy'] = x.device.type == 'toy' and x.device.index == 0
out['add'] = (x + T([10., 20.]).to('toy')).cpu().tolist()
out['add_scalar'] = (x + 1).cpu().tolist()
out['add_alpha'] = mindtorch.add(x, x, alpha=3).cpu().tolist()
out['mul'] = (x * x).cpu().tolist()
out['neg'] = (-x).cpu().tolist()
out['sub'] = (x - 0.5).cpu().tolist()                      # decomposition into add
out['sub_device'] = str((x - 0.5).device)
out['chain'] = ((x * 3 + 1) * -x).cpu().tolist()
out['zeros'] = mindtorch.zeros(2, 2, device='toy').cpu().tolist()     # fill_
out['full'] = mindtorch.full((3,), 2.5, device='toy').cpu().tolist()
m = mindtorch.arange(6.).reshape(2, 3).to('toy')
out['transposed'] = (m.t() + 1).cpu().tolist()             # strided view on toy
out['sliced'] = (m.narrow(1, 1, 2) * 2).cpu().tolist()       # offset + strides
out['broadcast'] = (m + T([100., 200., 300.]).to('toy')).cpu().tolist()
i = T([1, 2]).to('toy')
out['int_plus_float'] = [str((i + 0.5).dtype), (i + 0.5).cpu().tolist()]
out['int_times_int'] = [str((i * i).dtype), (i * i).cpu().tolist()]
out['cpu_scalar_tensor'] = (T(2.) * x).cpu().tolist()       # 0-dim cpu joins toy
y = T([1., 2.]).to('toy')
v = y._version
y.add_(1)                                                   # add + copy_
out['inplace'] = [y.cpu().tolist(), y._version - v]
e = mindtorch.empty(0, device='toy')
out['empty'] = [list((e + 1).shape), (e + 1).cpu().tolist()]
out['zero_dim'] = (T(3.).to('toy') * 2).item()
# toy memory is its own: no sharing with host arrays, either way
a = np.array([1., 2.], dtype=np.float32)
t = mindtorch.from_numpy(a).to('toy')
a[0] = 100.
back = t.cpu()
back.numpy()[1] = -1.
out['isolated'] = [t.cpu().tolist(), t.data_ptr() != a.ctypes.data]
out['dtype_roundtrip'] = str(T([1, 2], dtype=mindtorch.int16).to('toy').cpu().dtype)
# the device module
toy = mindtorch.toy
out['module'] = [toy.is_available(), toy.device_count(), toy.current_device()]
import mindtorch.toy as imported_toy                      # the import statement too
from mindtorch.toy import device_count
out['import_module'] = [imported_toy is toy, device_count()]
toy.set_device(1)
z = T([1.]).to('toy')
out['set_device'] = [str(z.device), toy.current_device()]
try:
    z + x
except RuntimeError as err:
    out['index_mismatch'] = str(err)
toy.set_device(0)
# a missing kernel, then the CPU fallback switched on at run time
try:
    mindtorch.sin(x)
except NotImplementedError as err:
    out['missing'] = str(err)
mindtorch.set_cpu_fallback(True)
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    s = mindtorch.sin(T([0.]).to('toy'))
out['runtime_fallback'] = [str(s.device), s.cpu().tolist(), len(w)]
mindtorch.set_cpu_fallback(False)
try:
    mindtorch.cos(x)
except NotImplementedError:
    out['fallback_off_again'] = True
# a device mismatch (toy vs cpu, non-scalar)
try:
    x + T([1., 2.])
except RuntimeError as err:
    out['mismatch'] = str(err)
try:
    T([1., 2.]) * x
except RuntimeError as err:
    out['mismatch_reversed'] = str(err)
out['backends'] = mindtorch.backends.list()
"""


@pytest.fixture(scope="module")
def toy(toy_path):
    return run_json(TOY_SESSION, [toy_path])


@pytest.mark.parametrize("key, expected", [
    ("device", "toy:0"),
    ("is_toy", True),
    ("add", [11.0, 22.0]),
    ("add_scalar", [2.0, 3.0]),
    ("add_alpha", [4.0, 8.0]),
    ("mul", [1.0, 4.0]),
    ("neg", [-1.0, -2.0]),
    ("sub", [0.5, 1.5]),
    ("sub_device", "toy:0"),
    ("chain", [-4.0, -14.0]),
    ("zeros", [[0.0, 0.0], [0.0, 0.0]]),
    ("full", [2.5, 2.5, 2.5]),
    ("transposed", [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]),
    ("sliced", [[2.0, 4.0], [8.0, 10.0]]),
    ("broadcast", [[100.0, 201.0, 302.0], [103.0, 204.0, 305.0]]),
    ("int_plus_float", ["torch.float32", [1.5, 2.5]]),
    ("int_times_int", ["torch.int64", [1, 4]]),
    ("cpu_scalar_tensor", [2.0, 4.0]),
    ("inplace", [[2.0, 3.0], 1]),
    ("empty", [[0], []]),
    ("zero_dim", 6.0),
    ("isolated", [[1.0, 2.0], True]),
    ("dtype_roundtrip", "torch.int16"),
])
def test_toy_computes(toy, key, expected):
    assert toy[key] == expected


def test_toy_device_module(toy):
    assert toy["module"] == [True, 2, 0]
    assert toy["import_module"] == [True, 2]
    assert toy["set_device"] == ["toy:1", 1]
    assert "toy:1" in toy["index_mismatch"] and "toy:0" in toy["index_mismatch"]


def test_missing_kernel_names_op_device_and_backends(toy):
    msg = toy["missing"]
    assert "'sin'" in msg and "'toy'" in msg
    assert "cpu (cpu)" in msg and "meta (meta)" in msg and "toy (toy)" in msg
    assert "MINDTORCH_CPU_FALLBACK" in msg


def test_set_cpu_fallback_at_run_time(toy):
    assert toy["runtime_fallback"] == ["toy:0", [0.0], 1]
    assert toy["fallback_off_again"] is True


@pytest.mark.parametrize("key", ["mismatch", "mismatch_reversed"])
def test_device_mismatch_raises(toy, key):
    msg = toy[key]
    assert "Expected all tensors to be on the same device" in msg
    assert "toy:0" in msg and "cpu" in msg


def test_toy_status(toy):
    assert toy["import_warnings"] == []
    s = status(toy, "toy")
    assert s == {"name": "toy", "distribution": "mindtorch-toy", "version": "0.1.0",
                 "status": "loaded", "reason": "", "devices": ["toy"], "kernels": 6}
    assert status(toy, "cpu")["status"] == "loaded"


def test_cpu_fallback_env_warns_once_per_op(toy_path):
    out = run_json("""
    import warnings
    x = mindtorch.tensor([0., 1.]).to('toy')
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        s = mindtorch.sin(x)
        s2 = mindtorch.sin(x * 2)
        e = mindtorch.exp(x)
        y = mindtorch.tensor([0., 1.]).to('toy')
        y.exp_()                        # exp + copy_: the fallback result lands on toy
    out['warnings'] = [f"{m.category.__name__}: {m.message}" for m in w]
    out['devices'] = [str(s.device), str(e.device), str(y.device)]
    out['values'] = [s.cpu().tolist(), s2.cpu().tolist(), e.cpu().tolist(), y.cpu().tolist()]
    """, [toy_path], env={"MINDTORCH_CPU_FALLBACK": "1"})
    import math
    assert out["devices"] == ["toy:0"] * 3
    sin, sin2, exp, exp_ = out["values"]
    assert sin == pytest.approx([0.0, math.sin(1.0)])
    assert sin2 == pytest.approx([0.0, math.sin(2.0)])
    assert exp == exp_ == pytest.approx([1.0, math.e])
    assert len(out["warnings"]) == 2, out["warnings"]
    assert out["warnings"][0].startswith("UserWarning: 'sin'")
    assert out["warnings"][1].startswith("UserWarning: 'exp'")
    assert all("MINDTORCH_CPU_FALLBACK" in w for w in out["warnings"])
