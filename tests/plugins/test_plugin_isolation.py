"""Broken plugins are skipped, one warning each, all-or-nothing; `import mindtorch` and
the other plugins work regardless.  Environment controls, backends.load() and
`python -m mindtorch.backends`."""
import pytest

from plugintools import run, run_json, status, write_dist

HOOKS = "from mindtorch.plugins import PLUGIN_API_VERSION, hookimpl\n"
API = "@hookimpl\ndef mindtorch_plugin_api_version():\n    return PLUGIN_API_VERSION\n"
_NOOP = "lambda *a: 0"
_DEVICE = f"allocate={_NOOP}, from_host={_NOOP}, to_host={_NOOP}"

# plugin name -> (distribution, version, module source); each installed as `mt_<name>`
BROKEN = {
    "broken": ("mindtorch-broken", "2.3.4",
               "raise ImportError('libbroken.so: cannot open shared object file')\n"),
    "oldapi": ("mindtorch-oldapi", "0.0.1", HOOKS + f"""
CALLED = []
@hookimpl
def mindtorch_plugin_api_version():
    return 99
@hookimpl
def mindtorch_register_devices(registry):
    CALLED.append('devices')
    registry.register_device('oldapi', {_DEVICE})
"""),
    "noapi": ("mindtorch-noapi", "1.0", HOOKS + f"""
@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('noapi', {_DEVICE})
"""),
    # registers a device, an op and kernels (one overriding cpu's neg), then raises
    "halfway": ("mindtorch-halfway", "0.5", HOOKS + API + f"""
@hookimpl
def mindtorch_define_ops(registry):
    registry.define('halfway::op(Tensor self) -> Tensor')
@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('halfway', {_DEVICE})
@hookimpl
def mindtorch_register_kernels(registry):
    registry.impl('add', 'halfway', lambda *a: None)
    registry.impl('neg', 'cpu', lambda *a: 'hijacked')
    raise RuntimeError('kernel table is corrupt')
"""),
    # fails while committing: its first op is defined, its second one is invalid
    "rollback": ("mindtorch-rollback", "0.1", HOOKS + API + f"""
@hookimpl
def mindtorch_define_ops(registry):
    registry.define('rb::ok(Tensor self) -> Tensor')
    registry.define('rb::bad(Tensor self, Wibble w) -> Tensor')
@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('rollback', {_DEVICE})
"""),
    # sorts before "cpu" but must not take the cpu device from mindtorch-cpu
    "acpu": ("mindtorch-acpu", "0.1", HOOKS + API + f"""
@hookimpl
def mindtorch_register_devices(registry):
    registry.register_device('cpu', {_DEVICE})
"""),
    "typo": ("mindtorch-typo", "0.1", HOOKS + API + f"""
@hookimpl
def mindtorch_register_device(registry):
    registry.register_device('typo', {_DEVICE})
"""),
    "badargs": ("mindtorch-badargs", "0.1", HOOKS + API + """
@hookimpl
def mindtorch_register_kernels(reg):
    pass
"""),
    "globalop": ("mindtorch-globalop", "0.1", HOOKS + API + """
@hookimpl
def mindtorch_define_ops(registry):
    registry.define('frobnicate(Tensor self) -> Tensor')
"""),
}

EXPECTED_REASON = {
    "broken": "import failed: ImportError: libbroken.so: cannot open shared object file",
    "oldapi": "unsupported plugin API version 99",
    "noapi": "does not implement mindtorch_plugin_api_version",
    "halfway": "RuntimeError: kernel table is corrupt",
    "rollback": "unknown argument type 'Wibble'",
    "acpu": "device type 'cpu' is already registered by plugin 'cpu'",
    "typo": "unknown hook(s) mindtorch_register_device",
    "badargs": "registration failed",
    "globalop": "need a namespace",
}


@pytest.fixture(scope="module")
def broken_path(tmp_path_factory):
    root = tmp_path_factory.mktemp("broken_site")
    for name, (dist, version, source) in BROKEN.items():
        write_dist(root / name, dist, version, {name: f"mt_{name}"},
                   {f"mt_{name}/__init__.py": source})
    return root


def _paths(root):
    return [root / name for name in BROKEN]


@pytest.fixture(scope="module")
def broken(broken_path, toy_path):
    return run_json("""
    import sys
    from mindtorch.plugins._registry import DEVICES, KERNELS
    from mindtorch._ops import OPS
    out['backends'] = mindtorch.backends.list()
    out['devices'] = sorted(DEVICES)
    out['ops'] = sorted(n for n in OPS if '::' in n)
    out['kernel_devices'] = {op: sorted(KERNELS[op]) for op in ('add', 'neg')}
    out['oldapi_called'] = sys.modules['mt_oldapi'].CALLED
    out['cpu_works'] = (-(mindtorch.tensor([1., 2.]) + 1)).tolist()
    out['toy_works'] = (mindtorch.tensor([1., 2.]).to('toy') * 2).cpu().tolist()
    for name in ('halfway', 'rollback', 'oldapi'):
        try:
            mindtorch.device(name)
        except RuntimeError as e:
            out['device_' + name] = str(e)
    try:
        mindtorch.ops.rb
    except AttributeError:
        out['no_rb_namespace'] = True
    out['no_frobnicate'] = not hasattr(mindtorch, 'frobnicate')
    """, _paths(broken_path) + [toy_path])


def test_import_survives_and_good_plugins_load(broken):
    assert broken["cpu_works"] == [-2.0, -3.0]
    assert broken["toy_works"] == [2.0, 4.0]
    for name in ("cpu", "meta", "toy"):
        assert status(broken, name)["status"] == "loaded"
    assert broken["devices"] == ["cpu", "meta", "toy"]
    assert broken["ops"] == ["toy::scale"]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_failed_plugin_status(broken, name):
    dist, version, _ = BROKEN[name]
    s = status(broken, name)
    assert s["status"] == "failed"
    assert (s["distribution"], s["version"]) == (dist, version)
    assert EXPECTED_REASON[name] in s["reason"]
    assert s["devices"] == [] and s["kernels"] == 0


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_one_warning_per_failed_plugin(broken, name):
    dist, version, _ = BROKEN[name]
    mine = [w for w in broken["import_warnings"] if f"plugin '{name}'" in w]
    assert len(mine) == 1, broken["import_warnings"]
    assert mine[0].startswith("RuntimeWarning: ")
    assert f"{dist} {version}" in mine[0]
    assert EXPECTED_REASON[name] in mine[0]


def test_only_failed_plugins_warn(broken):
    assert len(broken["import_warnings"]) == len(BROKEN)


def test_warnings_point_at_the_users_import(broken):
    assert set(broken["import_warning_files"]) == {"<string>"}  # the child's `-c` code


def test_reasons_are_one_line(broken):
    assert all("\n" not in b["reason"] for b in broken["backends"])


def test_unsupported_api_version_skips_registration(broken):
    assert broken["oldapi_called"] == []
    assert "this mindtorch supports [1]" in status(broken, "oldapi")["reason"]


def test_failure_half_way_registers_nothing(broken):
    assert broken["kernel_devices"] == {"add": ["cpu", "meta", "toy"],
                                        "neg": ["cpu", "meta", "toy"]}
    assert broken["cpu_works"] == [-2.0, -3.0]      # cpu's neg was not replaced
    assert "halfway" in broken["device_halfway"]
    assert "rollback" in broken["device_rollback"]  # committed nothing: no device
    assert broken["no_rb_namespace"] is True         # and rb::ok was taken back
    assert broken["no_frobnicate"] is True


# -- environment controls --------------------------------------------------------------

ENV_CASES = {
    "disable": ({"MINDTORCH_DISABLE_BACKENDS": "meta, toy"},
                {"toy": "disabled by MINDTORCH_DISABLE_BACKENDS",
                 "meta": "disabled by MINDTORCH_DISABLE_BACKENDS"}),
    "allowlist": ({"MINDTORCH_BACKENDS": "cpu,meta"}, {"toy": "not in MINDTORCH_BACKENDS"}),
    "allowlist_toy": ({"MINDTORCH_BACKENDS": "toy,cpu"}, {"meta": "not in MINDTORCH_BACKENDS"}),
    # mindtorch's own backends still load, as PyTorch's CPU does
    "autoload": ({"MINDTORCH_BACKEND_AUTOLOAD": "0"},
                 {"toy": "autoload disabled (MINDTORCH_BACKEND_AUTOLOAD=0)"}),
}


@pytest.mark.parametrize("case", sorted(ENV_CASES))
def test_environment_disables(toy_path, case):
    env, disabled = ENV_CASES[case]
    out = run_json("""
    out['backends'] = mindtorch.backends.list()
    out['has_toy_module'] = hasattr(mindtorch, 'toy')
    try:
        mindtorch.ones(1, device='toy')
        out['toy_usable'] = True
    except RuntimeError as e:
        out['toy_usable'] = str(e)
    """, [toy_path], env=env)
    assert out["import_warnings"] == []
    for name in ("cpu", "meta", "toy"):
        s = status(out, name)
        if name in disabled:
            assert (s["status"], s["reason"]) == ("disabled", disabled[name])
            assert s["devices"] == [] and s["kernels"] == 0
        else:
            assert (s["status"], s["reason"]) == ("loaded", "")
    assert status(out, "toy")["distribution"] == "mindtorch-toy"
    toy_on = "toy" not in disabled
    assert out["has_toy_module"] is toy_on
    assert out["toy_usable"] is True if toy_on else "toy" in out["toy_usable"]


def test_load_disabled_plugin_explicitly(toy_path, broken_path):
    out = run_json("""
    out['before'] = [b['status'] for b in mindtorch.backends.list() if b['name'] == 'toy']
    out['loaded'] = mindtorch.backends.load('toy')
    out['again'] = mindtorch.backends.load('toy')['status']
    out['computes'] = (mindtorch.ones(2, device='toy') * 3).cpu().tolist()
    out['scale'] = mindtorch.ops.toy.scale(mindtorch.ones(1).to('toy'), 2.0).cpu().tolist()
    for name in ('broken', 'nonesuch'):
        try:
            mindtorch.backends.load(name)
        except Exception as e:
            out[name] = f"{type(e).__name__}: {e}"
    """, [toy_path, broken_path / "broken"], env={"MINDTORCH_BACKEND_AUTOLOAD": "0"})
    assert out["before"] == ["disabled"]
    assert out["loaded"]["status"] == "loaded" and out["loaded"]["devices"] == ["toy"]
    assert out["again"] == "loaded"
    assert out["computes"] == [3.0, 3.0]
    assert out["scale"] == [2.0]
    assert out["broken"].startswith("RuntimeError: mindtorch: could not load backend plugin "
                                    "'broken' (distribution mindtorch-broken 2.3.4): import")
    assert out["nonesuch"].startswith("ValueError: no installed backend plugin is named")
    assert out["import_warnings"] == []


# -- python -m mindtorch.backends --------------------------------------------------------

def _table(stdout):
    lines = stdout.strip().splitlines()
    header = lines[0].split()
    assert header == ["name", "distribution", "version", "devices", "kernels", "status",
                      "reason"]
    assert set(lines[1].replace(" ", "")) == {"-"}
    return {line.split()[0]: line for line in lines[2:]}


def test_cli_table_lists_cpu_and_meta(tmp_path):
    p = run(None, args=["-m", "mindtorch.backends"], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rows = _table(p.stdout)
    assert set(rows) == {"cpu", "meta"}
    for name in ("cpu", "meta"):
        cells = rows[name].split()
        assert cells[:4] == [name, f"mindtorch-{name}", cells[2], name]
        assert int(cells[4]) > 0 and cells[5] == "loaded"


def test_cli_table_shows_failures(broken_path, toy_path):
    p = run(None, [toy_path, broken_path / "broken", broken_path / "oldapi"],
            args=["-m", "mindtorch.backends"])
    assert p.returncode == 0, p.stderr
    rows = _table(p.stdout)
    assert rows["toy"].split()[:6] == ["toy", "mindtorch-toy", "0.1.0", "toy", "6", "loaded"]
    assert rows["broken"].split()[:5] == ["broken", "mindtorch-broken", "2.3.4", "0", "failed"]
    assert rows["broken"].endswith("import failed: ImportError: libbroken.so: cannot open "
                                   "shared object file")
    assert "unsupported plugin API version 99" in rows["oldapi"]
    assert "skipped backend plugin 'broken'" in p.stderr  # the warning, on stderr
