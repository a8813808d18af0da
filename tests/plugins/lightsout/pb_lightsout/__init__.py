"""Lights Out, a PlayBench task kind installed as a plugin (test-only).

Registers ``lightsout = "pb_lightsout:KIND"`` in the ``playbench.tasks`` entry-point group;
nothing outside this package names it. See :mod:`pb_lightsout.kind`. ``KIND`` and ``SPEC``
load on first use, so ``playbench --help`` (which loads the plugin's command,
:mod:`pb_lightsout.command`) stays light.
"""

from typing import Any

__all__ = ["KIND", "SPEC"]


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from pb_lightsout.kind import KIND
        return KIND
    if name == "SPEC":
        from pb_lightsout.spec import SPEC
        return SPEC
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
