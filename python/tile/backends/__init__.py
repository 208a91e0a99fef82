"""`triton.backends`: tile has one backend, CUDA (tile.driver)."""
