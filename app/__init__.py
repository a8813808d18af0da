"""PlayBench application: the play loop, players, command line and desktop UI."""

__version__ = "0.1.0"
