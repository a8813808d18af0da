"""Adding the per-episode agent figures (``evaluators.agent``) to an episode's scores.

The runner builds its environments through :func:`with_agent_scores`, so the figures are part of
the one ``finish`` write that stores an episode's scores (done episodes, and errored ones once
resumed to the end). ``app.core.replay`` recomputes them from the recorded steps when verifying.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from app.core.settings import Setting
from app.core.task import Task
from evaluators.agent import agent_metrics


class AgentScoredEnv:
    """An environment whose ``score`` also returns the agent figures; all else is delegated."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def score(self, steps: Sequence[Any], setting: Setting) -> dict[str, float | None]:
        scores = dict(await self._inner.score(steps, setting))
        scores.update(agent_metrics(steps))
        return scores


def with_agent_scores(make_env: Callable[[Task], Any]) -> Callable[[Task], Any]:
    """Wrap an environment factory so every episode's scores include the agent figures."""
    return lambda task: AgentScoredEnv(make_env(task))
