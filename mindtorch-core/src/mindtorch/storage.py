"""torch.storage: the storage classes (defined in mindtorch/_storage.py)."""
from ._storage import TypedStorage, UntypedStorage  # noqa: F401

__all__ = ["TypedStorage", "UntypedStorage"]
