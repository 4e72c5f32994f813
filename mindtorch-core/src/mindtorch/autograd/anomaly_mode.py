"""detect_anomaly / set_detect_anomaly: nodes remember the traceback of their forward
call, and a backward formula returning NaN raises naming the op."""
from .grad_mode import state


def is_anomaly_enabled():
    return state.anomaly


def is_anomaly_check_nan_enabled():
    return state.anomaly_check_nan


def set_anomaly_enabled(enabled, check_nan=True):
    """torch.set_anomaly_enabled: anomaly detection on or off from now on."""
    state.anomaly, state.anomaly_check_nan = bool(enabled), bool(check_nan)


class set_detect_anomaly:
    """Sets anomaly detection on or off: at once as a call, until exit as a context
    manager."""

    def __init__(self, mode, check_nan=True):
        self.prev, self.prev_check = state.anomaly, state.anomaly_check_nan
        state.anomaly, state.anomaly_check_nan = bool(mode), bool(check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        state.anomaly, state.anomaly_check_nan = self.prev, self.prev_check
        return False


class detect_anomaly:
    """Context manager / decorator enabling anomaly detection inside it."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        import warnings
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)
        self.prev, self.prev_check = state.anomaly, state.anomaly_check_nan
        state.anomaly, state.anomaly_check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        state.anomaly, state.anomaly_check_nan = self.prev, self.prev_check
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)
        return wrapper
