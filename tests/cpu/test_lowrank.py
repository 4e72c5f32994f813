"""torch.svd_lowrank / torch.pca_lowrank against PyTorch.  The factors depend on a random
test matrix, and singular vectors' signs are free, so the checks are what neither changes
for a matrix of rank <= q: the singular values, the reconstruction, |U| and |V| column by
column against torch's, shapes and dtypes, and the argument errors."""
import mindtorch
import numpy as np
import pytest
from reference import torch

RNG = np.random.default_rng(0)
LOW = RNG.standard_normal((8, 3)) @ RNG.standard_normal((3, 5))  # rank 3


def run(lib, fn, a, *args, **kwargs):
    lib.manual_seed(0)
    return getattr(lib, fn)(lib.tensor(a) if lib is mindtorch else torch.from_numpy(a),
                            *args, **kwargs)


def close(got, want, atol=1e-8):
    np.testing.assert_allclose(got.numpy(), want.numpy(), atol=atol, rtol=atol)


@pytest.mark.parametrize("a", [LOW, LOW.T.copy(), np.stack([LOW, 2 * LOW]),
                               LOW.astype(np.complex128) * (1 + 1j)], ids=str)
@pytest.mark.parametrize("q, niter", [(None, 2), (3, 2), (4, 0), (5, 3)])
def test_svd_lowrank(a, q, niter):
    got = run(mindtorch, "svd_lowrank", a, q, niter)
    want = run(torch, "svd_lowrank", a, q, niter)
    assert type(got) is tuple and len(got) == 3
    for g, w in zip(got, want):
        assert (tuple(g.shape), str(g.dtype)) == (tuple(w.shape), str(w.dtype))
    U, S, V = got
    close(S[..., :3], want[1][..., :3])  # the rank's singular values
    close(U @ mindtorch.diag_embed(S).to(U.dtype) @ V.mH, mindtorch.tensor(a))
    close(U[..., :3].abs(), mindtorch.tensor(want[0][..., :3].abs().numpy()))
    close(V[..., :3].abs(), mindtorch.tensor(want[2][..., :3].abs().numpy()))


def test_svd_lowrank_with_mean():
    mean = LOW.mean(0, keepdims=True)
    got = run(mindtorch, "svd_lowrank", LOW, 4, M=mindtorch.tensor(mean))
    want = run(torch, "svd_lowrank", LOW, 4, M=torch.from_numpy(mean))
    close(got[1][:2], want[1][:2])
    close(got[0] @ mindtorch.diag(got[1]) @ got[2].mT, mindtorch.tensor(LOW - mean))


@pytest.mark.parametrize("kwargs", [{}, {"q": 3}, {"q": 2, "center": False},
                                    {"q": 4, "niter": 0}])
def test_pca_lowrank(kwargs):
    got = run(mindtorch, "pca_lowrank", LOW, **kwargs)
    want = run(torch, "pca_lowrank", LOW, **kwargs)
    for g, w in zip(got, want):
        assert tuple(g.shape) == tuple(w.shape)
    if kwargs.get("q", 3) >= 3:  # (below the rank the factors depend on the random draw)
        close(got[1][:3], want[1][:3])
        close(got[2][:, :3].abs(), mindtorch.tensor(want[2][:, :3].abs().numpy()))


def test_errors():
    for kwargs in ({"q": 9}, {"q": -1}, {"niter": -1}):
        for lib in (torch, mindtorch):
            with pytest.raises(ValueError) as e:
                run(lib, "pca_lowrank", LOW, **kwargs)
            if lib is torch:
                message = str(e.value)
        assert str(e.value) == message
    with pytest.raises(RuntimeError):  # an integer matrix times the float test matrix
        run(mindtorch, "svd_lowrank", np.ones((4, 3), np.int64), 2)
