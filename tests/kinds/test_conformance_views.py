"""Conformance of the kinds played outside the board view, each with one bundled task: browser
kinds and game kinds in real Chromium, code kinds scoring their oracle, and kinds whose
environment is an outside harness (see tests/kinds/test_conformance.py for what every kind is
checked for)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from playbench.app.agents.player import ModelPlayer
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import family_of, make_protocols
from playbench.games.base import MoveError
from playbench.games.kind import (
    EnvServices,
)
from playbench.games.types import Task
from tests.kinds.conformance import (
    BROWSERS,
    CODES,
    EXTERNALS,
    GAMES,
    REGISTRY,
    check_start,
    context,
    first_task,
    image_url,
    params,
    prompt_text,
    run,
)

# --- browser kinds --------------------------------------------------------------------------

@pytest.mark.parametrize("name", params(BROWSERS, smoke=True))
def test_browser_kind_plays_one_bundled_task_in_chromium(name):
    """Real Chromium on the offline classifieds site, one task: reset gives an RGB frame and
    page text, every setting renders a prompt, the same page hashes the same after a reset and
    after a restore. (Replay of random actions is not checked: a live site keeps server-side
    changes, which is why these kinds say they are not resumable.)"""
    from playbench.games.browser.browser import Browser
    from playbench.resources.web.site import ClassifiedsServer

    kind = REGISTRY.get(name)
    task = first_task(kind)
    site = ClassifiedsServer()
    site.start()

    async def go() -> None:
        browser = Browser()
        await browser.start()
        try:
            services = EnvServices(extra={"browser": browser, "sites": {
                "CLASSIFIEDS": (site.base_url, site.reset_url)}})
            env = kind.make_env(task, services=services)
            try:
                observation = await env.reset(task, 0)
                check_start(kind, task, env, observation)
                at = env.state_hash()
                snap = env.snapshot()
                await env.restore(snap)
                assert env.state_hash() == at
                await env.reset(task, 0)
                assert env.state_hash() == at
                with pytest.raises(MoveError):
                    env.parse_action("fly [away]")
                assert env.parse_action("scroll [down]").text == "scroll [down]"
            finally:
                await env.close()
        finally:
            await browser.close()
    try:
        run(go())
    finally:
        site.stop()


# --- game kinds -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", params(GAMES, smoke=True))
def test_game_kind_plays_one_bundled_task_in_chromium(name):
    """Kinds on the ``game`` view (browser games, GameWorld's protocol): the first bundled task
    resets in real Chromium with an RGB frame and a state, every setting renders a prompt
    offering the tools the observation names, an action outside the game's controls is refused
    by ``parse_action``, one vocabulary action steps, and the episode scores success and
    progress (GameWorld's SR and PG as ``solved`` and ``completion``)."""
    kind = REGISTRY.get(name)
    task = first_task(kind)
    profile = ModelProfile(name="conformance", base_url="http://127.0.0.1:9/v1", model="none")

    async def go() -> dict[str, float | None]:
        env = kind.make_env(task)
        try:
            observation = await env.reset(task, 0)
            frame = observation.frame
            assert frame is not None and frame.dtype == np.uint8 and frame.shape[2] == 3
            protocols = make_protocols()
            for setting in kind.settings().values():
                getattr(env, "use_setting", lambda s: None)(setting)
                observation = await env.reset(task, 0)
                player = ModelPlayer(profile, None, protocols, image_url)
                turn = player.turn(observation, context(task, setting, env))
                prompt = protocols[family_of(setting, kind.name)].build(turn)
                assert len(prompt_text(prompt)) > 100, setting.name
                offered = {n for n, _, _ in observation.info["tool_specs"]}
                assert prompt.tools and {t["function"]["name"] for t in prompt.tools} == offered
                with pytest.raises(MoveError):
                    env.parse_action("fly_to_the_moon")
            transition = await env.step(env.parse_action(env.vocabulary()[0]))
            assert transition.valid
            return await env.score([], kind.settings()["default"])
        finally:
            await env.close()
    scores = run(go())
    assert scores["solved"] in (0.0, 1.0) and 0.0 <= (scores["completion"] or 0.0) <= 100.0


# --- code kinds -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", params(CODES, smoke=True))
def test_code_kind_scores_its_oracle_as_solved_in_chromium(name):
    """Kinds where the player writes or repairs code (views ``code``, ``css``): the first
    bundled task resets in real Chromium with an RGB target frame and a task text, every
    setting renders a prompt, an answer without code is refused by ``parse_action``, and
    submitting the env's oracle ends the episode solved."""
    kind = REGISTRY.get(name)
    task = first_task(kind)

    async def go() -> dict[str, float | None]:
        env = kind.make_env(task)
        try:
            observation = await env.reset(task, 0)
            check_start(kind, task, env, observation)
            with pytest.raises(MoveError):
                env.parse_action("I would write a nice page here.")
            plan = env.oracle()
            assert plan
            for text in plan:
                transition = await env.step(env.parse_action(text))
            assert transition.terminated
            return await env.score([], kind.settings()["default"])
        finally:
            await env.close()
    assert run(go())["solved"] == 1.0


# --- kinds whose environment is an outside harness ---------------------------------------------

@pytest.mark.parametrize("name", EXTERNALS)
def test_external_kind_turns_a_request_into_an_observation_and_a_reply_into_its_answer(name):
    """The env is fed one chat request (as the server hands it over): reset shows it, a
    reply parsed by the env goes back to the waiting request as a chat completion, and an
    end mark ends the episode. Without a session the kind refuses to make an env."""
    import json as _json

    from playbench.app.harness.env import Exchange, Session
    from playbench.app.harness.wire import parse_body, pending_request

    kind = REGISTRY.get(name)
    level = kind.load("conformance/task-1")[0]
    kind.check_level(level)
    task = Task(name, level, {}, "conformance")
    with pytest.raises(Exception):  # noqa: B017 - the kind's own refusal
        kind.make_env(task)

    async def go() -> None:
        session = Session("conformance", "task-1", asyncio.get_running_loop(), idle_seconds=5)
        env = kind.make_env(task, services=EnvServices(extra={"session": session}))
        body = {"model": "m", "messages": [{"role": "user", "content": "say hi"}],
                "tools": [{"type": "function", "function": {"name": "wave",
                                                            "parameters": {}}}]}
        request = parse_body(_json.dumps(body).encode())
        exchange = Exchange(request, pending_request(request, "conformance", "task-1"))
        assert session.offer(exchange)
        observation = await env.reset(task, 0)
        assert "say hi" in observation.text and observation.frame is None
        action = env.parse_action("wave {}")
        assert action.text == "wave {}"
        assert exchange.pending.answer(action.move.reply)  # as a person would
        session.end("harness_ended")  # after this reply
        tr = await env.step(action)
        # the answer is out as soon as step returns (the loop records it then); what follows
        # - here the end - comes from advance()
        assert tr.valid and not tr.terminated and exchange.completed
        assert tr.info["reply"]["tool_call"]["name"] == "wave"
        following = await env.advance()
        assert following is not None and following.info["end_reason"] == "harness_ended"
        answer = exchange.response(1)
        reply = _json.loads(answer.body)["choices"][0]["message"]
        assert answer.status == 200 and reply["tool_calls"][0]["function"]["name"] == "wave"
        scores = await env.score([], kind.settings()["default"], "harness_ended")
        assert set(scores) >= {"score", "solved"}
        await env.close()
    run(go())
