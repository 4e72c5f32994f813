"""pytest plugin of the conformance kit (registered through the `pytest11` entry point).

    pytest --pyargs mindtorch.testing.conformance --mindtorch-device=<name>

runs the device-generic checks of every op in the op database on <name> and ends with a
table of pass / skip / fail per op and check.  Options:
  --mindtorch-device=NAME      the device under test (default cpu)
  --mindtorch-reference=KIND   torch (default) or numpy (the few NumPy references)
  --mindtorch-ops=A,B          only these ops (names in the registry)
  --mindtorch-table=all|problems|none   rows of the final table (default all)
"""
import pytest

# Imported at every pytest start (pytest11): the op database loads only when the kit's
# tests are collected.

_MODULE = "mindtorch.testing.conformance"
# short cell texts for the table: a skip reason starting with the key shows as the value
_CELLS = [("no kernel", "no kernel"), ("no reference", "no ref"), ("no samples", "no samples"),
          ("not differentiable", "nondiff"), ("no tensor inputs", "n/a"),
          ("random outputs", "random"), ("the device has no float64", "no f64"),
          ("data-dependent", "dyn shape"), ("known:", "known"), ("the meta backend", "no meta"),
          ("no floating inputs", "int only"), ("no differentiable output", "int only"),
          ("PyTorch's backward raises", "as torch"), ("results not tensors", "n/a"),
          ("PyTorch has no out=", "-")]


def pytest_addoption(parser):
    group = parser.getgroup("mindtorch", "mindtorch conformance kit")
    group.addoption("--mindtorch-device", default="cpu", metavar="NAME",
                    help="device the mindtorch conformance kit tests (default: cpu)")
    group.addoption("--mindtorch-reference", default="torch", choices=("torch", "numpy"),
                    help="forward reference of the conformance kit (default: torch)")
    group.addoption("--mindtorch-ops", default=None, metavar="A,B",
                    help="run the conformance kit for these ops only")
    group.addoption("--mindtorch-table", default="all", choices=("all", "problems", "none"),
                    help="rows of the conformance table printed at the end (default: all)")


def pytest_configure(config):
    config._mindtorch_results = {}  # (op, check) -> (outcome, reason)


def pytest_collection_modifyitems(session, config, items):
    kit = [item for item in items if _is_kit(item)]
    if not kit:
        return
    only = config.getoption("mindtorch_ops")
    if only:
        wanted = set(only.split(","))
        dropped = [item for item in kit if item.callspec.params["op"] not in wanted]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            dropped = set(map(id, dropped))
            items[:] = [item for item in items if id(item) not in dropped]
    for item in items:
        if _is_kit(item):  # read back from the reports for the table
            item.user_properties += [("mindtorch_op", item.callspec.params["op"]),
                                     ("mindtorch_check", item.originalname[len("test_"):])]
    import mindtorch
    from mindtorch.plugins._registry import DEVICES
    device = config.getoption("mindtorch_device")
    try:
        dtype = mindtorch.device(device).type
    except Exception:
        dtype = None
    if dtype not in DEVICES:
        raise pytest.UsageError(f"--mindtorch-device={device}: no installed backend registers "
                                f"this device (devices: {', '.join(sorted(DEVICES))})")


def _is_kit(item):
    return getattr(item, "module", None) is not None and item.module.__name__ == _MODULE


def _key(report):
    props = dict(report.user_properties)
    if "mindtorch_op" in props:
        return props["mindtorch_op"], props["mindtorch_check"]
    return None


def pytest_runtest_logreport(report):
    key = _key(report)
    if key is None:
        return
    results = _results(report)
    if results is None:
        return
    if report.when == "call" or report.outcome != "passed":
        if hasattr(report, "wasxfail"):
            outcome = "xpass" if report.passed else "xfail"
            reason = report.wasxfail
        elif report.skipped:
            outcome, reason = "skip", _skip_reason(report)
        else:
            outcome, reason = report.outcome.replace("failed", "fail").replace(
                "passed", "pass"), ""
        if report.when == "teardown" and key in results:
            return
        results[key] = (outcome, reason)


_CONFIG = []


def pytest_sessionstart(session):
    _CONFIG[:] = [session.config]


def _results(report):
    return _CONFIG[0]._mindtorch_results if _CONFIG else None


def _skip_reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):
        return longrepr[2].removeprefix("Skipped: ")
    return str(longrepr)


def _cell(outcome, reason):
    if outcome != "skip":
        return outcome
    for prefix, text in _CELLS:
        if reason.startswith(prefix):
            return text
    return "skip"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    results = config._mindtorch_results
    if not results:
        return
    from .opdb import CHECKS
    write = terminalreporter.write_line
    device = config.getoption("mindtorch_device")
    table = config.getoption("mindtorch_table")
    ops = sorted({op for op, _ in results})
    width = max(len(op) for op in ops) + 2
    col = 11
    terminalreporter.section(f"mindtorch conformance on '{device}'")
    if table != "none":
        write("op".ljust(width) + "".join(c.ljust(col) for c in CHECKS))
        for op in ops:
            cells = [_cell(*results[(op, c)]) if (op, c) in results else "-" for c in CHECKS]
            if table == "problems" and not any(c in ("fail", "xpass") for c in cells):
                continue
            write(op.ljust(width) + "".join(c.ljust(col) for c in cells).rstrip())
    counts = {}
    for outcome, _ in results.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    reasons = {}
    for outcome, reason in results.values():
        if outcome == "skip":
            cell = _cell(outcome, reason)
            reasons[cell] = reasons.get(cell, 0) + 1
    ops_passing = sum(1 for op in ops if any(results.get((op, c), ("",))[0] == "pass"
                                             for c in CHECKS))
    if table != "none":
        write("skips: no kernel = the device lacks a kernel the op needs; no ref = no "
              "reference to compare with; nondiff = not differentiable; int only = no "
              "floating input or output; as torch = PyTorch raises too; dyn shape = "
              "data-dependent shape; - = the op has no in-place / out= variant "
              "(reasons: pytest -rs)")
    write(f"ops: {len(ops)} ({ops_passing} with a passing check); checks: "
          + ", ".join(f"{counts.get(k, 0)} {k}" for k in ("pass", "fail", "skip", "xfail",
                                                           "xpass"))
          + " (skips: " + ", ".join(f"{n} {r}" for r, n in sorted(reasons.items())) + ")")
