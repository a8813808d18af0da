"""The game's page under PlayBench's control: its clock, its state, its screenshot, its input.

A browser game is driven through the page control script (``inject/control.js``, added before
any game script) and the game's own ``window.gameAPI``. On a paused game (GameWorld's default,
docs/reference/browser-games.md "Step loop") the clock moves only when :meth:`GamePage.hold`
steps it, so every run of the same actions sees the same game time; in real time the game runs
on and holding is waiting. Every page call is bounded by :meth:`PageSession.answer`.

:class:`playbench.games.browser_games.env.BrowserGameEnv` owns the episode (catalog, server,
scoring); this module owns only the conversation with one open page.
"""

from __future__ import annotations

import asyncio
import time
from importlib import resources
from typing import Any

from playbench.games.browser.session import BrowserError, PageSession
from playbench.games.browser_games.controls import Command

READY = "() => !!(window.gameAPI && typeof window.gameAPI.getState === 'function')"
BEGIN = """async ({seed, width, height, first}) => {
  const api = window.gameAPI;
  if (first) {
    window.__setDeterministicSeed(seed);
    if (typeof api.init === 'function') await api.init({seed, width, height});
  }
  if (typeof api.reset === 'function') await api.reset({seed});
  const s = api.getState() || {};
  if (typeof api.start === 'function' && (s.status === 'ready' || s.status === 'menu')) {
    await api.start();
  }
  return true;
}"""
# Page calls made on every step go through the tab's DevTools session (Runtime.evaluate
# expressions, not Playwright functions), the channel the screenshot also takes: see settle().
STATE = "JSON.parse(JSON.stringify(window.gameAPI.getState()))"
PAUSE_STATE = f"(window.__pauseGame(), {STATE})"
PAUSE = "window.__pauseGame()"
ADVANCE = "window.__advanceGame({ms})"
FRAME_SECONDS = 1 / 60


def control_script() -> str:
    """The page control script injected before any game script."""
    return (resources.files("playbench.games.browser_games") / "inject" / "control.js"
            ).read_text(encoding="utf-8")


class GamePage:
    """One open game page: ``paused`` says whether its clock is stepped (see the module)."""

    def __init__(self, session: PageSession, *, paused: bool, load_timeout_ms: float,
                 frame_format: str = "png") -> None:
        self.session = session
        self.paused = paused
        self.load_timeout_ms = load_timeout_ms
        self.frame_format = frame_format
        self.shot: bytes | None = None
        """The screenshot taken with the last state read by :meth:`settle` (taken once)."""

    async def wait_ready(self, game_id: str) -> None:
        """Wait until the page defines ``gameAPI.getState``. On a stepped clock a game that
        sets its API up from a timer or an animation frame gets its frames one at a time (the
        page has loaded, so only game time is missing); on a running clock Playwright polls."""
        page = self.session.page
        if not self.paused:
            try:
                await page.wait_for_function(READY, timeout=self.load_timeout_ms)
            except Exception as err:
                raise BrowserError(f"{game_id}: the page never defined window.gameAPI with "
                                   f"getState() ({str(err).splitlines()[0][:200]})") from err
            return
        deadline = time.monotonic() + self.load_timeout_ms / 1000
        while not await self.call(f"({READY})()", "waiting for gameAPI"):
            if time.monotonic() > deadline:
                raise BrowserError(f"{game_id}: the page never defined window.gameAPI with "
                                   "getState()")
            await self.advance(FRAME_SECONDS)

    async def set_speed(self, multiplier: float) -> None:
        await self.session.answer(self.session.page.evaluate(
            f"() => window.__setGameSpeed({multiplier!r})"), "setting the speed")

    async def advance(self, seconds: float) -> None:
        """Move the paused game's clock on by ``seconds`` (times the game's speed), running
        its timers and animation frames on the way (``__advanceGame`` in inject/control.js)."""
        await self.session.answer(self.session.page.evaluate(
            ADVANCE.format(ms=repr(seconds * 1000.0))), "advancing the game clock")

    async def hold(self, seconds: float) -> None:
        """Let ``seconds`` of game time pass: stepped on a paused game, real on a running one."""
        if seconds <= 0:
            return
        if self.paused:
            await self.advance(seconds)
        else:
            await asyncio.sleep(seconds)

    async def begin(self, seed: int, width: int, height: int, first: bool) -> None:
        """Start the game (``first``: seed and init it too) through its ``gameAPI``."""
        await self.session.answer(self.session.page.evaluate(
            BEGIN, {"seed": int(seed) & 0xFFFFFFFF, "width": width, "height": height,
                    "first": first}), "starting the game")

    async def call(self, expression: str, what: str) -> Any:
        """Evaluate ``expression`` in the game's page through the tab's DevTools session and
        return its value as JSON data."""
        cdp = await self.session.devtools()
        reply = await self.session.answer(cdp.send("Runtime.evaluate", {
            "expression": expression, "returnByValue": True}), what)
        problem = reply.get("exceptionDetails")
        if problem:
            text = (problem.get("exception") or {}).get("description") or problem.get("text")
            raise BrowserError(f"{what}: the page raised {str(text).splitlines()[0][:200]}")
        return (reply.get("result") or {}).get("value")

    async def pause(self) -> None:
        await self.call(PAUSE, "pausing the game")

    async def read_state(self, pause: bool = False) -> dict[str, Any]:
        """``gameAPI.getState()`` as plain JSON values (after pausing the game, with
        ``pause``)."""
        state = await self.call(PAUSE_STATE if pause else STATE, "reading the state")
        if not isinstance(state, dict):
            raise BrowserError(f"gameAPI.getState() gave {type(state).__name__}, not an object")
        return state

    async def capture(self) -> bytes:
        """A screenshot of the page now (PNG, or JPEG of quality 90 with ``frame_format``)."""
        return await self.session.screenshot(self.frame_format, quality=90)

    def take_shot(self) -> bytes | None:
        """The screenshot :meth:`settle` took, once (None after that)."""
        shot, self.shot = self.shot, None
        return shot

    async def settle(self, render: bool) -> dict[str, Any]:
        """Pause the game (when paused), read its state and, with ``render``, take the
        screenshot of that moment (kept for :meth:`take_shot`). The screenshot is asked for
        right behind the pause-and-read call on the same DevTools channel, without waiting for
        its answer: Chromium runs the pause before it draws the frame it captures, so frame and
        state agree (tests/browser_games/test_harness.py) and the two waits overlap."""
        reading = self.read_state(pause=self.paused)
        if not render:
            return await reading
        state_job = asyncio.ensure_future(reading)
        await asyncio.sleep(0)  # the pause-and-read message leaves first
        try:
            shot = await self.capture()
        finally:
            state = await state_job
        self.shot = shot
        return state

    async def perform(self, command: Command, hold: float) -> None:
        """Perform one command on the page, taking the command's duration (a click or a typed
        text is followed by ``hold``, the role's hold duration, so the game can answer it). On
        a paused game the duration is game time stepped by :meth:`hold`, exactly the same on
        every run; in real time it is wall-clock time."""
        page = self.session.page
        start = time.perf_counter()
        run_for = command.seconds
        if command.op == "keys":
            for key in command.keys:
                await page.keyboard.down(key)
            await self.hold(command.seconds)
            for key in reversed(command.keys):
                await page.keyboard.up(key)
            return
        if command.op == "wait":
            await self.hold(command.seconds)
            return
        if command.op == "type":
            await page.keyboard.type(command.text)
            run_for = max(run_for, hold)
        else:
            (x, y), *rest = command.points
            if command.op == "click":
                await page.mouse.click(x, y)
            elif command.op == "double_click":
                await page.mouse.dblclick(x, y)
            elif command.op == "right_click":
                await page.mouse.click(x, y, button="right")
            elif command.op == "click_hold":
                await page.mouse.move(x, y)
                await page.mouse.down()
                await self.hold(command.seconds)
                await page.mouse.up()
                return
            elif command.op == "drag":
                x2, y2 = rest[0]
                await page.mouse.move(x, y)
                await page.mouse.down()
                await page.mouse.move(x2, y2, steps=8)
                await page.mouse.up()
            elif command.op == "scroll":
                await page.mouse.move(x, y)
                await page.mouse.wheel(*command.delta)
            run_for = max(run_for, hold)
        # the input itself took no game time on a paused game; on a running one it did
        spent = 0.0 if self.paused else time.perf_counter() - start
        await self.hold(run_for - spent)
