"""Sweeps beyond one process: on a Ray cluster (the optional ``playbench[ray]`` extra: the Ray
engine, its workers, the shared rate limiter and shard shipping) or in several processes on
this machine (``processes``, no extra). Nothing here imports Ray at module load;
:func:`require_ray` does, with an install hint when it is missing."""

from __future__ import annotations

from types import ModuleType

INSTALL_HINT = ("--engine ray needs Ray, an optional extra: pip install 'playbench[ray]' "
                "(or pip install ray)")


class RayMissing(RuntimeError):
    """Ray is not installed; the message says how to install it."""


def require_ray() -> ModuleType:
    """The ``ray`` module, or :class:`RayMissing` naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise RayMissing(INSTALL_HINT) from None
    return ray


__all__ = ["INSTALL_HINT", "RayMissing", "require_ray"]
