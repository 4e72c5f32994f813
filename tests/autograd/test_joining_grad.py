"""Gradients of the joining and repetition ops (cat and its aliases, stacks, repeat, tile,
repeat_interleave, block_diag, cartesian_prod, combinations), against PyTorch's."""
import numpy as np
import pytest
import torch

import mindtorch
from gradutil import check_gradgrad, check_grads, const, nc, randn


def cat_mixed(m, a, b):
    return m.cat([a, b.to(m.float32)], 1)


CASES = {
    "cat": (lambda m, a, b: m.cat([a, b]), randn(2, 3), randn(1, 3)),
    "cat_dim_neg": (lambda m, a, b, c: m.cat((a, b, c), -1), randn(2, 3), nc(randn(2, 2)),
                    randn(2, 1)),
    "cat_legacy_empty": (lambda m, a, b, c: m.cat([a, b, c], 1), randn(0), randn(2, 3),
                         randn(2, 1)),
    "cat_empty_piece": (lambda m, a, b: m.cat([a, b], 0), randn(0, 3), randn(2, 3)),
    "cat_one": (lambda m, a: m.cat([a], 0), randn(3)),
    "cat_same_tensor": (lambda m, a: m.cat([a, a * 2, a], 0), randn(2)),
    # (finite differences through a float32 piece are too coarse for gradcheck)
    "cat_mixed_dtypes": (cat_mixed, randn(2, 2), randn(2, 1), {"gradcheck": False}),
    "cat_const_piece": (lambda m, a, b: m.cat([a, b], 0), randn(2), const(np.ones(3))),
    "cat_float32": (lambda m, a, b: m.cat([a, b], 1), randn(2, 1), nc(randn(2, 2)),
                    {"dtype": "float32"}),
    "concat": (lambda m, a, b: m.concat([a, b], 1), randn(2, 1), randn(2, 2)),
    "concatenate": (lambda m, a, b: m.concatenate([a, b], axis=0), randn(1, 2), randn(2, 2)),
    "stack": (lambda m, a, b: m.stack([a, b]), randn(2, 3), nc(randn(2, 3))),
    "stack_last": (lambda m, a, b, c: m.stack([a, b, c], -1), randn(2), randn(2), randn(2)),
    "stack_0dim": (lambda m, a, b: m.stack([a, b]), randn(), randn()),
    "stack_empty": (lambda m, a, b: m.stack([a, b], 1), randn(0, 2), randn(0, 2)),
    "hstack": (lambda m, a, b: m.hstack([a, b]), randn(2, 1), randn(2, 2)),
    "hstack_1d": (lambda m, a, b: m.hstack([a, b]), randn(2), randn()),
    "vstack": (lambda m, a, b: m.vstack([a, b]), randn(3), nc(randn(2, 3))),
    "row_stack": (lambda m, a, b: m.row_stack([a, b]), randn(3), randn(1, 3)),
    "dstack": (lambda m, a, b: m.dstack([a, b]), randn(2, 2), randn(2, 2, 1)),
    "column_stack": (lambda m, a, b, c: m.column_stack([a, b, c]), randn(2), randn(2, 2),
                     randn(2)),
    "repeat": (lambda m, a: a.repeat(2, 1, 3), nc(randn(2, 3))),
    "repeat_ones": (lambda m, a: a.repeat(1, 1), randn(2, 3)),
    "repeat_0dim": (lambda m, a: a.repeat(3), randn()),
    "repeat_zero": (lambda m, a: a.repeat(0, 2), randn(2)),
    "tile": (lambda m, a: a.tile(2), randn(2, 3)),
    "tile_more": (lambda m, a: m.tile(a, (2, 1, 2)), randn(2)),
    "repeat_interleave": (lambda m, a: a.repeat_interleave(2), randn(2, 2)),
    "repeat_interleave_dim": (lambda m, a: a.repeat_interleave(3, dim=1), nc(randn(2, 2))),
    "repeat_interleave_tensor": (lambda m, a, r: m.repeat_interleave(a, r, 0), randn(3, 2),
                                 const([1, 0, 2]), {"meta": False}),  # (sizes from data)
    "block_diag": (lambda m, a, b, c: m.block_diag(a, b, c), randn(2, 2), randn(3), randn()),
    "block_diag_nc": (lambda m, a, b: m.block_diag(a, b), nc(randn(1, 2)), randn(2, 1)),
    "cartesian_prod": (lambda m, a, b: m.cartesian_prod(a, b), randn(2), randn(3)),
    "cartesian_prod_one": (lambda m, a: m.cartesian_prod(a), randn(3)),
    "combinations": (lambda m, a: m.combinations(a), randn(3)),
    "combinations_r3": (lambda m, a: m.combinations(a, 3, with_replacement=True), randn(2)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_grads(name):
    fn, *specs = CASES[name]
    options = specs.pop() if isinstance(specs[-1], dict) else {}
    check_grads(fn, *specs, **options)


@pytest.mark.parametrize("name", ["cat_dim_neg", "stack_last", "repeat",
                                  "tile_more", "block_diag"])
def test_gradgrad(name):
    fn, *specs = CASES[name]
    check_gradgrad(fn, *specs)


def _names(fn, *arrays):
    names = []
    for m in (mindtorch, torch):
        xs = [m.tensor(a, dtype=m.float64, requires_grad=True) for a in arrays]
        names.append(type(fn(m, *xs).grad_fn).__name__)
    return names


@pytest.mark.parametrize("fn, arrays", [
    (lambda m, a, b: m.cat([a, b]), (randn(2), randn(1))),
    (lambda m, a, b: m.concat([a, b]), (randn(2), randn(1))),
    (lambda m, a, b: m.hstack([a, b]), (randn(2), randn(1))),
    (lambda m, a, b: m.stack([a, b]), (randn(2), randn(2))),
    (lambda m, a, b: m.cartesian_prod(a, b), (randn(2), randn(2))),
    (lambda m, a: a.repeat(2), (randn(2),)),
    (lambda m, a: a.tile(2), (randn(2),)),
])
def test_node_names(fn, arrays):
    ours, theirs = _names(fn, *arrays)
    assert ours == theirs


def test_cat_input_grads_are_slices_of_the_output_grad():
    a = mindtorch.tensor(randn(2, 2), requires_grad=True)
    b = mindtorch.tensor(randn(2, 1), requires_grad=True)
    go = mindtorch.arange(6.0, dtype=mindtorch.float64).reshape(2, 3)
    ga, gb = mindtorch.autograd.grad(mindtorch.cat([a, b], 1), (a, b), go)
    np.testing.assert_array_equal(ga.numpy(), [[0, 1], [3, 4]])
    np.testing.assert_array_equal(gb.numpy(), [[2], [5]])


def test_cat_keeps_no_inputs():
    # only the inputs' shapes are kept: changing an input afterwards is fine (as in torch)
    for m in (mindtorch, torch):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        a = x * 1
        out = m.cat([a, x * 2])
        a.mul_(3)
        out.sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
