"""Screenshots of the Studies, Compare and Results tabs, taken from the real app window under
Xvfb (a sibling of ``take.py``, with a study's worth of demo data of its own).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/take_studies.py

It creates a small study (a practice level, three Sokoban rooms and two mazes, random order per
annotator), has two annotators play it through the queue and the UI's input layer - one of them
pausing mid-task - and runs two model profiles over it (the built-in ``demo`` stand-in and a
noisier copy) plus a random baseline. Then it opens the app as annotator ``ann-07`` and saves
studies-queue.png, compare.png and results.png next to this file.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

from shots import prepare, run_tour, settle, shoot, until

NOISY = {"base_url": "local", "model": "playbench-oracle-noisy",
         "label": "the demo stand-in with a quarter of its replies scrambled",
         "state_hints": True, "max_concurrency": 8,
         "local": {"policy": "oracle", "noise": 0.25, "seed": 3}}
SCRATCH = prepare("playbench-study-shots-", {"annotator": "ann-07"},
                  models={"version": 1, "profiles": {"demo-noisy": NOISY}})

STUDY = """\
name: pilot-2026
description: First human baseline on small Sokoban rooms and mazes, same budget for everyone.
budget: 40
time_limit: 300
order: random
seed: 17
practice:
  - {game: sokoban, levels: "ingvp:1"}
tasks:
  - {game: sokoban, levels: "ingvp:2-4"}
  - {game: maze, levels: "ingvp:2-3"}
"""
REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def annotator(name: str, detour_at: int | None, give_up_on: str | None) -> Callable[..., str]:
    """A person's policy: the best move, one move the wrong way at ``detour_at`` on Sokoban,
    and giving up after two moves on maze task ``give_up_on``."""
    def policy(ctx: Any, key: str) -> str:
        best = (ctx.oracle() or ["give up"])[0]
        if key == give_up_on and ctx.step >= 2:
            return "give up"
        if ctx.task.game == "sokoban" and ctx.step == detour_at and best in REVERSE:
            return REVERSE[best]
        return best
    return policy


async def play_queue(store: Any, name: str, policy: Callable[..., str],
                     stop_after: int | None = None) -> None:
    """Play ``name``'s queue with the UI's input layer; with ``stop_after`` the last task is
    left after three moves, as when the app is closed mid-task."""
    from playbench.app.core.events import Deciding
    from playbench.app.players.board_input import input_for
    from playbench.app.players.human import HumanInput, HumanPlayer
    from playbench.app.studies import StudyQueue

    keys = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}
    queue = StudyQueue(store, "pilot-2026", name)
    played = 0
    while (item := queue.next()) is not None:
        human = HumanPlayer(name, {"input": "keyboard and mouse"})
        leaving = stop_after is not None and played == stop_after
        job: Any = None

        def listen(event: Any, key: str = item.key) -> None:
            if not isinstance(event, Deciding):
                return
            if leaving and event.context.step == 3:
                asyncio.get_running_loop().call_soon(job.cancel)
                return
            move = policy(event.context, key)
            if move == "give up":
                human.submit(HumanInput.give_up())
                return
            g = input_for(event.context.task.game).key(keys[move], None)
            human.submit(HumanInput.move(g.text, g.raw))
        job = asyncio.ensure_future(queue.play(item, human, listeners=[listen]))
        try:
            await job
        except asyncio.CancelledError:
            return
        played += 1


async def seed_data() -> None:
    from playbench.app.players.factory import player_factory
    from playbench.app.studies import create_study, parse_study, run_sweep
    from playbench.db.engine import open_database
    from playbench.db.store import Store

    store = Store(open_database())
    create_study(store, parse_study(STUDY, source="pilot-2026.yaml"))
    await play_queue(store, "ann-12", annotator("ann-12", 1, "t4"))
    await play_queue(store, "ann-07", annotator("ann-07", 3, None), stop_after=4)
    for spec in ("model:demo", "model:demo-noisy", "random"):
        factory = player_factory(spec, store)
        try:
            await run_sweep(store, "pilot-2026", factory, repeat=2 if spec != "random" else 1,
                            concurrency=4)
        finally:
            await factory.aclose()
    store.db.dispose()


async def tour(window: Any) -> None:
    from PySide6.QtCore import Qt

    # The start-up prompt offers ann-07's paused task; the queue shows it too.
    from playbench.app.ui.resume import ResumeDialog
    await settle()
    for dialog in window.findChildren(ResumeDialog):
        dialog.reject()

    # 1. The annotator's queue: practice first, four done, one paused, one to do.
    studies = window.studies
    window.show_page(studies)
    await until(lambda: studies.snapshot is not None)
    await settle()
    shoot(window, "studies-queue")

    # 2. Compare: a Sokoban room, people and models side by side at the first divergence.
    compare = window.compare
    window.show_page(compare)
    await until(lambda: compare.loading is not None and compare.loading.done())
    compare.study.setCurrentIndex(compare.study.findData("pilot-2026"))
    compare.refresh(reload=True)
    await until(lambda: compare.loading.done() and compare.task.count() > 0)
    for i in range(compare.task.count()):  # a Sokoban room both annotators finished
        if "sokoban" not in compare.task.itemText(i):
            continue
        compare.task.setCurrentIndex(i)
        compare.load_selected()
        await until(lambda: compare.loading.done() and compare.full is not None)
        people = [lane for lane in compare.full.lanes
                  if lane.kind == "human" and lane.status == "done"]
        if len(people) >= 2:
            break
    shown: set[str] = set()
    for i in range(compare.episodes.count()):  # each finished participant once, no random
        item = compare.episodes.item(i)
        who = item.text().split()[0]
        wanted = " done " in item.text() and who != "random" and who not in shown
        if wanted:
            shown.add(who)
        item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
    compare.jump_to_divergence()
    await until(lambda: all(w.shown == w.lane.frame_at(compare.slider.value())
                            for w in compare.lanes))
    await settle()
    shoot(window, "compare")

    # 3. Results: the study's leaderboard (annotators pooled) with intervals, and the
    #    human-vs-models plot.
    results = window.results
    window.show_page(results)
    await until(lambda: results.computing is not None and results.computing.done())
    results.study.setCurrentIndex(results.study.findData("pilot-2026"))
    results.pool.setChecked(True)  # one "humans" row per game: people against the models
    await until(lambda: results.computing.done() and results.data is not None)
    results.plot.metric.setCurrentIndex(results.plot.metric.findData("efficiency"))
    await settle(0.8)
    shoot(window, "results")


def main() -> int:
    asyncio.run(seed_data())
    return run_tour(tour)


if __name__ == "__main__":
    sys.exit(main())
