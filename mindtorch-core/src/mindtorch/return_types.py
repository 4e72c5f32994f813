"""Named tuples returned by ops with several named results (max, sort, ...), filled in
from the op schemas at import."""
