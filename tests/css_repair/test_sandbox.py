"""CSS repair's page sandbox (issue 27): what an edit makes the page fetch from outside the
resource server is refused (the outside listener counts no connection) and recorded on the
step of that edit, as on every other sandboxed page."""

from __future__ import annotations

import socket
import threading

import pytest

from playbench.games.css_repair.env import CssRepairEnv
from playbench.games.css_repair.kind import KIND
from playbench.games.types import Task

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.browser]


class Outside:
    """A TCP listener counting the connections it gets."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()


async def test_an_edit_that_fetches_from_outside_is_refused_and_on_its_step(browser, server):
    outside = Outside()
    env = CssRepairEnv(browser, server)
    try:
        await env.reset(Task(KIND.name, KIND.load("css-repair:1")[0], {}, "css-repair"), 0)
        url = f"http://127.0.0.1:{outside.port}/leak.png"
        tr = await env.step(env.parse_action(
            f'edit_rule(".hero", "background-image", "url({url})")'))
    finally:
        await env.close()
        outside.sock.close()
    assert tr.valid and tr.changed
    assert outside.connections == 0
    blocked = tr.info.get("blocked", [])
    assert [(b["url"], b["type"]) for b in blocked] == [(url, "image")]
