"""The WebUI environment: a player writes a page; each submission is rendered and scored by AES.

Reset renders the task's reference page in the sandbox once (truth elements and the target
screenshots for the loaded page and after each interaction: generated at first use, from the
reference, in the Chromium that will render the submissions - so the truth boxes and fonts are
those of the same browser, which is what lets the reference score exactly 1.0 on any machine;
a :class:`TargetCache` passed in keeps them for later episodes of the same task).

One action is one submission: the answer's fenced code blocks (``games/coding/fences.py``).
``step`` renders it and scores it with AES (``games/webui/aes.py``); a page that cannot be
rendered (too large, hangs, does not load) scores 0. In a setting that shows the render
(``webui:online``) the next observation carries the screenshots of the submission; in
``webui:global`` nothing rendered is ever shown and the single submission ends the episode
(MageBench's Global and Online settings, ``docs/reference/web.md``).

The state is the files last submitted, so an episode is rebuilt by submitting the recorded
answers again (resume, ``replay --verify``): each is rendered and scored anew in the same
sandbox, which gives back the list of submissions the budget and the final scores count, and
the render of the last one that an Online player is shown next. A replay without frames
(``show_render`` False, the loop's ``render=False``) still renders and scores every submission,
since the rewards it checks are their AES, but takes no screenshots of them.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from PIL import Image

from playbench.games.base import MoveError
from playbench.games.coding.fences import as_answer, page_files
from playbench.games.coding.sandbox import Limits, Sandbox, SiteServer
from playbench.games.types import Action, Observation, Setting, Task, Transition
from playbench.games.webui.aes import MODES, PLAYBENCH, aes, needed_properties
from playbench.games.webui.render import PageRun, run_page
from playbench.games.webui.tasks import GAME, WebUITask, task_of

log = logging.getLogger(__name__)

SOLVED = 0.999
"""An AES at or above this counts as the page rebuilt."""


def png_to_array(png: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("RGB"), dtype=np.uint8)


@dataclass
class Targets:
    """The reference page's run: truth elements and screenshots per state."""

    run: PageRun
    frames: list[np.ndarray | None] = field(default_factory=list)


class TargetCache:
    """Targets by level hash, shared by the episodes of a sweep or an app session (pass it in
    ``EnvServices.extra["webui_targets"]``)."""

    def __init__(self) -> None:
        self._items: dict[str, Targets] = {}

    def get(self, key: str) -> Targets | None:
        return self._items.get(key)

    def put(self, key: str, targets: Targets) -> None:
        self._items[key] = targets


@dataclass(frozen=True)
class Submission:
    """What one submission gave: its AES, the per-state parts, the screenshots, the reason a
    page failed as a whole, and the notes on failed interactions."""

    score: float
    frames: tuple[np.ndarray | None, ...]
    failure: str | None
    notes: tuple[str, ...]
    seconds: float
    blocked: tuple[dict[str, str], ...] = ()
    """What the page tried and the sandbox refused (another host, WebRTC)."""


class WebUIEnv:
    """One WebUI episode (see the module docstring)."""

    game = GAME

    def __init__(self, *, browser: Any = None, limits: Limits | None = None,
                 targets: TargetCache | None = None, show_render: bool = True) -> None:
        self._shared_browser = browser
        self.browser: Any = browser
        self.limits = limits or Limits()
        self.cache = targets or TargetCache()
        self.server: SiteServer | None = None
        self.task: Task | None = None
        self.page: WebUITask | None = None
        self.targets: Targets | None = None
        self.error: str | None = None
        self.files: dict[str, str] = {}
        self.submissions: list[Submission] = []
        self.show_render = show_render
        self.mode = PLAYBENCH
        """How AES is read (``games/webui/aes.py``): the task's ``aes`` rule option, else
        what its file asks for, else PlayBench's reading."""
        self.closed = False
        """Set by :meth:`close`: a live render asked for after it must not start a browser
        nobody would close."""

    # -- episode -------------------------------------------------------------------------

    async def _sandbox(self) -> Sandbox:
        if self.closed:
            raise RuntimeError("the episode is over; its page is no longer rendered")
        if self.browser is None:
            from playbench.games.browser.browser import Browser  # Playwright loads on first use
            self.browser = Browser()
        if self.server is None:
            self.server = SiteServer().start()
        return Sandbox(self.browser, self.server, self.limits)

    async def reset(self, task: Task, seed: int) -> Observation:
        self.closed = False
        self.task, self.error, self.files, self.submissions = task, None, {}, []
        try:
            self.page = task_of(task.level)
        except Exception as err:  # a task file that cannot be played: say so, score None
            self.error = str(err)
            return Observation(None, f"This task cannot be played: {err}", (), {"error": 1})
        self.mode = str(task.options.get("aes") or self.page.aes or PLAYBENCH)
        if self.mode not in MODES:
            self.error = f"unknown aes rule {self.mode!r} (valid: {', '.join(MODES)})"
            return Observation(None, f"This task cannot be played: {self.error}", (),
                               {"error": 1})
        key = task.level_hash
        targets = self.cache.get(key)
        if targets is None:
            run = await run_page(await self._sandbox(), self.page.reference,
                                 self.page.interactions, resources=self.page.resources)
            if run.failure is not None or any(s is None for s in run.states):
                self.error = ("the reference page does not render: "
                              f"{run.failure or '; '.join(run.notes)}")
                return Observation(None, f"This task cannot be played: {self.error}", (),
                                   {"error": 1})
            targets = Targets(run, [png_to_array(s) if s else None for s in run.shots])
            self.cache.put(key, targets)
        self.targets = targets
        return self._observe(None)

    def target_frames(self) -> list[np.ndarray]:
        """The target screenshots: the loaded page, then after each interaction."""
        return [f for f in (self.targets.frames if self.targets else []) if f is not None]

    def target_labels(self) -> list[str]:
        steps = self.page.interactions if self.page else ()
        return ["as loaded"] + [f"after: {s.get('name') or s.get('do')}" for s in steps]

    def _observe(self, last: Submission | None) -> Observation:
        assert self.page is not None
        targets = self.target_frames()
        info: dict[str, Any] = {"targets": targets, "target_labels": self.target_labels(),
                                "files": dict(self.files),
                                "submissions": len(self.submissions)}
        lines = [self.page.prompt_text()]
        if self.targets is not None and self.targets.run.notes:
            lines += ["", "About the target page:"]
            lines += [f"- {n}" for n in self.targets.run.notes]
        frame = targets[0] if targets else None
        if last is not None and self.show_render:
            renders = [f for f in last.frames if f is not None]
            info["renders"] = renders
            info["aes"] = last.score
            if renders:
                frame = renders[0]
            lines.append("")
            lines.append("Your last submission was rendered"
                         + (f" - it failed: {last.failure}" if last.failure else "")
                         + "." + "".join(f"\n- {n}" for n in last.notes))
        if self.files:
            lines += ["", "Current implementation:", as_answer(self.files)]
        return Observation(frame, "\n".join(lines), (), info)

    async def submit(self, files: Mapping[str, str]) -> Submission:
        """Render and score one submission (also used for a person's live preview with
        ``record`` left to the caller)."""
        assert self.page is not None and self.targets is not None
        truth = self.targets.run.states
        props = needed_properties([e for s in truth if s is not None for e in s])
        box = await self._sandbox()
        run = await run_page(box, files, self.page.interactions,
                             resources=self.page.resources, props=props,
                             shots=self.show_render)
        if run.failure is not None:
            score = 0.0
        else:
            score, _ = aes([s or [] for s in truth], run.states, self.mode)
        frames = tuple(png_to_array(s) if s else None for s in run.shots)
        return Submission(score, frames, run.failure, tuple(run.notes), run.seconds,
                          tuple(box.take_blocked()))

    async def preview(self, files: Mapping[str, str]) -> Submission:
        """A render of ``files`` that is not a step (a person's live view in Online)."""
        return await self.submit(files)

    def preview_ready(self) -> bool:
        """Whether :meth:`preview` can render now: the task's targets are loaded
        (:class:`playbench.games.env.LivePreview`)."""
        return self.targets is not None

    async def step(self, action: Action) -> Transition:
        if self.error is not None or self.page is None:
            obs = Observation(None, f"This task cannot be played: {self.error}", ())
            return Transition(obs, False, False, 0.0, True, self.error, invalid_kind="illegal")
        files = dict(action.move or {})
        sub = await self.submit(files)
        self.files = files
        self.submissions.append(sub)
        done = sub.score >= SOLVED
        reason = sub.failure or ("page rebuilt" if done else None)
        info: dict[str, Any] = {"aes": sub.score, "render_seconds": round(sub.seconds, 3),
                                "failure": sub.failure, "notes": list(sub.notes)}
        if sub.blocked:
            info["blocked"] = [dict(b) for b in sub.blocked]
        return Transition(self._observe(sub), True, True, sub.score, done, reason, info)

    def parse_action(self, text: str) -> Action:
        """A submission from an answer's fenced blocks (an ``html`` block is required)."""
        files = page_files(text)
        if "index.html" not in files:
            raise MoveError("no ```html code block (index.html) in the answer")
        if not files["index.html"].strip():
            raise MoveError("the ```html block is empty")
        return Action(as_answer(files), files)

    def vocabulary(self) -> list[str]:
        """Submissions a random player may make (an answer is free text, so this is a sample,
        none of them the reference): a page with no content, the reference's HTML without its
        style sheet and script, and the reference with every pixel size doubled."""
        if self.page is None:
            return []
        ref = dict(self.page.reference)
        html = ref["index.html"]
        bare = {"index.html": "<!DOCTYPE html>\n<html><head><title>Page</title></head>"
                              "<body></body></html>"}
        doubled = {k: re.sub(r"(\d+)px", lambda m: f"{2 * int(m.group(1))}px", v)
                   for k, v in ref.items()}
        out = [bare, {"index.html": html}]
        if doubled != ref:
            out.append(doubled)
        return [as_answer(files) for files in out]

    def legal_actions(self) -> list[str]:
        return []

    def snapshot(self) -> Any:
        return (dict(self.files), list(self.submissions))

    async def restore(self, snapshot: Any) -> Observation:
        files, subs = snapshot
        self.files, self.submissions = dict(files), list(subs)
        return self._observe(self.submissions[-1] if self.submissions else None)

    def state_hash(self) -> str:
        return hashlib.sha256(as_answer(self.files).encode()).hexdigest()[:16]

    def oracle(self) -> list[str] | None:
        """The reference page as one answer."""
        return [as_answer(dict(self.page.reference))] if self.page is not None else None

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        """``aes``: the last submission's AES (0 without one); ``best_aes``; ``solved``
        whether the last reached :data:`SOLVED`; ``submissions``; ``steps`` (every recorded
        step, invalid answers included, as the summaries count actions)."""
        n = float(len(steps))
        if self.error is not None:
            return {"aes": None, "best_aes": None, "solved": None, "score": None,
                    "submissions": float(len(self.submissions)), "steps": n}
        last = self.submissions[-1].score if self.submissions else 0.0
        best = max((s.score for s in self.submissions), default=0.0)
        return {"aes": last, "score": last, "best_aes": best, "solved": float(last >= SOLVED),
                "submissions": float(len(self.submissions)), "steps": n}

    async def close(self) -> None:
        self.closed = True
        if self.browser is not None and self.browser is not self._shared_browser:
            await self.browser.close()
        self.browser = self._shared_browser
        if self.server is not None:
            self.server.stop()
            self.server = None


__all__ = ["SOLVED", "Submission", "TargetCache", "Targets", "WebUIEnv", "png_to_array"]
