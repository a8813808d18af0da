"""The Studies tab for someone a study does not admit: the reason instead of a queue, and for
an invitation-only study the code, typed once."""

from __future__ import annotations

from playbench.app.studies import create_study, load_study_file
from playbench.db.studies import invite_codes
from tests.studies.helpers import study_yaml
from tests.ui.conftest import ANNOTATOR


def read(qtbot, view) -> None:
    view.refresh()  # shows "Reading the queue…" until the read is shown
    qtbot.waitUntil(lambda: view.busy.text() == "", timeout=15000)


def test_refused_then_admitted_with_a_code(make_window, qtbot, tmp_path):
    window = make_window()
    store = window.state.store
    create_study(store, load_study_file(study_yaml(tmp_path, name="listed",
                                                   annotators=["somebody-else"])))
    create_study(store, load_study_file(study_yaml(tmp_path, name="invited", invites=2)))
    view = window.studies
    window.show_page(view)
    qtbot.waitUntil(lambda: view.study.count() == 2 and view.busy.text() == "", timeout=15000)
    view.study.setCurrentText("listed")
    read(qtbot, view)
    qtbot.waitUntil(lambda: view.admission.isVisible(), timeout=15000)
    assert f"'{ANNOTATOR}' is not on the list" in view.admission.reason.text()
    assert not view.admission.code_button.isVisible()
    assert not view.next_button.isEnabled() and view.table.rowCount() == 0

    view.study.setCurrentText("invited")
    read(qtbot, view)
    qtbot.waitUntil(lambda: "by invitation" in view.admission.reason.text(), timeout=15000)
    assert view.admission.code_button.isVisible()
    view.admission.ask = lambda _parent: "WRNG-CODE"
    view.admission.code_button.click()
    qtbot.waitUntil(lambda: "not valid" in view.admission.reason.text(), timeout=15000)
    code = invite_codes(store.db, "invited")[0]["code"]
    view.admission.ask = lambda _parent: code
    view.admission.code_button.click()
    qtbot.waitUntil(lambda: view.snapshot is not None, timeout=15000)
    assert not view.admission.isVisible() and view.next_button.isEnabled()
    assert view.table.rowCount() == 6  # practice and five tasks
    read(qtbot, view)  # a member now: no code asked again
    qtbot.waitUntil(lambda: view.snapshot is not None, timeout=15000)
    assert not view.admission.isVisible()
