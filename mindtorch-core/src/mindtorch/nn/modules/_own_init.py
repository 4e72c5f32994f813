"""own_init / own_forward: class families sharing one __init__ or forward in mindtorch
where PyTorch writes one per class. Python's argument errors name the function
("ZeroPad2d.__init__() missing 1 required positional argument: 'padding'"), so each class
gets a copy named after it."""
import types


def _own(cls, name):
    f = getattr(cls, name)
    copy = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                              f.__closure__)
    copy.__kwdefaults__ = f.__kwdefaults__
    copy.__dict__.update(f.__dict__)
    copy.__doc__, copy.__module__ = f.__doc__, cls.__module__
    copy.__qualname__ = f"{cls.__name__}.{name}"
    setattr(cls, name, copy)


def own_init(*classes):
    """Give each class a copy of the __init__ it inherits, named <class>.__init__."""
    for cls in classes:
        _own(cls, "__init__")


def own_forward(*classes):
    """Give each class a copy of the forward it inherits, named <class>.forward."""
    for cls in classes:
        _own(cls, "forward")
