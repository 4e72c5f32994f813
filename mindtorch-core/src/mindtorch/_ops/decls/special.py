"""special ops (being filled in by issue 4)."""
