"""What the Compare view shows, worked out without Qt: the task picker's entries, the lanes of
the chosen episodes, the text of each lane's cells at a scrubber row, and where they diverge.

The view loads every episode of a task once (:func:`load_task`, in an executor); ticking
episodes on or off only narrows that comparison (:func:`narrow`), so the first divergence is
recomputed for exactly the lanes on screen without another query. Rows follow
``playbench.app.results.compare``: row ``i`` is the position after step ``i + 1``; row ``-1`` is the
start.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from playbench.app.results.compare import (
    Comparison,
    Divergence,
    Lane,
    TaskChoice,
    compare,
    first_divergence,
    task_choices,
    task_episode_ids,
)
from playbench.app.studies import Viewer
from playbench.app.studies.access import hidden_study_ids
from playbench.app.ui.models.wording import action_text, count
from playbench.db.store import Store

KIND_TEXT = {"action": "different actions", "state": "same action, different result",
             "ended": "some episodes had already ended", "start": "different start positions"}


@dataclass(frozen=True)
class TaskOption:
    choice: TaskChoice
    label: str


@dataclass(frozen=True)
class Cell:
    """One lane at one row, as text."""

    action: str
    validity: str
    valid: bool | None
    """None where there is no step (the start, or after the lane ended)."""
    score: str


def task_options(store: Store, study: str | None, game: str | None,
                 viewer: Viewer) -> list[TaskOption]:
    """Tasks with recorded episodes. Episode counts are left out for an annotator while a
    blind study exists: they would tell how many others played."""
    counts = not hidden_study_ids(store, viewer)
    out = []
    for c in task_choices(store, study, game):
        title = c.level_title or f"level {c.level_number}"
        label = f"{c.game} · level {c.level_number} · {title}"
        if counts:
            label += (f"  ({count(c.episodes, 'episode')}, "
                      f"{count(c.participants, 'participant')})")
        out.append(TaskOption(c, label))
    return out


def games_of(options: Iterable[TaskOption]) -> list[str]:
    return sorted({o.choice.game for o in options})


def load_task(store: Store, task_id: int, study: str | None, viewer: Viewer) -> Comparison:
    """Every episode of the task (of ``study`` when given) the viewer may see, as lanes.
    Raises ``Blinded`` when there is none."""
    ids = task_episode_ids(store, task_id, study=study)
    if not ids:
        raise LookupError("this task has no recorded episodes")
    return compare(store, ids, viewer)


def narrow(full: Comparison, episode_ids: Iterable[int]) -> Comparison:
    """The lanes of ``episode_ids`` only (in ``full``'s order), divergence recomputed."""
    keep = set(episode_ids)
    lanes = tuple(lane for lane in full.lanes if lane.episode_id in keep)
    return replace(full, lanes=lanes, divergence=first_divergence(lanes))


def default_selection(full: Comparison) -> list[int]:
    """The finished episodes, or every one when none finished."""
    done = [lane.episode_id for lane in full.lanes if lane.status == "done"]
    return done or [lane.episode_id for lane in full.lanes]


def lane_title(lane: Lane) -> str:
    return f"{lane.participant} ({lane.kind})"


def lane_facts(lane: Lane) -> str:
    """Episode, setting, status and (unless hidden) the outcome."""
    parts = [f"#{lane.episode_id}", lane.setting, lane.status]
    if lane.solved is not None:
        parts.append("solved" if lane.solved else "not solved")
    elif lane.end_reason and lane.end_reason != lane.status:
        parts.append(lane.end_reason)
    parts.append(count(len(lane.steps), "step"))
    return " · ".join(parts)


def option_label(lane: Lane) -> str:
    """The lane in the episode checklist (two lines: who, then the facts)."""
    return f"{lane_title(lane)}\n{lane_facts(lane)}"


def _score(value: float | None) -> str:
    return "hidden (blind study)" if value is None else f"{value:g}"


def cell(lane: Lane, row: int) -> Cell:
    """The action, validity and cumulative reward of ``lane`` at ``row``."""
    if row < 0:
        return Cell("start", "", None, _score(lane.cumulative_at(row)))
    step = lane.at(row)
    if step is None:
        n = len(lane.steps)
        return Cell(f"(ended after {count(n, 'step')})", "", None,
                    _score(lane.cumulative_at(row)))
    action = action_text(step.action)
    if step.valid:
        validity = "valid" + ("" if step.changed else ", no change")
    else:
        validity = "invalid" + (f": {step.invalid_reason}" if step.invalid_reason else "")
    return Cell(action, validity, step.valid, _score(step.cumulative))


def position_text(comparison: Comparison, row: int) -> str:
    if row < 0:
        return f"Start position · {comparison.rows} step rows"
    return f"After step {row + 1} of {comparison.rows}"


def settings_warning(comparison: Comparison) -> str | None:
    """A warning when the lanes were played under different settings of the task (what the
    player saw, how actions were taken, undo): their steps are not like for like, so a
    divergence may come from the setting rather than from play. None when all agree."""
    settings = sorted({lane.setting for lane in comparison.lanes})
    if len(settings) < 2:
        return None
    counts = ", ".join(
        f"{name} ({sum(lane.setting == name for lane in comparison.lanes)})"
        for name in settings)
    return (f"Warning: these episodes were played under different settings - {counts}. "
            "Steps are not like for like; tick episodes of one setting to compare play.")


def divergence_text(comparison: Comparison) -> str:
    warning = settings_warning(comparison)
    text = _divergence_only(comparison)
    return text if warning is None else f"{warning}\n{text}"


def _divergence_only(comparison: Comparison) -> str:
    div = comparison.divergence
    if len(comparison.lanes) < 2:
        return "Tick at least two episodes to compare them."
    if div is None:
        return "These episodes never diverge: the same actions and states at every step."
    where = "at the start" if div.row < 0 else f"at step {div.row + 1}"
    return f"First divergence {where}: {KIND_TEXT.get(div.kind, div.kind)}."


def divergent_lanes(comparison: Comparison) -> set[int]:
    """Indices of the lanes that differ at the divergence row: those outside the largest
    group of agreeing lanes (all of them when no group is larger than the others)."""
    div: Divergence | None = comparison.divergence
    if div is None:
        return set()
    keys: list[object] = []
    for lane in comparison.lanes:
        if div.row < 0:
            keys.append(lane.start_state)
        else:
            s = lane.at(div.row)
            keys.append(None if s is None else (s.action, s.state_hash))
    counts = Counter(keys).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        return set(range(len(keys)))
    common = counts[0][0]
    return {i for i, k in enumerate(keys) if k != common}


def wanted_frames(comparison: Comparison, row: int, radius: int = 40) -> list[str]:
    """Frame hashes of the rows around ``row``, nearest first (what to decode next)."""
    out: list[str] = []
    seen: set[str] = set()
    last = comparison.rows - 1
    order = [row] + [r for d in range(1, radius + 1) for r in (row + d, row - d)]
    for r in order:
        if r < -1 or r > last:
            continue
        for digest in comparison.frames_at(r):
            if digest and digest not in seen:
                seen.add(digest)
                out.append(digest)
    return out
