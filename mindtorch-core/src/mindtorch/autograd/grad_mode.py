"""Grad mode: whether ops record autograd history.  Thread-local, as in PyTorch: each
thread starts with grad mode on.  The generated op bindings read `state.enabled` directly."""
import functools
import inspect
import warnings
from _thread import _local as _thread_local  # threading.local, without importing threading


class _State(_thread_local):
    enabled = True      # ops record history when an input requires grad
    inference = False   # inside inference_mode(True)
    requested = True    # the grad mode asked for (inference mode records nothing even so)
    anomaly = False     # detect_anomaly: remember forward tracebacks, check backward NaNs
    anomaly_check_nan = True
    saved_hooks = ()    # stack of (pack, unpack) from graph.saved_tensors_hooks
    grad_layout = True  # enforce_grad_layout_policy: a stolen .grad takes its leaf's layout


state = _State()


def is_grad_enabled():
    return state.requested if state.inference else state.enabled


def is_inference_mode_enabled():
    return state.inference


class _Mode:
    """Base of the grad-mode context managers; each also works as a decorator."""
    _enabled = True

    def __enter__(self):
        self._prev = state.enabled, state.requested
        state.requested = self._enabled
        state.enabled = self._enabled and not state.inference

    def __exit__(self, *exc):
        state.enabled, state.requested = self._prev
        return False

    def __call__(self, fn, stacklevel=2):
        if inspect.isclass(fn):  # (PyTorch still decorates the constructor call)
            warnings.warn("Decorating classes is deprecated and will be disabled in future "
                          "versions. You should only decorate functions or methods. To "
                          "preserve the current behavior of class decoration, you can "
                          "directly decorate the `__init__` method and nothing else.",
                          FutureWarning, stacklevel=stacklevel)
            cls = fn
            fn = lambda *args, **kwargs: cls(*args, **kwargs)
        if inspect.isgeneratorfunction(fn):  # the mode holds while the generator runs
            @functools.wraps(fn)
            def generator(*args, **kwargs):
                with self.clone():
                    gen = fn(*args, **kwargs)
                    request = None
                while True:
                    with self.clone():  # (left before yielding: the caller runs outside)
                        try:
                            response = gen.send(request)
                        except StopIteration as stop:
                            return stop.value
                    request = yield response
            return generator

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return type(self)()


class _BareDecorator(_Mode):
    """Also usable as a decorator without parentheses (`@no_grad`), as in PyTorch."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        if not callable(orig_func):
            raise TypeError(f"{cls.__name__}() takes no positional arguments")
        return cls()(orig_func)

    def __init__(self, orig_func=None):
        pass


class no_grad(_BareDecorator):
    """Context manager / decorator: ops inside record no history."""
    _enabled = False
    _prev = False, False  # (PyTorch's: leaving one never entered turns grad mode off)


class enable_grad(_BareDecorator):
    """Context manager / decorator: ops record history again (inside no_grad)."""
    _enabled = True


class set_grad_enabled(_Mode):
    """set_grad_enabled(mode): takes effect at once as a call, and is undone on leaving
    when used as a context manager or decorator."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be "
                            f"bool, not {type(mode).__name__}")
        self._prev = state.enabled, state.requested
        self._enabled = self.mode = mode
        state.requested, state.enabled = mode, mode and not state.inference

    def __enter__(self):
        state.requested, state.enabled = self._enabled, self._enabled and not state.inference

    def __call__(self, fn):
        state.enabled, state.requested = self._prev  # a decorator must not change it now
        return super().__call__(fn, stacklevel=3)

    def clone(self):
        return type(self)(self._enabled)


class inference_mode(_Mode):
    """no_grad, and tensors made inside are inference tensors (autograd/_inference.py)."""

    def __new__(cls, mode=True):
        if callable(mode):  # @inference_mode without parentheses
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self._mode = bool(mode)
        self._enabled = not self._mode

    def __enter__(self):
        self._prev_inference = state.inference
        state.inference = self._mode
        super().__enter__()

    def __exit__(self, *exc):
        state.inference = self._prev_inference
        return super().__exit__(*exc)

    def clone(self):
        return type(self)(self._mode)


_multithreading = [True]


def is_multithreading_enabled():
    return _multithreading[0]


class set_multithreading_enabled:
    """Whether backward may use worker threads (PyTorch's per-device threads): mindtorch's
    engine runs on the calling thread either way; the flag is kept, and restored on leaving
    a with block, for code that reads it."""

    def __init__(self, mode):
        self._prev, _multithreading[0] = _multithreading[0], bool(mode)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _multithreading[0] = self._prev

    def clone(self):
        return set_multithreading_enabled(_multithreading[0])


class enforce_grad_layout_policy(_Mode):
    """enforce_grad_layout_policy(enable): with False, a gradient the engine may steal
    becomes .grad as it is laid out (no copy into the leaf's strides).  Takes effect at
    once, as set_grad_enabled; undone on leaving."""

    def __init__(self, enable=True):
        self._prev, self.mode = state.grad_layout, enable
        state.grad_layout = enable

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        state.grad_layout = self._prev
        return False

    def __call__(self, fn):
        state.grad_layout = self._prev  # a decorator must not change it now
        return super().__call__(fn, stacklevel=3)

    def clone(self):
        return type(self)(self.mode)
