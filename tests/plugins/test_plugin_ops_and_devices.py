"""Two out-of-tree device types at once, and operators defined by a plugin: exposed as
mindtorch.ops.<ns>.<name>, validated by their schema, kernels called positionally."""
import pytest

from plugintools import run_json, status, write_dist

# A second device backend, unlike toy in its memory: one NumPy array per storage.
TOY2 = """
import types
import numpy as np
import mindtorch
from mindtorch import plugins
from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl


def _view(t):
    isz = t.dtype.itemsize
    return np.ndarray(t.shape, t.dtype.np, plugins.storage_handle(t),
                      t.storage_offset() * isz, tuple(s * isz for s in t.stride()))


def _val(x):
    return plugins.host_array(x) if isinstance(x, mindtorch.Tensor) else x


def _binary(fn):
    def kernel(self, other, *extra):
        dtype = mindtorch.result_type(self, other)
        device = next(a.device for a in (self, other)
                      if isinstance(a, mindtorch.Tensor) and a.device.type == 'toy2')
        r = fn(np.asarray(_val(self), dtype.np), np.asarray(_val(other), dtype.np), *extra)
        out = plugins.empty(r.shape, dtype, device)
        _view(out)[...] = r
        return out
    return kernel


def copy_(self, src, non_blocking):
    _view(self)[...] = _val(src).astype(self.dtype.np)
    return self


@hookimpl
def mindtorch_plugin_api_version():
    return PLUGIN_API_VERSION


@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device(
        'toy2', allocate=lambda n, i: np.zeros(n, np.uint8),
        from_host=lambda a, i: a.reshape(-1).view(np.uint8).copy(),
        to_host=lambda h, n: h.copy(), data_ptr=lambda h: h.ctypes.data,
        module=types.SimpleNamespace(is_available=lambda: True, device_count=lambda: 1,
                                     current_device=lambda: 0, set_device=lambda d: None,
                                     synchronize=lambda d=None: None))


@hookimpl
def mindtorch_register_kernels(registry):
    registry.impl('add', 'toy2', _binary(lambda a, b, alpha: a + alpha * b))
    registry.impl('mul', 'toy2', _binary(np.multiply))
    registry.impl('copy_', 'toy2', copy_)
"""

TOYOPS = """
import mindtorch
from mindtorch import plugins
from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl

CALLS = []


@hookimpl
def mindtorch_plugin_api_version():
    return PLUGIN_API_VERSION


@hookimpl
def mindtorch_define_ops(registry):
    registry.define("toyops::scale(Tensor self, float factor) -> Tensor",
                    derivatives={"self": lambda grad, factor: grad * factor})
    registry.define("toyops::twice(Tensor self) -> Tensor",
                    decomposition=lambda self: mindtorch.add(self, self))
    registry.define("toyops::probe(Tensor self, int dim, int[] dims, *, float factor=1.0, "
                    "bool flag=False) -> Tensor")


def scale(self, factor):
    dtype = mindtorch.result_type(self, factor)
    return mindtorch.from_numpy(plugins.host_array(self).astype(dtype.np) * factor)


def probe(*args):
    CALLS.append([type(a).__name__ if hasattr(a, 'shape') else a for a in args])
    return args[0]


@hookimpl
def mindtorch_register_kernels(registry):
    registry.impl("toyops::scale", "cpu", scale)
    registry.impl("toyops::probe", "cpu", probe)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory, toy_path):
    root = tmp_path_factory.mktemp("ops_site")
    write_dist(root / "toy2", "mindtorch-toy2", "2.0.0", {"toy2": "mindtorch_toy2"},
               {"mindtorch_toy2/__init__.py": TOY2})
    write_dist(root / "toyops", "toyops", "0.3", {"toyops": "toyops_plugin.plugin"},
               {"toyops_plugin/__init__.py": "", "toyops_plugin/plugin.py": TOYOPS})
    return [toy_path, root / "toy2", root / "toyops"]


@pytest.fixture(scope="module")
def out(site):
    return run_json("""
    import sys
    T = mindtorch.tensor
    x = T([1., 2.]).to('toy')
    y = T([3., 4.]).to('toy2')
    out['toy'] = [str((x + x).device), (x + x).cpu().tolist()]
    out['toy2'] = [str((y * y).device), (y * y).cpu().tolist(), (y + 1).cpu().tolist()]
    out['toy_to_toy2'] = [str(x.to('toy2').device), (x.to('toy2') * y).cpu().tolist()]
    out['toy2_to_toy'] = (y.to('toy') + x).cpu().tolist()
    out['modules'] = [mindtorch.toy.device_count(), mindtorch.toy2.device_count()]
    try:
        x + y
    except RuntimeError as e:
        out['mismatch'] = str(e)
    try:
        -y
    except NotImplementedError as e:
        out['missing'] = str(e)
    # operators defined by the toyops plugin
    ops = mindtorch.ops
    c = T([1., 2., 3.])
    out['scale'] = ops.toyops.scale(c, 2.5).tolist()
    out['scale_int_factor'] = ops.toyops.scale(c, 2).tolist()
    out['scale_int_tensor'] = [str(ops.toyops.scale(T([1, 2]), 0.5).dtype),
                               ops.toyops.scale(T([1, 2]), 0.5).tolist()]
    out['twice_cpu'] = ops.toyops.twice(c).tolist()
    out['twice_toy'] = [str(ops.toyops.twice(x).device), ops.toyops.twice(x).cpu().tolist()]
    tm = ops.toyops.twice(mindtorch.empty(2, 3, device='meta'))
    out['twice_meta'] = [str(tm.device), list(tm.shape)]
    out['op_names'] = [n for n in ops.names() if n.startswith('toyops::')]
    out['not_global'] = [hasattr(mindtorch, n) for n in ('scale', 'twice', 'probe')]
    out['not_method'] = hasattr(mindtorch.Tensor, 'twice')
    m = T([[1., 2.], [3., 4.]])
    ops.toyops.probe(m, -1, [-1, 0], factor=2, flag=True)
    ops.toyops.probe(m, 0, 1)
    out['calls'] = sys.modules['toyops_plugin.plugin'].CALLS
    errors = {
        'scale_str': lambda: ops.toyops.scale(c, 'big'),
        'scale_missing': lambda: ops.toyops.scale(c),
        'probe_dim_range': lambda: ops.toyops.probe(m, 2, [0]),
        'probe_dim_type': lambda: ops.toyops.probe(m, 'a', [0]),
        'scale_meta': lambda: ops.toyops.scale(mindtorch.empty(2, device='meta'), 2.0),
        'no_namespace': lambda: ops.nosuchns,
    }
    for key, fn in errors.items():
        try:
            fn()
        except Exception as e:
            out[key] = [type(e).__name__, str(e)]
    out['backends'] = mindtorch.backends.list()
    # autograd: a plugin op's own formula, and gradients through a plugin device
    g = T([1., 2., 3.], requires_grad=True)
    s = ops.toyops.scale(g, 2.5)
    s.sum().backward()
    out['scale_grad'] = [s.grad_fn.name(), g.grad.tolist()]
    t = T([1., 2., 3.], requires_grad=True)
    ops.toyops.twice(t).sum().backward()  # a decomposition: its sub-ops record
    out['twice_grad'] = t.grad.tolist()
    a = T([1., 2.], requires_grad=True)
    on_toy2 = a.to('toy2')
    w = T([3., 5.], requires_grad=True)
    z = (on_toy2 * on_toy2 * w.to('toy2') + on_toy2).to('cpu').sum()
    z.backward()
    out['toy2_grad'] = [on_toy2.grad_fn.name(), str(on_toy2.device), a.grad.tolist(),
                        w.grad.tolist(), str(a.grad.device)]
    """, site)


def test_two_device_types_compute(out):
    assert out["toy"] == ["toy:0", [2.0, 4.0]]
    assert out["toy2"] == ["toy2:0", [9.0, 16.0], [4.0, 5.0]]
    assert out["toy_to_toy2"] == ["toy2:0", [3.0, 8.0]]
    assert out["toy2_to_toy"] == [4.0, 6.0]
    assert out["modules"] == [2, 1]


def test_two_device_types_status(out):
    assert status(out, "toy")["devices"] == ["toy"]
    assert status(out, "toy2") == {"name": "toy2", "distribution": "mindtorch-toy2",
                                   "version": "2.0.0", "status": "loaded", "reason": "",
                                   "devices": ["toy2"], "kernels": 3}
    assert status(out, "toyops") == {"name": "toyops", "distribution": "toyops",
                                     "version": "0.3", "status": "loaded", "reason": "",
                                     "devices": [], "kernels": 2}
    assert out["import_warnings"] == []


def test_autograd_with_plugin_ops_and_devices(out):
    assert out["scale_grad"] == ["ScaleBackward0", [2.5, 2.5, 2.5]]
    assert out["twice_grad"] == [2.0, 2.0, 2.0]
    # d/da (a*a*w + a) = 2aw + 1; d/dw = a^2, computed on toy2 and copied back
    assert out["toy2_grad"] == ["ToCopyBackward0", "toy2:0", [7.0, 21.0], [1.0, 4.0], "cpu"]


def test_mismatch_between_plugin_devices(out):
    assert "toy:0" in out["mismatch"] and "toy2:0" in out["mismatch"]


def test_missing_kernel_lists_all_backends(out):
    msg = out["missing"]
    assert "'neg'" in msg and "'toy2'" in msg
    assert "toy (toy)" in msg and "toy2 (toy2)" in msg and "toyops (kernels only)" in msg


@pytest.mark.parametrize("key, expected", [
    ("scale", [2.5, 5.0, 7.5]),
    ("scale_int_factor", [2.0, 4.0, 6.0]),
    ("scale_int_tensor", ["torch.float32", [0.5, 1.0]]),
    ("twice_cpu", [2.0, 4.0, 6.0]),
    ("twice_toy", ["toy:0", [2.0, 4.0]]),          # decomposition runs on any device
    ("twice_meta", ["meta", [2, 3]]),
    ("op_names", ["toyops::probe", "toyops::scale", "toyops::twice"]),
    ("not_global", [False, False, False]),
    ("not_method", False),
])
def test_plugin_defined_ops(out, key, expected):
    assert out[key] == expected


def test_kernel_calling_convention(out):
    # schema order, positional, keyword-only args included; int -> float and int -> int[]
    # converted; dims wrapped against the first tensor's rank
    assert out["calls"] == [["Tensor", 1, [1, 0], 2.0, True],
                            ["Tensor", 0, [1], 1.0, False]]


@pytest.mark.parametrize("key, cls, words", [
    ("scale_str", "TypeError", ["scale", "factor"]),
    ("scale_missing", "TypeError", ["factor"]),
    ("probe_dim_range", "IndexError", ["Dimension out of range"]),
    ("probe_dim_type", "TypeError", ["dim"]),
    ("scale_meta", "NotImplementedError", ["toyops::scale", "meta"]),
    ("no_namespace", "AttributeError", ["nosuchns"]),
])
def test_plugin_op_errors(out, key, cls, words):
    assert out[key][0] == cls, out[key]
    assert all(w in out[key][1] for w in words), out[key]
