"""RemovableHandle: what register_*hook functions return."""
import itertools

_ids = itertools.count()


class RemovableHandle:
    """handle.remove() takes the hook out of the dict it was registered in (hooks are kept
    in dicts keyed by handle id, so they run in registration order); also a context
    manager that removes it on exit."""

    def __init__(self, hooks_dict):
        self.hooks_dict = hooks_dict
        self.id = next(_ids)

    def remove(self):
        self.hooks_dict.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def add_hook(hooks_dict, fn):
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = fn
    return handle
