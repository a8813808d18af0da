"""Conformance of every registered task kind, in the spirit of Gymnasium's ``check_env``.

Parametrized over ``playbench.games.kind.default_registry()``: the six bundled boards, web tasks and
the Lights Out plugin installed from ``tests/plugins/lightsout`` (and any kind installed later).
Every kind is checked for the protocol, its entry-point name, settings with budgets, bundled
sources that load, and a prompt in every setting built the way the model player builds it.
Kinds on the board view are also checked for replay determinism, snapshot/restore, state hashes
that change exactly when the state does, an input map that reaches the whole vocabulary, an
answer format that reads back every action, RGB frames of the renderer's size, and their
resumability claim against the app's own replay check. Kinds on the browser view are played for
one bundled task in real Chromium on the offline classifieds site. A kind on a view this suite
does not know fails :func:`test_every_kind_is_on_a_view_this_suite_checks`, so nothing is left
unchecked silently.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import itertools
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.agents.player import ModelPlayer
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import family_of, make_protocols
from playbench.app.core.play import play
from playbench.app.core.player import PastStep, PlayContext
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.replay import verify_episode
from playbench.app.players.scripted import RandomPlayer
from playbench.app.ui.models.records import kind_resumable
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.games.base import Level, MoveError, RuleOption
from playbench.games.kind import (
    ENTRY_POINT_GROUP,
    EnvServices,
    TaskKind,
    default_registry,
    unavailable,
)
from playbench.games.types import Action, Budget, Invalid, Observation, Setting, Task

REGISTRY = default_registry()
NAMES = REGISTRY.names()
VIEWS = ("board", "browser", "external", "game", "code", "css")
# A kind backed by an optional extra that is not installed here (``unavailable``) is checked
# only where it can run (CI installs every extra); tests/football checks that it says so.
PLAYABLE = [n for n in NAMES if unavailable(REGISTRY.get(n)) is None]
BOARDS = [n for n in PLAYABLE if REGISTRY.get(n).view == "board"]
BROWSERS = [n for n in NAMES if REGISTRY.get(n).view == "browser"]
EXTERNALS = [n for n in NAMES if REGISTRY.get(n).view == "external"]
GAMES = [n for n in NAMES if REGISTRY.get(n).view == "game"]
CODES = [n for n in NAMES if REGISTRY.get(n).view in ("code", "css")]
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


# --- every kind -----------------------------------------------------------------------------

def test_the_registry_holds_the_bundled_kinds_and_the_plugin():
    assert {"sokoban", "maze", "sudoku", "queens", "hanoi", "npuzzle", "web",
            "lightsout"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_is_on_a_view_this_suite_checks(name):
    assert REGISTRY.get(name).view in VIEWS


@pytest.mark.parametrize("name", NAMES)
def test_kind_satisfies_the_protocol_under_its_entry_point_name(name):
    points = {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    kind = REGISTRY.get(name)
    assert isinstance(kind, TaskKind)
    assert kind.name == name and points[name].load() is kind
    assert kind.title.strip() and kind.help.strip()
    assert isinstance(kind.resumable, bool) and isinstance(kind.undo, bool)
    assert all(isinstance(o, RuleOption) and o.default in o.choices for o in kind.rule_options)
    assert kind.gym_actions is None or (
        kind.gym_actions and all(isinstance(a, str) for a in kind.gym_actions))
    if kind.view == "board":
        assert kind.answers is not None and kind.input_map() is not None
        assert kind.input_map() is not kind.input_map()  # a fresh map per play view
    else:
        assert kind.input_map() is None  # people act in the browser pane


@pytest.mark.parametrize("name", NAMES)
def test_settings_carry_budgets_and_include_default(name):
    found = REGISTRY.get(name).settings()
    assert "default" in found
    for key, setting in found.items():
        assert isinstance(setting, Setting) and setting.name == key
        assert isinstance(setting.budget, Budget)
        assert setting.observation in ("image", "text", "both")
        assert setting.budget.max_actions or setting.budget.max_decisions, key
        assert setting.description.strip(), key


@pytest.mark.parametrize("name", NAMES)
def test_bundled_sources_load_levels_of_this_kind(name):
    kind = REGISTRY.get(name)
    for source in kind.sources():
        levels = kind.load(source.name)
        assert levels and all(isinstance(lv, Level) and lv.game == name for lv in levels)
        assert source.count is None or source.count == len(levels), source.name
        assert len({lv.number for lv in levels}) == len(levels), source.name
        assert isinstance(kind.describe(levels[0]), Mapping), source.name
        if len(levels) > 1:
            number = levels[1].number
            assert kind.load(f"{source.name}:{number}") == [levels[1]], source.name


@pytest.mark.parametrize("name", NAMES)
def test_check_level_accepts_bundled_levels_and_refuses_a_broken_one(name):
    """``check_level`` is what an import asks before writing anything: it must pass every
    bundled level and refuse a level whose text is not this kind's."""
    kind = REGISTRY.get(name)
    for source in kind.sources():
        for level in kind.load(source.name)[:3]:
            kind.check_level(level)
    broken = Level(name, "this is not a level of any kind", 1)
    with pytest.raises(Exception):  # noqa: B017 - each kind refuses with its own error type
        kind.check_level(broken)

@pytest.mark.parametrize("name", PLAYABLE)
def test_plans_split_what_join_writes(name):
    kind = REGISTRY.get(name)
    if kind.view == "board":
        env = board_env(kind)
        moves = env.vocabulary()[:5]
    else:
        moves = ["click [12]", "type [5] [blue guitar]", "scroll [down]", "stop [a b c]"]
    assert kind.split_plan(kind.join_plan(moves)) == moves
    assert kind.split_plan("   ") == []


# --- board kinds ----------------------------------------------------------------------------

def board_env(kind: TaskKind, task: Task | None = None) -> Any:
    """A reset environment of the kind's first level (or ``task``)."""
    task = task or first_task(kind)
    env = kind.make_env(task)
    run(env.reset(task, 0))
    return env


SHARED_ENVS: dict[tuple[str, str], Any] = {}
"""Environments the property walks reuse from one example to the next, one per kind and
role: starting one can take seconds (football starts its engine), and an environment must
reset to the same game whatever it played before - which the walks then check as well."""


def shared_env(kind: TaskKind, task: Task, role: str) -> Any:
    key = (kind.name, role)
    if key not in SHARED_ENVS:
        SHARED_ENVS[key] = kind.make_env(task, render=False)
    return SHARED_ENVS[key]


@pytest.fixture(scope="module", autouse=True)
def _close_shared_envs():
    yield
    for env in SHARED_ENVS.values():
        run(env.close())
    SHARED_ENVS.clear()


async def walk(kind: TaskKind, task: Task, picks: list[int], seed: int = 0
               ) -> tuple[list[str], list[str], Any]:
    """Reset the kind's shared walking environment and play the vocabulary entries ``picks``
    choose (modulo its size); returns the actions, the state hash after reset and after every
    step, and the environment."""
    env = shared_env(kind, task, "walk")
    await env.reset(task, seed)
    hashes = [env.state_hash()]
    actions = []
    for pick in picks:
        vocab = env.vocabulary()
        text = vocab[pick % len(vocab)]
        action = env.parse_action(text)
        before = env.state_hash()
        tr = await env.step(action)
        after = env.state_hash()
        assert tr.changed == (after != before), (text, tr)
        assert tr.valid or not tr.changed, (text, tr)
        assert tr.valid or tr.invalid_kind in ("illegal", "not_allowed"), tr
        actions.append(action.text)
        hashes.append(after)
        if tr.terminated:
            break
    return actions, hashes, env


@pytest.mark.parametrize("name", BOARDS)
def test_start_observation_renders_a_prompt_in_every_setting(name):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    env = kind.make_env(task)
    observation = run(env.reset(task, 0))
    check_prompts(kind, task, env, observation)


@pytest.mark.parametrize("name", BOARDS)
@WALK
@given(picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=12))
def test_same_level_seed_and_actions_give_the_same_state_hashes(name, picks):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    first, hashes, _ = run(walk(kind, task, picks))
    again, hashes2, env = run(walk(kind, task, picks))
    assert first == again and hashes == hashes2
    # replaying the recorded canonical texts (not the picks) in another environment lands on
    # the same hashes too
    fresh = shared_env(kind, task, "replay")
    run(fresh.reset(task, 0))
    for text, expected in zip(first, hashes[1:], strict=True):
        run(fresh.step(fresh.parse_action(text)))
        assert fresh.state_hash() == expected


@pytest.mark.parametrize("name", BOARDS)
@WALK
@given(picks=st.lists(st.integers(0, 10_000), min_size=2, max_size=10), cut=st.integers(0, 9))
def test_restore_returns_to_the_snapshot_state_hash(name, picks, cut):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    cut = min(cut, len(picks))

    async def go() -> None:
        _, hashes, env = await walk(kind, task, picks[:cut])
        snap, at = env.snapshot(), env.state_hash()
        text_at = (await env.restore(snap)).text
        assert env.state_hash() == at == hashes[-1]
        for pick in picks[cut:]:
            vocab = env.vocabulary()
            tr = await env.step(env.parse_action(vocab[pick % len(vocab)]))
            if tr.terminated:
                break
        observation = await env.restore(snap)
        assert env.state_hash() == at and observation.text == text_at
    run(go())


def input_targets(kind: TaskKind, env: Any) -> set[Any]:
    """What the renderer's ``locate`` gives over the frame's pixels (the play view's path)."""
    board = env.board
    geometry = board.spec.make_renderer(board.rules, {})
    frame = env.board.render()
    h, w = frame.shape[:2]
    found = set()
    step = max(1, min(h, w) // 60)
    for y in range(0, h, step):
        for x in range(0, w, step):
            target = geometry.locate(board.state, x + 0.5, y + 0.5)
            if target is not None:
                found.add(target if not isinstance(target, list) else tuple(target))
    return found


def gestures_of(kind: TaskKind, state: Any, sequences: Any) -> set[str]:
    """Action texts that the input sequences produce, each played on a fresh input map. An
    input is ``("key", name)``, ``("digit", d)`` (the on-screen pad), ``("click", target)``
    (press and release on one target) or ``("drag", a, b)``."""
    texts: set[str] = set()
    for seq in sequences:
        imap = kind.input_map()
        for item in seq:
            if item[0] == "key":
                got = [imap.key(item[1], state)]
            elif item[0] == "digit":
                got = [imap.digit(item[1], state)]
            elif item[0] == "click":
                got = [imap.press(item[1], state), imap.release(item[1], state)]
            else:
                got = [imap.press(item[1], state), imap.release(item[2], state)]
            texts.update(g.text for g in got if g is not None)
    return texts


@pytest.mark.parametrize("name", BOARDS)
def test_keys_and_clicks_reach_the_whole_vocabulary(name):
    """Every action of the start state's vocabulary comes from one input or two in a row
    (a selection, then a key, digit or second click) or a drag between two targets."""
    kind = REGISTRY.get(name)
    env = board_env(kind)
    state = env.board.state
    targets = sorted(input_targets(kind, env), key=repr)
    keys = [("key", k) for k in KEY_NAMES]
    clicks = [("click", t) for t in targets]
    digits = [("digit", d) for d in range(10)]
    firsts = keys + clicks
    texts = gestures_of(kind, state, [(i,) for i in firsts + digits])
    texts |= gestures_of(kind, state, [(("drag", a, b),) for a in targets[:20]
                                       for b in targets[:20] if a != b])
    wanted = set(env.vocabulary())
    if not wanted <= {_canonical(env, t) for t in texts}:
        texts |= gestures_of(kind, state, itertools.product(firsts, firsts + digits))
    reached = {_canonical(env, t) for t in texts}
    missing = sorted(wanted - reached)
    assert not missing, f"{name}: no key or click gives {missing[:10]}"


def _canonical(env: Any, text: str) -> str | None:
    try:
        return env.parse_action(text).text
    except MoveError:
        return None


@pytest.mark.parametrize("name", BOARDS)
def test_answer_format_reads_back_every_action(name):
    kind = REGISTRY.get(name)
    answers = kind.answers
    env = board_env(kind)
    vocab = env.vocabulary()
    assert vocab
    tools = {n for n, _, _ in answers.tool_specs()}
    assert tools, name
    for move in vocab:
        single = answers.single_texts(answers.move_value(move))
        assert not isinstance(single, Invalid) and len(single) == 1, (move, single)
        assert env.parse_action(single[0]).text == move
        tool, args = answers.text_to_tool(move)
        assert tool in tools and answers.tool_to_text(tool, args) == move
    plan = vocab[:6]
    texts = answers.plan_texts(answers.plan_value(plan))
    assert not isinstance(texts, Invalid)
    assert [env.parse_action(t).text for t in texts] == plan
    assert isinstance(answers.tool_to_text("no_such_tool", {}), Invalid)


@pytest.mark.parametrize("name", BOARDS)
def test_frames_are_rgb_uint8_at_the_renderers_size(name):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    env = kind.make_env(task)
    observation = run(env.reset(task, 0))
    board = env.board
    own = board.spec.make_renderer(board.rules, {}).render(board.state)
    frame = observation.frame
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.shape == own.shape
    assert frame.std() > 0  # not a blank picture
    rng = random.Random(0)
    for _ in range(5):
        tr = run(env.step(env.parse_action(rng.choice(env.vocabulary()))))
        assert tr.observation.frame.shape == frame.shape
        if tr.terminated:
            break
    thumb = kind.thumbnail(task.level, 64)
    assert thumb is None or (thumb.dtype == np.uint8 and max(thumb.shape[:2]) <= 64)
    blind = kind.make_env(task, render=False)
    assert run(blind.reset(task, 0)).frame is None


GYM = [n for n in BOARDS if REGISTRY.get(n).gym_actions]


@pytest.mark.parametrize("name", GYM)
def test_gymnasium_check_env_passes(name):
    """Kinds that give Gymnasium actions pass Gymnasium's own checker through
    ``gymnasium.make`` (spaces, reset/step signatures, determinism under a seed, render)."""
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import playbench.games.gym as gym_envs

    env = gymnasium.make(gym_envs.env_id(name), render_mode="rgb_array")
    try:
        check_env(env.unwrapped)
        frame, _ = env.reset(seed=1)
        assert env.observation_space.contains(frame)
        assert env.action_space.n == len(REGISTRY.get(name).gym_actions)
    finally:
        env.close()


@pytest.mark.parametrize("name", PLAYABLE)
def test_resumability_claim(name, db_url):
    """A resumable kind's recorded episode replays to the same state hashes (the app's own
    check, ``verify_episode``); a non-resumable kind says so to the app."""
    kind = REGISTRY.get(name)
    assert kind_resumable(name) is kind.resumable
    if not kind.resumable:
        # Code kinds (WebUI, CSS repair) resume: their state is what was submitted or edited,
        # rebuilt by submitting it again in the browser.
        assert kind.view in ("browser", "external", "game"), \
            "only live sites, outside harnesses and game kinds are expected not to resume"
        return
    task = first_task(kind)
    setting = kind.settings()["default"]
    store = Store(open_database(db_url))
    actions = min(8, setting.budget.max_actions or 8)  # WebUI: 5 submissions, each rendered

    async def go() -> None:
        result = await play(task, RandomPlayer(), setting=setting,
                            budget=setting.budget.merged(max_actions=actions),
                            recorder=DbRecorder(store), seed=3, render=False)
        steps = store.steps(result.episode_id)
        assert steps and all(s.state_hash for s in steps)
        report = await verify_episode(store, result.episode_id)
        assert report.ok, report.problems
        assert report.steps_checked == len(steps)
    run(go())


# --- browser kinds --------------------------------------------------------------------------

@pytest.mark.parametrize("name", BROWSERS)
def test_browser_kind_plays_one_bundled_task_in_chromium(name):
    """Real Chromium on the offline classifieds site, one task: reset gives an RGB frame and
    page text, every setting renders a prompt, the same page hashes the same after a reset and
    after a restore. (Replay of random actions is not checked: a live site keeps server-side
    changes, which is why these kinds say they are not resumable.)"""
    from playbench.games.web.browser import Browser
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
                frame = observation.frame
                assert frame is not None and frame.dtype == np.uint8 and frame.shape[2] == 3
                assert observation.text.strip()
                check_prompts(kind, task, env, observation)
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

@pytest.mark.parametrize("name", GAMES)
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

@pytest.mark.parametrize("name", CODES)
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
            frame = observation.frame
            assert frame is not None and frame.dtype == np.uint8 and frame.shape[2] == 3
            assert observation.text.strip()
            check_prompts(kind, task, env, observation)
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

    from playbench.games.external.env import Exchange, Session
    from playbench.games.external.wire import parse_body, pending_request

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
        assert tr.valid and tr.terminated and tr.info["reply"]["tool_call"]["name"] == "wave"
        answer = exchange.response(1)
        reply = _json.loads(answer.body)["choices"][0]["message"]
        assert answer.status == 200 and reply["tool_calls"][0]["function"]["name"] == "wave"
        scores = await env.score([], kind.settings()["default"], "harness_ended")
        assert set(scores) >= {"score", "solved"}
        await env.close()
    run(go())
