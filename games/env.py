"""The environment protocol the loop drives, and the adapter that puts board games behind it.

Board games are synchronous inside (``playbench.games.base.BoardEnv``); browser environments are
asynchronous (Playwright). The loop (``playbench.app.core``) awaits both the same way. Every kind
makes
its own environment (``TaskKind.make_env``); ``playbench.games.kind.make_env`` looks the task's kind
up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from playbench.evaluators import board as board_metrics
from playbench.games.base import BoardEnv, GameSpec, MoveError, moves_left
from playbench.games.frame import Frame, as_frame
from playbench.games.types import Action, Observation, Setting, Task, Transition

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page


class Env(Protocol):
    """An environment as the loop sees it."""

    game: str

    async def reset(self, task: Task, seed: int) -> Observation: ...

    async def step(self, action: Action) -> Transition: ...

    def parse_action(self, text: str) -> Action:
        """The canonical action for a text; raises ``playbench.games.base.MoveError`` otherwise."""

    def vocabulary(self) -> list[str]:
        """Every action name a player may send (for random play and tool schemas)."""

    def legal_actions(self) -> list[str]: ...

    def snapshot(self) -> Any: ...

    async def restore(self, snapshot: Any) -> Observation:
        """Go back to a snapshot (undo); asynchronous because a browser has to navigate."""

    def state_hash(self) -> str: ...

    def oracle(self) -> list[str] | None:
        """An optimal plan from the current state as canonical texts, if the env knows one."""

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        """Metrics of the episode that ended in the current state (``end_reason``: why it
        ended, e.g. an early stop, which VWA scores as a ``stop`` with that reason)."""

    async def close(self) -> None: ...


@runtime_checkable
class AwaitsNext(Protocol):
    """An environment whose next observation is not known when a step is applied.

    An outside harness sends its next request only after it got the answer to the last one,
    and may never send one (it stopped, or it was killed). Such an env's ``step`` hands the
    answer over and returns at once, with the observation the action was taken on; the loop
    records the step and only then asks :meth:`advance` for what comes next. So an answered
    exchange is in the database even if nothing follows it."""

    async def advance(self) -> Observation | None:
        """The observation after the last step (its ``info["end_reason"]`` set when the
        episode ends there), or None when the step's own transition said it all."""


@runtime_checkable
class UsesSetting(Protocol):
    """An environment that plays differently per setting and is told which one before
    ``reset`` (browser games take their control interface and clock from it)."""

    def use_setting(self, setting: Setting) -> None: ...


class LivePage(Protocol):
    """A browser page session as a view streams it: the active tab and its context."""

    @property
    def page(self) -> Page: ...

    @property
    def context(self) -> BrowserContext: ...


@runtime_checkable
class ShowsPage(Protocol):
    """An environment playing in a live browser page that a person's view may stream."""

    @property
    def page_session(self) -> LivePage | None:
        """The page's session while one is open, else None."""


class Draft(Protocol):
    """What rendering a draft gave (:class:`LivePreview`): its score, screenshots, the
    reason the page failed as a whole, and notes on what went wrong."""

    @property
    def score(self) -> float: ...

    @property
    def frames(self) -> Sequence[np.ndarray | None]: ...

    @property
    def failure(self) -> str | None: ...

    @property
    def notes(self) -> Sequence[str]: ...


@runtime_checkable
class LivePreview(Protocol):
    """An environment that renders a person's draft without taking a step (WebUI's live
    render in Online settings)."""

    def preview_ready(self) -> bool:
        """Whether a draft can be rendered now (the task's targets are loaded)."""

    async def preview(self, files: Mapping[str, str]) -> Draft:
        """Render and score ``files`` without recording anything."""


class BoardTaskEnv:
    """A board game behind the async :class:`Env` protocol."""

    def __init__(self, spec: GameSpec, options: Mapping[str, str] | None = None,
                 render_options: Mapping[str, Any] | None = None, render: bool = True) -> None:
        self.spec = spec
        self.game = spec.name
        self.board: BoardEnv[Any, Any] = BoardEnv(spec, options, render_options)
        self.render_frames = render
        self.task: Task | None = None
        self._shown: tuple[Any, Frame] | None = None
        """The state and frame of the last observation (what the next frame is told from)."""

    def _observe(self) -> Observation:
        frame = None
        if self.render_frames:
            state, shown = self.board.state, self._shown
            pixels = self.board.render()
            if shown is None:
                frame = as_frame(pixels)
            else:  # say which rows can differ from the frame shown last (games/frame.py)
                frame = as_frame(pixels, since=shown[1],
                                 rows=self.board.changed_rows(shown[0], state))
            self._shown = (state, frame)
        return Observation(frame, self.board.text(), tuple(self.board.legal_actions()),
                           {"solved": self.board.solved()})

    async def reset(self, task: Task, seed: int) -> Observation:
        self.task = task
        self._shown = None  # another level: nothing to tell the first frame from
        self.board.reset(task.level)
        return self._observe()

    async def step(self, action: Action) -> Transition:
        out = self.board.step(action.move)
        return Transition(self._observe(), out.valid, out.changed, out.reward,
                          self.board.solved(), out.reason,
                          invalid_kind=None if out.valid else "illegal")

    def parse_action(self, text: str) -> Action:
        rules = self.board.rules
        move = rules.parse_move(text)
        return Action(rules.format_move(move), move)

    def vocabulary(self) -> list[str]:
        rules = self.board.rules
        vocab = getattr(rules, "vocabulary", None)
        if vocab is not None:
            return [rules.format_move(m) for m in vocab(self.board.state)]
        return self.board.legal_actions()

    def legal_actions(self) -> list[str]:
        return self.board.legal_actions()

    def snapshot(self) -> Any:
        return self.board.snapshot()

    async def restore(self, snapshot: Any) -> Observation:
        self.board.restore(snapshot)
        return self._observe()

    def state_hash(self) -> str:
        return self.board.state_hash()

    def oracle(self) -> list[str] | None:
        plan = self.spec.solve(self.board.rules, self.board.state, None)
        return None if plan is None else [self.board.rules.format_move(m) for m in plan]

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        assert self.task is not None
        level = self.task.level
        spec, rules = self.spec, self.board.rules
        reach = board_metrics.completion_reach(spec.completion_unit)
        solved = self.board.solved()
        left = 0 if solved else moves_left(spec, rules, self.board.state, reach)
        optimal = level.meta.get("optimal")
        if optimal is None:
            optimal = moves_left(spec, rules, rules.start(level))
        outcome = board_metrics.BoardOutcome(
            solved=solved, moves_left=left, optimal=optimal,
            completion_unit=spec.completion_unit,
            r_best=spec.r_best(rules, level) if spec.r_best is not None else None,
            one_step=setting.one_step,
            one_step_floor=spec.one_step_floor)
        facts = [board_metrics.StepFact(s.valid, s.changed, s.reward) for s in steps]
        return board_metrics.evaluate(facts, outcome)

    async def close(self) -> None:
        return None


__all__ = ["AwaitsNext", "BoardTaskEnv", "Draft", "Env", "LivePage", "LivePreview", "MoveError",
           "ShowsPage", "UsesSetting"]
