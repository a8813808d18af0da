"""The Studies tab: an annotator's queue played in the real window with key events - progress
advancing, the study's budget and time limit in the play view, two annotators with their own
queues, pause by closing the app and continue in a new window, blind studies showing no
outcome, and a refused study file listing every problem with its field."""

from __future__ import annotations

from PySide6.QtCore import Qt

from playbench.app.studies import StudyQueue
from playbench.app.ui.models.study_run import StudySession
from tests.studies.helpers import study_yaml
from tests.ui.conftest import ANNOTATOR
from tests.ui.helpers import ARROW_OF, close_window, key, wait_end, wait_ready, wait_steps

TASKS = {"practice": [{"game": "sokoban", "levels": "rooms.xsb:1"}],
         "tasks": [{"game": "sokoban", "levels": "rooms.xsb:2"},
                   {"game": "maze", "levels": "mazes.txt:1", "setting": "ingvp:text-multi"}]}


def open_studies(qtbot, window, study: str):
    """The Studies tab with ``study`` chosen and its queue read."""
    view = window.studies
    window.show_page(view)
    qtbot.waitUntil(lambda: view.snapshot is not None, timeout=10000)
    if view.study.currentText() != study:
        view.study.setCurrentText(study)
        view.refresh()
        qtbot.waitUntil(lambda: view.snapshot is not None
                        and view.snapshot.queue.protocol.name == study, timeout=10000)
    return view


def create_study(qtbot, window, path) -> None:
    view = window.studies
    window.show_page(view)
    task = view.create_from_file(str(path))
    qtbot.waitUntil(task.done, timeout=20000)
    qtbot.waitUntil(lambda: view.snapshot is not None and view.study.currentText() != "",
                    timeout=10000)


def next_task(qtbot, window, before: StudySession | None = None) -> StudySession:
    """Press "Next task" and wait until the play view waits for the first key."""
    qtbot.mouseClick(window.studies.next_button, Qt.MouseButton.LeftButton)
    return started(qtbot, window, before)


def started(qtbot, window, before) -> StudySession:
    play = window.play_place.view("board")
    qtbot.waitUntil(lambda: isinstance(play.session, StudySession)
                    and play.session is not before and play.session.episode_id != 0,
                    timeout=20000)
    qtbot.waitUntil(lambda: play.player.waiting, timeout=10000)
    assert window.current_page() is play
    return play.session


def press_moves(qtbot, window, session, count: int | None = None) -> None:
    """Press the arrow key of the solver's next move, ``count`` times or to the end."""
    wait_ready(qtbot, session)
    before, pressed = len(session.steps), 0
    while session.result is None and (count is None or pressed < count):
        wait_ready(qtbot, session)
        if session.result is not None:
            break
        move = session.context.oracle()[0]
        key(qtbot, window.play_place.view("board").board, ARROW_OF[move])
        pressed += 1
        wait_steps(qtbot, session, before + pressed)
    if count is None:
        wait_end(qtbot, session)


def cell(view, row: int, heading: str) -> str:
    """The text of the queue table's cell in ``row`` under ``heading``."""
    headings = [view.table.horizontalHeaderItem(c).text()
                for c in range(view.table.columnCount())]
    return view.table.item(row, headings.index(heading)).text()


def progress(window) -> tuple[int, int]:
    p = window.studies.snapshot.progress
    return p.done, p.total


def test_queue_is_played_with_keys_and_progress_advances_for_two_annotators(
        make_window, qtbot, tmp_path):
    path = study_yaml(tmp_path, name="pilot", order="fixed", budget=30, time_limit=300,
                      **TASKS)
    window = make_window()
    create_study(qtbot, window, path)
    view = open_studies(qtbot, window, "pilot")
    assert progress(window) == (0, 3)
    assert view.table.rowCount() == 3 and "practice" in cell(view, 0, "Task")
    assert cell(view, 1, "Budget") == "30 actions" and cell(view, 1, "Time limit") == "5 min"
    assert view.next_button.text().startswith("Next task: p1")

    session = next_task(qtbot, window)
    assert (session.item.key, session.item.practice) == ("p1", True)
    assert window.play_place.view("board").title.text().startswith(
        "pilot · task p1 (practice, not scored)")
    assert session.budget.max_actions == 30 and session.budget.seconds == 300
    assert window.play_place.view("board").hud.actions_left.text() == "30"
    # the study's time limit, under the clock
    assert window.play_place.view("board").hud.time_of.text() == "of 05:00"
    press_moves(qtbot, window, session)
    assert session.result.end_reason == "solved"
    # not blind: the outcome is shown
    assert "Solved" in window.play_place.view("board").banner_text.text()
    assert window.play_place.view("board").next_button.text() == "Next task"
    qtbot.waitUntil(lambda: progress(window) == (1, 3), timeout=10000)
    assert cell(view, 0, "Outcome").startswith("solved in")

    for expected in ("t1", "t2"):
        qtbot.mouseClick(window.play_place.view("board").next_button, Qt.MouseButton.LeftButton)
        session = started(qtbot, window, session)
        assert session.item.key == expected
        press_moves(qtbot, window, session)
    qtbot.waitUntil(lambda: progress(window) == (3, 3), timeout=10000)
    assert not view.next_button.isEnabled() and view.next_button.text() == "All tasks done"
    # "Next task" on the last task's banner says that nothing is left (it used to do nothing).
    qtbot.mouseClick(window.play_place.view("board").next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Every task of pilot is done"
                    in window.play_place.view("board").banner_text.text(),
                    timeout=10000)
    assert not window.play_place.view("board").next_button.isVisible()

    store = window.state.store
    mine = StudyQueue(store, "pilot", ANNOTATOR).items()
    assert [i.status for i in mine] == ["done"] * 3
    for item in mine:
        row = store.episode(item.episode_id)
        assert row.episode.study_id is not None and row.participant.name == ANNOTATOR
        assert row.episode.meta["study_task"] == item.key
        steps = store.steps(item.episode_id)
        assert steps and all(s.raw.startswith("key:") for s in steps)

    # A second annotator on the same machine gets a queue of their own, shown as soon as
    # they are entered (no Refresh).
    window.switch_annotator("ann-two")
    qtbot.waitUntil(lambda: view.snapshot is not None
                    and view.snapshot.queue.annotator == "ann-two", timeout=10000)
    assert progress(window) == (0, 3) and "ann-two" in view.who.text()
    session = next_task(qtbot, window, session)
    assert session.player.name == "ann-two" and session.item.key == "p1"
    press_moves(qtbot, window, session)
    qtbot.waitUntil(lambda: progress(window) == (1, 3), timeout=10000)
    assert StudyQueue(store, "pilot", "ann-two").progress().done == 1
    assert StudyQueue(store, "pilot", ANNOTATOR).progress().done == 3


def test_closing_mid_task_pauses_it_and_a_new_window_continues_it(
        make_window, qtbot, tmp_path):
    path = study_yaml(tmp_path, name="pilot", order="fixed", **TASKS)
    window = make_window()
    create_study(qtbot, window, path)
    open_studies(qtbot, window, "pilot")
    session = next_task(qtbot, window)
    press_moves(qtbot, window, session)                 # practice done
    qtbot.mouseClick(window.play_place.view("board").next_button, Qt.MouseButton.LeftButton)
    session = started(qtbot, window, session)
    assert session.item.key == "t1"
    press_moves(qtbot, window, session, count=2)
    wait_ready(qtbot, session)
    episode_id = session.episode_id
    close_window(qtbot, window)                         # the annotator stops for the day
    assert session.result.status == "interrupted"

    window = make_window()                              # another day
    view = open_studies(qtbot, window, "pilot")
    assert progress(window) == (1, 3)
    paused = view.snapshot.next
    assert (paused.key, paused.status, paused.episode_id) == ("t1", "interrupted", episode_id)
    assert cell(view, 1, "Status") == "paused"
    assert view.next_button.text().startswith("Continue paused task t1")
    session = next_task(qtbot, window)
    assert session.episode_id == episode_id and len(session.steps) == 2
    assert window.play_place.view("board").hud.actions_left.text() == str(
        session.budget.max_actions - 2)
    press_moves(qtbot, window, session)
    assert session.result.end_reason == "solved"
    steps = window.state.store.steps(episode_id)
    assert [s.index for s in steps] == list(range(len(steps))) and len(steps) > 2
    qtbot.waitUntil(lambda: progress(window) == (2, 3), timeout=10000)

    # Leaving the Play tab mid-task (for the Studies tab) pauses it and keeps the episode.
    qtbot.mouseClick(window.play_place.view("board").next_button, Qt.MouseButton.LeftButton)
    session = started(qtbot, window, session)
    press_moves(qtbot, window, session, count=1)
    wait_ready(qtbot, session)
    window.show_page(view)
    qtbot.waitUntil(lambda: session.result is not None, timeout=10000)
    assert session.result.status == "interrupted"
    qtbot.waitUntil(lambda: view.snapshot is not None
                    and view.snapshot.next.status == "interrupted", timeout=10000)
    # The button follows the view's state once the pause has been recorded (after the
    # snapshot above arrives, not with it): wait on that state rather than racing it.
    qtbot.waitUntil(lambda: not view.pause_button.isVisible(), timeout=10000)


def test_blind_study_shows_no_outcome_to_the_annotator(make_window, qtbot, tmp_path):
    path = study_yaml(tmp_path, name="blinded", order="fixed", blind=True, **TASKS)
    window = make_window()
    create_study(qtbot, window, path)
    view = open_studies(qtbot, window, "blinded")
    assert "blind" in view.summary.text()
    session = next_task(qtbot, window)
    press_moves(qtbot, window, session)
    assert session.result.end_reason == "solved"
    banner = window.play_place.view("board").banner_text.text()
    assert "Solved" not in banner and "finished" in banner
    assert not window.play_place.view("board").view_button.isVisible()
    qtbot.waitUntil(lambda: progress(window) == (1, 3), timeout=10000)
    assert cell(view, 0, "Status") == "done" and cell(view, 0, "Outcome") == ""


def test_a_refused_study_file_lists_every_problem_and_stores_nothing(
        make_window, qtbot, tmp_path):
    path = study_yaml(tmp_path, name="broken", budget={"max_actions": -5},
                      tasks=[{"game": "chess", "levels": "x:1"},
                             {"game": "sokoban", "levels": "rooms.xsb:9"}])
    window = make_window()
    view = window.studies
    window.show_page(view)
    task = view.create_from_file(str(path))
    qtbot.waitUntil(task.done, timeout=20000)
    assert view.problems.isVisible()
    rows = dict(view.problems.rows())
    assert "must not be negative" in rows["budget.max_actions"]
    assert "unknown game 'chess'" in rows["tasks[0].game"]
    assert "selects no level" in rows["tasks[1].levels"]
    assert "3 problems" in view.problems.title.text()
    assert window.state.store.study_names() == []


def test_a_paused_study_task_is_offered_when_the_app_starts_again(make_window, qtbot, tmp_path):
    from PySide6.QtWidgets import QPushButton

    from tests.ui.helpers import confirm_box
    path = study_yaml(tmp_path, name="pilot", order="fixed", **TASKS)
    window = make_window()
    create_study(qtbot, window, path)
    open_studies(qtbot, window, "pilot")
    session = next_task(qtbot, window)
    press_moves(qtbot, window, session, count=1)
    wait_ready(qtbot, session)
    episode_id = session.episode_id
    close_window(qtbot, window)                  # the app is closed mid-task
    assert session.result.status == "interrupted"

    window = make_window(show_prompts=True)      # and started again: asked, by study and task
    box = confirm_box(qtbot)
    assert "p1" in box.text() and "pilot" in box.text()
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    session = started(qtbot, window, None)
    assert session.episode_id == episode_id and len(session.steps) == 1
    assert window.current_page() is window.play_place.view("board")


def test_archiving_takes_a_study_off_the_list_and_keeps_its_records(make_window, qtbot,
                                                                     tmp_path):
    from PySide6.QtWidgets import QPushButton

    from tests.ui.helpers import confirm_box
    window = make_window()
    for name in ("pilot", "second"):
        create_study(qtbot, window, study_yaml(tmp_path, name=name, order="fixed", **TASKS))
    view = open_studies(qtbot, window, "pilot")
    session = next_task(qtbot, window)
    press_moves(qtbot, window, session)
    window.show_page(view)
    qtbot.waitUntil(lambda: progress(window) == (1, 3), timeout=10000)
    qtbot.mouseClick(view.archive_button, Qt.MouseButton.LeftButton)
    box = confirm_box(qtbot)
    assert "pilot" in box.text() and "Nothing is deleted" in box.text()
    qtbot.mouseClick(box.findChild(QPushButton, "confirm_yes"), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: [view.study.itemText(i) for i in range(view.study.count())]
                    == ["second"], timeout=10000)
    store = window.state.store
    assert store.study_names() == ["pilot", "second"]
    assert store.episode(session.episode_id).episode.study_id is not None


def test_a_task_open_in_another_window_is_explained_not_reported_as_a_bug(
        make_window, qtbot, tmp_path):
    """Two windows on one database (the annotator opened the app twice): the second may not
    start the task the first is playing, and says why and what to do - not "something went
    wrong, please report this"."""
    first = make_window()
    create_study(qtbot, first, study_yaml(tmp_path, **TASKS))
    open_studies(qtbot, first, "pilot")
    playing = next_task(qtbot, first)
    second = make_window()
    open_studies(qtbot, second, "pilot")
    qtbot.mouseClick(second.studies.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(second.problems), timeout=10000)
    problem = second.problems[-1]
    assert problem.title == "The study task cannot start here"
    assert f"episode {playing.episode_id}" in problem.cause
    assert "another PlayBench window" in problem.todo
    assert playing.result is None  # the first window's task goes on untouched
