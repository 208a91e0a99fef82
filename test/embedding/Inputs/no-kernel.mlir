// Parses and verifies, but holds no kernel: the compile itself fails.
func.func private @helper()
