"""Web tasks as VisualWebArena defines them: task files and their sources, the web settings
(sites, logins, judge), logging in, the page probes and checks that score a task, the offline
site wiring, and the environment (``env.WebTaskEnv``). The browser itself, Set-of-Marks and
the action grammar are the shared layer below every browser kind (``playbench.games.browser``).

Nothing here imports app/ or db/. :data:`KIND` (``playbench.games.web.kind``) is the task kind the
app finds through the ``playbench.tasks`` entry points; PlayBench's offline classifieds site is a
fixture in ``playbench.resources.web.site``. Facts: docs/reference/web.md.
"""

from typing import Any

__all__ = ["KIND"]


def __getattr__(name: str) -> Any:
    """:data:`KIND` on first use: ``playbench web`` (:mod:`playbench.games.web.cli`) sits in
    this package and must not pay for the kind's imports to print its help."""
    if name == "KIND":
        from playbench.games.web.kind import KIND
        return KIND
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
