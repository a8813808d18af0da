"""``WebTaskEnv``: a VWA web task behind the loop's environment protocol
(``playbench.games.env.Env``).

One episode = one fresh browser context with the task's viewport and only the task's hosts
reachable. Observations carry the screenshot with Set-of-Marks boxes as the frame, the
``[id] [tag] [text]`` list as text, and the URL, tabs, accessibility tree and element boxes in
``info``. ``stop [answer]`` ends the episode (``end_reason`` "stopped"); an action on a missing
id is an invalid step whose reason is fed back, and the episode goes on (web.md).

A task that cannot be played (a bad field, an unreachable or never-loading start page) does not
raise from :meth:`reset` - the loop records no episode for a failing reset - but returns an
observation saying why and raises :class:`WebEpisodeError` from the first step or oracle call,
so the episode is recorded and ends as ``error`` with a message naming the task and field.

Nothing here imports the app: model judges come in through :class:`playbench.games.kind.EnvServices`
(given judges, or ``judge_named`` to make one from the profile the web settings name), and the
app's config directory, where ``web.json`` lives, is passed in.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from playbench.evaluators.web import Judge
from playbench.games.browser.actions import TYPE_RULE, WebAction, format_action, parse_action
from playbench.games.browser.browser import Browser
from playbench.games.browser.execute import execute
from playbench.games.browser.observe import PageSnapshot, observe
from playbench.games.browser.session import (
    DEFAULT_VIEWPORT,
    BrowserError,
    PageSession,
    SessionOptions,
    host_of,
)
from playbench.games.frame import as_frame
from playbench.games.types import Action, Observation, Setting, Task, Transition
from playbench.games.web import reference
from playbench.games.web.checks import check_config
from playbench.games.web.config import WebConfig, WebConfigError, load_config
from playbench.games.web.helpers import AdminAccount, HelperEnv
from playbench.games.web.probe import fetch_image
from playbench.games.web.scoring import final_answer, score_task
from playbench.games.web.sites import Sites
from playbench.games.web.tasks import TaskProblem, WebTask, WebTaskError, task_from_level

log = logging.getLogger(__name__)
OBSERVE_TRIES = 5
"""How often an observation is retried when the page keeps navigating under it."""

JudgeFactory = Callable[[str], Judge]
"""Makes a judge from a model profile's name (the app's ``ModelJudge.named``)."""


class WebEpisodeError(RuntimeError):
    """The task could not be played; raised from step() so the episode ends as ``error``."""


class WebTaskEnv:
    """A web task played in Chromium. ``browser`` may be shared between episodes (it is then
    not closed here); ``sites`` overrides placeholder addresses, with optional reset URLs for
    a shared bundled site (``{"CLASSIFIEDS": (url, reset_url)}``); ``plan`` names the list
    the oracle follows ("reference", or "wrong" for tests that need a failing run);
    ``default_viewport`` is used for tasks that set none (VWA: 1280 x 2048, or 1280 x 720 for
    short-context models). ``config`` is the web settings; without it they are read from
    ``config_dir`` and the environment (:func:`playbench.games.web.config.load_config`).
    ``judge_named`` makes a judge from the profile name the settings give, for tasks that need
    one when no ``judge`` / ``vqa`` is given; judges made so are closed after each episode."""

    game = "web"

    def __init__(self, *, browser: Browser | None = None, config: WebConfig | None = None,
                 sites: dict[str, tuple[str, str | None]] | None = None,
                 judge: Judge | None = None, vqa: Judge | None = None,
                 judge_named: JudgeFactory | None = None, config_dir: Path | None = None,
                 load_timeout_ms: float = 30_000, action_timeout_ms: float = 10_000,
                 axtree: bool = True,
                 plan: str = "reference",
                 default_viewport: tuple[int, int] = DEFAULT_VIEWPORT) -> None:
        self.config = config if config is not None else load_config(config_dir=config_dir)
        self._shared_browser = browser
        self.browser = browser
        self.judge, self.vqa = judge, vqa
        self._judge_named = judge_named
        self._own_judges: list[Judge] = []
        self.load_timeout_ms = load_timeout_ms
        self.action_timeout_ms = action_timeout_ms
        self.axtree = axtree
        self.plan_name = plan
        self.default_viewport = default_viewport
        self.task: WebTask | None = None
        self._clear_field = False
        """``type`` clears the field first (rule option ``type_field=clear``)."""
        self.resolved: dict[str, Any] = {}
        self.session: PageSession | None = None
        self.sites = Sites(sites)
        self.view: PageSnapshot | None = None
        self.error: str | None = None
        self._plan: list[str] = []
        self._plan_pos: int | None = 0
        self._next: str | None = None
        self._input_images: list[Any] = []

    # -- set-up -------------------------------------------------------------------------------

    async def reset(self, task: Task, seed: int) -> Observation:
        await self._release()
        self.error, self.view, self._plan_pos, self._next = None, None, 0, None
        try:
            self.task = task_from_level(task.level)
            self._plan = list(getattr(self.task, self.plan_name, ()) or ())
            self._clear_field = task.options.get(TYPE_RULE.name) == "clear"
            async with asyncio.timeout(2 * self._step_limit_s()):
                await self._open(self.task)
                return await self._observe()
        except (WebTaskError, WebEpisodeError) as err:
            return self._fail(str(err))
        except TimeoutError:
            return self._fail(f"task {task.level.number}: the browser did not open the task "
                              f"within {2 * self._step_limit_s():g} s (it stopped answering)")
        except Exception as err:  # a browser or site failure: keep it inside this episode
            log.exception("web task %s could not start", task.level.number)
            return self._fail(f"task {task.level.number}: {type(err).__name__}: {err}")

    def _fail(self, message: str) -> Observation:
        self.error = message
        return Observation(None, f"This task cannot be played: {message}", (),
                           {"error": message, "url": "", "tabs": [], "axtree": "", "som": []})

    def _problem(self, field: str, message: str) -> WebTaskError:
        assert self.task is not None
        return WebTaskError(TaskProblem(self.task.task_id, field, message))

    async def _open(self, task: WebTask) -> None:
        site_map = self.sites.site_map(self.config.site_map())
        fatal = [p for p in check_config(task, site_map, judge=True,
                                         logins=self.config.logins,
                                         admins=self.config.admins) if p.fatal]
        if fatal:
            raise WebTaskError(fatal[0])
        self.sites.open(task.placeholders(), site_map)
        self.resolved = json.loads(self.place(json.dumps(dict(task.config))))
        self._judges(task)
        hosts = {host_of(s.base) for s in self.sites.values()}
        starts = [self.place(u) for u in task.start_urls]
        hosts |= {host_of(u) for u in starts}
        if self.browser is None:
            self.browser = Browser()
        geo = task.config.get("geolocation")
        storage = task.config.get("storage_state")
        bundled_login = bool(task.config.get("require_login")) and self.sites.all_bundled
        if storage and not bundled_login:
            storage = _path(str(storage), task.base_dir)
            await self._write_missing_state(task, Path(storage))
        else:
            storage = None
        self.session = await self.browser.new_session(SessionOptions(
            frozenset(hosts), task.viewport_for(self.default_viewport), storage, geo,
            self.load_timeout_ms, self.action_timeout_ms))
        await self.sites.reset(self.session.context.request, self._problem)
        if bundled_login:
            await self.sites.log_in(self.session.context.request, self._problem)
        self._input_images = [await fetch_image(self.session, self.place(ref), task.base_dir)
                              for ref in task.images]
        try:
            await self.session.open_tabs(starts)
        except Exception as err:
            raise self._problem("start_url", str(err)) from err

    async def _write_missing_state(self, task: WebTask, path: Path) -> None:
        """VWA's login step, when the storage state file the task names does not exist yet
        and the web settings have a login recipe for each of its sites (check_config has
        already refused the task when they do not)."""
        from playbench.games.web.login import LoginError, StateFile, login_sites, write_state
        if path.exists():
            return
        assert self.browser is not None
        state = StateFile(path, tuple(login_sites(task)), (task.task_id,))
        try:
            await write_state(self.browser, state, self.config,
                              load_timeout_ms=self.load_timeout_ms)
        except LoginError as err:
            raise self._problem("storage_state", f"{path} could not be written: {err}") from None

    def _judges(self, task: WebTask) -> None:
        """Model judges from the web settings, made only for tasks that need them (a task
        that needs one with none configured is scored None for that part, as check warns)."""
        keys = _keys(task.eval)
        try:
            if self.judge is None and self.config.judge and "fuzzy_match" in keys:
                self.judge = self._own(self.config.judge)
            if self.vqa is None and self.config.vqa and "eval_vqa" in keys:
                self.vqa = self._own(self.config.vqa)
        except Exception as err:  # a missing profile or key: this episode cannot be scored
            raise self._problem("eval", f"judge model: {err}") from err

    def _own(self, profile: str) -> Judge:
        if self._judge_named is None:
            raise WebEpisodeError(f"the judge profile {profile!r} is set, but this app "
                                  "cannot reach model profiles here")
        judge = self._judge_named(profile)
        self._own_judges.append(judge)
        return judge

    def place(self, text: str) -> str:
        """``text`` with every known placeholder replaced by its site's address."""
        return self.sites.place(text)

    def unplace(self, text: str) -> str:
        """Addresses back to placeholders (so hashes do not depend on the port of the day)."""
        return self.sites.unplace(text)

    # -- observing ----------------------------------------------------------------------------

    async def _observe(self) -> Observation:
        assert self.session is not None
        step = self._plan[self._plan_pos] if (
            self._plan_pos is not None and self._plan_pos < len(self._plan)) else None
        targets = reference.selectors(step) if step else []
        view = await self._look(targets)
        self.view = view
        self._next = reference.resolve(step, view.target_ids, self.place) if step else None
        return self._observation(view)

    async def _look(self, targets: list[str]) -> PageSnapshot:
        """Observe the active tab. A page may navigate by itself while it is being looked at
        (a meta refresh, a script setting ``location`` - to a blocked host, too): the document
        goes away under the observation, so wait for the new one to load and look again."""
        assert self.session is not None
        for attempt in range(OBSERVE_TRIES):
            try:
                return await observe(self.session, targets, axtree=self.axtree)
            except (PlaywrightError, BrowserError) as err:
                # A renderer that did not answer in time (our bound, or one of Playwright's own
                # timeouts) gets the same second look as a document replaced under the call.
                silent = isinstance(err, (BrowserError, PlaywrightTimeoutError))
                if not (silent or _navigated(err)):
                    raise
                if attempt == OBSERVE_TRIES - 1:
                    if silent:
                        raise WebEpisodeError("the browser stopped answering while the page "
                                              f"was observed: {str(err).splitlines()[0][:200]}"
                                              ) from err
                    raise
                log.info("the page navigated or did not answer while it was observed (%s); "
                         "looking again", str(err).splitlines()[0][:200])
                await self.session.settle()
        raise AssertionError("unreachable")

    def _observation(self, view: PageSnapshot) -> Observation:
        assert self.session is not None
        info = {"url": view.url, "tabs": view.tabs, "axtree": view.axtree,
                "som": [i.to_dict() for i in view.marks.elements], "raw_frame": view.raw,
                "viewport": list(view.marks.viewport),
                "intent": self.task.intent if self.task else "",
                "input_images": self._input_images, "blocked": list(self.session.blocked),
                "timings_ms": view.timings_ms}
        return Observation(as_frame(view.frame), view.som_text, (), info)

    # -- acting -------------------------------------------------------------------------------

    async def step(self, action: Action) -> Transition:
        if self.error is not None:
            raise WebEpisodeError(self.error)
        assert self.session is not None and self.view is not None
        move: WebAction = action.move if isinstance(action.move, WebAction) else parse_action(
            action.text)
        on_plan = self._next is not None and action.text == self._next
        self._plan_pos = (self._plan_pos + 1) if on_plan and self._plan_pos is not None else None
        before = self.state_hash()
        if move.name == "stop":  # nothing happens on the page: the last view still holds
            obs = self._observation(self.view)
            obs = dataclasses.replace(obs, info={**obs.info, "end_reason": "stopped",
                                                 "answer": move.text})
            return Transition(obs, True, False, 0.0, True, info=self._blocked_info())
        try:
            async with asyncio.timeout(self._step_limit_s()):
                why = await execute(self.session, move, self.view.marks, self._clear_field,
                                    self._uploads())
                obs = await self._observe()
        except TimeoutError as err:
            raise WebEpisodeError(
                f"the browser did not finish {action.text!r} within {self._step_limit_s():g} s "
                "(it stopped answering); the episode ends here") from err
        changed = self.state_hash() != before
        return Transition(obs, why is None, changed, 0.0, False, why, self._blocked_info(),
                          invalid_kind=None if why is None else "illegal")

    def _step_limit_s(self) -> float:
        """The last-resort bound on one step: every wait inside it has its own timeout, so
        this fires only when the browser stops answering altogether - then the episode ends
        as ``error`` with the steps so far recorded, instead of hanging the run."""
        return (3 * self.load_timeout_ms + OBSERVE_TRIES * self.action_timeout_ms) / 1000

    def _blocked_info(self) -> dict[str, Any]:
        """The step's record of requests the sandbox refused since the last step (what,
        which resource type, from which page), so a reviewer sees an escape attempt."""
        assert self.session is not None
        fresh = self.session.take_blocked()
        return {"blocked": fresh} if fresh else {}

    @property
    def page_session(self) -> PageSession | None:
        """The open page's session, which a person's view streams
        (:class:`playbench.games.env.ShowsPage`)."""
        return self.session

    def parse_action(self, text: str) -> Action:
        move = parse_action(text)
        return Action(format_action(move), move)

    def vocabulary(self) -> list[str]:
        """Concrete actions for the current page: click/hover/type on every marked element,
        the page and tab actions, and an empty stop (``goto`` is left out: it needs a URL)."""
        if self.view is None:
            return []
        out: list[str] = []
        for item in self.view.marks.elements:
            out += [f"click [{item.id}]", f"hover [{item.id}]"]
            if item.editable:
                out.append(f"type [{item.id}] [test]")
        out += ["press [Enter]", "scroll [down]", "scroll [up]", "new_tab", "close_tab",
                "go_back", "go_forward", "stop []"]
        out += [f"tab_focus [{t['index']}]" for t in self.view.tabs]
        return out

    def legal_actions(self) -> list[str]:
        return self.vocabulary()

    def snapshot(self) -> Any:
        """The active tab's URL. A browser cannot be snapshotted: restoring only goes back to
        that URL (form contents, other tabs and server-side changes stay as they are)."""
        return self.view.url if self.view is not None else None

    async def restore(self, snapshot: Any) -> Observation:
        """Navigates the active tab to the snapshot's URL and observes the page there. Undo
        is not offered in web settings, so the loop does not call this."""
        if self.session is None or self.view is None or snapshot is None:
            return self._fail("nothing to restore")
        await self.session.goto(self.session.page, snapshot)
        return await self._observe()

    def state_hash(self) -> str:
        """Hash of the active tab's URL (site addresses written as placeholders) and the
        Set-of-Marks text. It covers what the page shows in the viewport, not scroll position
        beyond it, other tabs, or server-side state that is not on screen."""
        if self.view is None:
            return hashlib.sha256(f"error\n{self.error}".encode()).hexdigest()[:16]
        text = f"{self.unplace(self.view.url)}\n{self.view.som_text}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def oracle(self) -> list[str] | None:
        """The next reference action for this observation, with this page's ids; None once a
        player has left the reference path (or the task has no reference)."""
        if self.error is not None:
            raise WebEpisodeError(self.error)
        return [self._next] if self._next is not None else None

    async def score(self, steps: Sequence[Any], setting: Setting,
                    end_reason: str | None = None) -> dict[str, float | None]:
        """VWA's evaluators on the final state and the last ``stop`` answer (an early stop's
        reason, or "" if the episode never stopped); ``score`` is their product and ``solved``
        whether it is 1."""
        n = float(len(steps))
        if self.error is not None or self.session is None or self.task is None:
            return {"score": None, "solved": None, "steps": n}
        answer = final_answer([getattr(s, "action", None) for s in steps], end_reason)
        try:
            parts = await score_task(self.resolved, self.session, answer, self.task.base_dir,
                                     self.judge, self.vqa, self._helpers())
        except Exception:  # scoring must never lose the recorded episode
            log.exception("web task %s: scoring failed", self.task.task_id)
            return {"score": None, "solved": None, "steps": n}
        s = parts.get("score")
        return {**parts, "solved": None if s is None else float(s == 1.0), "steps": n}

    def _uploads(self) -> dict[str, str]:
        """The files ``upload`` may give: the task's local input images, by the path the
        task writes and by file name."""
        out: dict[str, str] = {}
        if self.task is None:
            return out
        for ref in self.task.images:
            if "://" in ref or ref.startswith(("data:", "__")):
                continue
            path = _path(ref, self.task.base_dir)
            if Path(path).is_file():
                out[ref] = out[Path(ref).name] = path
        return out

    def _helpers(self) -> HelperEnv:
        """What VWA's evaluation helpers may use: this episode's context, its sites'
        addresses and the admin accounts of the web settings (passwords read now)."""
        assert self.session is not None
        admins = {}
        for name, login in self.config.admins.items():
            try:
                admins[name] = AdminAccount(login.username, login.secret())
            except WebConfigError as err:
                log.warning("admin account of %s: %s", name, err)
        return HelperEnv(self.session.context, self.sites.addresses(), admins)

    async def close(self) -> None:
        await self._release()
        if self.browser is not None and self.browser is not self._shared_browser:
            await self.browser.close()
        self.browser = self._shared_browser

    async def _release(self) -> None:
        """Close what one episode opened: its context, its sites, its judge clients."""
        if self.session is not None:
            await self.session.close()
            self.session = None
        self.sites.close()
        for judge in self._own_judges:
            close = getattr(judge, "aclose", None)
            if close is not None:
                await close()
            if self.judge is judge:
                self.judge = None
            if self.vqa is judge:
                self.vqa = None
        self._own_judges = []


def _navigated(err: BaseException) -> bool:
    """Whether a Playwright error means the document was replaced under the call."""
    text = str(err).lower()
    return any(s in text for s in ("execution context was destroyed", "navigat",
                                   "frame was detached", "target closed"))


def _keys(value: Any) -> set[str]:
    """Every key used anywhere inside a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _path(ref: str, base_dir: str) -> str:
    p = Path(ref)
    return str(p if p.is_absolute() else Path(base_dir) / p)


__all__ = ["WebTaskEnv", "WebEpisodeError", "JudgeFactory"]
