"""What the conformance suite (tests/kinds/test_conformance*.py) shares: the registry's kinds
grouped by the view they play on, and helpers that build tasks, contexts and prompts."""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from playbench.app.agents.player import ModelPlayer
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import family_of, make_protocols
from playbench.app.core.player import PastStep, PlayContext
from playbench.games.capabilities import board_spec
from playbench.games.kind import (
    TaskKind,
    default_registry,
    unavailable,
)
from playbench.games.types import Action, Observation, Setting, Task

REGISTRY = default_registry()
NAMES = REGISTRY.names()
VIEWS = ("board", "browser", "external", "game", "code", "css")
# A kind backed by an optional extra that is not installed here (``unavailable``) is checked
# only where it can run (CI installs every extra); tests/football checks that it says so.
PLAYABLE = [n for n in NAMES if unavailable(REGISTRY.get(n)) is None]
BOARDS = [n for n in PLAYABLE if board_spec(REGISTRY.get(n)) is not None]
"""Board games (a GameSpec's levels and rules), whatever surface a person plays them on."""
BROWSERS = [n for n in NAMES if REGISTRY.get(n).view == "browser"]
EXTERNALS = [n for n in NAMES if REGISTRY.get(n).view == "external"]
GAMES = [n for n in NAMES if REGISTRY.get(n).view == "game"]
CODES = [n for n in NAMES if REGISTRY.get(n).view in ("code", "css")]
HEAVY_VIEWS = ("browser", "game", "code", "css")
"""Views whose kinds play in Chromium."""


def is_board(kind: TaskKind) -> bool:
    """A board game (built from a GameSpec), on the board surface or a plugin's own."""
    return board_spec(kind) is not None


def params(names: list[str], *, browser: bool = True, smoke: bool = False) -> list[Any]:
    """``names`` as pytest parameters of a test that plays them, in the tiers their kinds
    need (tests/tiers.py): the browser tier for a kind played in Chromium (unless ``browser``
    is False: the test plays without a page), the football tier for the GRF engine; ``smoke``
    keeps them in the fast tier too (one real-component check per kind)."""
    out = []
    for name in names:
        marks = []
        if browser and REGISTRY.get(name).view in HEAVY_VIEWS:
            marks.append(pytest.mark.browser)
        if name == "football":
            marks.append(pytest.mark.football)
        if marks and smoke:
            marks.append(pytest.mark.smoke)
        out.append(pytest.param(name, marks=marks))
    return out


KEY_NAMES = ("Left", "Right", "Up", "Down", "Escape", "Space", "Return", "Enter", "Backspace",
             "Delete", *(chr(c) for c in range(ord("A"), ord("Z") + 1)), *"0123456789")
"""Every key name the desktop view passes to input maps (``playbench.app.ui.keys``), and Enter."""

WALK = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def first_task(kind: TaskKind) -> Task:
    """A task of the kind's first bundled level, with the default rule options."""
    sources = kind.sources()
    assert sources, f"{kind.name} offers no bundled source"
    level = kind.load(sources[0].name)[0]
    options = {o.name: o.default for o in kind.rule_options}
    return Task(kind.name, level, options, sources[0].name)


def image_url(frame: np.ndarray) -> str:
    assert frame.dtype == np.uint8 and frame.ndim == 3
    return "data:image/png;base64,AAAA"


def context(task: Task, setting: Setting, env: Any, step: int = 0) -> PlayContext:
    def parse(text: str) -> Action:
        return env.parse_action(text)

    history = [PastStep(0, 0, None, "(earlier reply)", False, "illegal")] if step else []
    return PlayContext(task=task, setting=setting, step=step, decision=step,
                       actions_left=setting.budget.max_actions,
                       decisions_left=setting.budget.max_decisions, seconds_left=None,
                       feedback=None, history=history, parse=parse,
                       vocabulary=env.vocabulary, oracle=env.oracle, seed=0)


def prompt_text(prompt: Any) -> str:
    parts = []
    for message in prompt.messages:
        content = message["content"]
        if isinstance(content, str):
            parts.append(content)
        else:
            parts += [p["text"] for p in content if p.get("type") == "text"]
    return "\n".join(parts)


def check_start(kind: TaskKind, task: Task, env: Any, observation: Observation) -> None:
    """What every kind's start observation gives: an RGB frame, a text, and a prompt in every
    setting built the way the model player builds it."""
    frame = observation.frame
    assert frame is not None and frame.dtype == np.uint8 and frame.shape[2] == 3
    assert observation.text.strip()
    check_prompts(kind, task, env, observation)


def check_prompts(kind: TaskKind, task: Task, env: Any, observation: Observation) -> None:
    """Every setting's prompt, built as :class:`ModelPlayer` builds it, for one observation."""
    profile = ModelProfile(name="conformance", base_url="http://127.0.0.1:9/v1", model="none")
    protocols = make_protocols()
    for setting in kind.settings().values():
        player = ModelPlayer(profile, None, protocols, image_url)
        for step in (0, 1):
            turn = player.turn(observation, context(task, setting, env, step))
            prompt = protocols[family_of(setting, kind.name)].build(turn)
            text = prompt_text(prompt)
            assert prompt.messages and prompt.messages[-1]["role"] == "user", setting.name
            assert len(text) > 100, (setting.name, text)
            if setting.observation != "image" and observation.text:
                assert observation.text.splitlines()[0][:40] in text, setting.name
            if prompt.tools is not None:
                named = {t["function"]["name"] for t in prompt.tools}
                assert kind.answers is not None
                assert named == {n for n, _, _ in kind.answers.tool_specs()}, setting.name


def board_env(kind: TaskKind, task: Task | None = None) -> Any:
    """A reset environment of the kind's first level (or ``task``)."""
    task = task or first_task(kind)
    env = kind.make_env(task)
    run(env.reset(task, 0))
    return env
