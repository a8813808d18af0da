"""An annotator's study queue as the Studies view shows and plays it (Qt-free).

A queue task is played with the play view's own machinery: a :class:`StudySession` is a
:class:`~playbench.app.ui.models.session.PlaySession` whose episode is run by
:meth:`StudyQueue.play`, so
the study's budget, setting, time limit, study tag and continue-where-you-paused rules apply,
while the board, the HUD and the key and mouse handling are those of every human episode.

Loading a queue reads (and, on a first visit, writes the annotator's recorded order), so the
view calls :func:`open_queue` and :func:`create_from_file` in an executor.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.app.core.events import EpisodeResult
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import (
    Progress,
    Protocol,
    ProtocolTask,
    QueueItem,
    StudyQueue,
    create_study,
    load_protocol,
    load_study_file,
)
from playbench.app.studies.consent import ConsentDue
from playbench.app.ui.models.records import EpisodeSummary, paused_study_episodes
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.wording import count
from playbench.db.store import Store

STATUS_TEXT = {"pending": "to do", "in_progress": "playing now", "interrupted": "paused",
               "done": "done"}


class StudySession(PlaySession):
    """One queue item played (or continued) by the annotator in the play view."""

    def __init__(self, store: Store, queue: StudyQueue, item: QueueItem, player: HumanPlayer,
                 clock: Callable[[], float] = time.monotonic, **env: Any) -> None:
        """``env`` (``env_factory``, ``spec``) as for :class:`PlaySession`: what the task's
        surface needs beyond a board game's own environment (the shared Chromium, say)."""
        plan = queue.plan(item)
        super().__init__(store, plan.task, plan.setting, plan.budget, player, seed=plan.seed,
                         meta=plan.meta, clock=clock, **env)
        self.queue = queue
        self.item = item
        self.study = plan.study
        self.continues = plan.resume_episode_id

    @property
    def blind(self) -> bool:
        return self.queue.blind

    @property
    def instructions(self) -> str:
        """The study's instructions (Markdown), which the Play tab shows again on request."""
        return self.queue.protocol.texts.instructions

    async def play(self) -> EpisodeResult:
        """Play the item through the queue: a new episode, or the paused one continued."""
        return await self.queue.play(self.item, self.player, listeners=[self._on_event],
                                     env_factory=self._make_env, clock=self.clock)


@dataclass(frozen=True)
class PauseState:
    """What the Play tab's pause button shows for the session being played."""

    visible: bool
    paused: bool
    text: str
    enabled: bool


def pause_state(session: StudySession | None, busy: bool) -> PauseState:
    """Pause while a study task runs, Continue once it was paused (interrupted); hidden for
    anything that is not a study task, disabled after a task ended otherwise."""
    if session is None:
        return PauseState(False, False, "Pause task", False)
    result = session.result
    paused = result is not None and result.status == "interrupted"
    if paused:
        return PauseState(True, True, "Continue task", True)
    return PauseState(True, False, "Pause task", busy and result is None)


@dataclass(frozen=True)
class QueueSnapshot:
    """An annotator's queue at one moment, with what the view prints above it."""

    queue: StudyQueue
    items: list[QueueItem]
    progress: Progress
    description: str
    due: ConsentDue | None = None
    """What the annotator must read and answer before their first task (consent screen)."""

    @property
    def next(self) -> QueueItem | None:
        return next((i for i in self.items if i.status != "done"), None)


def open_queue(store: Store, study: str, annotator: str,
               invite: str | None = None) -> QueueSnapshot:
    """The annotator's queue in ``study`` (recording their order on a first visit; raises
    ``NotAdmitted`` for someone the study does not admit - ``invite`` is their code)."""
    queue = StudyQueue(store, study, annotator, invite=invite)
    items = queue.items()
    return QueueSnapshot(queue, items, queue.progress(items), queue.protocol.description,
                         queue.consent_due())


def paused_task(store: Store, annotator: str | None,
                summaries: Sequence[EpisodeSummary]) -> tuple[str, str] | None:
    """The study and task key of the newest study task ``annotator`` paused and has not
    finished since (None when there is none), found among ``summaries``
    (:func:`~playbench.app.ui.models.records.list_episodes`), for the start-up prompt."""
    paused = paused_study_episodes(summaries, annotator)
    if not paused or not annotator:
        return None
    names = {store.study_id(n): n for n in store.study_names()}
    for episode in paused:
        name = names.get(episode.study_id) if episode.study_id is not None else None
        if name is None:
            continue
        item = open_queue(store, name, annotator).next
        if item is not None and item.status == "interrupted" and item.episode_id == episode.id:
            return name, item.key
    return None


def create_from_file(store: Store, path: str | Path) -> Protocol:
    """Check a study file and store the study. Raises ``StudyFileError`` (every problem, with
    its field) or ``StudyExists``; nothing is written in either case."""
    spec = load_study_file(Path(path))
    return create_study(store, spec)


def study_summary(store: Store, name: str) -> str:
    """One line about a stored study: tasks, practice, order, blinding."""
    p = load_protocol(store, name)
    parts = [count(len(p.scored), "task")]
    if p.practice:
        parts.append(f"{len(p.practice)} practice first")
    parts.append("same order for everyone" if p.order == "fixed"
                 else "own random order per annotator")
    if p.blind:
        parts.append("blind: no scores are shown")
    return " · ".join(parts)


def outcome_text(item: QueueItem) -> str:
    """What the queue says about a done item (nothing in blind studies)."""
    if item.status != "done" or item.solved is None:
        return ""
    n = item.steps
    steps = "" if n is None else f" in {count(n, 'action')}"
    return ("solved" if item.solved else "not solved") + steps


def budget_text(task: ProtocolTask) -> str:
    """A task's action budget in words (decisions for one-step settings)."""
    budget = task.budget_value
    if budget.max_actions is not None:
        return f"{budget.max_actions} actions"
    if budget.max_decisions is not None:
        n = budget.max_decisions
        return count(n, "submission")
    return "no limit"


def limit_text(seconds: float | None) -> str:
    if not seconds:
        return "none"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min" + (f" {s} s" if s else "") if m else f"{s} s"


def progress_text(p: Progress) -> str:
    text = f"{p.done} of {p.total} done"
    if p.practice_total:
        text += (f" (practice {p.practice_done}/{p.practice_total}, scored "
                 f"{p.scored_done}/{p.scored_total})")
    return text


def next_label(item: QueueItem | None) -> str:
    """The text of the queue's main button."""
    if item is None:
        return "All tasks done"
    what = f"{item.key} ({item.game} {item.level_number})"
    if item.status == "interrupted":
        return f"Continue paused task {what}"
    if item.status == "in_progress":
        return f"Back to task {what}"
    return f"Next task: {what}"
