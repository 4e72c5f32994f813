"""A third-party device runs the conformance kit: the `toy` backend (examples/toy_backend,
installed as a real distribution) under `pytest --pyargs mindtorch.testing.conformance
--mindtorch-device=toy`, in a fresh interpreter.  Its few kernels (add, mul, neg, copy_,
fill_) and the ops that decompose into them pass; everything else is a "no kernel" skip;
the kit also reports the one place toy diverges from PyTorch."""
import importlib.metadata

import pytest

from plugintools import run

# toy kernels, decompositions into them, ops toy lacks, a toy-defined op without samples
OPS = ["add", "mul", "sub", "lerp", "add_", "copy_", "fill_", "neg", "sin", "exp", "sum",
       "matmul", "where", "toy::scale"]
CHECKS = ["forward", "backward", "meta", "inplace", "out"]


def _table(stdout):
    """{op: {check: cell}} from the kit's terminal table."""
    lines = stdout.splitlines()
    start = next(i for i, ln in enumerate(lines) if "mindtorch conformance on 'toy'" in ln)
    header = lines[start + 1]
    cols = [header.index(c) for c in CHECKS] + [None]
    rows = {}
    for ln in lines[start + 2:]:
        if ln.startswith(("skips: ", "ops: ")):  # the legend, then the totals
            break
        rows[ln[:cols[0]].strip()] = {c: ln[a:b].strip() or "-"
                                     for c, a, b in zip(CHECKS, cols, cols[1:])}
    return rows, next(ln for ln in lines[start:] if ln.startswith("ops: "))


@pytest.fixture(scope="module")
def kit(toy_path):
    pytest.importorskip("torch")  # (the kit's reference)
    p = run(None, [toy_path], args=["-m", "pytest", "--pyargs", "mindtorch.testing.conformance",
                                    "--mindtorch-device=toy", "--mindtorch-ops=" + ",".join(OPS),
                                    "-p", "no:cacheprovider", "-q"])
    return p


def test_pytest_plugin_is_registered():
    eps = {ep.name: ep.value for ep in importlib.metadata.entry_points(group="pytest11")}
    assert eps.get("mindtorch") == "mindtorch.testing.pytest_plugin"


def test_toy_kernels_pass_and_the_rest_are_no_kernel_skips(kit):
    rows, totals = _table(kit.stdout)
    assert sorted(rows) == sorted(OPS), kit.stdout[-3000:]
    for op in ("add", "mul", "sub", "lerp"):
        # backward: gradcheck needs ops toy lacks (div, sum), so it is a skip, not a pass
        assert rows[op] == {"forward": "pass", "backward": "no kernel", "meta": "pass",
                            "inplace": "pass", "out": "pass"}, (op, rows[op])
    for op in ("add_", "copy_", "fill_"):
        assert rows[op]["forward"] == "pass" and rows[op]["meta"] == "pass", (op, rows[op])
    for op in ("sin", "exp", "sum", "matmul", "where"):
        assert set(rows[op].values()) <= {"no kernel", "-"}, (op, rows[op])
    assert rows["toy::scale"] == {"forward": "no samples", "backward": "no samples",
                                  "meta": "no samples", "inplace": "-", "out": "-"}
    assert "no kernel" in totals and " fail" in totals


def test_the_kit_reports_a_divergence_of_the_device(kit):
    # toy's neg kernel lets NumPy refuse a bool tensor (TypeError); PyTorch raises
    # RuntimeError: the kit fails that check, names the sample, and the run fails
    rows, _ = _table(kit.stdout)
    assert rows["neg"]["forward"] == "fail" and rows["neg"]["meta"] == "pass"
    assert kit.returncode == 1
    assert "neg [forward] on 'toy'" in kit.stdout
    assert "Tensor([2, 3], bool): raised TypeError" in kit.stdout
    assert "1 failed" in kit.stdout


def test_unknown_device_is_a_usage_error(toy_path):
    p = run(None, [toy_path], args=["-m", "pytest", "--pyargs", "mindtorch.testing.conformance",
                                    "--mindtorch-device=nosuch", "-p", "no:cacheprovider", "-q",
                                    "--mindtorch-ops=add"])
    assert p.returncode == 4, p.stdout + p.stderr
    assert "--mindtorch-device=nosuch" in p.stderr and "toy" in p.stderr
