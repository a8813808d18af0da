"""A sealed blind study in the app (issue 29, item 2): "Researcher view" alone no longer shows
its scores or episodes; the researcher passphrase does, for the session, in every view."""

from __future__ import annotations

from playbench.app.players.factory import player_factory
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import StudyQueue, create_study, load_study_file, run_sweep
from playbench.app.studies.credential import make_verifier
from tests.studies.helpers import input_layer, optimal, study_yaml
from tests.ui.test_results_view import computed

PASS = "correct horse battery"


async def seed_sealed(store, tmp_path) -> None:
    create_study(store, load_study_file(study_yaml(
        tmp_path, name="pilot", order="fixed", blind=True, practice=[],
        tasks=[{"game": "sokoban", "levels": "rooms.xsb:2"}])), make_verifier(PASS))
    queue = StudyQueue(store, "pilot", "bob")
    human = HumanPlayer("bob")
    await queue.play(queue.next(), human, listeners=[input_layer(human, optimal)])
    await run_sweep(store, "pilot", player_factory("solver"))


def test_the_researcher_switch_needs_the_passphrase(make_window, qtbot, aloop, tmp_path):
    window = make_window()
    job = aloop.create_task(seed_sealed(window.state.store, tmp_path))
    qtbot.waitUntil(job.done, timeout=60000)
    job.result()
    view = window.results
    window.show_page(view)
    computed(qtbot, view)
    view.study.setCurrentIndex(view.study.findData("pilot"))

    typed: list[str] = []

    def wrong(_parent):
        typed.append("wrong")
        return "not the passphrase"
    view.researcher.ask = wrong
    view.researcher.setChecked(True)   # the switch alone: still hidden
    computed(qtbot, view)
    assert typed == ["wrong"]
    assert "fits no sealed study" in view.researcher.notice
    assert view.table.rowCount() == 0 and view.notice.isVisible()
    assert "researcher passphrase" in view.notice.text()

    episodes = window.episodes
    episodes.researcher.ask = wrong
    episodes.researcher.setChecked(True)
    job = episodes.refresh()
    qtbot.waitUntil(job.done, timeout=20000)
    assert episodes.summaries == []  # no one's episodes of the sealed study

    view.researcher.setChecked(False)
    view.researcher.ask = lambda _parent: PASS
    view.researcher.setChecked(True)
    computed(qtbot, view)
    assert view.researcher.notice == ""
    assert not view.notice.isVisible() and view.table.rowCount() == 2  # bob and the solver
    job = episodes.refresh()  # the session is unlocked for every view
    qtbot.waitUntil(job.done, timeout=20000)
    assert {s.participant for s in episodes.summaries} == {"bob", "solver"}
    assert window.state.unlocked and len(typed) == 2  # asked once per view, while locked
