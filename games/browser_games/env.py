"""One browser-game episode: Chromium through Playwright, GameWorld's step loop.

Each step (docs/reference/browser-games.md, "Step loop"): the game is paused while the player
decides; ``step`` resumes it, executes the action for its bound duration (a held key, a wait, a
click followed by the role's hold duration), pauses it again, reads ``gameAPI.getState()``,
evaluates, and takes the screenshot the next decision sees. So the frame, the state and the
score a player is shown all belong to the same frozen moment, and a model's thinking time is
not game time. In the real-time variant (a setting, GameWorld-RT) nothing is paused: the game
runs on while the player decides.

Scoring reads state, never pixels: the task's ``score_field`` (a dotted path into getState())
gives the score; the best score so far gives progress and success
(:mod:`playbench.evaluators.browser_games`). A failed terminal state with ``continue_on_fail``
resets the game and play goes on with the same step budget and the best score kept.

The browser is launched by :class:`playbench.games.browser.browser.Browser` (or shared through
``EnvServices.extra["browser"]``); each episode gets a fresh context whose network reaches
only the game server, with the seed and the page control script (``inject/control.js``) added
before any page script runs. Every page call is bounded (:meth:`PageSession.answer`).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from playbench.evaluators import browser_games as metrics
from playbench.games.base import MoveError
from playbench.games.browser.browser import Browser
from playbench.games.browser.session import BrowserError, PageSession, SessionOptions, bounded
from playbench.games.browser_games.catalog import Catalog, GameSpec, TaskSpec, lookup
from playbench.games.browser_games.controls import (
    SEMANTIC,
    Command,
    ControlError,
    Controls,
    tool_specs,
)
from playbench.games.browser_games.modes import mode_of
from playbench.games.browser_games.page import GamePage, control_script
from playbench.games.browser_games.server import StaticServer
from playbench.games.browser_games.tasks import KIND_NAME, TaskRef, task_ref
from playbench.games.types import Action, Observation, Setting, Task, Transition

log = logging.getLogger(__name__)

DEFAULT_MEMORY = 2
"""Earlier rounds re-sent to a model (GameWorld's default, docs/reference/browser-games.md)."""

def settled_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a state that the same seed and actions must reproduce: everything but the
    wall-clock fields (``timestampMs``, ``gameTimeMs``, ``debug``)."""
    return {k: v for k, v in state.items() if k not in ("timestampMs", "gameTimeMs", "debug")}


@dataclass
class Progress:
    """What an episode has reached so far (kept across resets)."""

    start: float
    target: float
    best: float | None = None
    score: float | None = None
    resets: int = 0
    proposed: int = 0
    valid: int = 0

    @property
    def progress(self) -> float:
        return metrics.progress(self.best, self.start, self.target)

    @property
    def success(self) -> bool:
        return metrics.success(self.best, self.start, self.target)


@dataclass
class EnvConfig:
    """How episodes are played: the interface, real time or paused, memory for models."""

    interface: str = SEMANTIC
    realtime: bool = False
    memory: int = DEFAULT_MEMORY
    load_timeout_ms: float = 30_000
    action_timeout_ms: float = 10_000
    frame_format: str = "png"
    """``png`` or ``jpeg``: how the page's screenshot is taken (see :meth:`frame`)."""


CLOSE_SECONDS = 10.0
"""How long closing a context or a browser may take: a Chromium that stopped answering never
confirms, and the episode's end (and the next episode) must not wait for it."""


async def _within(aw: Any, what: str) -> None:
    """Close ``what`` by awaiting ``aw`` for at most :data:`CLOSE_SECONDS`; a close that fails
    or never returns is logged and given up (the process is left to end on its own)."""
    try:
        await asyncio.wait_for(aw, CLOSE_SECONDS)
    except Exception as err:  # gone already, or hung
        log.warning("%s did not close cleanly (%s); going on without it", what,
                    str(err).splitlines()[0][:200] if str(err) else type(err).__name__)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and value == value:
        return float(value)
    return None


class BrowserGameEnv:
    """The ``browser-games`` environment (see the module docstring)."""

    game = KIND_NAME

    def __init__(self, *, browser: Browser | None = None, config: EnvConfig | None = None,
                 render: bool = True) -> None:
        self.config = config or EnvConfig()
        self.render_frames = render
        self._shared_browser = browser
        self._browser: Browser | None = browser
        self.session: PageSession | None = None
        self.server: StaticServer | None = None
        self.ref: TaskRef | None = None
        self.spec: GameSpec | None = None
        self.task_spec: TaskSpec | None = None
        self.controls: Controls | None = None
        self.progress: Progress | None = None
        self.state: dict[str, Any] = {}
        self.seed = 0
        self.page: GamePage | None = None
        """The open page's clock, state, screenshot and input (None between episodes)."""
        self.timings: dict[str, float] = {}
        """Milliseconds of the last step's parts: execute, pause+state+screenshot
        (overlapped, see :meth:`_settle`) and frame (decoding the screenshot)."""

    # -- settings ---------------------------------------------------------------------------

    def use_setting(self, setting: Setting) -> None:
        """Take the interface and clock from the setting (called before ``reset``)."""
        self.config.interface, self.config.realtime = mode_of(setting.name)
        if self.spec is not None:
            self.controls = Controls(self.spec.role, self.config.interface, self.spec.width,
                                     self.spec.height)

    @property
    def paused_mode(self) -> bool:
        """Whether the game is paused between actions (the task's ``pause_during_inference``
        unless the setting plays in real time)."""
        spec = self.task_spec
        return not self.config.realtime and (spec is None or spec.pause_during_inference)

    # -- episode ----------------------------------------------------------------------------

    async def reset(self, task: Task, seed: int) -> Observation:
        await self._close_session()
        self.seed = seed
        self.ref = ref = task_ref(task.level)
        catalog = Catalog(ref.root)
        self.spec = spec = catalog.game(ref.game_id)
        self.task_spec = tspec = catalog.task(ref.game_id, ref.task_id)
        self.controls = Controls(spec.role, self.config.interface, spec.width, spec.height)
        page_dir = catalog.game_dir(ref.game_id)
        entry = catalog.entry_page(spec)
        if not (page_dir / entry).is_file():
            raise BrowserError(f"{page_dir / entry}: the game's page is missing")
        if self.server is None or self.server.root != (ref.root / "games").resolve():
            if self.server is not None:
                self.server.stop()
            self.server = StaticServer(ref.root / "games").start()
        if self._browser is None:
            self._browser = Browser()
        options = SessionOptions(hosts=frozenset({self.server.host}),
                                 viewport=(spec.width, spec.height),
                                 load_timeout_ms=self.config.load_timeout_ms,
                                 action_timeout_ms=self.config.action_timeout_ms)
        self.session = session = await self._browser.new_session(options)
        await session.context.add_init_script(f"window.__PB_SEED = {int(seed) & 0xFFFFFFFF};")
        if self.paused_mode:  # the game clock moves only when step() advances it
            await session.context.add_init_script("window.__PB_STEPPED = true;")
        await session.context.add_init_script(control_script())
        rel = page_dir.resolve().relative_to(self.server.root).as_posix()
        await session.open_tabs([self.server.url(f"{rel}/{entry}")])
        self.page = page = GamePage(session, paused=self.paused_mode,
                                    load_timeout_ms=self.config.load_timeout_ms,
                                    frame_format=self.config.frame_format)
        await page.wait_ready(ref.game_id)
        await page.set_speed(spec.speed_multiplier)
        await page.begin(seed, spec.width, spec.height, first=True)
        if self.paused_mode:
            await page.pause()
        self.state = await page.read_state()
        score = _number(lookup(self.state, tspec.score_field))
        self.progress = Progress(tspec.start, tspec.target, best=score, score=score)
        return await self.observe()

    def _page(self) -> GamePage:
        if self.page is None:
            raise BrowserError("the game has not started")
        return self.page

    async def read_state(self, pause: bool = False) -> dict[str, Any]:
        """``gameAPI.getState()`` as plain JSON values (after pausing the game, with
        ``pause``)."""
        return await self._page().read_state(pause)

    async def frame(self) -> np.ndarray | None:
        """The page as an RGB array (None when frames are not rendered). PNG by default;
        ``EnvConfig.frame_format = "jpeg"`` asks Chromium for a JPEG (quality 90), which is
        faster to make and decode (benchmarks/bench_browser_step.py)."""
        if not self.render_frames or self.page is None:
            return None
        from PIL import Image
        data = self.page.take_shot() or await self.page.capture()
        with Image.open(io.BytesIO(data)) as img:
            return np.asarray(img if img.mode == "RGB" else img.convert("RGB"))

    def hud(self) -> dict[str, Any]:
        """What a person's heads-up display shows (actions left are the loop's to add)."""
        p = self.progress
        t = self.task_spec
        if p is None or t is None:
            return {}
        return {"score": p.score, "best": p.best, "target": t.target, "start": t.start,
                "progress": p.progress, "success": p.success, "resets": p.resets,
                "status": self.state.get("status"), "max_steps": t.max_steps,
                "realtime": not self.paused_mode, "interface": self.config.interface}

    def prompt_parts(self) -> dict[str, Any]:
        """The texts GameWorld's prompt is built from (the templates arrange them)."""
        assert self.spec is not None and self.task_spec is not None
        role = self.spec.role
        return {"game_id": self.spec.game_id, "rules": self.spec.rules.strip(),
                "role": role.role_prompt.strip(), "controls": role.controls_prompt.strip(),
                "task": self.task_spec.prompt.strip(), "interface": self.config.interface,
                "realtime": not self.paused_mode, "width": self.spec.width,
                "height": self.spec.height,
                "semantic": [(c.id, c.description) for c in role.semantic],
                "allowed_keys": list(role.computer_use.allowed_keys),
                "allow_clicks": role.computer_use.allow_clicks}

    async def observe(self) -> Observation:
        assert self.controls is not None and self.spec is not None
        t0 = time.perf_counter()
        frame = await self.frame()
        self.timings["frame"] = (time.perf_counter() - t0) * 1000
        hud = self.hud()
        text = (f"score {hud.get('score')}, best {hud.get('best')}, target "
                f"{hud.get('target')}, status {hud.get('status')}")
        specs = tool_specs(self.spec.role, self.config.interface)
        info = {"hud": hud, "state": self.state, "prompt": self.prompt_parts(),
                "tool_specs": specs, "memory": self.config.memory}
        return Observation(frame, text, tuple(self.controls.vocabulary()), info)

    @property
    def page_session(self) -> PageSession | None:
        """The open page's session, which a person's view streams
        (:class:`playbench.games.env.ShowsPage`)."""
        return self.session

    def parse_action(self, text: str) -> Action:
        if self.controls is None:
            raise MoveError("the game has not started", "malformed")
        try:
            canonical, command = self.controls.parse(text)
        except ControlError as err:
            raise MoveError(err.reason, err.kind) from None
        return Action(canonical, command)

    async def execute(self, command: Command) -> None:
        """Perform one command on the page for its duration (:meth:`GamePage.perform`)."""
        assert self.spec is not None
        await self._page().perform(command, self.spec.role.computer_use.hold_duration)

    async def step(self, action: Action) -> Transition:
        assert self.progress is not None and self.task_spec is not None
        command = action.move
        if not isinstance(command, Command):
            command = self.parse_action(action.text).move
        p = self.progress
        t1 = time.perf_counter()
        # a paused game's clock is stepped, never resumed; Playwright's key and mouse calls
        # have no timeout of their own, so a Chromium that stopped answering (frozen, not
        # dead) ends the step here with a BrowserError instead of holding the run
        try:
            await bounded(self.execute(command),
                          command.seconds + self.config.action_timeout_ms / 1000,
                          "performing the action")
        except Exception as err:  # a page that died (out of memory): say so, not Playwright
            if self.session is not None and self.session.crashed is not None:
                raise BrowserError(self.session.crashed) from err
            raise
        t2 = time.perf_counter()
        before = settled_state(self.state)
        self.state = await self._page().settle(self.render_frames)
        t3 = time.perf_counter()
        self.timings = {"execute": (t2 - t1) * 1000,
                        "pause+state+screenshot": (t3 - t2) * 1000}
        changed = settled_state(self.state) != before
        reason, terminated, was_reset = await self._evaluate()
        obs = await self.observe()
        info = {"score": p.score, "best": p.best, "progress": round(p.progress, 6),
                "status": self.state.get("status"),
                "game_ms": _number(self.state.get("gameTimeMs"))}
        if was_reset:
            info["reset"] = True
        blocked = self.session.take_blocked() if self.session is not None else []
        if blocked:  # what the game's page tried outside its folder (docs/security.md)
            info["blocked"] = blocked
        return Transition(obs, True, changed or was_reset, 0.0, terminated, reason, info)

    async def _evaluate(self) -> tuple[str | None, bool, bool]:
        """Score the state just read; reset the game after a failed end when the task says
        so. Returns (reason, terminated, reset)."""
        assert self.progress is not None and self.task_spec is not None
        p, t = self.progress, self.task_spec
        p.score = _number(lookup(self.state, t.score_field))
        p.best = metrics.better(p.best, p.score, t.start, t.target)
        if p.success:
            return "target reached", True, False
        ended = bool(lookup(self.state, t.end_field))
        if not ended:
            return None, False, False
        outcome = lookup(self.state, "terminal.outcome")
        if outcome == t.terminal_status:
            return f"the game ended ({outcome})", True, False
        if not t.continue_on_fail:
            why = lookup(self.state, "terminal.reason") or outcome or "game over"
            return f"the game ended: {why}", True, False
        page = self._page()
        assert self.spec is not None
        # a paused game stays paused: no game time passes
        await page.begin(self.seed, self.spec.width, self.spec.height, first=False)
        page.take_shot()  # the screenshot shows the ended game, not the new one
        p.resets += 1
        self.state = await self.read_state()
        p.score = _number(lookup(self.state, t.score_field))
        p.best = metrics.better(p.best, p.score, t.start, t.target)
        return "failed; the game was reset (continue_on_fail)", False, True

    def vocabulary(self) -> list[str]:
        return self.controls.vocabulary() if self.controls is not None else []

    def legal_actions(self) -> list[str]:
        return self.vocabulary()

    def snapshot(self) -> Any:
        return None

    async def restore(self, snapshot: Any) -> Observation:
        raise MoveError("a browser game cannot go back to an earlier state", "not_allowed")

    def state_hash(self) -> str:
        text = json.dumps(settled_state(self.state), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def oracle(self) -> list[str] | None:
        return None

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        p = self.progress
        n = len(steps)
        if p is None:
            return {"solved": None, "completion": None, "steps": n}
        # ``solved`` and ``completion`` are what Results shows as accuracy and completion:
        # GameWorld's SR and PG. The invalid action rate is the loop's own (agent metrics).
        return {"solved": float(p.success), "success": float(p.success),
                "progress": p.progress, "completion": 100.0 * p.progress,
                "best_score": p.best, "resets": float(p.resets), "steps": n}

    async def _close_session(self) -> None:
        self.page = None
        if self.session is not None:
            session, self.session = self.session, None
            await _within(session.close(), "the game's browser context")

    async def close(self) -> None:
        await self._close_session()
        if self._browser is not None and self._browser is not self._shared_browser:
            await _within(self._browser.close(), "Chromium")
        self._browser = None
        if self.server is not None:
            self.server.stop()
            self.server = None

