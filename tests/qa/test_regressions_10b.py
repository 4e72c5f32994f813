"""QA round 10b (programs in the style of pytorch.org's tutorials and recipes):
regressions, each compared with PyTorch."""
import warnings

import mindtorch
import pytest
import torch
from reference import same_errors, same_outcome


def _warned_count(lib, fn):
    # a warning under the "default" action is shown once per location; a kernel that
    # entered catch_warnings reset that registry and the warning repeated every call
    x = lib.randn(1, 1, 4, 5, dtype=lib.float64)
    theta = lib.eye(2, 3, dtype=lib.float64).unsqueeze(0)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("default")
        for _ in range(3):
            fn(lib, x, theta)
    return [str(w.message)[:40] for w in seen]


@pytest.mark.parametrize("fn", [
    lambda lib, x, th: lib.nn.functional.affine_grid(th, x.shape),
    lambda lib, x, th: lib.nn.functional.grid_sample(
        x, lib.nn.functional.affine_grid(th, x.shape, align_corners=False)),
    lambda lib, x, th: (lib.linspace(0, 1, 5), lib.nn.functional.affine_grid(th, x.shape)),
])
def test_default_filtered_warning_shown_once(fn):
    assert _warned_count(mindtorch, fn) == _warned_count(torch, fn)
    assert len(_warned_count(mindtorch, fn)) == 1
