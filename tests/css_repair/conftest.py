"""One Chromium and one resource server per test module for the CSS-repair tests."""

from __future__ import annotations

import pytest
import pytest_asyncio

from playbench.games.browser.browser import Browser
from playbench.games.coding.sandbox import SiteServer


@pytest.fixture(scope="module")
def server():
    with SiteServer() as s:
        yield s


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    b = Browser()
    await b.start()
    yield b
    await b.close()
