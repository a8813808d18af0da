"""A harness's own result, as it reports it to ``/v1/playbench/score`` (or ends an episode
through ``/v1/playbench/end``): read and checked before it reaches the database."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from playbench.app.harness.checks import BodyError, load_json
from playbench.app.harness.guard import Headers
from playbench.app.harness.wire import HARNESS_HEADER, TASK_HEADER

SCORE_LIMIT = 1e9
"""Largest magnitude of a reported ``score``: room for a game's raw points, none for the
``1e308`` that breaks every mean and plot it lands in."""

NAME_LIMIT = 200
"""Longest harness or task name taken from a report (as from a chat request)."""


@dataclass(frozen=True)
class ScoreReport:
    """Whose episode (``harness``, ``task``: None for the harness's latest) and what it
    scored (``score``, ``solved`` 1/0; empty for an end without a score)."""

    harness: str
    task: str | None
    scores: dict[str, float | None]


def _name(value: object, field: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise BodyError(f"{field} must be a string", field)
    return str(value)[:NAME_LIMIT]


def read_report(raw: bytes, headers: Headers, *, end_only: bool) -> ScoreReport:
    """The report in ``raw`` (a JSON object; ``{}`` when empty). The harness and task come
    from the ``X-PlayBench-*`` headers first, as for chat requests. Raises :class:`BodyError`
    naming the field at fault."""
    data = load_json(raw) if raw.strip() else {}
    if not isinstance(data, dict):
        raise BodyError("the body must be a JSON object")
    harness = (headers.get(HARNESS_HEADER) or "").strip()[:NAME_LIMIT] \
        or _name(data.get("harness"), "harness") or "harness"
    task = (headers.get(TASK_HEADER) or "").strip()[:NAME_LIMIT] or _name(data.get("task"),
                                                                          "task")
    return ScoreReport(harness, task, {} if end_only else scores_of(data))


def scores_of(data: Mapping[str, object]) -> dict[str, float | None]:
    """``score`` (a finite number within +-:data:`SCORE_LIMIT`) and ``success`` (true/false,
    stored as ``solved`` 1/0) of a score report; at least one must be there."""
    out: dict[str, float | None] = {}
    value = data.get("score")
    if value is not None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BodyError("score must be a number", "score")
        number = float(value) if abs(value) <= SCORE_LIMIT else math.inf
        if not math.isfinite(number):
            raise BodyError(f"score must be a finite number within +-{SCORE_LIMIT:g}, "
                            f"not {value!r}", "score")
        out["score"] = number
    success = data.get("success")
    if success is not None:
        if not isinstance(success, bool):
            raise BodyError("success must be true or false", "success")
        out["solved"] = 1.0 if success else 0.0
    if not out:
        raise BodyError("give score (a number) or success (true/false)")
    return out


__all__ = ["SCORE_LIMIT", "ScoreReport", "read_report", "scores_of"]
