"""Conformance of replay and resume, over every registered kind (the bundled ones and the Lights
Out plugin): each kind declares in its ``ReplaySpec`` what a replay can rebuild, ``playbench
games`` shows it, and the claim holds on a real record.

For every kind with a bundled task: a short seeded episode is played as ``playbench run``
plays it (frames rendered, recorded to a real SQLite file), then checked by ``playbench
replay --verify``; a kind that claims resume is interrupted after some steps (cancelled, as
Ctrl-C does), resumed with the same decisions, and must end where the uninterrupted episode
ended: the same steps, state hashes, end and scores. Kinds played in Chromium land in the
browser tier and football in the football tier (``conformance.params``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from playbench.app.cli import main as cli_main
from playbench.app.core.events import EpisodeEvent, Stepped
from playbench.app.core.play import play
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.replay_player import ReplayPlayer
from playbench.app.core.runs import records_of, resume_episode
from playbench.app.players.scripted import RandomPlayer
from playbench.app.ui.models.records import kind_resumable
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.evaluators.agent import agent_metrics
from playbench.games.replay_spec import ReplaySpec
from tests.kinds.conformance import NAMES, PLAYABLE, REGISTRY, first_task, params, run

ACTIONS = 6
"""Actions per episode: enough to interrupt in the middle, few enough to stay fast."""
SEED = 3


def _playable_with_tasks() -> list[str]:
    return [n for n in PLAYABLE if REGISTRY.get(n).sources()]


# --- what every kind declares -------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_every_kind_declares_what_a_replay_rebuilds_and_playbench_games_shows_it(name, capsys):
    """The claim is data on the kind (a ReplaySpec, no probing): a kind that cannot resume,
    or has settings that cannot, says why; its clocked settings are its own; the app's resume
    check reads the same claim; ``playbench games NAME`` prints it per setting."""
    kind = REGISTRY.get(name)
    spec = kind.replay
    assert isinstance(spec, ReplaySpec)
    settings = kind.settings()
    assert spec.clocked_settings <= set(settings)
    if not spec.resumable or spec.clocked_settings:
        assert len(spec.reason.split()) >= 5, "a kind that cannot resume says why"
    for setting in settings:
        assert kind_resumable(name, setting=setting) is spec.resumes(setting)
        assert spec.resumes(setting) is (spec.resumable and setting not in spec.clocked_settings)
    assert cli_main(["games", name]) == 0
    out = capsys.readouterr().out
    assert spec.summary() in out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("setting "))
    at = header.index(" resume ") + 1
    shown = {line.split()[0]: line[at:].split()[0] for line in lines
             if line.split() and line.split()[0] in settings}
    assert shown == {s: "yes" if spec.resumes(s) else "no" for s in settings}


# --- every kind with a bundled task, played, verified and resumed ------------------------------

class _Stop:
    """A listener that cancels the episode's task once ``after`` steps are committed, the way
    Ctrl-C or closing the app stops a run."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.task: asyncio.Task[Any] | None = None

    def __call__(self, event: EpisodeEvent) -> None:
        if isinstance(event, Stepped) and event.record.index + 1 == self.after:
            assert self.task is not None
            self.task.cancel()


def _env_scores(scores: dict[str, Any], steps: list[Any]) -> dict[str, Any]:
    """Scores without the agent figures (think time differs between two plays)."""
    agent = set(agent_metrics(steps))
    return {k: v for k, v in scores.items() if k not in agent}


# Not smoke: the browser kinds' and football's real-component checks in the fast tier are
# tests/kinds/test_conformance_views.py and tests/football/test_grf_engine.py (one each, a few
# seconds); this walk (2-3 plays per kind, 10-47 s each) runs in their tiers.
@pytest.mark.parametrize("name", params(_playable_with_tasks()))
def test_a_seeded_episode_verifies_and_a_resumed_one_ends_as_the_uninterrupted_one(
        name, db_url, capsys):
    kind = REGISTRY.get(name)
    task = first_task(kind)
    setting = kind.settings()["default"]
    budget = setting.budget.merged(max_actions=min(ACTIONS, setting.budget.max_actions
                                                   or ACTIONS))
    store = Store(open_database(db_url))

    async def whole() -> int:
        result = await play(task, RandomPlayer(), setting=setting, budget=budget,
                            recorder=DbRecorder(store), seed=SEED)
        return result.episode_id

    first = run(whole())
    row = store.episode(first)
    steps = records_of(store.steps(first))
    assert row.episode.status == "done" and len(steps) >= 2, (row.episode.end_reason, steps)

    # replay --verify, as a person runs it on the file
    assert cli_main(["replay", str(first), "--verify", "--db", db_url]) == 0
    assert f"episode {first}: ok ({len(steps)} steps)" in capsys.readouterr().out

    if not kind.replay.resumes(setting.name):
        return
    k = len(steps) // 2

    async def interrupted() -> int:
        stop = _Stop(k)
        stop.task = asyncio.ensure_future(play(
            task, ReplayPlayer(steps, first), setting=setting, budget=budget,
            recorder=DbRecorder(store), seed=SEED, listeners=[stop]))
        with pytest.raises(asyncio.CancelledError):
            await stop.task
        (newest,) = [r for r in store.episodes() if r.episode.id != first]
        return newest.episode.id

    second = run(interrupted())
    assert store.episode(second).episode.status == "interrupted"
    # the step in flight when the cancel landed may be committed too (the loop keeps it)
    k = len(store.steps(second))
    assert k in (len(steps) // 2, len(steps) // 2 + 1) and k < len(steps)

    async def resumed() -> None:
        player = ReplayPlayer(steps, first)
        player.skip(k)
        await resume_episode(store, second, player, DbRecorder(store))

    run(resumed())
    again = store.episode(second)
    again_steps = records_of(store.steps(second))
    assert again.episode.status == "done"
    assert again.episode.end_reason == row.episode.end_reason
    assert [(s.action, s.valid, s.state_hash) for s in again_steps] == [
        (s.action, s.valid, s.state_hash) for s in steps]
    assert _env_scores(again.scores, again_steps) == _env_scores(row.scores, steps)
    assert cli_main(["replay", str(second), "--verify", "--db", db_url]) == 0
