"""Test-wide set-up: headless Qt and SDL, and a fresh SQLite file per test that asks for one."""

import os
import signal

# A run started in the background of a non-interactive shell inherits SIGINT ignored, and so
# would every process the tests start - which several tests stop with SIGINT, as a person's
# Ctrl-C. A handler (unlike "ignored") is not inherited across exec: children get the default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

pytest_plugins = ["tests.tiers", "tests.distribution", "tests.watchdog", "tests.qt_collect"]

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def db_url(tmp_path):
    """URL of a new, empty SQLite database file for this test."""
    return f"sqlite:///{tmp_path / 'playbench.sqlite3'}"


MODAL_STATICS = {"QInputDialog": ("getText", "getMultiLineText", "getInt", "getDouble",
                                  "getItem"),
                 "QMessageBox": ("warning", "critical", "information", "question", "about")}


def pytest_configure(config):
    config.addinivalue_line("markers", "answers_modal_dialogs: the test answers the modal "
                            "dialogs it opens itself (a QTimer that finds and closes them)")


@pytest.fixture(autouse=True)
def no_unanswered_modal_dialogs(request, monkeypatch):
    """Qt's static dialogs run a modal event loop in C++ until a person answers; in a test
    nobody does, and no Python runs to notice a time-out, so the run hangs for good. Here
    they fail at once instead, naming the dialog: a test that means to show one passes the
    answer in (as ResearcherSwitch's ``ask`` and the admission panel's ``ask`` allow), or is
    marked ``answers_modal_dialogs`` and answers the real dialog with a timer of its own."""
    if request.node.get_closest_marker("answers_modal_dialogs"):
        return
    from PySide6 import QtWidgets

    for cls_name, names in MODAL_STATICS.items():
        cls = getattr(QtWidgets, cls_name)
        for name in names:
            def refuse(*args, _what=f"{cls_name}.{name}", **kwargs):
                titles = [a for a in args if isinstance(a, str)][:2]
                raise AssertionError(f"a test opened the modal {_what}{titles} that nobody "
                                     "can answer; give the widget its answer instead")
            monkeypatch.setattr(cls, name, staticmethod(refuse))
