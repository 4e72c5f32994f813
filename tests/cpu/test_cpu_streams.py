"""torch.cpu's streams and events for device-generic code, as PyTorch's."""
import pytest
import torch

import mindtorch


@pytest.mark.parametrize("lib", [torch, mindtorch])
def test_cpu_streams_and_events(lib):
    cpu = lib.cpu
    assert cpu.is_initialized()
    default = cpu.current_stream()
    s = cpu.Stream()
    with cpu.stream(s):
        assert cpu.current_stream() is s
        with cpu.stream(None):
            assert cpu.current_stream() is s
    assert cpu.current_stream() is default
    e = cpu.Event()
    e.record()
    assert e.query() is True
    e.synchronize()
    e.wait()
    s.wait_stream(default)
    s.wait_event(e)
    with pytest.raises(RuntimeError, match="unknown parameter type"):
        lib.ones(2).record_stream(default)  # (a torch.cpu.Stream is not a torch.Stream)
