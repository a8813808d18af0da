"""Players that are not a person at the keyboard: solver, random, idle, replay (and models)."""
