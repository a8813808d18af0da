"""Runs inside the bundle before PlayBench starts (a PyInstaller runtime hook).

A bundle built on a machine that had Playwright's Chromium carries it in ``ms-playwright``
beside the bundled libraries; point Playwright there unless the user chose a place
(``PLAYWRIGHT_BROWSERS_PATH``) or a browser (``PLAYBENCH_CHROMIUM``) already. Without a
bundled browser nothing is set, and PlayBench looks for the user's Playwright Chromium and the
system one as it does from a virtual environment (``playbench.games.browser.browser``).
"""

import os
import sys
from pathlib import Path

_bundled = Path(getattr(sys, "_MEIPASS", "")) / "ms-playwright"
if (not os.environ.get("PLAYWRIGHT_BROWSERS_PATH") and not os.environ.get("PLAYBENCH_CHROMIUM")
        and _bundled.is_dir() and any(_bundled.glob("chromium*"))):
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(_bundled)
