"""`import mindtorch` stays cheap: NumPy and the first-party kernel / rule modules load
with the first op, through Registry.lazy_kernels(), which third-party plugins may use too
(loaded once, on first lookup; a failing loader is reported like a failing plugin; impl()
registered after a pending loader wins over its table)."""
import pytest

from plugintools import run_json, status, write_dist

HOOKS = "from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl\n"
API = "@hookimpl\ndef mindtorch_plugin_api_version():\n    return PLUGIN_API_VERSION\n"
_NOOP = "lambda *a: 0"
_DEVICE = f"allocate={_NOOP}, from_host={_NOOP}, to_host={_NOOP}"

PLUGINS = {
    # its own device, every kernel lazily; CALLS counts the loader's runs (the kernel
    # returns a marker: bindings hand back what the kernel returns)
    "lazydev": ("mindtorch-lazydev", "0.1", HOOKS + API + f"""
CALLS = []

def _load():
    CALLS.append(1)
    return {{'neg': lambda t: ['lazydev neg', list(t.shape)]}}

@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('lazydev', {_DEVICE})

@hookimpl
def mindtorch_register_kernels(registry):
    registry.lazy_kernels('lazydev', _load)
"""),
    # its loader raises on first use: import still succeeds, the failure is reported then
    "lazybad": ("mindtorch-lazybad", "0.2", HOOKS + API + f"""
@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('lazybad', {_DEVICE})

@hookimpl
def mindtorch_register_kernels(registry):
    def load():
        raise ImportError('libbad.so missing')
    registry.lazy_kernels('lazybad', load)
"""),
    # an eager cpu kernel registered after cpu's (pending) lazy table: it wins
    "override": ("mindtorch-override", "0.3", HOOKS + API + """
@hookimpl
def mindtorch_register_kernels(registry):
    registry.impl('exp2', 'cpu', lambda self: 'overridden')
"""),
    "notcallable": ("mindtorch-notcallable", "0.4", HOOKS + API + """
@hookimpl
def mindtorch_register_kernels(registry):
    registry.lazy_kernels('cpu', {'neg': None})
"""),
}


@pytest.fixture(scope="module")
def lazy(tmp_path_factory):
    root = tmp_path_factory.mktemp("lazy_site")
    for name, (dist, version, source) in PLUGINS.items():
        write_dist(root / name, dist, version, {name: f"mt_{name}"},
                   {f"mt_{name}/__init__.py": source})
    return run_json("""
    import sys, warnings
    out['at_import'] = {m: m in sys.modules for m in (
        'numpy', 'ml_dtypes', 'mindtorch_cpu.kernels', 'mindtorch_meta.rules')}
    out['calls_at_import'] = len(sys.modules['mt_lazydev'].CALLS)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        out['cpu'] = (mindtorch.tensor([1., 2.]) + 1).tolist()
        out['meta'] = list((mindtorch.empty(2, 3, device='meta') + 1).shape)
        t = mindtorch.empty(2, device='lazydev')
        out['lazydev'] = -t
        out['lazydev_again'] = mindtorch.neg(t)
        out['exp2'] = mindtorch.exp2(mindtorch.tensor([1.]))
        try:
            -mindtorch.empty(1, device='lazybad')
        except NotImplementedError as e:
            out['lazybad_error'] = str(e)
    out['first_op_warnings'] = [f"{x.category.__name__}: {x.message}" for x in w]
    out['first_op_warning_files'] = [x.filename for x in w]
    out['calls'] = len(sys.modules['mt_lazydev'].CALLS)
    out['after_op'] = {m: m in sys.modules for m in out['at_import']}
    out['backends'] = mindtorch.backends.list()
    """, [root / name for name in PLUGINS])


def test_import_loads_no_numpy_and_no_kernel_modules(lazy):
    assert lazy["at_import"] == {m: False for m in lazy["at_import"]}
    assert lazy["calls_at_import"] == 0
    assert lazy["after_op"] == {m: True for m in lazy["after_op"]}


def test_first_party_kernels_load_on_first_use(lazy):
    assert lazy["cpu"] == [2.0, 3.0]
    assert lazy["meta"] == [2, 3]
    for name in ("cpu", "meta"):
        s = status(lazy, name)
        assert s["status"] == "loaded" and s["kernels"] > 200, s


def test_third_party_lazy_kernels_load_once(lazy):
    assert lazy["lazydev"] == lazy["lazydev_again"] == ["lazydev neg", [2]]
    assert lazy["calls"] == 1
    s = status(lazy, "lazydev")
    assert (s["status"], s["devices"], s["kernels"]) == ("loaded", ["lazydev"], 1)


def test_impl_after_a_pending_lazy_table_wins(lazy):
    assert lazy["exp2"] == "overridden"


def test_failing_loader_is_reported_once_when_first_needed(lazy):
    assert not any("lazybad" in w for w in lazy["import_warnings"])
    mine = [w for w in lazy["first_op_warnings"] if "plugin 'lazybad'" in w]
    assert len(mine) == 1, lazy["first_op_warnings"]
    assert mine[0].startswith("RuntimeWarning: ")
    assert "mindtorch-lazybad 0.2" in mine[0]
    assert "loading its lazybad kernels failed: ImportError: libbad.so missing" in mine[0]
    assert set(lazy["first_op_warning_files"]) == {"<string>"}  # the user's code
    s = status(lazy, "lazybad")
    assert s["status"] == "failed" and "libbad.so missing" in s["reason"]
    assert "no plugin registered a kernel" in lazy["lazybad_error"]
    # the other plugins' kernels loaded regardless
    assert lazy["cpu"] == [2.0, 3.0] and lazy["lazydev"] == ["lazydev neg", [2]]


def test_lazy_kernels_needs_a_callable(lazy):
    s = status(lazy, "notcallable")
    assert s["status"] == "failed"
    assert "lazy_kernels for 'cpu' needs a callable" in s["reason"]
    assert any("plugin 'notcallable'" in w for w in lazy["import_warnings"])
