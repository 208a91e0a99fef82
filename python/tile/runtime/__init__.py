"""JIT functions, launching, autotuning."""
