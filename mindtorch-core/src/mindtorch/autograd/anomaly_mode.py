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
    """Context manager enabling anomaly detection inside it (as PyTorch's, not a
    decorator; it warns when made)."""

    def __init__(self, check_nan=True):
        import warnings
        self.prev, self.prev_check = state.anomaly, state.anomaly_check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self):
        state.anomaly, state.anomaly_check_nan = True, bool(self.check_nan)

    def __exit__(self, *exc):
        state.anomaly, state.anomaly_check_nan = self.prev, self.prev_check
        return False
