"""Coordinator's regressions of the fourteenth QA session, each compared with PyTorch."""
import warnings

import mindtorch
import pytest

torch = pytest.importorskip("torch")


def _warnings(caught):
    return [(w.category.__name__, str(w.message).replace("mindtorch", "torch")) for w in caught]


def _device_amp(lib, dev):
    """What code sees of torch.<dev>.amp's deprecated GradScaler / autocast classes."""
    amp = getattr(lib, dev).amp
    scaler_cls, autocast_cls = amp.GradScaler, amp.autocast
    seen = [isinstance(scaler_cls, type), issubclass(scaler_cls, lib.amp.GradScaler),
            issubclass(autocast_cls, lib.amp.autocast),
            scaler_cls is getattr(lib, dev).amp.GradScaler,
            scaler_cls.__name__, autocast_cls.__name__]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler = scaler_cls(init_scale=8.0)

        class Mine(scaler_cls):  # subclassing, as training frameworks do
            pass
        mine = Mine(enabled=False)
        with autocast_cls():
            on = (lib.is_autocast_enabled(dev), str(lib.get_autocast_dtype(dev)))
    return seen + [isinstance(scaler, lib.amp.GradScaler), scaler.is_enabled(), scaler._device,
                   mine.is_enabled(), isinstance(mine, scaler_cls), on, _warnings(caught)]


@pytest.mark.parametrize("dev", ["cpu", "cuda"])
def test_device_amp_spellings_are_classes(dev):
    # they were bound methods: isinstance(s, torch.cuda.amp.GradScaler) raised TypeError and
    # `class MyScaler(torch.cuda.amp.GradScaler)` failed
    assert _device_amp(mindtorch, dev) == _device_amp(torch, dev)
