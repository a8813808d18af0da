"""A real PostgreSQL server for the shared-store tests, started once per session; each test
gets its own database on it. A server that cannot start fails the tests with the reason."""

from __future__ import annotations

import uuid

import pytest

from tests.studies.pgserver import ServerProblem, start_server


@pytest.fixture(scope="session")
def pg_server():
    try:
        server = start_server()
    except ServerProblem as err:
        pytest.fail(f"cannot start the PostgreSQL test server: {err}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server) -> str:
    """URL of a new, empty database on the test server."""
    return pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
