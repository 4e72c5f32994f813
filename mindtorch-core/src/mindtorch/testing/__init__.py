"""Testing helpers for mindtorch and for backend authors."""
