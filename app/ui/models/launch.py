"""Making play sessions for the views: a person's, a model's (paced), or a resumed one.

The player comes from the same places the command line takes it from: a
:class:`~playbench.app.players.human.HumanPlayer` for the annotator, ``player_factory`` for models
and scripted players (its ``aclose`` runs when the episode ends). Every episode started here records
the annotator pseudonym in its meta, whoever plays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playbench.app.core.budget import Budget
from playbench.app.core.runs import task_of
from playbench.app.core.settings import get_setting
from playbench.app.players.factory import player_factory
from playbench.app.players.human import HumanPlayer
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.pacing import PacedPlayer, Pacer, PausableClock
from playbench.app.ui.models.session import PlaySession
from playbench.app.ui.models.start import StartRequest
from playbench.games import registry
from playbench.games.kind import default_registry


class NoDatabase(RuntimeError):
    """No database is open, so nothing could be recorded."""


def _store(state: AppState):
    if state.store is None:
        raise NoDatabase("no database is open" + (f" ({state.db_problem})"
                                                  if state.db_problem else ""))
    return state.store


def _meta(state: AppState) -> dict[str, Any]:
    return {"annotator": state.prefs.annotator, "client": "desktop"}


def annotator(state: AppState) -> str:
    """The pseudonym a person's new episode is recorded under."""
    return state.prefs.annotator or "anonymous"


def human_session(state: AppState, req: StartRequest,
                  player: HumanPlayer | None = None, **env: Any) -> PlaySession:
    """A new episode of ``req``'s level played by the annotator (as ``player``; by default
    with the keyboard and mouse on the board). ``env`` (``env_factory``, ``spec``) goes to
    :class:`PlaySession` for kinds with their own environment (see :func:`kind_env`)."""
    store = _store(state)
    if player is None:
        player = HumanPlayer(annotator(state), {"input": "keyboard and mouse"})
    return PlaySession(store, req.task(), req.the_setting(), req.budget, player,
                       seed=req.seed, meta=_meta(state), **env)


def model_session(state: AppState, req: StartRequest, delay: float = 0.0,
                  **env: Any) -> tuple[PlaySession, Pacer]:
    """A new episode of ``req``'s level played by a model profile or a scripted player,
    behind a pacer (pause, single step, speed) whose waits are left out of the clock.
    ``env`` (``env_factory``, ``spec``) goes to :class:`PlaySession` for non-board tasks."""
    store = _store(state)
    factory = player_factory(req.player, store)
    clock = PausableClock()
    pacer = Pacer(clock, delay)
    task = req.task()
    player = PacedPlayer(factory(task, 0), pacer)
    session = PlaySession(store, task, req.the_setting(), req.budget, player, seed=req.seed,
                          meta=_meta(state), clock=clock, on_close=factory.aclose, **env)
    return session, pacer


Person = Callable[[str, str], HumanPlayer]
"""(game, annotator) -> the person playing that game's surface (the surface's ``person``)."""


def resume_session(state: AppState, episode_id: int, delay: float = 0.0,
                   person: Person | None = None,
                   environment: Callable[[str], dict[str, Any]] | None = None,
                   ) -> tuple[PlaySession, Pacer | None]:
    """A session continuing recorded episode ``episode_id`` with the player that began it:
    the same annotator (by pseudonym) on the surface's own player (``person``) for human
    episodes, else the same player spec. ``environment`` gives the session's environment by
    game (the surface's: a browser kind's episode goes on in the app's shared Chromium);
    the kind's own by default."""
    store = _store(state)
    row = store.episode(episode_id)
    ep = row.episode
    task = task_of(row)
    setting = get_setting(ep.setting or "default", task.game)
    budget = Budget.from_dict(ep.budget)
    env = (environment or kind_env)(task.game)
    if row.participant.kind == "human":
        player = (person(task.game, row.participant.name) if person is not None
                  else HumanPlayer(row.participant.name))
        return PlaySession(store, task, setting, budget, player, seed=ep.seed, **env), None
    factory = player_factory(ep.player, store)
    inner = factory.resumed(task, ep.n_steps)
    clock = PausableClock()
    pacer = Pacer(clock, delay)
    session = PlaySession(store, task, setting, budget, PacedPlayer(inner, pacer), seed=ep.seed,
                          clock=clock, on_close=factory.aclose, **env)
    return session, pacer


def kind_env(game: str) -> dict[str, Any]:
    """``spec`` and ``env_factory`` for a session of a kind that is not a board game (its own
    environment, the kind as the views' spec), as the Library's start of that kind passes
    them; nothing for board games (GameSpec kinds: the session's default environment)."""
    if game in registry.available():
        return {}
    kind = default_registry().get(game)
    return {"spec": kind, "env_factory": lambda task: kind.make_env(task)}
