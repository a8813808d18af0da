"""Bundled level packs, one folder per game, and the script that rebuilds them
(``python -m resources.levels.build_packs``; see docs/levels.md)."""
