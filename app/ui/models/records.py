"""Recorded episodes as the episode viewer and the resume prompt show them.

:class:`EpisodeRecord` loads one episode's steps and works out, for every step, what the
viewer's scrubber shows beside the frame: the action, the raw input or reply, validity, the
budget used and the reward (score) so far.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from playbench.app.core.budget import Budget
from playbench.app.studies import Viewer
from playbench.db.interrupted import ABANDONED, abandon_episode
from playbench.db.steps import StoredStep
from playbench.db.store import EpisodeRow, Store
from playbench.games.kind import KindError, Registry, UnknownKind, default_registry

RESUMABLE = ("interrupted", "error")


@dataclass(frozen=True)
class EpisodeSummary:
    id: int
    game: str
    level: str
    participant_kind: str
    participant: str
    player: str
    setting: str
    status: str
    end_reason: str | None
    steps: int
    solved: bool | None
    started: datetime | None
    study_id: int | None = None
    blinded: bool = False
    """An annotator's own episode of a blind study: outcome and scores are not shown."""
    kind_resumable: bool = True
    """Whether the task's kind can rebuild an episode of this setting step by step
    (``TaskKind.replay``; not for live web sites, nor for browser games in real time)."""

    @property
    def resumable(self) -> bool:
        return self.status in RESUMABLE and self.kind_resumable

    @property
    def who(self) -> str:
        return f"{self.participant} ({self.participant_kind})"


def kind_resumable(game: str, registry: Registry | None = None,
                   setting: str = "default") -> bool:
    """Whether episodes of ``game`` played in ``setting`` can be resumed (False for a kind
    that is not installed)."""
    kinds = registry if registry is not None else default_registry()
    try:
        return kinds.get(game).replay.resumes(setting)
    except (UnknownKind, KindError):
        return False


def summary_of(row: EpisodeRow, registry: Registry | None = None) -> EpisodeSummary:
    ep, task, who = row.episode, row.task, row.participant
    solved = row.scores.get("solved")
    source = (task.source or task.game).rsplit("/", 1)[-1]
    title = task.title or f"level {task.level_number}"
    level = title if title.startswith(source) else f"{source} #{task.level_number}: {title}"
    return EpisodeSummary(
        id=ep.id, game=task.game, level=level, participant_kind=who.kind,
        participant=who.name, player=ep.player or "",
        setting=ep.setting or "default", status=ep.status, end_reason=ep.end_reason,
        steps=ep.n_steps or 0, solved=None if solved is None else bool(solved),
        started=ep.started, study_id=ep.study_id,
        kind_resumable=kind_resumable(task.game, registry, ep.setting or "default"))


def list_episodes(store: Store, limit: int = 1000) -> list[EpisodeSummary]:
    """The newest episodes first."""
    return [summary_of(r) for r in store.episodes(limit=limit)]


def for_viewer(summaries: Sequence[EpisodeSummary], viewer: Viewer,
               blind_ids: Collection[int]) -> list[EpisodeSummary]:
    """What ``viewer`` may see of the episode list (``playbench.app.studies.access``):
    ``blind_ids`` are the studies hidden from it (``hidden_study_ids``); an annotator sees
    no one else's episodes of those, and their own without the outcome."""
    if not blind_ids:
        return list(summaries)
    out = []
    for s in summaries:
        if s.study_id not in blind_ids:
            out.append(s)
        elif viewer.is_annotator and s.participant_kind == "human" \
                and s.participant == viewer.annotator:
            out.append(replace(s, solved=None, blinded=True))
    return out


def resumable(store: Store, limit: int = 1000) -> list[EpisodeSummary]:
    """Episodes that were interrupted or failed and whose kind can continue them."""
    return [s for s in list_episodes(store, limit) if s.resumable]


def _left_mid_way(s: EpisodeSummary) -> bool:
    """Interrupted (the app closed, Pause, a crash) and not discarded from the prompt."""
    return s.status == "interrupted" and s.end_reason != ABANDONED


def offered_at_start(summaries: Sequence[EpisodeSummary]) -> list[EpisodeSummary]:
    """What the start-up prompt offers to continue, of ``summaries`` (:func:`list_episodes`):
    interrupted episodes with at least one step, not abandoned, outside studies (a study task
    continues from its queue, with its clock). Failed and empty ones stay resumable from
    Episodes but are not pressed on the person at every start."""
    return [s for s in summaries
            if s.resumable and _left_mid_way(s) and s.steps > 0 and s.study_id is None]


def paused_study_episodes(summaries: Sequence[EpisodeSummary],
                          annotator: str | None) -> list[EpisodeSummary]:
    """``annotator``'s study tasks of ``summaries`` that stopped mid-way, newest first: the
    start-up prompt offers to continue them through their study's queue."""
    return [s for s in summaries
            if annotator and _left_mid_way(s) and s.study_id is not None
            and s.participant == annotator and s.participant_kind == "human"]


def abandon(store: Store, episode_id: int) -> bool:
    """Discard ``episode_id`` from the prompt: recorded as abandoned, nothing deleted."""
    return abandon_episode(store.db, episode_id)


@dataclass(frozen=True)
class StepView:
    """One recorded step with the running totals the viewer shows."""

    index: int
    decision: int
    action: str | None
    raw: str
    valid: bool
    invalid_kind: str | None
    invalid_reason: str | None
    changed: bool
    reward: float
    think_ms: float
    tokens: int
    cost: float
    reasoning: str | None
    frame: str | None
    reward_so_far: float
    used_so_far: int
    invalid_so_far: int

    @property
    def validity(self) -> str:
        if self.valid:
            return "valid" if self.changed else "valid (no change)"
        return f"invalid: {self.invalid_kind}"


def step_views(steps: Sequence[StoredStep], invalid_cost: int = 1) -> list[StepView]:
    out: list[StepView] = []
    reward = 0.0
    used = invalid = 0
    for s in steps:
        reward += s.reward or 0.0
        used += 1 if s.valid else invalid_cost
        invalid += 0 if s.valid else 1
        info = dict(s.info or {})
        out.append(StepView(
            index=s.index, decision=s.decision, action=s.action, raw=s.raw or "",
            valid=s.valid, invalid_kind=s.invalid_kind, invalid_reason=s.invalid_reason,
            changed=s.changed, reward=s.reward or 0.0, think_ms=s.think_ms or 0.0,
            tokens=(s.prompt_tokens or 0) + (s.completion_tokens or 0), cost=s.cost or 0.0,
            reasoning=info.get("reasoning"), frame=s.frame, reward_so_far=reward,
            used_so_far=used, invalid_so_far=invalid))
    return out


class EpisodeRecord:
    """One recorded episode, loaded for step-by-step viewing."""

    def __init__(self, store: Store, episode_id: int) -> None:
        self.store = store
        self.row = store.episode(episode_id)
        self.summary = summary_of(self.row)
        ep = self.row.episode
        try:
            budget = Budget.from_dict(ep.budget or {})
        except ValueError:
            budget = Budget()
        self.budget = budget
        self.steps = step_views(store.steps(episode_id), budget.invalid_cost)
        self.start_frame: str | None = ep.start_frame
        self.scores = dict(self.row.scores)
        self.annotator = (ep.meta or {}).get("annotator")
        self._png: dict[str, bytes] = {}

    @property
    def id(self) -> int:
        return self.summary.id

    def frame_hash(self, position: int) -> str | None:
        """Frame after step ``position - 1``; position 0 is the start."""
        if position <= 0:
            return self.start_frame
        return self.steps[position - 1].frame or self.frame_hash(position - 1)

    def frame_png(self, position: int) -> bytes | None:
        digest = self.frame_hash(position)
        if digest is None:
            return None
        if digest not in self._png:
            self._png[digest] = self.store.frame_png(digest)
        return self._png[digest]
