"""An annotator's queue through a study: which task is next, progress, pause and continue.

Nothing about the queue lives in memory between sessions. The order is drawn once from a seed
and recorded with the annotator's membership (``study_members``); each item's state is read from
the episodes the annotator recorded in the study. Closing the app mid-task leaves an
``interrupted`` episode, which the queue offers to continue (the loop re-applies the recorded
steps and restores the time already used); another day, on another machine with the same
shared database, the queue is the same.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.events import EpisodeResult, Listener
from playbench.app.core.owner import is_alive
from playbench.app.core.play import EnvFactory, play
from playbench.app.core.player import Player
from playbench.app.core.recorder import DbRecorder, Recorder
from playbench.app.core.runs import resume_episode
from playbench.app.core.settings import Setting
from playbench.app.core.task import Task
from playbench.app.studies.admission import admit
from playbench.app.studies.consent import ConsentDue, ConsentNeeded, accept, member_due
from playbench.app.studies.protocol import (
    Protocol,
    ProtocolTask,
    load_protocol,
    play_task,
    task_ids,
)
from playbench.app.studies.timekeeping import ThinkKeeper
from playbench.db.episodes import score_of
from playbench.db.store import Store
from playbench.db.studies import MemberEpisode, member_episodes

HUMAN = "human"


class QueueError(RuntimeError):
    """The queue cannot do what was asked (e.g. play a task that is done)."""


class NoConsentYet(QueueError, ConsentNeeded):
    """A person's task cannot start before they did what the study asks first (read its
    instructions, accept its consent text, answer "seen before?")."""


@dataclass(frozen=True)
class QueueItem:
    """One task in an annotator's queue and where they are with it."""

    position: int
    """1-based place in this annotator's order (practice tasks come first)."""
    key: str
    practice: bool
    game: str
    level_number: int
    level_title: str
    setting: str
    time_limit: float | None
    status: str
    """``pending``, ``in_progress`` (a live session is playing it), ``interrupted`` (paused
    or crashed: continue it) or ``done``."""
    episode_id: int | None
    solved: float | None = None
    """Outcome of a done item; None in blind studies."""
    steps: int | None = None


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    practice_done: int
    practice_total: int
    scored_done: int
    scored_total: int

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0

    @property
    def finished(self) -> bool:
        return self.done == self.total


@dataclass(frozen=True)
class PlayPlan:
    """Everything needed to start (or continue) one queue item."""

    item: QueueItem
    task: Task
    setting: Setting
    budget: Budget
    seed: int
    study: str
    meta: dict[str, Any] = field(default_factory=dict)
    resume_episode_id: int | None = None


def annotator_seed(study_seed: int | None, annotator: str) -> int:
    """The seed an annotator's order is drawn from: derived from the study's seed when the
    file gives one (reproducible), otherwise fresh; recorded either way."""
    if study_seed is None:
        return secrets.randbelow(2 ** 31)
    digest = hashlib.sha256(f"{study_seed}:{annotator}".encode()).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def task_order(protocol: Protocol, seed: int) -> list[str]:
    """Practice keys as listed, then scored keys as listed or shuffled by ``seed``."""
    scored = [t.key for t in protocol.scored]
    if protocol.order == "random":
        random.Random(seed).shuffle(scored)
    return [t.key for t in protocol.practice] + scored


class StudyQueue:
    """The queue of one participant (by default a human annotator) in one study.

    Opening it records the participant's membership (seed and order) on first use; a person
    must be admitted first when the study has a roster or invite codes (``invite``: the code
    they were given; ``admission.NotAdmitted`` otherwise).
    """

    def __init__(self, store: Store, study: str, annotator: str, *, kind: str = HUMAN,
                 invite: str | None = None) -> None:
        self.store = store
        self.protocol: Protocol = load_protocol(store, study)
        self.annotator = annotator
        self.kind = kind
        self.participant_id = store.participant(kind, annotator)
        if kind == HUMAN and (self.protocol.roster or self.protocol.invites) and \
                not store.is_study_member(self.protocol.id, self.participant_id):
            admit(store, self.protocol, annotator, invite)  # raises NotAdmitted
        member = store.study_member(
            self.protocol.id, self.participant_id,
            lambda: self._draw(annotator_seed(self.protocol.seed, annotator)))
        self.seed = member.seed
        known = {t.key for t in self.protocol.tasks}
        order = [k for k in member.task_order if k in known]
        self.order = order + [t.key for t in self.protocol.tasks if t.key not in order]
        self._task_ids = task_ids(store, self.protocol)

    def _draw(self, seed: int) -> tuple[int, list[str]]:
        return seed, task_order(self.protocol, seed)

    @property
    def blind(self) -> bool:
        return self.protocol.blind

    # -- reading ------------------------------------------------------------------------------

    def _episodes(self) -> list[MemberEpisode]:
        return member_episodes(self.store.db, self.protocol.id, self.participant_id)

    def _solved(self, episode_ids: Sequence[int]) -> dict[int, float | None]:
        return score_of(self.store.db, episode_ids, "solved")

    def _match(self, entry: ProtocolTask, row: MemberEpisode) -> bool:
        key = (row.meta or {}).get("study_task")
        if key is not None:
            return key == entry.key
        return (row.task_id == self._task_ids.get(entry.key) and row.setting == entry.setting
                and bool(row.practice) == entry.practice)

    def items(self) -> list[QueueItem]:
        """Every task in this annotator's order with its state, derived from the database."""
        self.store.mark_interrupted(is_alive)
        rows = self._episodes()
        states: dict[str, tuple[str, Any]] = {}
        for key in self.order:
            entry = self.protocol.task(key)
            mine = [r for r in rows if self._match(entry, r)]
            done = [r for r in mine if r.status == "done"]
            if done:
                states[key] = ("done", done[0])
            elif mine:
                last = mine[-1]
                states[key] = ("in_progress" if last.status == "running" else "interrupted",
                               last)
            else:
                states[key] = ("pending", None)
        solved = {} if self.blind else self._solved(
            [r.id for s, r in states.values() if s == "done"])
        out = []
        for pos, key in enumerate(self.order, 1):
            entry = self.protocol.task(key)
            status, row = states[key]
            show = status == "done" and not self.blind
            out.append(QueueItem(
                position=pos, key=key, practice=entry.practice, game=entry.game,
                level_number=entry.level_number, level_title=entry.level_title,
                setting=entry.setting, time_limit=entry.time_limit, status=status,
                episode_id=row.id if row is not None else None,
                solved=solved.get(row.id) if show else None,
                steps=row.n_steps if show else None))
        return out

    def progress(self, items: Sequence[QueueItem] | None = None) -> Progress:
        items = self.items() if items is None else items
        practice = [i for i in items if i.practice]
        scored = [i for i in items if not i.practice]
        return Progress(done=sum(i.status == "done" for i in items), total=len(items),
                        practice_done=sum(i.status == "done" for i in practice),
                        practice_total=len(practice),
                        scored_done=sum(i.status == "done" for i in scored),
                        scored_total=len(scored))

    def next(self) -> QueueItem | None:
        """The first item not done (an interrupted one is continued), or None when finished."""
        for item in self.items():
            if item.status != "done":
                return item
        return None

    # -- before the first task ----------------------------------------------------------------

    def consent_due(self) -> ConsentDue:
        """What this member still has to do before a task may start (never anything for a
        model or scripted player)."""
        due = member_due(self.store.db, self.protocol.id, self.protocol.name,
                         self.protocol.texts, self.participant_id)
        if self.kind != HUMAN:
            return ConsentDue(due.study, due.texts, False, False, False)
        return due

    def accept(self, *, consent: bool, seen_before: bool | None) -> None:
        """Record that the member read the instructions, accepted the consent text and
        answered "seen before?" (``app.studies.consent.accept``; raises ``ConsentNeeded``
        with nothing stored when the consent is declined or the question unanswered)."""
        accept(self.store.db, self.protocol.id, self.consent_due(), self.participant_id,
               consent=consent, seen_before=seen_before)

    # -- playing ------------------------------------------------------------------------------

    def plan(self, item: QueueItem) -> PlayPlan:
        """What the play view needs to start this item (or continue its episode). Refused
        (:class:`NoConsentYet`) for a person who has not done what the study asks first."""
        due = self.consent_due()
        if due.pending:
            raise NoConsentYet(due.reason())
        if item.status == "done":
            raise QueueError(f"{item.key} ({item.game} level {item.level_number}) is done")
        if item.status == "in_progress":
            raise QueueError(f"{item.key} is being played in another session (episode "
                             f"{item.episode_id})")
        entry = self.protocol.task(item.key)
        return PlayPlan(item=item, task=play_task(self.store, entry),
                        setting=entry.setting_value(), budget=entry.budget_value,
                        seed=0, study=self.protocol.name,
                        meta={"study_task": entry.key, "practice": entry.practice},
                        resume_episode_id=item.episode_id if item.status == "interrupted"
                        else None)

    async def play(self, item: QueueItem, player: Player, recorder: Recorder | None = None,
                   listeners: Sequence[Listener] = (),
                   env_factory: EnvFactory | None = None,
                   clock: Callable[[], float] | None = None) -> EpisodeResult:
        """Play (or continue) ``item`` with ``player`` through the one episode loop.
        ``clock`` replaces the loop's monotonic clock (a pausable one in the play view)."""
        if player.kind != self.kind or player.name != self.annotator:
            raise QueueError(f"this queue belongs to {self.kind}:{self.annotator}, not "
                             f"{player.kind}:{player.name}")
        plan = self.plan(item)
        recorder = recorder or DbRecorder(self.store)
        clock = clock or time.monotonic
        # The time on the decision in flight is saved too: pausing or a crash gives none back.
        listeners = [*listeners, ThinkKeeper(self.store.db, clock)]
        if plan.resume_episode_id is not None:
            return await resume_episode(self.store, plan.resume_episode_id, player, recorder,
                                        listeners, env_factory=env_factory, clock=clock)
        return await play(plan.task, player, setting=plan.setting, budget=plan.budget,
                          recorder=recorder, seed=plan.seed, study=plan.study,
                          listeners=listeners, meta=plan.meta, clock=clock,
                          make_env=env_factory)
