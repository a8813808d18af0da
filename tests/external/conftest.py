"""Fixtures of the external endpoint tests."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def env(tmp_path, db_url):
    """The environment of a ``playbench`` subprocess: the test's database and an empty
    configuration directory."""
    return dict(os.environ, PLAYBENCH_DB=db_url, PLAYBENCH_CONFIG_DIR=str(tmp_path / "cfg"))
