"""Episodes of kinds played in the browser view (web tasks) as the desktop app starts them
(no Qt here).

The task's kind (``playbench.games.kind``) gives :class:`PlaySession` its title and move help and
makes the environment; a :class:`WebRuntime` adds what the app shares between such episodes: one
Chromium for all of them (started on first use, closed when the app closes), each episode
still getting its own fresh browser context from the environment.

A person's input reaches the loop through :class:`WebHumanPlayer`, a
:class:`~playbench.app.players.human.HumanPlayer` whose inputs carry the facts the record needs
beside the
action: that the input came from a person, whether a click hit no marked element (a coordinate
click) and whether the Set-of-Marks overlay was on screen when the person acted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from playbench.app.core.player import PlayContext
from playbench.app.core.task import Task
from playbench.app.core.types import Decision, Observation
from playbench.app.players.human import HumanInput, HumanPlayer, read_entry
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.launch import annotator, human_session, model_session
from playbench.app.ui.models.pacing import Pacer
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.games.kind import Registry, TaskKind, default_registry


class WebRuntime:
    """The Chromium the app's web episodes share, and where their sites are.

    ``browser`` given: used and never closed here (tests share one per module). ``sites``
    overrides placeholder addresses as the web environment takes them
    (``{"CLASSIFIEDS": (url, reset_url)}``); without it each episode starts the bundled site
    itself, and other sites come from the web settings. ``registry``: where kinds are looked
    up (the installed ones by default)."""

    def __init__(self, browser: Any = None,
                 sites: Mapping[str, tuple[str, str | None]] | None = None,
                 registry: Registry | None = None) -> None:
        self._given = browser
        self._browser = browser
        self.sites = dict(sites or {})
        self.kinds = registry if registry is not None else default_registry()

    @property
    def browser(self) -> Any:
        """The shared browser (made on first use; it starts when the first episode opens)."""
        if self._browser is None:
            from playbench.games.browser.browser import (
                Browser,  # Playwright loads only when web is played
            )
            self._browser = Browser()
        return self._browser

    def kind(self, game: str) -> TaskKind:
        return self.kinds.get(game)

    def make_env(self, task: Task) -> Any:
        """A fresh environment from the task's kind, on the shared browser."""
        extra: dict[str, Any] = {"browser": self.browser}
        if self.sites:
            extra["sites"] = self.sites
        # the judges' OpenAI client is imported only when a web task is played (start-up time)
        from playbench.app.agents.judge import env_services
        return self.kind(task.game).make_env(task, services=env_services(extra))

    async def close(self) -> None:
        """Close the browser this runtime started (not one it was given)."""
        if self._browser is not None and self._browser is not self._given:
            browser, self._browser = self._browser, None
            await browser.close()


@dataclass(frozen=True)
class WebInput(HumanInput):
    """A person's web input: the canonical action text, the raw event, the record's info."""

    info: Mapping[str, Any] = field(default_factory=dict)


class WebHumanPlayer(HumanPlayer):
    """The annotator on a web task. Each input is read through ``context.parse`` like a
    model's reply (so a malformed typed action is an invalid step), and its info lands in the
    step's record."""

    async def act(self, observation: Observation, context: PlayContext) -> Decision:
        given = await self.next_input()
        if given.kind == "give_up":
            return Decision.quit(given.raw)
        info = dict(getattr(given, "info", {}) or {})
        return Decision((read_entry(context, given.text),), given.raw or given.text, info=info)


def web_human_session(state: AppState, req: StartRequest, runtime: WebRuntime,
                      player: HumanPlayer | None = None) -> PlaySession:
    """A new episode of ``req``'s web task played by the annotator in the browser pane (as
    ``player``, a :class:`WebHumanPlayer` by default)."""
    if player is None:
        player = WebHumanPlayer(annotator(state), {"input": "browser pane: mouse and keyboard"})
    return human_session(state, req, player, env_factory=runtime.make_env,
                         spec=runtime.kind(req.game))


def web_model_session(state: AppState, req: StartRequest, runtime: WebRuntime,
                      delay: float = 0.0) -> tuple[PlaySession, Pacer]:
    """A new episode of ``req``'s web task played by a model profile or a scripted player
    (the solver replays the task's reference), paced like any model demo."""
    return model_session(state, req, delay, env_factory=runtime.make_env,
                         spec=runtime.kind(req.game))
