"""Where no Chromium can be found, starting the browser fails at once with advice a person can
follow for their kind of install (issue 18: a desktop bundle has no ``playwright`` command),
instead of Playwright's own "Executable doesn't exist" text."""

from __future__ import annotations

import pytest

from playbench.games.browser.browser import (
    SYSTEM_CHROMIUM,
    Browser,
    chromium_executable,
    missing_chromium_advice,
)
from playbench.games.browser.session import BrowserError


@pytest.fixture
def no_playwright_build(tmp_path, monkeypatch):
    """An empty Playwright browser folder and no PLAYBENCH_CHROMIUM."""
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "ms-playwright"))
    (tmp_path / "ms-playwright").mkdir()
    monkeypatch.delenv("PLAYBENCH_CHROMIUM", raising=False)
    return tmp_path


async def test_no_browser_anywhere_is_explained(no_playwright_build):
    absent = str(no_playwright_build / "usr-bin-chromium")
    assert chromium_executable(system=absent) is None
    browser = Browser(executable=None)
    browser.executable = chromium_executable(system=absent)
    with pytest.raises(BrowserError, match="no Chromium found") as err:
        await browser.start()
    assert "playwright install chromium" in str(err.value)
    assert "PLAYBENCH_CHROMIUM" in str(err.value)


async def test_a_wrong_playbench_chromium_is_named(no_playwright_build, monkeypatch):
    wrong = str(no_playwright_build / "not-here" / "chromium")
    monkeypatch.setenv("PLAYBENCH_CHROMIUM", wrong)
    browser = Browser()
    assert browser.executable == wrong
    with pytest.raises(BrowserError, match="no Chromium at PLAYBENCH_CHROMIUM=.*not-here"):
        await browser.start()


def test_the_system_chromium_is_found_without_a_playwright_build(no_playwright_build):
    assert chromium_executable(system=SYSTEM_CHROMIUM) == SYSTEM_CHROMIUM


def test_a_playwright_build_is_preferred_to_the_system_one(no_playwright_build):
    (no_playwright_build / "ms-playwright" / "chromium-1").mkdir()
    assert chromium_executable(system=SYSTEM_CHROMIUM) is None


def test_the_bundle_advice_names_no_python_tool():
    bundle, venv = missing_chromium_advice(frozen=True), missing_chromium_advice(frozen=False)
    assert "playwright install" not in bundle and "playwright install" in venv
    for text in (bundle, venv):
        assert "PLAYBENCH_CHROMIUM" in text and SYSTEM_CHROMIUM in text
