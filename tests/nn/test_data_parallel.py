"""nn.DataParallel / nn.parallel against torch on a machine without accelerators:
DataParallel calls its module (state_dict keys prefixed `module.`), DistributedDataParallel
needs a process group, the per-device helpers refuse."""
import mindtorch
import numpy as np
import pytest
from layers_helpers import check_module, close, copy_params, inputs
from reference import same_error

torch = pytest.importorskip("torch")


def _pair():
    th = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    mt = mindtorch.nn.Sequential(mindtorch.nn.Linear(4, 8), mindtorch.nn.ReLU(),
                                 mindtorch.nn.Linear(8, 2))
    th, mt = th.double(), mt.double()
    copy_params(th, mt)
    return th, mt


@pytest.mark.parametrize("kwargs", [{}, {"device_ids": [0, 1], "output_device": 0, "dim": 1}])
def test_data_parallel_calls_module(kwargs):
    th, mt = _pair()
    tdp, mdp = torch.nn.DataParallel(th, **kwargs), mindtorch.nn.DataParallel(mt, **kwargs)
    assert mdp.module is mt and mdp.device_ids == tdp.device_ids == []
    assert hasattr(mdp, "dim") == hasattr(tdp, "dim")
    assert repr(mdp) == repr(tdp).replace("torch.", "mindtorch.")
    assert list(mdp.state_dict()) == list(tdp.state_dict())
    assert [n for n, _ in mdp.named_parameters()] == [n for n, _ in tdp.named_parameters()]
    assert [n for n, _ in mdp.named_modules()] == [n for n, _ in tdp.named_modules()]
    check_module(tdp, mdp, *inputs((3, 4), noncontiguous=True))
    check_module(tdp, mdp, *inputs((0, 4)))


def test_data_parallel_kwargs_training_and_state_dict():
    th, mt = _pair()
    tdp, mdp = torch.nn.DataParallel(th), mindtorch.nn.DataParallel(mt)
    x = np.random.default_rng(0).standard_normal((5, 4))
    topt = torch.optim.SGD(tdp.parameters(), lr=0.1)
    mopt = mindtorch.optim.SGD(mdp.parameters(), lr=0.1)
    for _ in range(3):
        tl = tdp(input=torch.from_numpy(x)).square().mean()
        ml = mdp(input=mindtorch.tensor(x)).square().mean()
        close(ml, tl, "float64")
        topt.zero_grad()
        mopt.zero_grad()
        tl.backward()
        ml.backward()
        topt.step()
        mopt.step()
    for (mn, mp), (tn, tp) in zip(mdp.named_parameters(), tdp.named_parameters()):
        assert mn == tn
        close(mp, tp, "float64")
    # a DataParallel checkpoint loads into another wrapper, its .module into the bare model
    other = mindtorch.nn.DataParallel(_pair()[1])
    other.load_state_dict(mdp.state_dict())
    bare = _pair()[1]
    bare.load_state_dict(mdp.module.state_dict())
    with pytest.raises(RuntimeError, match="Missing key"):
        bare.load_state_dict(mdp.state_dict())
    mdp.eval()
    assert not mt.training and not mt[0].training


def test_data_parallel_on_meta():
    with mindtorch.device("meta"):
        dp = mindtorch.nn.DataParallel(mindtorch.nn.Linear(3, 2))
        out = dp(mindtorch.ones(4, 3))
    assert out.device.type == "meta" and out.shape == (4, 2)


def test_distributed_data_parallel_needs_a_process_group():
    same_error(lambda: mindtorch.nn.parallel.DistributedDataParallel(mindtorch.nn.Linear(2, 2)),
               lambda: torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2)))
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        mindtorch.nn.parallel.DistributedDataParallel(mindtorch.nn.Linear(2, 2),
                                                      find_unused_parameters=True)
    assert issubclass(mindtorch.nn.parallel.DistributedDataParallel, mindtorch.nn.Module)


def test_parallel_namespace_and_helpers():
    assert mindtorch.nn.parallel.__all__ == torch.nn.parallel.__all__
    assert mindtorch.nn.DataParallel is mindtorch.nn.parallel.DataParallel
    assert issubclass(mindtorch.nn.DataParallel, mindtorch.nn.Module)
    m, t = mindtorch.nn.Linear(1, 1), torch.nn.Linear(1, 1)
    P, Q = mindtorch.nn.parallel, torch.nn.parallel
    assert P.replicate(m, []) == Q.replicate(t, []) == []
    same_error(lambda: P.replicate(m, [0]), lambda: Q.replicate(t, [0]))
    same_error(lambda: P.gather([mindtorch.ones(2)], "cpu"),
               lambda: Q.gather([torch.ones(2)], "cpu"))
    same_error(lambda: P.parallel_apply([m], [mindtorch.ones(1, 1)]),
               lambda: Q.parallel_apply([t], [torch.ones(1, 1)]))
    same_error(lambda: P.data_parallel(m, mindtorch.ones(1, 1)),
               lambda: Q.data_parallel(t, torch.ones(1, 1)))
    with pytest.raises(RuntimeError):
        P.scatter(mindtorch.ones(2), [0])


def test_consume_prefix_of_a_data_parallel_checkpoint():
    """A DataParallel state_dict loads into the bare module once its `module.` prefix is
    consumed (keys and _metadata, whose "module" entry becomes the root's)."""
    def run(lib):
        m = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        sd = lib.nn.DataParallel(m).state_dict()
        sd["other.x"] = lib.ones(1)
        lib.nn.modules.utils.consume_prefix_in_state_dict_if_present(sd, "module.")
        keys, meta = list(sd), sorted(sd._metadata)
        del sd["other.x"]
        return keys, meta, str(m.load_state_dict(sd))
    assert run(mindtorch) == run(torch)
