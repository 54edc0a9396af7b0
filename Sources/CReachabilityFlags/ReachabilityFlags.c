// Intentionally empty: the target exists for its header.
