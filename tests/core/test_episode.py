"""The episode loop: budgets, early stops, one-step plans, undo, time limits, failure states.

Players here are real PlayBench players or tiny scripted ones written in the test; the env is
the real Sokoban env; the recorder is in memory (the database path has its own tests).
"""

from __future__ import annotations

import asyncio
from itertools import pairwise

import pytest

from playbench.app.core.budget import Budget, BudgetError
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.events import Stepped
from playbench.app.core.recorder import MemoryRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import Decision, Invalid
from playbench.app.players.scripted import IdlePlayer, RandomPlayer, SolverPlayer
from playbench.games.base import Level

ROOM = Level("sokoban", "########\n#@     #\n# $  . #\n#   $ .#\n########", 1, "two boxes")
# The worker starts in the top-left corner: U and L bump into walls.


class Scripted:
    """A player that sends fixed texts through the same parse path a model or human uses."""

    kind, name, spec = "script", "fixed", "fixed"

    def __init__(self, texts, *, one_step=False):
        self.texts = list(texts)
        self.one_step = one_step
        self.contexts = []

    def details(self):
        return {}

    async def act(self, observation, context):
        self.contexts.append(context)
        if not self.texts:
            return Decision.quit()
        if self.one_step:
            entries = []
            for t in self.texts:
                try:
                    entries.append(context.parse(t))
                except ValueError as err:
                    entries.append(Invalid("not_in_vocabulary", str(err), t))
            self.texts = []
            return Decision(tuple(entries), " ".join(texts_of(entries)))
        text = self.texts.pop(0)
        try:
            return Decision.act(context.parse(text), text)
        except ValueError as err:
            return Decision.invalid(getattr(err, "kind", "malformed"), str(err), text)


def texts_of(entries):
    return [getattr(e, "text", "?") for e in entries]


async def play(player, budget=Budget(max_actions=50), setting="default", level=ROOM, seed=0):
    task = Task("sokoban", level)
    rec = MemoryRecorder()
    ep = Episode(make_env(task), player, task, setting=get_setting(setting, "sokoban"),
                 budget=budget, recorder=rec, seed=seed)
    result = await ep.run()
    return result, rec.episodes[result.episode_id]


async def test_solver_solves_and_scores_perfectly():
    result, rec = await play(SolverPlayer())
    assert result.status == "done" and result.end_reason == "solved"
    assert result.scores["solved"] == 1 and result.scores["completion"] == 100
    assert result.scores["efficiency"] == 100 and result.scores["magebench"] == pytest.approx(100)
    assert result.scores["steps_over_optimal"] == 1
    assert [s.index for s in rec.steps] == list(range(len(rec.steps)))


async def test_idle_scores_100_minus_r_best():
    result, rec = await play(IdlePlayer())
    assert result.end_reason == "gave_up" and rec.steps == []
    _, solved = await play(SolverPlayer())
    r_best = sum(s.reward for s in solved.steps)
    assert result.scores["magebench"] == pytest.approx(100 - r_best)
    assert result.scores["completion"] == pytest.approx(100 - 12.5 * len(solved.steps))


async def test_random_bumps_are_invalid_counted_unchanged_steps():
    result, rec = await play(RandomPlayer(), budget=Budget(max_actions=40), seed=3)
    bumps = [s for s in rec.steps if not s.valid]
    assert bumps, "uniform random play in a small room bumps into walls"
    assert all(not s.changed and s.invalid_kind == "illegal" and s.invalid_reason for s in bumps)
    for prev, s in pairwise(rec.steps):
        if not s.valid:
            assert s.state_hash == prev.state_hash
    assert len(rec.steps) == 40 or result.end_reason == "solved"
    valid = sum(s.changed for s in rec.steps)
    assert result.scores["efficiency"] == pytest.approx(100 * valid / len(rec.steps))


async def test_random_play_is_reproducible_from_the_seed():
    a = (await play(RandomPlayer(), seed=9))[1].steps
    b = (await play(RandomPlayer(), seed=9))[1].steps
    c = (await play(RandomPlayer(), seed=10))[1].steps
    assert [s.action for s in a] == [s.action for s in b] != [s.action for s in c]


async def test_unreadable_decisions_are_steps_and_stop_the_episode():
    player = Scripted(["jump", "fly", "swim", "L"])
    result, rec = await play(player, budget=Budget(max_actions=50, stop_after_unparseable=3))
    assert result.end_reason == "parse_failures"
    assert [s.invalid_kind for s in rec.steps] == ["not_in_vocabulary"] * 3
    assert all(s.action is None and s.raw in ("jump", "fly", "swim") for s in rec.steps)


async def test_identical_actions_stop():
    player = Scripted(["U"] * 10)
    result, rec = await play(player, budget=Budget(max_actions=50, stop_after_identical=5))
    assert result.end_reason == "repeated_actions" and len(rec.steps) == 5


async def test_invalid_cost_zero_does_not_spend_budget():
    player = Scripted(["U", "U", "U", "R"])  # U bumps into the wall above the worker
    result, rec = await play(player, budget=Budget(max_actions=1, invalid_cost=0))
    assert [s.valid for s in rec.steps] == [False, False, False, True]
    assert result.end_reason == "budget"


async def test_budget_is_counted_in_actions():
    result, rec = await play(Scripted(["D", "U"] * 10), budget=Budget(max_actions=7))
    assert len(rec.steps) == 7 and result.end_reason == "budget"


async def test_one_step_plan_skips_invalid_entries_and_stops_at_goal():
    _, solved = await play(SolverPlayer())
    plan = [s.action for s in solved.steps]
    texts = [plan[0], "X", *plan[1:], "R", "R"]
    result, rec = await play(Scripted(texts, one_step=True), setting="ingvp:text-one",
                             budget=get_setting("ingvp:text-one").budget)
    assert result.end_reason == "solved"
    assert len(rec.steps) == len(plan) + 1, "entries after the goal are not executed"
    assert rec.steps[1].invalid_kind == "not_in_vocabulary"
    assert {s.decision for s in rec.steps} == {0}
    # ING-VP one-step efficiency: active / max(8, actions)
    assert result.scores["efficiency"] == pytest.approx(100 * len(plan) / max(8, len(plan) + 1))


async def test_one_step_gets_one_decision():
    result, rec = await play(Scripted(["D"], one_step=True), setting="ingvp:image-one",
                             budget=get_setting("ingvp:image-one").budget)
    assert result.end_reason == "budget" and len(rec.steps) == 1


async def test_undo_only_where_the_setting_allows_it():
    _, rec = await play(Scripted(["D", "undo 0", "R"]), setting="ingvp:text-multi-history")
    assert [s.valid for s in rec.steps] == [True, True, True]
    assert rec.steps[1].action == "undo 0" and rec.steps[1].changed
    assert rec.steps[1].state_hash == rec.start.start_state
    _, rec2 = await play(Scripted(["D", "undo 0"]), setting="ingvp:text-multi")
    assert rec2.steps[1].valid is False and rec2.steps[1].invalid_kind == "not_allowed"
    assert rec2.steps[1].state_hash == rec2.steps[0].state_hash


async def test_undo_returns_to_the_recorded_state():
    _, rec = await play(Scripted(["D", "L", "undo 1", "undo 0"]),
                        setting="ingvp:text-multi-history")
    assert rec.steps[2].state_hash == rec.steps[0].state_hash
    assert rec.steps[3].state_hash == rec.start.start_state
    _, bad = await play(Scripted(["undo 5"]), setting="ingvp:text-multi-history")
    assert bad.steps[0].valid is False and "no step 5" in bad.steps[0].invalid_reason


async def test_history_and_feedback_reach_the_player():
    player = Scripted(["U", "L", "D"])
    await play(player)
    second, third = player.contexts[1], player.contexts[2]
    assert second.feedback and "wall" in second.feedback
    assert [h.action for h in third.history] == ["U", "L"]
    assert third.actions_left == 48


class Slow:
    kind, name, spec = "script", "slow", "slow"

    def __init__(self, delay):
        self.delay = delay

    def details(self):
        return {}

    async def act(self, observation, context):
        await asyncio.sleep(self.delay)
        return Decision.act(context.parse("D"))


async def test_per_action_timeout_is_an_invalid_step():
    result, rec = await play(Slow(5), budget=Budget(max_actions=2, action_seconds=0.05))
    assert [s.invalid_kind for s in rec.steps] == ["timeout", "timeout"]
    assert result.end_reason == "budget"


async def test_wall_clock_limit_ends_the_episode():
    result, rec = await play(Slow(5), budget=Budget(max_actions=10, seconds=0.1))
    assert result.end_reason == "time" and rec.steps == []


class Broken:
    kind, name, spec = "script", "broken", "broken"

    def __init__(self):
        self.calls = 0

    def details(self):
        return {}

    async def act(self, observation, context):
        self.calls += 1
        if self.calls == 3:
            raise ConnectionError("endpoint went away")
        return Decision.act(context.parse("D" if self.calls % 2 else "U"))


async def test_a_failing_player_ends_in_error_keeping_its_steps():
    result, rec = await play(Broken())
    assert result.status == "error" and "endpoint went away" in result.end_reason
    assert len(rec.steps) == 2 and rec.status == "error" and rec.scores == {}


async def test_cancellation_marks_the_episode_interrupted():
    task = Task("sokoban", ROOM)
    rec = MemoryRecorder()
    seen = asyncio.Event()

    def on_event(event):
        if isinstance(event, Stepped):
            seen.set()

    ep = Episode(make_env(task), Slow(0.01), task, setting=get_setting("default"),
                 budget=Budget(max_actions=None), recorder=rec, listeners=[on_event])
    running = asyncio.create_task(ep.run())
    await seen.wait()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert rec.episodes[1].status == "interrupted" and rec.episodes[1].steps


async def test_resume_continues_exactly_where_it_stopped():
    full_result, full = await play(RandomPlayer(), budget=Budget(max_actions=30), seed=4)
    task = Task("sokoban", ROOM)
    rec = MemoryRecorder()
    first = await rec.begin(full.start, None)
    for s in full.steps[:12]:
        await rec.step(first, s, None)
    ep = Episode(make_env(task), RandomPlayer(), task, setting=get_setting("default"),
                 budget=Budget(max_actions=30), recorder=rec, seed=4)
    result = await ep.resume(first, full.steps[:12])
    assert [s.action for s in rec.episodes[first].steps] == [s.action for s in full.steps]
    assert result.scores == full_result.scores


def test_budget_rejects_bad_fields():
    with pytest.raises(BudgetError, match="max_actions"):
        Budget(max_actions=-1)
    with pytest.raises(BudgetError, match="stop_after_identical"):
        Budget(stop_after_identical=0)
    with pytest.raises(BudgetError, match="unknown budget field 'moves'"):
        Budget.from_dict({"moves": 3})
    assert Budget.from_dict(Budget(max_actions=9).to_dict()) == Budget(max_actions=9)


class BrokenEnv:
    """An environment whose start fails, like a page that never loads."""

    game = "sokoban"

    async def reset(self, task, seed):
        raise TimeoutError("the start page did not load within 30 s")

    async def close(self):
        return None


async def test_an_env_that_cannot_start_records_an_error_episode():
    task = Task("sokoban", ROOM)
    rec = MemoryRecorder()
    ep = Episode(BrokenEnv(), SolverPlayer(), task, setting=get_setting("default"),
                 budget=Budget(), recorder=rec)
    result = await ep.run()
    assert result.status == "error" and "did not load" in result.end_reason
    assert rec.episodes[result.episode_id].status == "error"
    assert rec.episodes[result.episode_id].steps == []


async def test_agent_figures_are_part_of_every_episode_score():
    result, _ = await play(Scripted(["U", "D", "D", "jump"]))
    assert result.scores["invalid_rate"] == pytest.approx(50.0)
    assert result.scores["prompt_tokens"] == 0 and result.scores["ife"] == 0
