"""torch.cpu's streams and events: the CPU runs ops in order on the calling thread, so
these only let device-generic code (current_stream, with stream(...), events) run."""


class Stream:
    def __init__(self, priority=-1):
        self.priority = priority

    def wait_stream(self, stream):
        pass

    def record_event(self, event=None):
        return event

    def wait_event(self, event):
        pass

    def query(self):
        return True

    def synchronize(self):
        pass


class Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        pass

    def query(self):
        return True

    def record(self, stream=None):
        pass

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass


_default = Stream()
_current = [_default]


def current_stream(device=None):
    return _current[0]


class StreamContext:
    """Selects `stream` as current_stream() within the block (None: no change)."""

    def __init__(self, stream):
        self.stream = stream
        self.prev_stream = _default

    def __enter__(self):
        if self.stream is not None:
            self.prev_stream, _current[0] = _current[0], self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            _current[0] = self.prev_stream


def stream(stream):
    return StreamContext(stream)
