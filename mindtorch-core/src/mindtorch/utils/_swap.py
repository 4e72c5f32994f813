"""torch.utils.swap_tensors: t1 takes t2's content (class, Python attributes, and the
slots that hold storage, geometry, dtype, device and version counter) and t2 takes t1's,
each keeping its identity."""
import copyreg
import weakref


def swap_tensors(t1, t2):
    for name, t in (("t1", t1), ("t2", t2)):
        if weakref.getweakrefs(t):
            raise RuntimeError(f"Cannot swap {name} because it has weakref associated with it")
    slots = set(copyreg._slotnames(t1.__class__))
    if slots != set(copyreg._slotnames(t2.__class__)):
        raise RuntimeError("Cannot swap t1 and t2 if they have different slots")

    def swap(name):
        tmp = getattr(t1, name)
        setattr(t1, name, getattr(t2, name))
        setattr(t2, name, tmp)

    swap("__class__")
    swap("__dict__")
    for slot in slots:
        has1, has2 = hasattr(t1, slot), hasattr(t2, slot)
        if has1 and has2:
            swap(slot)
        elif has1:
            setattr(t2, slot, getattr(t1, slot))
            delattr(t1, slot)
        elif has2:
            setattr(t1, slot, getattr(t2, slot))
            delattr(t2, slot)
