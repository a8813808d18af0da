"""MageBench's own Sokoban files: list, gym-sokoban environment pickles and upper_bound.json.

The pickles in ``data/magebench`` were made by gym-sokoban's own environment
(benchmarks/magebench_sokoban_fixtures.py), and their ``upper_bound.json`` by a breadth-first
search and gym-sokoban's own ``step`` rewards in that script - nothing here comes from
PlayBench's solver, so the optimal lengths and R_best compared below are independent.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.games.base import BoardEnv, LevelError
from playbench.games.packs import load_file, resolve
from playbench.games.registry import get
from playbench.games.sokoban.rules import solution_reward
from playbench.games.sokoban.solver import solve

DATA = Path(__file__).parent / "data" / "magebench"
LIST = DATA / "Sokoban_all.json"
BOUNDS = json.loads((DATA / "Sokoban" / "upper_bound.json").read_text())
SPEC = get("sokoban")


def test_a_list_file_gives_its_levels_in_order_with_magebench_names_and_tiers():
    levels = load_file(SPEC, LIST)
    names = [Path(p).stem for p in json.loads(LIST.read_text())]
    assert [lv.title for lv in levels] == names
    assert [lv.number for lv in levels] == [1, 2, 3]
    assert [lv.meta["tier"] for lv in levels] == [n.split("-", 1)[1] for n in names]
    assert all(lv.meta["magebench"] == lv.title for lv in levels)


def test_optimal_length_and_r_best_equal_the_upper_bound_file():
    for lv in load_file(SPEC, LIST):
        entry = BOUNDS[lv.title]
        env = BoardEnv(SPEC)
        state = env.reset(lv)
        plan = solve(env.rules, state, None)
        assert plan is not None and len(plan) == entry["steps"] == lv.meta["optimal"]
        # PlayBench's rewards are gym-sokoban's times 5, the factor MageBench scores with
        assert lv.meta["rbest"] == pytest.approx(5 * entry["reward"])
        assert solution_reward(state, plan) == pytest.approx(lv.meta["rbest"])
        assert SPEC.r_best(env.rules, lv) == pytest.approx(5 * entry["reward"])


def test_a_single_pickle_and_the_upper_bound_file_are_sources_too(tmp_path):
    one = load_file(SPEC, DATA / "Sokoban" / "97-Sokoban-small-v0.pkl")
    assert [(lv.number, lv.title) for lv in one] == [(1, "97-Sokoban-small-v0")]
    assert one[0].meta["optimal"] == BOUNDS["97-Sokoban-small-v0"]["steps"]
    listed = {lv.title: lv for lv in load_file(SPEC, LIST)}
    by_bounds = load_file(SPEC, DATA / "Sokoban" / "upper_bound.json")
    assert [lv.title for lv in by_bounds] == list(BOUNDS)
    assert all(lv.text == listed[lv.title].text for lv in by_bounds)
    # without an upper bound beside it, a pickle still loads; R_best then comes from our solver
    alone = tmp_path / "97-Sokoban-small-v0.pkl"
    shutil.copy(DATA / "Sokoban" / alone.name, alone)
    (lv,) = load_file(SPEC, alone)
    assert "rbest" not in lv.meta and lv.text == one[0].text
    assert SPEC.r_best(SPEC.make_rules({}), lv) == pytest.approx(one[0].meta["rbest"])


def test_a_range_picks_levels_of_a_list_file():
    chosen = resolve(SPEC, f"{LIST}:2-3").levels
    assert [lv.number for lv in chosen] == [2, 3]


def test_a_list_entry_that_is_missing_or_not_a_pickle_is_named(tmp_path):
    (tmp_path / "Sokoban").mkdir()
    bad = tmp_path / "list.json"
    bad.write_text(json.dumps(["Sokoban/1-Sokoban-v0.pkl"]))
    with pytest.raises(LevelError, match=r"entry 1 names 'Sokoban/1-Sokoban-v0.pkl'") as err:
        load_file(SPEC, bad)
    assert str(bad) in str(err.value)
    bad.write_text(json.dumps([3]))
    with pytest.raises(LevelError, match="entry 1 is not a path to a .pkl file"):
        load_file(SPEC, bad)
    bad.write_text("[\n  \"a.pkl\",\n")
    with pytest.raises(LevelError, match="not valid JSON") as err:
        load_file(SPEC, bad)
    assert err.value.line == 3


def test_an_upper_bound_whose_plan_does_not_fit_the_room_is_refused(tmp_path):
    folder = tmp_path / "Sokoban"
    shutil.copytree(DATA / "Sokoban", folder)
    bounds = json.loads((folder / "upper_bound.json").read_text())
    entry = bounds["97-Sokoban-small-v0"]
    entry["reward"] = entry["reward"] + 1
    (folder / "upper_bound.json").write_text(json.dumps(bounds))
    with pytest.raises(LevelError, match="'97-Sokoban-small-v0'.*not the") as err:
        load_file(SPEC, folder / "97-Sokoban-small-v0.pkl")
    assert "upper_bound.json" in str(err.value)
    entry["reward"] -= 1
    entry["actions"] = entry["actions"][:-1]
    entry["steps"] -= 1
    (folder / "upper_bound.json").write_text(json.dumps(bounds))
    with pytest.raises(LevelError, match="do not solve the room"):
        load_file(SPEC, folder / "97-Sokoban-small-v0.pkl")


# --- hostile pickles ------------------------------------------------------------------------

def _fake_gym_class(monkeypatch, module: str, name: str) -> type:
    """A class that pickles under a gym-sokoban name (the real package is not installed)."""
    parts = module.split(".")
    for k in range(1, len(parts) + 1):
        dotted = ".".join(parts[:k])
        if dotted not in sys.modules:
            monkeypatch.setitem(sys.modules, dotted, types.ModuleType(dotted))
    cls = type(name, (), {"__module__": module})
    setattr(sys.modules[module], name, cls)
    return cls


class Evil:
    """A subclass-like environment defined outside gym-sokoban whose ``__setstate__`` would
    write the marker file."""

    def __setstate__(self, state):
        Path(state["marker"]).write_text("ran")


class _Reduces:
    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def _payloads(marker: Path) -> dict[str, object]:
    return {
        "posix.system": _Reduces(os.system, (f"touch {marker}",)),
        "builtins.eval": _Reduces(eval, (f"open({str(marker)!r}, 'w')",)),
        "subprocess.call": _Reduces(subprocess.call, (["touch", str(marker)],)),
        "shutil.copy": _Reduces(shutil.copy, (__file__, str(marker))),
        f"{__name__}.Evil": Evil(),
    }


@pytest.mark.parametrize("refused", ["posix.system", "builtins.eval", "subprocess.call",
                                     "shutil.copy", f"{__name__}.Evil"])
def test_a_hostile_pickle_is_refused_naming_the_file_and_global_and_nothing_runs(
        tmp_path, monkeypatch, refused):
    marker = tmp_path / "marker"
    payload = _payloads(marker)[refused]
    if isinstance(payload, Evil):
        payload.__dict__["marker"] = str(marker)
    env_cls = _fake_gym_class(monkeypatch, "gym_sokoban.envs.sokoban_env_variations",
                              "SokobanEnv_Small0")
    env = env_cls()
    env.room_fixed = np.ones((5, 5), dtype=np.int64)
    env.extra = payload  # hidden inside an environment that is admitted
    for obj in (payload, env):
        for protocol in (0, 2, pickle.HIGHEST_PROTOCOL):
            data = pickle.dumps(obj, protocol=protocol)
            path = tmp_path / "1-Sokoban-small-v0.pkl"
            path.write_bytes(data)
            with pytest.raises(LevelError) as err:
                load_file(SPEC, path)
            assert f"refused global {refused!r}" in str(err.value)
            assert str(path) in str(err.value) and "nothing in the file was run" in str(err.value)
            assert not marker.exists()
    # the control: Python's own unpickler does run the payload
    pickle.loads(pickle.dumps(payload))
    assert marker.exists()


def test_the_os_module_spelling_of_system_is_refused_too(tmp_path):
    marker = tmp_path / "marker"
    path = tmp_path / "x.pkl"
    path.write_bytes(f"cos\nsystem\n(S'touch {marker}'\ntR.".encode())
    with pytest.raises(LevelError, match="refused global 'os.system'"):
        load_file(SPEC, path)
    assert not marker.exists()


class _Raw:
    """Pickles as the given reduce tuple (to write array headers NumPy would never write)."""

    def __init__(self, reduced):
        self.reduced = reduced

    def __reduce__(self):
        return self.reduced


def test_an_array_header_asking_for_terabytes_and_a_dtype_rewrite_are_refused(tmp_path):
    from numpy.core.multiarray import _reconstruct
    path = tmp_path / "x.pkl"
    path.write_bytes(pickle.dumps(_Raw((_reconstruct, (np.ndarray, (10**12,), b"b")))))
    with pytest.raises(LevelError, match="larger than"):
        load_file(SPEC, path)
    # a dtype's state is set after it is made: the shared built-in one must stay as it was
    path.write_bytes(pickle.dumps(_Raw((np.dtype, ("i8", False, False),
                                        (3, ">", None, None, None, -1, -1, 0)))))
    with pytest.raises(LevelError):
        load_file(SPEC, path)
    assert np.dtype("i8").byteorder == "=" and np.zeros(1, "i8").dtype.isnative


# --- property tests -------------------------------------------------------------------------

def _outcome(path: Path) -> str:
    """``level`` or the refusal's message; anything else (another exception) fails the test.
    A refusal names the file and is the environment reader's own, not a text format's."""
    try:
        levels = load_file(SPEC, path)
    except LevelError as err:
        message = str(err)
        assert str(path) in message
        assert "pickle" in message or "gym-sokoban" in message or "room" in message, message
        return message
    assert levels and all(lv.game == "sokoban" for lv in levels)
    return "level"


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=400),
                      st.binary(max_size=400).map(lambda b: b"\x80\x04\x95" + b)))
def test_random_bytes_end_in_a_clear_error(tmp_path, data):
    path = tmp_path / "1-Sokoban-v0.pkl"
    path.write_bytes(data)
    _outcome(path)


_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=st.sampled_from(["posix.system", "builtins.eval", "subprocess.call",
                                "shutil.copy", f"{__name__}.Evil", None]),
       cells=st.lists(st.integers(0, 6), min_size=25, max_size=25),
       noise=_plain, protocol=st.integers(0, pickle.HIGHEST_PROTOCOL),
       where=st.sampled_from(["attribute", "top", "noise"]))
def test_random_pickles_never_run_anything_and_end_in_an_error_or_a_level(
        tmp_path, monkeypatch, payload, cells, noise, protocol, where):
    marker = tmp_path / "marker"
    env_cls = _fake_gym_class(monkeypatch, "gym_sokoban.envs.sokoban_env_variations",
                              "SokobanEnv_Small0")
    env = env_cls()
    room = np.array(cells, dtype=np.int64).reshape(5, 5)
    env.room_fixed = np.where(room == 5, 1, np.minimum(room, 2))
    env.room_state = room
    env.noise = noise
    hostile = _payloads(marker)[payload] if payload else None
    if isinstance(hostile, Evil):
        hostile.__dict__["marker"] = str(marker)
    if hostile is not None and where == "attribute":
        env.hook = hostile
    top = {"env": env, "x": hostile} if where == "top" else env
    if where == "noise":
        env.noise = [noise, hostile]
    path = tmp_path / "1-Sokoban-small-v0.pkl"
    path.write_bytes(pickle.dumps(top, protocol=protocol))
    outcome = _outcome(path)
    assert not marker.exists()
    if hostile is not None:
        assert f"refused global {payload!r}" in outcome


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_an_environment_pickled_with_any_protocol_reads_as_the_same_level(
        tmp_path, monkeypatch, protocol):
    """Protocols 0-2 write bytes and instances through ``_codecs`` and ``copyreg``, 5 writes
    arrays through NumPy's ``_frombuffer``: each is admitted for what it does there only."""
    from playbench.games.sokoban.magebench_pickle import read_room
    real = DATA / "Sokoban" / "97-Sokoban-small-v0.pkl"
    room = read_room(real)
    env_cls = _fake_gym_class(monkeypatch, "gym_sokoban.envs.sokoban_env_variations",
                              "SokobanEnv_Small0")
    wrapper_cls = _fake_gym_class(monkeypatch, "gym.wrappers.time_limit", "TimeLimit")
    env, wrapper = env_cls(), wrapper_cls()
    env.room_fixed, env.room_state, env.rng = room.fixed, room.state, np.int64(7)
    wrapper.env = env
    path = tmp_path / "97-Sokoban-small-v0.pkl"
    path.write_bytes(pickle.dumps(wrapper, protocol=protocol))
    (mine,) = load_file(SPEC, path)
    (theirs,) = load_file(SPEC, real)
    assert (mine.text, mine.title, mine.meta["tier"]) == (theirs.text, theirs.title,
                                                          "Sokoban-small-v0")
