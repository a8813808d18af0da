"""The game folder server (issue 27): only regular files inside the folder are served. A
symbolic link - to a secret file outside, to a directory outside, even to a file inside - and
every spelling of a way out (``..``, ``%2e%2e``, ``..%2f``, absolute paths) is refused, over
real HTTP on 127.0.0.1, and no answer ever holds the secret."""

from __future__ import annotations

import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.games.browser.static import url_parts
from playbench.games.browser_games.server import StaticServer

SECRET = "SECRET-outside-the-folder-5e1c"


def hostile_folder(base: Path) -> Path:
    """A game folder beside a secret: links out (file, directory), a link inside, a FIFO."""
    outside = base / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    root = base / "games"
    game = root / "01_game"
    (game / "assets").mkdir(parents=True)
    (game / "index.html").write_text("<!doctype html><p>game</p>")
    (game / "assets" / "sprite.txt").write_text("sprite")
    (game / "leak.txt").symlink_to(outside / "secret.txt")
    (game / "relative-leak.txt").symlink_to(Path("..") / ".." / "outside" / "secret.txt")
    (game / "outdir").symlink_to(outside, target_is_directory=True)
    (game / "again.html").symlink_to("index.html")
    (root / "linked_game").symlink_to(outside, target_is_directory=True)
    os.mkfifo(game / "pipe")
    return root


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[StaticServer]:
    with StaticServer(hostile_folder(tmp_path_factory.mktemp("served"))) as s:
        yield s


def get(server: StaticServer, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request("GET", path)
        reply = conn.getresponse()
        return reply.status, reply.read()
    finally:
        conn.close()


def test_regular_files_inside_the_folder_are_served(server):
    assert get(server, "/01_game/index.html") == (200, b"<!doctype html><p>game</p>")
    assert get(server, "/01_game/assets/sprite.txt") == (200, b"sprite")
    assert get(server, "/01_game/")[0] == 200
    assert get(server, "/01_game")[0] == 301  # to the folder with its slash
    assert get(server, "/01_game/missing.js")[0] == 404


@pytest.mark.parametrize("path", [
    "/01_game/leak.txt", "/01_game/relative-leak.txt", "/01_game/outdir/secret.txt",
    "/linked_game/secret.txt", "/01_game/again.html", "/01_game/pipe",
    "/01_game/../../outside/secret.txt", "/../outside/secret.txt",
    "/01_game/%2e%2e/%2e%2e/outside/secret.txt", "/01_game/%2E%2e/../outside/secret.txt",
    "/01_game/..%2f..%2foutside%2fsecret.txt", "/%2e%2e%2foutside/secret.txt",
    "/01_game/%00/x", "http://127.0.0.1/../outside/secret.txt",
])
def test_links_and_ways_out_are_refused(server, path):
    status, body = get(server, path)
    assert status in (403, 404), (path, status)
    assert SECRET.encode() not in body


def test_an_absolute_path_names_a_file_inside_the_folder(server):
    status, body = get(server, str(server.root.parent / "outside" / "secret.txt"))
    assert status == 404 and SECRET.encode() not in body


SEGMENTS = st.sampled_from(["", ".", "..", "%2e%2e", "%2E.", ".%2e", "%2f", "..%2f", "%5c",
                            "01_game", "leak.txt", "outdir", "outside", "secret.txt",
                            "linked_game", "assets", "%00", "%25", "index.html", "~"])


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(SEGMENTS, max_size=6), st.booleans())
def test_no_path_reaches_the_secret(server, segments, slash):
    path = "/" + "/".join(segments) + ("/" if slash else "")
    status, body = get(server, path)
    assert SECRET.encode() not in body
    if status == 200:
        assert all(part not in ("leak.txt", "outdir", "linked_game", "outside")
                   for part in url_parts(path))


@given(st.text(alphabet=st.sampled_from("./%2eEfF0a\\:\x00"), max_size=40))
def test_url_parts_never_yield_a_way_out(path):
    try:
        parts = url_parts(path)
    except Exception as err:  # refused (403) or not text (404): both named
        assert type(err).__name__ in ("FileRefused", "UnicodeDecodeError")
        return
    assert all(p not in ("", ".", "..") and "/" not in p and "\0" not in p for p in parts)
