"""Normalisation modules (batchnorm.py, instancenorm.py, normalization.py) against PyTorch:
constructor, repr, state_dict, forward and backward with copied weights, running statistics
over several training steps, eval mode, legacy checkpoints and bad input."""
from collections import OrderedDict

import numpy as np
import pytest

import mindtorch
from mindtorch import nn
from layers_helpers import check_module, close, copy_params, inputs, pair_modules, torch

tnn = torch.nn
DTYPES = ["float64", "float32"]

CONSTRUCTIONS = [
    ("BatchNorm1d", (3,), {}),
    ("BatchNorm2d", (4,), {"momentum": None, "affine": False}),
    ("BatchNorm3d", (2,), {"track_running_stats": False, "eps": 1e-3}),
    ("BatchNorm2d", (3,), {"bias": False}),
    ("SyncBatchNorm", (3,), {}),
    ("InstanceNorm1d", (3,), {}),
    ("InstanceNorm2d", (3,), {"affine": True, "track_running_stats": True}),
    ("InstanceNorm3d", (3,), {"affine": True, "bias": False, "momentum": None}),
    ("LayerNorm", (5,), {}),
    ("LayerNorm", ([2, 3],), {"elementwise_affine": False}),
    ("LayerNorm", ((4,),), {"bias": False, "eps": 1e-6}),
    ("GroupNorm", (2, 4), {}),
    ("GroupNorm", (1, 3), {"affine": False}),
    ("GroupNorm", (3, 6), {"bias": False}),
    ("RMSNorm", (4,), {}),
    ("RMSNorm", ([2, 3],), {"eps": 1e-6, "elementwise_affine": False}),
    ("LocalResponseNorm", (3,), {}),
    ("LocalResponseNorm", (2, 1e-3, 0.5, 2.0), {}),
    ("CrossMapLRN2d", (3,), {}),
    ("CrossMapLRN2d", (4, 1e-2, 0.5, 2), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CONSTRUCTIONS)
def test_repr_state_dict_and_initial_values(name, args, kwargs):
    th, mt = getattr(tnn, name)(*args, **kwargs), getattr(nn, name)(*args, **kwargs)
    assert repr(mt) == repr(th)
    th_state, mt_state = th.state_dict(), mt.state_dict()
    assert list(mt_state) == list(th_state)
    for key, value in th_state.items():
        close(mt_state[key], value, "float64")
    assert [n for n, _ in mt.named_parameters()] == [n for n, _ in th.named_parameters()]
    assert [n for n, _ in mt.named_buffers()] == [n for n, _ in th.named_buffers()]
    for attr in ("weight", "bias", "running_mean", "running_var", "num_batches_tracked"):
        if hasattr(th, attr):
            assert (getattr(mt, attr) is None) == (getattr(th, attr) is None), attr


def test_factory_kwargs():
    bn = nn.BatchNorm2d(3, dtype=mindtorch.float64)
    assert bn.weight.dtype == bn.running_mean.dtype == mindtorch.float64
    assert bn.num_batches_tracked.dtype == mindtorch.int64
    assert isinstance(bn.weight, nn.Parameter) and bn.weight.requires_grad
    ln = nn.LayerNorm([2, 3], dtype=mindtorch.float64)
    assert ln.weight.shape == (2, 3) and ln.bias.dtype == mindtorch.float64
    assert nn.GroupNorm(2, 4, dtype=mindtorch.float64).weight.dtype == mindtorch.float64
    assert nn.RMSNorm(3, dtype=mindtorch.float64).weight.dtype == mindtorch.float64


def _randomize_affine(th, mt, seed=0):
    """Affine parameters away from ones/zeros, so their gradients are not trivial."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in th.parameters():
            p.copy_(torch.rand(p.shape, generator=gen, dtype=p.dtype) + 0.5)
    copy_params(th, mt)


def _same_stats(mt, th, dtype):
    for name in ("running_mean", "running_var", "num_batches_tracked"):
        if getattr(th, name) is None:
            assert getattr(mt, name) is None
        else:
            close(getattr(mt, name), getattr(th, name), dtype)


BATCH_SHAPES = [("BatchNorm1d", (6, 3)), ("BatchNorm1d", (4, 3, 5)),
                ("BatchNorm2d", (4, 3, 2, 5)), ("BatchNorm3d", (2, 3, 2, 2, 3)),
                ("SyncBatchNorm", (4, 3, 5))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("momentum", [0.1, None, 0.3])
@pytest.mark.parametrize("name,shape", BATCH_SHAPES)
def test_batchnorm_training_steps_then_eval(name, shape, momentum, dtype):
    th, mt = pair_modules(getattr(tnn, name), getattr(nn, name), 3, momentum=momentum,
                          dtype=dtype)
    _randomize_affine(th, mt)
    for step in range(3):
        th.zero_grad()
        mt.zero_grad()
        (x,) = inputs(shape, dtype=dtype, seed=step, noncontiguous=step == 1)
        check_module(th, mt, x, dtype=dtype)
        _same_stats(mt, th, dtype)
    assert int(mt.num_batches_tracked) == 3
    th.eval()
    mt.eval()
    (x,) = inputs(shape, dtype=dtype, seed=7)
    check_module(th, mt, x, dtype=dtype)
    _same_stats(mt, th, dtype)  # eval leaves the statistics alone
    assert int(mt.num_batches_tracked) == 3


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape,perm", [((4, 5, 3), (0, 2, 1)), ((2, 3, 4, 5), (0, 3, 1, 2)),
                                        ((2, 3, 4, 5), (0, 1, 3, 2)),
                                        ((2, 3, 2, 4, 5), (0, 4, 1, 2, 3))])
def test_batchnorm_result_layout_on_permuted_input(shape, perm, training):
    # PyTorch's result is dense in the input's suggested format: a permuted (N, L, C) input
    # gives a contiguous result, so permuting back and .view() fails as it does in PyTorch
    x = np.random.default_rng(0).standard_normal(shape)
    th = torch.from_numpy(x).permute(perm)
    mt = mindtorch.tensor(x).permute(perm)
    C = th.shape[1]
    want = torch.nn.functional.batch_norm(th, torch.zeros(C, dtype=th.dtype),
                                          torch.ones(C, dtype=th.dtype), training=training)
    got = mindtorch.nn.functional.batch_norm(mt, mindtorch.zeros(C, dtype=mt.dtype),
                                             mindtorch.ones(C, dtype=mt.dtype), training=training)
    assert got.stride() == want.stride()
    close(got, want, "float64")
    want = torch.nn.functional.group_norm(th, 1)
    got = mindtorch.nn.functional.group_norm(mt, 1)
    assert got.stride() == want.stride()
    close(got, want, "float64")


@pytest.mark.parametrize("kwargs", [{"track_running_stats": False}, {"affine": False},
                                    {"bias": False}, {"affine": False, "momentum": None}])
def test_batchnorm_options_train_and_eval(kwargs):
    th, mt = pair_modules(tnn.BatchNorm2d, nn.BatchNorm2d, 3, **kwargs)
    _randomize_affine(th, mt)
    for mode in (True, False):  # without running stats, eval normalises by the batch too
        th.train(mode)
        mt.train(mode)
        (x,) = inputs((4, 3, 2, 3), seed=int(mode))
        check_module(th, mt, x)
        _same_stats(mt, th, "float64")


def test_batchnorm_eval_only_uses_running_stats():
    th, mt = pair_modules(tnn.BatchNorm1d, nn.BatchNorm1d, 4)
    with torch.no_grad():
        th.running_mean.uniform_(-1, 1)
        th.running_var.uniform_(0.5, 2)
    copy_params(th, mt)
    th.eval()
    mt.eval()
    (x,) = inputs((1, 4, 3))  # a batch of one is fine in eval
    check_module(th, mt, x)


@pytest.mark.parametrize("name,rank", [("BatchNorm1d", 1), ("BatchNorm1d", 4),
                                       ("BatchNorm2d", 3), ("BatchNorm2d", 5),
                                       ("BatchNorm3d", 4), ("SyncBatchNorm", 1),
                                       ("InstanceNorm1d", 1), ("InstanceNorm1d", 4),
                                       ("InstanceNorm2d", 2), ("InstanceNorm3d", 6)])
def test_wrong_input_rank(name, rank):
    x = np.zeros((3,) * rank)
    with pytest.raises(ValueError) as th_err:
        getattr(tnn, name)(3)(torch.from_numpy(x))
    with pytest.raises(ValueError) as mt_err:
        getattr(nn, name)(3)(mindtorch.tensor(x))
    assert str(mt_err.value) == str(th_err.value)


@pytest.mark.parametrize("sizes,training", [
    ((4, None, None, None), True), ((4, None, None, None), False),
    ((4, 3, 5, None), False), ((3, 4, 5, None), False), ((None, 4, 5, 6), True),
    ((None, None, 5, 4), True), ((3, None, None, None), True), ((None, None, 3, 7), False)])
def test_batch_norm_check_order(sizes, training):
    """Wrong channel counts and missing running stats: PyTorch's first error (ATen checks
    running_mean, running_var, weight, bias in turn; then the running stats' pairing)."""
    def call(lib):
        tensors = [None if n is None else lib.zeros(n) for n in sizes]
        return lib.nn.functional.batch_norm(lib.zeros(2, 3), *tensors[:2], *tensors[2:],
                                            training=training)

    with pytest.raises(Exception) as th_err:
        call(torch)
    with pytest.raises(type(th_err.value)) as mt_err:
        call(mindtorch)
    assert str(mt_err.value) == str(th_err.value)


def test_batchnorm_single_value_per_channel_in_training():
    with pytest.raises(ValueError):
        nn.BatchNorm1d(3)(mindtorch.zeros(1, 3))
    with pytest.raises(ValueError):
        tnn.BatchNorm1d(3)(torch.zeros(1, 3))


def test_sync_batchnorm_zero_channels_and_conversion():
    with pytest.raises(ValueError, match="channels should be non-zero"):
        nn.SyncBatchNorm(0)(mindtorch.zeros(2, 0))
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3, momentum=None))
    bn = model[1]
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert type(converted[1]) is nn.SyncBatchNorm
    assert converted[1].weight is bn.weight and converted[1].running_var is bn.running_var
    assert converted[1].momentum is None


def test_batchnorm_legacy_state_dict_without_num_batches_tracked():
    th, mt = tnn.BatchNorm1d(3), nn.BatchNorm1d(3)
    for module in (th, mt):
        module.num_batches_tracked.fill_(5)
        state = module.state_dict()
        del state["num_batches_tracked"]
        state._metadata[""]["version"] = 1  # a checkpoint from before the buffer existed
        module.load_state_dict(state)  # strict: the key is filled in, not missing
        assert int(module.num_batches_tracked) == 5
        state._metadata[""]["version"] = 2
        with pytest.raises(RuntimeError, match="num_batches_tracked"):
            module.load_state_dict(state)


def test_instancenorm_legacy_state_dict_with_running_stats():
    state = OrderedDict(running_mean=np.zeros(3), running_var=np.ones(3))
    with pytest.raises(RuntimeError) as th_err:
        tnn.InstanceNorm1d(3).load_state_dict(
            OrderedDict((k, torch.from_numpy(v)) for k, v in state.items()))
    with pytest.raises(RuntimeError) as mt_err:
        nn.InstanceNorm1d(3).load_state_dict(
            OrderedDict((k, mindtorch.tensor(v)) for k, v in state.items()))
    assert "Unexpected running stats buffer(s)" in str(mt_err.value)
    message = str(th_err.value)
    assert message[message.index("Unexpected"):] in str(mt_err.value)


INSTANCE_SHAPES = [("InstanceNorm1d", (2, 3, 5)), ("InstanceNorm1d", (3, 5)),
                   ("InstanceNorm2d", (2, 3, 4, 3)), ("InstanceNorm2d", (3, 2, 4)),
                   ("InstanceNorm3d", (2, 3, 2, 3, 2)), ("InstanceNorm3d", (3, 2, 2, 2))]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kwargs", [{}, {"affine": True},
                                    {"affine": True, "track_running_stats": True},
                                    {"track_running_stats": True, "momentum": None}])
@pytest.mark.parametrize("name,shape", INSTANCE_SHAPES)
def test_instancenorm(name, shape, kwargs, dtype):
    th, mt = pair_modules(getattr(tnn, name), getattr(nn, name), 3, dtype=dtype, **kwargs)
    _randomize_affine(th, mt)
    for step in range(2):
        (x,) = inputs(shape, dtype=dtype, seed=step, noncontiguous=step == 1)
        check_module(th, mt, x, dtype=dtype)
        _same_stats(mt, th, dtype)
    th.eval()
    mt.eval()
    (x,) = inputs(shape, dtype=dtype, seed=5)
    check_module(th, mt, x, dtype=dtype)


def test_instancenorm_num_features_mismatch():
    x = np.ones((2, 4, 5))
    with pytest.raises(ValueError) as th_err:
        tnn.InstanceNorm1d(3, affine=True)(torch.from_numpy(x))
    with pytest.raises(ValueError) as mt_err:
        nn.InstanceNorm1d(3, affine=True)(mindtorch.tensor(x))
    assert str(mt_err.value) == str(th_err.value)
    with pytest.warns(UserWarning, match="does not match num_features"):
        out = nn.InstanceNorm1d(3)(mindtorch.tensor(x))
    assert out.shape == (2, 4, 5)


LAYER_CASES = [((4, 5), 5, {}), ((2, 3, 4), (3, 4), {}), ((2, 3, 4), [4], {"bias": False}),
               ((3, 4), 4, {"elementwise_affine": False}), ((2, 5), 5, {"eps": 1e-2})]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("noncontiguous", [False, True])
@pytest.mark.parametrize("shape,normalized,kwargs", LAYER_CASES)
def test_layernorm(shape, normalized, kwargs, noncontiguous, dtype):
    th, mt = pair_modules(tnn.LayerNorm, nn.LayerNorm, normalized, dtype=dtype, **kwargs)
    _randomize_affine(th, mt)
    (x,) = inputs(shape, dtype=dtype, noncontiguous=noncontiguous)
    check_module(th, mt, x, dtype=dtype)


def test_layernorm_shape_mismatch():
    with pytest.raises(RuntimeError):
        nn.LayerNorm(4)(mindtorch.zeros(2, 3))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("groups,channels,shape,kwargs", [
    (2, 4, (3, 4, 5), {}), (1, 3, (2, 3, 2, 2), {}), (3, 3, (2, 3, 4), {"bias": False}),
    (2, 6, (2, 6, 3), {"affine": False, "eps": 1e-3})])
def test_groupnorm(groups, channels, shape, kwargs, dtype):
    th, mt = pair_modules(tnn.GroupNorm, nn.GroupNorm, groups, channels, dtype=dtype, **kwargs)
    _randomize_affine(th, mt)
    (x,) = inputs(shape, dtype=dtype, noncontiguous=len(shape) > 2)
    check_module(th, mt, x, dtype=dtype)


def test_groupnorm_indivisible_channels():
    with pytest.raises(ValueError, match=r"num_channels \(5\) must be divisible by num_groups "
                                         r"\(2\)"):
        nn.GroupNorm(2, 5)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,normalized,kwargs", [
    ((4, 5), 5, {}), ((2, 3, 4), (3, 4), {"eps": 1e-3}),
    ((3, 4), [4], {"elementwise_affine": False})])
def test_rmsnorm(shape, normalized, kwargs, dtype):
    th, mt = pair_modules(tnn.RMSNorm, nn.RMSNorm, normalized, dtype=dtype, **kwargs)
    _randomize_affine(th, mt)
    (x,) = inputs(shape, dtype=dtype, noncontiguous=True)
    check_module(th, mt, x, dtype=dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("args,shape", [((3,), (2, 5, 4)), ((2, 1e-2, 0.5, 2.0), (2, 4, 3, 3)),
                                        ((4,), (1, 6, 2, 2, 2))])
def test_local_response_norm(args, shape, dtype):
    th, mt = pair_modules(tnn.LocalResponseNorm, nn.LocalResponseNorm, *args, dtype=dtype)
    (x,) = inputs(shape, dtype=dtype)
    check_module(th, mt, x, dtype=dtype)


@pytest.mark.parametrize("args,channels", [((3,), 7), ((5, 1e-1, 0.75, 2), 6), ((2,), 5),
                                           ((4, 0.5), 3), ((3,), 1)])
def test_cross_map_lrn2d(args, channels):
    # PyTorch's legacy window keeps channel 0 in every later channel's sum: reproduced
    th, mt = pair_modules(tnn.CrossMapLRN2d, nn.CrossMapLRN2d, *args)
    (x,) = inputs((2, channels, 3, 2))
    check_module(th, mt, x)


def test_cross_map_lrn2d_needs_4d():
    with pytest.raises(ValueError, match="Expected input to be 4D, got 3D instead"):
        nn.CrossMapLRN2d(3)(mindtorch.zeros(2, 3, 4))


def test_meta_device_construction_and_forward():
    with mindtorch.device("meta"):
        bn, ln, gn = nn.BatchNorm2d(3), nn.LayerNorm(4), nn.GroupNorm(2, 4)
    assert bn.weight.device.type == "meta" and bn.running_mean.device.type == "meta"
    x = mindtorch.empty(2, 3, 4, 4, device="meta")
    assert bn(x).shape == (2, 3, 4, 4)
    bn.eval()
    assert bn(x).shape == (2, 3, 4, 4)
    y = mindtorch.empty(2, 4, 4, device="meta")
    assert ln(y).shape == (2, 4, 4) and gn(y).shape == (2, 4, 4)
    assert nn.InstanceNorm1d(4, device="meta").weight is None


def _network(lib):
    n = lib.nn
    return n.Sequential(n.Linear(6, 8), n.BatchNorm1d(8, momentum=None), n.GELU(),
                        n.LayerNorm(8), n.Linear(8, 5), n.GroupNorm(1, 5), n.SiLU(),
                        n.Linear(5, 3))


def test_small_network_trains_as_pytorch():
    """Ten SGD steps of a network mixing these modules, in float64: same losses, parameters
    and running statistics as PyTorch's."""
    th = _network(torch).double()
    mt = _network(mindtorch).double()
    mt.load_state_dict({k: mindtorch.tensor(v.numpy()) for k, v in th.state_dict().items()})
    th_loss_fn, mt_loss_fn = tnn.CrossEntropyLoss(label_smoothing=0.1), \
        nn.CrossEntropyLoss(label_smoothing=0.1)
    rng = np.random.default_rng(0)
    for _ in range(10):
        x, y = rng.standard_normal((16, 6)), rng.integers(0, 3, 16)
        th_loss = th_loss_fn(th(torch.from_numpy(x)), torch.from_numpy(y))
        mt_loss = mt_loss_fn(mt(mindtorch.tensor(x)), mindtorch.tensor(y))
        close(mt_loss, th_loss, "float64")
        th.zero_grad()
        mt.zero_grad()
        th_loss.backward()
        mt_loss.backward()
        with torch.no_grad(), mindtorch.no_grad():
            for p in th.parameters():
                p.sub_(0.1 * p.grad)
            for p in mt.parameters():
                p.sub_(0.1 * p.grad)
    for key, value in th.state_dict().items():
        close(mt.state_dict()[key], value, "float64")
    th.eval()
    mt.eval()
    x = rng.standard_normal((4, 6))
    close(mt(mindtorch.tensor(x)), th(torch.from_numpy(x)), "float64")
