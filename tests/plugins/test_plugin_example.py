"""examples/toy_backend installs with pip and runs; docs/plugin-authoring.md shows its
code verbatim."""
import importlib.util
import shutil
import subprocess
import sys

import pytest

from plugintools import EXAMPLE, REPO, run

DEMO_OUTPUT = """\
toy:0 [3.0, 5.0, 7.0]
[0.5, 1.0, 1.5]
2 0
NotImplementedError: Could not run 'sin' on the 'toy' device: no plugin registered a kernel \
for it. Installed backends: cpu (cpu), meta (meta), toy (toy). Set MINDTORCH_CPU_FALLBACK=1 \
to run missing ops on the CPU.
cpu loaded ['cpu']
meta loaded ['meta']
toy loaded ['toy']
"""


@pytest.mark.skipif(not (importlib.util.find_spec("pip") and importlib.util.find_spec("hatchling")),
                    reason="needs pip and hatchling (the example's build backend) installed")
def test_pip_install_example_and_run_demo(tmp_path):
    src = shutil.copytree(EXAMPLE, tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    site = tmp_path / "site"
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-build-isolation", "--no-index", "--target", str(site), str(src)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert (site / "mindtorch_toy" / "__init__.py").exists()
    assert (site / "mindtorch_toy-0.1.0.dist-info" / "entry_points.txt").exists()
    p = run(None, [site], args=[str(EXAMPLE / "demo.py")])
    assert p.returncode == 0, p.stderr
    assert p.stdout == DEMO_OUTPUT
    assert p.stderr == ""


def test_path_installed_example_runs_demo(toy_path):
    p = run(None, [toy_path], args=[str(EXAMPLE / "demo.py")])
    assert p.returncode == 0, p.stderr
    assert p.stdout == DEMO_OUTPUT


@pytest.mark.parametrize("path", ["pyproject.toml", "src/mindtorch_toy/__init__.py"])
def test_docs_show_the_example_verbatim(path):
    doc = (REPO / "docs" / "plugin-authoring.md").read_text(encoding="utf-8")
    assert (EXAMPLE / path).read_text() in doc
