"""Host-side tools, as Triton's `triton.tools` (`tensor_descriptor`)."""
