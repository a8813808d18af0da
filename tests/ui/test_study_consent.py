"""The consent screen before an annotator's first study task (issue 29, item 1), in the real
window (offscreen, real widgets, a real SQLite file): the instructions and consent text shown,
"I agree" gated by the consent box and the "seen before?" answer, agreeing records and starts
the practice task, declining records and starts nothing; and the Play tab's "Instructions"."""

from __future__ import annotations

import hashlib

from PySide6.QtCore import Qt

from playbench.app.ui.models.consent_form import DECLINED
from playbench.app.ui.models.study_run import StudySession
from playbench.db.studies import find_member
from tests.studies.helpers import study_yaml
from tests.ui.helpers import start_level
from tests.ui.test_studies_view import TASKS, create_study, started

INSTRUCTIONS = "# How to play\n\nPush every **box** onto a dock.\n"
CONSENT = "I agree that my moves and times are recorded under my pseudonym."


def consent_study(qtbot, window, tmp_path, **changes):
    fields = {"order": "fixed", "instructions": INSTRUCTIONS, "consent": CONSENT,
              "ask_seen_before": True, **TASKS, **changes}
    create_study(qtbot, window, study_yaml(tmp_path, name="consented", **fields))
    view = window.studies
    qtbot.waitUntil(lambda: view.snapshot is not None
                    and view.snapshot.queue.protocol.name == "consented", timeout=10000)
    return view


def ask(qtbot, view):
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.consent.isVisible() and view.consent.fields.isVisible(),
                    timeout=15000)
    return view.consent


def member(window, view):
    queue = view.snapshot.queue
    return find_member(window.state.store.db, queue.protocol.id, queue.participant_id)


def test_the_box_gates_agree_which_records_and_starts(make_window, qtbot, tmp_path):
    window = make_window()
    view = consent_study(qtbot, window, tmp_path)
    panel = ask(qtbot, view)
    assert window.play_place.view("board").session is None  # nothing started yet
    assert not view.table.isVisible()  # the screen takes the queue's room while it asks
    assert not view.next_button.isVisible()
    assert "How to play" in panel.instructions.toPlainText()
    assert "box" in panel.instructions.toPlainText() and "**" not in \
        panel.instructions.toPlainText()  # rendered Markdown, not the source
    assert CONSENT in panel.consent.toPlainText()
    assert panel.seen_yes.isVisible() and panel.seen_no.isVisible()
    assert not panel.agree_button.isEnabled()
    panel.agree_box.click()
    assert not panel.agree_button.isEnabled()  # the question is not answered yet
    panel.seen_no.click()
    assert panel.agree_button.isEnabled()
    panel.agree_box.click()  # untick: disabled again
    assert not panel.agree_button.isEnabled()
    panel.agree_box.click()
    qtbot.mouseClick(panel.agree_button, Qt.MouseButton.LeftButton)

    session = started(qtbot, window, None)
    assert session.item.key == "p1" and session.item.practice  # practice came after consent
    assert not panel.isVisible()
    m = member(window, view)
    assert m is not None and m.consented is not None and m.seen_before is False
    assert m.consent_sha256 == hashlib.sha256(CONSENT.encode()).hexdigest()
    assert m.instructions_sha256 == hashlib.sha256(INSTRUCTIONS.encode()).hexdigest()

    # the Play tab offers the instructions again, without stopping the task
    button = window.play_place.view("board").instructions
    assert button.isVisible()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    viewer = button.viewer
    assert viewer is not None
    qtbot.waitUntil(viewer.isVisible, timeout=5000)
    assert not viewer.isModal()
    assert "Push every box onto a dock." in viewer.text.toPlainText()
    view = window.play_place.view("board")
    assert isinstance(view.session, StudySession) and view.busy


def test_declining_records_nothing_and_starts_nothing(make_window, qtbot, tmp_path):
    window = make_window()
    view = consent_study(qtbot, window, tmp_path)
    panel = ask(qtbot, view)
    qtbot.mouseClick(panel.decline_button, Qt.MouseButton.LeftButton)
    assert panel.message.text() == DECLINED and panel.isVisible()
    assert not panel.fields.isVisible() and view.table.isVisible()
    # the message alone takes a line's height, not the room the texts had (the queue's)
    qtbot.waitUntil(lambda: panel.height() <= panel.message.sizeHint().height() * 3)
    assert view.table.height() > panel.height()
    assert window.play_place.view("board").session is None and window.current_page() is view
    m = member(window, view)
    assert m is not None and (m.consented, m.consent_sha256, m.instructions_sha256,
                              m.seen_before) == (None, None, None, None)
    assert not window.play_place.view("board").instructions.isVisible()
    assert view.next_button.isVisible()
    panel = ask(qtbot, view)  # "Next task" asks again
    assert not panel.agree_button.isEnabled() and not panel.agree_box.isChecked()


def test_without_the_question_the_box_is_enough_and_library_play_has_no_instructions(
        make_window, qtbot, tmp_path):
    window = make_window()
    view = consent_study(qtbot, window, tmp_path, ask_seen_before=False)
    panel = ask(qtbot, view)
    assert not panel.seen_yes.isVisible()
    panel.agree_box.click()
    assert panel.agree_button.isEnabled()  # no question asked: the box is enough
    qtbot.mouseClick(panel.agree_button, Qt.MouseButton.LeftButton)
    started(qtbot, window, None)
    assert window.play_place.view("board").instructions.isVisible()
    assert member(window, view).seen_before is None
    start_level(qtbot, window, "sokoban", "ingvp", 1)  # a Library level: no study
    assert not window.play_place.view("board").instructions.isVisible()
