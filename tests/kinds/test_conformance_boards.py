"""Conformance of the kinds played on the board view: replay determinism, snapshot/restore,
state hashes, an input map that reaches the whole vocabulary, an answer format that reads back
every action, RGB frames of the renderer's size and Gymnasium's ``check_env`` (see
tests/kinds/test_conformance.py for what every kind is checked for)."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.games.base import MoveError
from playbench.games.kind import (
    TaskKind,
)
from playbench.games.types import Invalid, Task
from tests.kinds.conformance import (
    BOARDS,
    KEY_NAMES,
    REGISTRY,
    WALK,
    board_env,
    check_prompts,
    first_task,
    params,
    run,
)

# --- board kinds ----------------------------------------------------------------------------

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


@pytest.mark.parametrize("name", params(BOARDS))
def test_start_observation_renders_a_prompt_in_every_setting(name):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    env = kind.make_env(task)
    observation = run(env.reset(task, 0))
    check_prompts(kind, task, env, observation)


@pytest.mark.parametrize("name", params(BOARDS))
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


@pytest.mark.parametrize("name", params(BOARDS))
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


@pytest.mark.parametrize("name", params(BOARDS))
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


@pytest.mark.parametrize("name", params(BOARDS))
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


@pytest.mark.parametrize("name", params(BOARDS))
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


@pytest.mark.parametrize("name", params(GYM))
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
