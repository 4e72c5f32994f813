"""Entry point discovery (read without importlib.metadata) agrees with importlib.metadata."""
import importlib.metadata

import pytest

from mindtorch.plugins._discovery import _group_entries, entry_points


@pytest.mark.parametrize("group", ["mindtorch.backends", "console_scripts", "pytest11"])
def test_same_entry_points_as_importlib_metadata(group):
    ours = {(e.name, e.value, e.distribution, e.version) for e in entry_points(group)}
    theirs = {(e.name, e.value, e.dist.metadata["Name"], e.dist.version)
              for e in importlib.metadata.entry_points(group=group)}
    assert ours == theirs


def test_first_party_backends_found_with_versions():
    found = {e.name: e for e in entry_points("mindtorch.backends")}
    assert found["cpu"].distribution == "mindtorch-cpu" and found["cpu"].version
    assert found["cpu"].load().__name__ == "mindtorch_cpu.plugin"


def test_entry_points_txt_parsing():
    text = "# comment\n[other]\nx = a:b\n\n[mindtorch.backends]\n toy = toy_pkg.plugin:obj \n"
    assert _group_entries(text, "mindtorch.backends") == [("toy", "toy_pkg.plugin:obj")]
    assert _group_entries(text, "missing") == []
