"""The small study the report tests read: made in a real SQLite file through the same paths
the app and the command line use (study file -> ``create_study``; annotators through
``StudyQueue.play`` with the UI's human player; two scripted participants through the study
sweep; a post-hoc rule through ``add_post_hoc_exclusion``).

- roster alice, bob, carol (carol never comes): 3 invited, 2 joined
- practice p1; scored t1, t2 (Sokoban) and t3 (a maze check task, ``check: solved``)
- declared rule ``failed_checks >= 1``; post-hoc rule ``median_task_seconds > 86400``
- alice plays everything optimally; bob gives up on the check t3 (fails it: excluded)
- ``script:solver`` and ``script:random`` play t1-t3 once each
- population and compensation are described; sampling, instructions and consent are not
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playbench.app.players.factory import player_factory
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import StudyQueue, create_study, load_study_file, run_sweep
from playbench.db.engine import open_database
from playbench.db.store import Store
from playbench.db.studies import add_post_hoc_exclusion
from tests.studies.helpers import give_up_after, input_layer, optimal, study_yaml

NAME = "pilot"
POPULATION = "Six graduate students of a <b>puzzle</b> club, aged 22-31."
COMPENSATION = "A 15 EUR voucher per session."
TASKS = [{"game": "sokoban", "levels": "rooms.xsb:2-3"},
         {"game": "maze", "levels": "mazes.txt:1", "check": "solved"}]


def study_file(folder: Path, **changes: Any) -> Path:
    data: dict[str, Any] = {"tasks": TASKS, "annotators": ["alice", "bob", "carol"],
                            "exclusions": ["failed_checks >= 1"], "population": POPULATION,
                            "compensation": COMPENSATION}
    data.update(changes)
    return study_yaml(folder, NAME, **data)


async def play(store: Store, name: str, policies: dict[str, Any]) -> None:
    queue = StudyQueue(store, NAME, name)
    while (item := queue.next()) is not None:
        human = HumanPlayer(name)
        await queue.play(item, human, listeners=[
            input_layer(human, policies.get(item.key, optimal))])


async def make_study(folder: Path, db_url: str, researcher: dict | None = None,
                     **changes: Any) -> Store:
    """The study above in ``db_url``; returns an open store on it."""
    store = Store(open_database(db_url))
    create_study(store, load_study_file(study_file(folder, **changes)), researcher)
    await play(store, "alice", {})
    await play(store, "bob", {"t3": give_up_after(0)})
    for spec in ("solver", "random"):
        await run_sweep(store, NAME, player_factory(spec))
    assert add_post_hoc_exclusion(store.db, NAME, "median_task_seconds > 86400",
                                  "2026-11-27T10:00:00+00:00")
    return store
