"""Closing a Browser stops Playwright's driver even when the close is cancelled midway (the
desktop app's shutdown cancels episodes that may be closing their browser; a driver left
running printed "Exception ignored ... BaseSubprocessTransport.__del__" at exit)."""

from __future__ import annotations

import asyncio
import gc
from asyncio.base_subprocess import BaseSubprocessTransport

import pytest

from playbench.games.browser.browser import Browser

pytestmark = pytest.mark.browser


def open_transports() -> list[BaseSubprocessTransport]:
    gc.collect()
    return [o for o in gc.get_objects()
            if isinstance(o, BaseSubprocessTransport) and not o.is_closing()]


async def started() -> Browser:
    browser = Browser()
    await browser.start()
    page = await (await browser._browser.new_context()).new_page()
    assert await page.evaluate("() => 1 + 1") == 2
    return browser


@pytest.mark.asyncio
async def test_closing_the_browser_stops_the_driver():
    before = open_transports()
    browser = await started()
    assert len(open_transports()) == len(before) + 1  # the driver's: the check can fail
    await browser.close()
    assert open_transports() == before


@pytest.mark.asyncio
async def test_a_cancelled_close_still_stops_the_driver():
    before = open_transports()
    browser = await started()
    closing = asyncio.ensure_future(browser.close())
    await asyncio.sleep(0)  # the close is under way: Chromium is being shut
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    assert open_transports() == before
