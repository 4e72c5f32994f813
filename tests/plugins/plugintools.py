"""Installing real plugin distributions into a directory, and running `import mindtorch`
in a fresh interpreter that sees them (plugins load once, at import)."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: its forerunner, which pytest requires there
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "toy_backend"

# Child preamble: import mindtorch recording every warning it raises.
_PRELUDE = """\
import json, warnings
with warnings.catch_warnings(record=True) as _w:
    warnings.simplefilter("always")
    import mindtorch
WARNINGS = [f"{w.category.__name__}: {w.message}" for w in _w]
WARNING_FILES = [w.filename for w in _w]
out = {}
"""


def write_dist(root, name, version, entry_points, files, group="mindtorch.backends"):
    """Lay out distribution `name` in `root` as an installer would: its files and a
    <name>-<version>.dist-info with METADATA and entry_points.txt, so that
    importlib.metadata discovers it when `root` is on sys.path."""
    root = Path(root)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    eps = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{group}]\n{eps}")
    (info / "RECORD").write_text("".join(f"{rel},,\n" for rel in files))
    return root


def install_example(root):
    """Path-install examples/toy_backend: its package, and dist-info made from its own
    pyproject.toml (so the entry point under test is the one the example ships)."""
    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    src = EXAMPLE / "src"
    files = {str(p.relative_to(src)): p.read_text()
             for p in src.rglob("*.py") if "__pycache__" not in p.parts}
    return write_dist(root, meta["name"], meta["version"],
                      meta["entry-points"]["mindtorch.backends"], files)


def child_env(paths, env=None):
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("MINDTORCH_") and k != "PYTHONPATH"}
    base["PYTHONPATH"] = os.pathsep.join(str(p) for p in paths)
    base.update(env or {})
    return base


def run(code, paths=(), env=None, args=None, cwd=None):
    """Run `code` (after importing mindtorch) or `args` in a fresh interpreter."""
    argv = [sys.executable] + (args if args is not None else ["-c", _PRELUDE +
                                                             textwrap.dedent(code)])
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          env=child_env(paths, env), cwd=cwd or (paths[0] if paths else None))


def run_json(code, paths=(), env=None):
    """Run `code`, which fills the dict `out`; return `out` (WARNINGS from the import are
    added as out["import_warnings"], where they point as out["import_warning_files"])."""
    code = textwrap.dedent(code) + ("\nout['import_warnings'] = WARNINGS"
                                    "\nout['import_warning_files'] = WARNING_FILES"
                                    "\nprint(json.dumps(out))\n")
    p = run(code, paths, env)
    assert p.returncode == 0, f"child failed:\n{p.stdout}\n{p.stderr}"
    return json.loads(p.stdout.strip().splitlines()[-1])


def status(out, name):
    """The backends.list() entry of plugin `name` (the child stores it in out["backends"])."""
    return {b["name"]: b for b in out["backends"]}.get(name)
