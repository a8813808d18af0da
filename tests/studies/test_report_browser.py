"""The study report opened the way a reviewer opens it: ``report.html`` from disk (a file://
URL) in real Chromium through Playwright. It must load nothing from anywhere (styles inline,
plots embedded), and its DOM must state the study's checklist, counts, baseline definition
and scores, with every plot image decoded."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from playbench.app.exports.report import write_report
from playbench.games.browser.browser import chromium_executable
from tests.studies.report_study import NAME, make_study


@pytest_asyncio.fixture
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_executable(),
                                           args=["--no-sandbox"], chromium_sandbox=False)
        yield browser
        await browser.close()


async def test_the_report_opens_offline_and_states_the_study(tmp_path, db_url, chromium):
    store = await make_study(tmp_path, db_url)
    written = write_report(store, NAME, tmp_path / "report")
    store.db.dispose()
    context = await chromium.new_context()
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = await context.new_page()
    await page.goto(written.html.as_uri())
    await page.wait_for_load_state("load")

    assert await page.locator("h1").inner_text() == f"Study report: {NAME}"
    headings = await page.locator("h2").all_inner_texts()
    assert headings == [
        "Reporting checklist", "Population, sampling and compensation", "Annotators",
        "Instructions and consent", "Tasks and practice",
        "Effort parity: budgets and time, humans and models side by side",
        "Agreement between annotators", "Scores", "Exclusions",
        "Deviations from the protocol", "Data release"]
    counts = await page.locator("#counts tr").nth(1).locator("td").all_inner_texts()
    assert counts == ["3", "2", "not stated", "2", "1", "not stated"]
    not_stated = await page.locator("#checklist td.not-stated").count()
    assert not_stated == 4
    assert (await page.locator("#baseline").inner_text()).startswith("human rows: one per person")
    score_rows = await page.locator("#scores-table tr").all_inner_texts()
    assert len(score_rows) == 1 + 3
    assert any(r.startswith("sokoban") and "human:alice" in r for r in score_rows)
    people = await page.locator("#people-table tr").nth(2).inner_text()
    assert people.startswith("bob") and people.endswith("failed_checks >= 1")
    assert "post hoc, added 2026-11-27T10:00:00+00:00" in await page.locator(
        "#exclusions").inner_text()

    images = page.locator("figure img")
    assert await images.count() == 4  # accuracy, completion, human-relative, actions
    sizes = await images.evaluate_all(
        "imgs => imgs.map(i => [i.complete, i.naturalWidth, i.src.slice(0, 22)])")
    assert all(done and width > 0 and src == "data:image/png;base64,"
               for done, width, src in sizes), sizes
    # Nothing but the file itself (and its embedded data: images) was asked for.
    assert [u for u in requests if not u.startswith("data:")] == [written.html.as_uri()]
    await context.close()
