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

pytest_plugins = ["tests.tiers", "tests.distribution"]

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def db_url(tmp_path):
    """URL of a new, empty SQLite database file for this test."""
    return f"sqlite:///{tmp_path / 'playbench.sqlite3'}"
