"""What the desktop views show, without Qt: preferences, the level catalog, play sessions,
pacing of model demos, recorded episodes. Views subscribe to these and forward input; tests
drive them directly. Nothing in this package may import PySide6 (tests/ui/test_layers.py)."""
