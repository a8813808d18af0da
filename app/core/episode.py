"""The episode runner: the one loop every player goes through.

    task -> env.reset -> [observation -> player.act -> action -> env.step -> record]
         until done or budget spent -> evaluate

The runner never asks who is playing. It counts every step against the same budget, records
each step (awaiting the recorder's commit, which runs off the event loop's thread) before asking
for the next decision, and ends with a status:
``done`` (solved, budget, gave up, early stop), ``interrupted`` (cancelled: Ctrl-C, app closed)
or ``error`` (the player or environment failed - an infrastructure fault, kept apart from
agent failures, which are invalid steps).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from playbench.app.core.budget import Budget, BudgetUse
from playbench.app.core.env import AwaitsNext, Env
from playbench.app.core.events import (
    Deciding,
    Ended,
    EpisodeEvent,
    EpisodeResult,
    Listener,
    Moved,
    Started,
    Stepped,
)
from playbench.app.core.owner import process_token
from playbench.app.core.player import PastStep, PlayContext, Player
from playbench.app.core.recorder import EpisodeStart, Recorder, StepRecord
from playbench.app.core.settings import Setting, undo_allowed
from playbench.app.core.task import Task
from playbench.app.core.types import Action, Decision, Invalid, Observation, Transition
from playbench.db.engine import DatabaseLost, DiskFull
from playbench.evaluators.agent import agent_metrics
from playbench.games.base import MoveError
from playbench.games.env import UsesSetting
from playbench.games.kind import KindError, UnknownKind, default_registry

log = logging.getLogger(__name__)


def read_move(env: Env, text: str) -> Action:
    """One move text as the loop reads it for a player: ``undo N`` as an undo action (whether
    the setting allows it is decided when it is played), anything else by the environment's
    parser. Raises ``MoveError`` for text that is not a move. ``playbench parse`` reads
    replies through this too, so the command and episodes cannot disagree."""
    words = text.strip().split()
    if len(words) == 2 and words[0].lower() == "undo":
        if not words[1].isdigit():
            raise MoveError(f"undo needs a step number, got {words[1]!r}", "malformed")
        return Action.undo(int(words[1]))
    return env.parse_action(text)


class ReplayMismatch(RuntimeError):
    """Re-applying recorded actions did not reproduce the recorded states."""


def _first_line(err: BaseException) -> str:
    """The first line of an error's message: Playwright appends the browser's whole log to
    its errors (hundreds of lines once Chromium is killed), which is no end reason."""
    text = str(err).strip()
    return text.splitlines()[0] if text else ""


def _error_text(err: BaseException) -> str:
    return f"error: {type(err).__name__}: {_first_line(err)}"[:300]


def _log_failure(what: str, err: BaseException, hint: str = "") -> None:
    """One line for the user naming the cause (and what to do); the traceback only in the
    verbose log (``-v``), where it helps a developer rather than alarming a user."""
    log.error("%s: %s: %s%s", what, type(err).__name__, _first_line(err), hint)
    log.info("traceback of the failure above", exc_info=err)


def _resume_hint(game: str, setting: str, episode_id: int) -> str:
    """What to tell a person whose episode failed: how to continue it, where the kind can
    rebuild it (its ``ReplaySpec``), else that it cannot be."""
    try:
        spec = default_registry().get(game).replay
    except (UnknownKind, KindError):
        return ""
    if spec.resumes(setting):
        return f"; continue it with `playbench run --resume {episode_id}`"
    return f"; it cannot be resumed: {spec.reason}"


class Episode:
    """Runs one task with one player under one budget and setting."""

    def __init__(self, env: Env, player: Player, task: Task, *, setting: Setting,
                 budget: Budget, recorder: Recorder, seed: int = 0, study: str | None = None,
                 listeners: Sequence[Listener] = (), clock: Callable[[], float] | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        self.env = env
        self.player = player
        self.task = task
        self.setting = setting
        self.budget = budget
        self.recorder = recorder
        self.seed = seed
        self.study = study
        self.listeners = list(listeners)
        self.clock = clock or time.monotonic
        self.meta = meta or {}
        self.episode_id = 0
        self.steps: list[StepRecord] = []
        self.use = BudgetUse(budget)
        self._snapshots: list[Any] = []
        self._observation: Observation | None = None
        self._feedback: str | None = None
        self._terminated = False
        self._end_hint: str | None = None
        self._first_text = ""
        """The first observation's text (shown at every step when ``setting.first_text``)."""
        self._decision = 0
        self._seconds_before = 0.0
        self._carry_ms = 0.0
        """Think time on the next decision spent before a resume; counted once."""

    def _configure_env(self) -> None:
        """Tell an environment that plays differently per setting which one this is (its
        ``use_setting``, :class:`~playbench.games.env.UsesSetting`: browser games take their
        interface and clock from it)."""
        if isinstance(self.env, UsesSetting):
            self.env.use_setting(self.setting)

    # -- public -------------------------------------------------------------------------------

    async def run(self) -> EpisodeResult:
        """Play a new episode from the start. An environment that cannot even start (a page
        that never loads, a broken task) gives an ``error`` episode naming the cause."""
        try:
            self._configure_env()
            obs = await self.env.reset(self.task, self.seed)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            _log_failure(f"cannot start {self.task.game} level {self.task.level.number}", err)
            self._start_hash = ""
            self.episode_id = await self.recorder.begin(self._start_record(), None)
            return await self._finish("error", _error_text(err), {})
        self._start_from(obs)
        begin = asyncio.ensure_future(self.recorder.begin(self._start_record(), obs.frame))
        try:
            self.episode_id = await asyncio.shield(begin)
        except asyncio.CancelledError:  # stopped while the record was being made: end it too
            self.episode_id = await begin
            await self._finish("interrupted", "interrupted", {})
            raise
        return await self._play(resumed=0)

    async def resume(self, episode_id: int, records: Sequence[StepRecord],
                     carried_ms: float = 0.0) -> EpisodeResult:
        """Continue a recorded episode after its last step (the state is rebuilt by
        re-applying the recorded actions, each checked against its recorded state hash).
        ``carried_ms`` is think time already spent on the next decision (saved on pause or
        before a crash): it counts against the time limit and goes into that step's
        ``think_ms``, so pausing gives no time back."""
        self._configure_env()
        obs = await self.env.reset(self.task, self.seed)
        self._start_from(obs)
        self.episode_id = episode_id
        for rec in records:
            if rec.decision >= self._decision:
                self._recall()
            self._observation = await self._reapply(rec)
            self.steps.append(rec)
        self._carry_ms = max(0.0, carried_ms)
        self._seconds_before += self._carry_ms / 1000.0
        await self.recorder.resume(episode_id, process_token())
        return await self._play(resumed=len(records))

    # -- set-up -------------------------------------------------------------------------------

    def _start_from(self, obs: Observation) -> None:
        self._observation = obs
        self._first_text = obs.text
        self._snapshots = [self.env.snapshot()]
        self._start_hash = self.env.state_hash()

    def _start_record(self) -> EpisodeStart:
        lv = self.task.level
        return EpisodeStart(
            game=self.task.game, level_hash=lv.content_hash, level_text=lv.text,
            level_number=lv.number, level_title=lv.title, level_source=self.task.source,
            level_meta=dict(lv.meta), participant_kind=self.player.kind,
            participant_name=self.player.name, participant_details=self.player.details(),
            setting=self.setting.name, player=self.player.spec, budget=self.budget.to_dict(),
            rules=dict(self.task.options), seed=self.seed, owner=process_token(),
            start_state=self._start_hash, study=self.study, meta=self.meta)

    def _recall(self) -> None:
        """Show the player, while a resume replays the record, what it was shown before the
        recorded decision about to be re-applied (its optional ``recall(observation,
        context)``): a model whose prompt keeps earlier observations (MageBench's observation
        memory, WebUI's earlier renders) then holds the ones an uninterrupted episode would."""
        recall = getattr(self.player, "recall", None)
        if callable(recall):
            try:
                recall(self._shown(), self._context())
            except Exception:  # memory only: a failing recall must not stop the resume
                log.exception("player recall failed")

    async def _reapply(self, rec: StepRecord) -> Observation:
        assert self._observation is not None
        obs = self._observation
        if (rec.action is not None and rec.valid) or rec.invalid_kind == "illegal":
            action = self._parse_recorded(rec.action)
            tr = await self._execute(action)
            obs = tr.observation
            self._note_goal(tr)
        self._snapshots.append(self.env.snapshot())
        if self.env.state_hash() != rec.state_hash:
            raise ReplayMismatch(
                f"step {rec.index}: state {self.env.state_hash()} after {rec.action!r}, "
                f"recorded {rec.state_hash}")
        if rec.decision >= self._decision:
            self._decision = rec.decision + 1
            # A decision was readable if any of its steps carried an action; the first
            # step decides for plans that start with an unreadable entry (rare, harmless).
            self.use.count_decision(readable=rec.action is not None)
        self.use.count_step(rec.action, rec.valid)
        self._seconds_before += rec.think_ms / 1000.0
        self._feedback = rec.invalid_reason
        return obs

    def _parse_recorded(self, text: str | None) -> Action:
        if text is None:
            raise ReplayMismatch("a recorded illegal step has no action text")
        if text.startswith("undo "):
            return Action.undo(int(text.split()[1]))
        return self.env.parse_action(text)

    # -- the loop -----------------------------------------------------------------------------

    def _emit(self, event: EpisodeEvent) -> None:
        for fn in self.listeners:
            try:
                fn(event)
            except Exception:  # a broken listener must not lose the episode
                log.exception("episode listener failed")

    async def _play(self, resumed: int) -> EpisodeResult:
        assert self._observation is not None
        self._emit(Started(self.episode_id, self._observation, resumed, tuple(self.steps),
                           carried=self._carry_ms / 1000.0))
        started = self.clock()
        status, reason = "done", None
        try:
            while True:
                self.use.seconds = self._seconds_before + (self.clock() - started)
                reason = "solved" if self._terminated and not self._end_hint else self._end_hint
                reason = reason or self.use.stop_reason()
                if reason:
                    break
                decision, think_ms = await self._decide()
                if decision is None:
                    reason = "time"
                    break
                if decision.give_up:
                    reason = "gave_up"
                    break
                self.use.count_decision(decision.readable)
                entries = decision.entries or (Invalid("no_action", "the answer held no action",
                                                       decision.raw),)
                for i, entry in enumerate(entries):
                    if ((self._terminated and self.setting.stop_at_goal)
                            or self.use.actions_left() == 0):
                        break
                    await self._take(entry, decision, first=i == 0, think_ms=think_ms)
                self._decision += 1
        except asyncio.CancelledError:
            await self._finish("interrupted", "interrupted", {})
            raise
        except (DiskFull, DatabaseLost) as err:
            # Nothing more can be recorded safely (a full disk, or another program took the
            # database's WAL away): the whole run stops, naming the episode to resume.
            raise type(err)(f"{err}, then continue episode {self.episode_id} with "
                            f"`playbench run --resume {self.episode_id}`") from None
        except Exception as err:  # infrastructure failure: keep the steps, mark the episode
            _log_failure(f"episode {self.episode_id} ended with an error", err,
                         _resume_hint(self.task.game, self.setting.name, self.episode_id))
            return await self._finish("error", _error_text(err), {})
        scores = {**await self.env.score(self.steps, self.setting, end_reason=reason),
                  **agent_metrics(self.steps)}
        return await self._finish(status, reason, scores)

    def _shown(self) -> Observation:
        """What the player is shown: the current observation, with the first one's text where
        the setting says so (a compatibility variant, :mod:`playbench.games.compat`)."""
        assert self._observation is not None
        if self.setting.first_text and self._observation.text != self._first_text:
            return dataclasses.replace(self._observation, text=self._first_text)
        return self._observation

    def _note_goal(self, tr: Transition) -> None:
        """Follow the goal after a step: reaching it ends the episode, except in a one-step
        setting that plays on past the goal (``stop_at_goal`` off), where the state after the
        last entry decides."""
        if tr.terminated:
            self._terminated = True
            obs = tr.observation
            self._end_hint = (obs.info or {}).get("end_reason") if obs else None
        elif not self.setting.stop_at_goal and tr.valid:
            self._terminated = False
            self._end_hint = None

    async def _decide(self) -> tuple[Decision | None, float]:
        """Ask the player, within the per-action and overall time limits.

        Which limit ran out is known before the wait starts (the smaller one), so the outcome
        never depends on what the clock reads afterwards: the overall limit ends the episode on
        ``time`` (None), the per-action limit makes an invalid ``timeout`` step. A tie goes to
        the overall limit. A ``TimeoutError`` the player raises itself is not a time limit."""
        assert self._observation is not None
        ctx = self._context()
        shown = self._shown()
        self._emit(Deciding(self.episode_id, ctx, shown))
        per_action, overall = self.budget.action_seconds, ctx.seconds_left
        carry, self._carry_ms = self._carry_ms, 0.0
        t0 = self.clock()
        if per_action is None and overall is None:
            decision = await self.player.act(shown, ctx)
            return decision, (self.clock() - t0) * 1000.0 + carry
        overall_first = per_action is None or (overall is not None and overall <= per_action)
        limit = overall if overall_first else per_action
        assert limit is not None
        try:
            async with asyncio.timeout(limit) as deadline:
                decision = await self.player.act(shown, ctx)
        except TimeoutError:
            if not deadline.expired():
                raise
            think = (self.clock() - t0) * 1000.0 + carry
            if overall_first:
                return None, think
            return Decision.invalid("timeout", f"no action within {limit:g} s"), think
        return decision, (self.clock() - t0) * 1000.0 + carry

    def _context(self) -> PlayContext:
        return PlayContext(
            task=self.task, setting=self.setting, step=len(self.steps),
            decision=self._decision, actions_left=self.use.actions_left(),
            decisions_left=self.use.decisions_left(), seconds_left=self.use.seconds_left(),
            feedback=self._feedback,
            history=[PastStep(s.index, s.decision, s.action, s.raw, s.valid, s.invalid_reason)
                     for s in self.steps] if self.setting.history_kept else [],
            parse=self._parse_for_player, vocabulary=self.env.vocabulary,
            oracle=self.env.oracle, seed=self.seed)

    def _parse_for_player(self, text: str) -> Action:
        """Players parse through here (:func:`read_move`)."""
        return read_move(self.env, text)

    async def _execute(self, action: Action) -> Transition:
        """Apply a move or an undo. An invalid transition names its kind (the env's for a
        move; ``illegal`` if an env leaves it out)."""
        assert self._observation is not None
        if action.kind == "undo":
            n = action.target if action.target is not None else -1
            if not undo_allowed(self.setting, self.task.game):
                return Transition(self._observation, False, False, reason="undo is not "
                                  "available in this setting", invalid_kind="not_allowed")
            if not 0 <= n < len(self._snapshots):
                return Transition(self._observation, False, False, reason=(
                    f"undo {n}: there is no step {n} to return to "
                    f"(0..{len(self._snapshots) - 1})"), invalid_kind="illegal")
            if not self.setting.undo_restores:  # a compatibility variant: accepted, no effect
                return Transition(self._observation, True, False)
            before = self.env.state_hash()
            obs = await self.env.restore(self._snapshots[n])
            return Transition(obs, True, self.env.state_hash() != before)
        tr = await self.env.step(action)
        if not tr.valid and tr.invalid_kind is None:
            tr = dataclasses.replace(tr, invalid_kind="illegal")
        return tr

    async def _take(self, entry: Action | Invalid, decision: Decision, *, first: bool,
                    think_ms: float) -> None:
        obs = self._observation
        assert obs is not None
        kind: str | None
        why: str | None
        env_info: dict[str, Any] = {}  # what the env reports about the step (web: blocked)
        if isinstance(entry, Invalid):
            action_text, valid, changed, reward = None, False, False, 0.0
            kind, why = entry.kind, entry.reason
        else:
            tr = await self._execute(entry)
            obs, valid, changed, reward, why = (tr.observation, tr.valid, tr.changed,
                                                tr.reward, tr.reason)
            action_text = entry.text
            env_info = dict(tr.info or {})
            kind = None if valid else tr.invalid_kind
            self._note_goal(tr)
        self._snapshots.append(self.env.snapshot())
        self._emit(Moved(self.episode_id, len(self.steps), obs))
        usage = decision.usage
        info: dict[str, Any] = dict(decision.info) if first else {}
        if first and decision.reasoning:
            info["reasoning"] = decision.reasoning
        info.update(env_info)
        record = StepRecord(
            index=len(self.steps), decision=self._decision, action=action_text,
            raw=decision.raw if first else "", valid=valid, invalid_kind=kind,
            invalid_reason=why if not valid else None, changed=changed, reward=reward,
            state_hash=self.env.state_hash(), think_ms=round(think_ms, 3) if first else 0.0,
            prompt_tokens=usage.prompt_tokens if first else 0,
            completion_tokens=usage.completion_tokens if first else 0,
            cost=usage.cost if first else 0.0,
            latency_ms=round(usage.latency_ms, 3) if first else 0.0, info=info)
        await self.recorder.step(self.episode_id, record, obs.frame)
        self.steps.append(record)
        self.use.count_step(action_text, valid)
        self._observation = obs
        self._feedback = record.invalid_reason
        self._emit(Stepped(self.episode_id, record, obs, decision))
        if isinstance(self.env, AwaitsNext):
            # Only now, with the step committed, wait for what follows it (an outside
            # harness's next request may never come).
            following = await self.env.advance()
            if following is not None:
                self._observation = following
                end = (following.info or {}).get("end_reason")
                if end:
                    self._terminated, self._end_hint = True, str(end)

    async def _finish(self, status: str, reason: str | None,
                      scores: dict[str, float | None]) -> EpisodeResult:
        await self.recorder.finish(self.episode_id, status, reason, scores)
        result = EpisodeResult(self.episode_id, status, reason, scores, list(self.steps))
        self._emit(Ended(self.episode_id, result))
        return result
