"""The compare model: N episodes of one task side by side on one step scale.

Lanes are aligned by step index (step ``i`` of every episode sits in row ``i``): the UI's one
scrubber picks a row and each lane shows the frame after that step, the action, whether it was
valid, and the cumulative reward. Row ``-1`` is the start position.

Divergence: the first row where the lanes stop agreeing. Lanes agree on a row when every one
of them has a step there with the same canonical action text (``None`` for an unreadable
entry counts as a value of its own) and the same resulting state hash. The kind says why they
split: ``action`` (different actions), ``state`` (same action, different result - e.g. one was
applied and one refused, or the lanes started from different states), or ``ended`` (some lanes
have no step there). Lanes from different settings or rules may be compared; they are labelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from playbench.app.studies.access import RESEARCHER, Blinded, Viewer, hidden_study_ids
from playbench.db import results as stored
from playbench.db.episodes import score_of
from playbench.db.steps import steps_of_episodes
from playbench.db.store import NotFound, Store


@dataclass(frozen=True)
class LaneStep:
    index: int
    action: str | None
    raw: str
    valid: bool
    invalid_reason: str | None
    changed: bool
    reward: float | None
    cumulative: float | None
    """Sum of rewards up to and including this step (None when hidden by blind mode)."""
    state_hash: str
    frame: str | None
    """Frame hash (``Store.frame_png`` / ``Store.frames``) of the view after this step."""
    think_ms: float


@dataclass(frozen=True)
class Lane:
    episode_id: int
    uid: str
    kind: str
    participant: str
    setting: str
    status: str
    end_reason: str | None
    solved: float | None
    start_frame: str | None
    start_state: str
    steps: tuple[LaneStep, ...]

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.participant} #{self.episode_id} ({self.setting})"

    def at(self, row: int) -> LaneStep | None:
        """The step in ``row`` (None before the first step or after the last)."""
        return self.steps[row] if 0 <= row < len(self.steps) else None

    def frame_at(self, row: int) -> str | None:
        """The frame to show at ``row``: the start frame for row -1, the last frame after
        the lane ended."""
        if row < 0 or not self.steps:
            return self.start_frame
        return self.steps[min(row, len(self.steps) - 1)].frame

    def cumulative_at(self, row: int) -> float | None:
        """Cumulative reward shown at ``row`` (held at its last value after the lane ended)."""
        if row < 0 or not self.steps:
            return 0.0
        return self.steps[min(row, len(self.steps) - 1)].cumulative


@dataclass(frozen=True)
class Divergence:
    row: int
    kind: str  # action | state | ended | start


@dataclass(frozen=True)
class Comparison:
    game: str
    level_number: int
    level_title: str
    level_hash: str
    lanes: tuple[Lane, ...]
    divergence: Divergence | None
    """None when every lane did exactly the same (or there is one lane)."""
    hidden: int = 0
    """Episodes of the task left out because the viewer may not see them (blind mode)."""

    @property
    def rows(self) -> int:
        """Number of step rows (the scrubber runs from -1 to rows - 1)."""
        return max((len(lane.steps) for lane in self.lanes), default=0)

    def row(self, index: int) -> list[LaneStep | None]:
        return [lane.at(index) for lane in self.lanes]

    def frames_at(self, index: int) -> list[str | None]:
        return [lane.frame_at(index) for lane in self.lanes]


@dataclass(frozen=True)
class TaskChoice:
    """A task with recorded episodes, for the compare view's picker."""

    task_id: int
    game: str
    level_number: int
    level_title: str
    level_hash: str
    episodes: int
    participants: int


def first_divergence(lanes: Sequence[Lane]) -> Divergence | None:
    """The first row where the lanes disagree (see the module docstring)."""
    if len(lanes) < 2:
        return None
    if len({lane.start_state for lane in lanes}) > 1:
        return Divergence(-1, "start")
    longest = max(len(lane.steps) for lane in lanes)
    for i in range(longest):
        at = [lane.at(i) for lane in lanes]
        cells = [c for c in at if c is not None]
        if len(cells) < len(at):
            return Divergence(i, "ended")
        if len({c.action for c in cells}) > 1:
            return Divergence(i, "action")
        if len({c.state_hash for c in cells}) > 1:
            return Divergence(i, "state")
    return None


def task_choices(store: Store, study: str | None = None, game: str | None = None,
                 include_practice: bool = False) -> list[TaskChoice]:
    """Tasks that have episodes (in a study, of a game), most played first."""
    rows = stored.played_tasks(store.db, study=study, game=game,
                               include_practice=include_practice)
    out = [TaskChoice(*r) for r in rows]
    out.sort(key=lambda c: (-c.episodes, c.game, c.level_number, c.level_hash))
    return out


def task_episode_ids(store: Store, task_id: int, *, study: str | None = None,
                     setting: str | None = None, statuses: Sequence[str] | None = None
                     ) -> list[int]:
    """Episodes of a task (optionally of one study and setting), oldest first."""
    return stored.task_episode_ids(store.db, task_id, study=study, setting=setting,
                                   statuses=statuses)


def compare(store: Store, episode_ids: Sequence[int], viewer: Viewer = RESEARCHER
            ) -> Comparison:
    """Lanes for ``episode_ids`` (all of one task), in the order given."""
    if not episode_ids:
        raise ValueError("compare needs at least one episode")
    ids = list(dict.fromkeys(episode_ids))
    heads = {r.episode.id: r for r in store.episodes(ids=ids)}
    missing = [i for i in ids if i not in heads]
    if missing:
        raise NotFound(f"no episode with id {missing[0]}")
    tasks = {heads[i].episode.task_id for i in ids}
    if len(tasks) > 1:
        raise ValueError(f"episodes {', '.join(map(str, ids))} are not all of one task")
    task = heads[ids[0]].task
    blind = set(hidden_study_ids(store, viewer))
    visible, hidden = [], 0
    for i in ids:
        who = heads[i].participant
        if heads[i].episode.study_id in blind and not (
                who.kind == "human" and who.name == viewer.annotator):
            hidden += 1
        else:
            visible.append(i)
    if not visible:
        raise Blinded("these episodes belong to a blind study")
    solved = score_of(store.db, visible, "solved")
    by_episode = steps_of_episodes(store.db, visible)
    lanes = []
    for i in visible:
        h, who = heads[i].episode, heads[i].participant
        hide = h.study_id in blind
        total = 0.0
        lane_steps = []
        for s in by_episode.get(i, []):
            total += s.reward
            lane_steps.append(LaneStep(
                index=s.index, action=s.action, raw=s.raw, valid=s.valid,
                invalid_reason=s.invalid_reason, changed=s.changed,
                reward=None if hide else s.reward, cumulative=None if hide else total,
                state_hash=s.state_hash, frame=s.frame, think_ms=s.think_ms))
        lanes.append(Lane(episode_id=i, uid=h.uid, kind=who.kind, participant=who.name,
                          setting=h.setting, status=h.status,
                          end_reason=None if hide else h.end_reason,
                          solved=None if hide else solved.get(i),
                          start_frame=h.start_frame, start_state=h.start_state,
                          steps=tuple(lane_steps)))
    return Comparison(game=task.game, level_number=task.level_number, level_title=task.title,
                      level_hash=task.level_hash, lanes=tuple(lanes),
                      divergence=first_divergence(lanes), hidden=hidden)
