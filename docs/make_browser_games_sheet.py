"""Draw docs/screenshots/browser-games.png: every bundled browser game at its start state.

Each game is served from the catalog's game folders by the kind's static server and opened
in Chromium at 1280x720 with the harness's page control script (seed 1), as the environment
opens it; the screenshots are scaled into a labelled grid.

    .venv/bin/python docs/make_browser_games_sheet.py [OUT.png]
"""

from __future__ import annotations

import io
import sys
from importlib import resources
from pathlib import Path

import yaml
from PIL import Image, ImageDraw, ImageFont
from playwright.sync_api import sync_playwright

from playbench.games.browser.browser import chromium_executable
from playbench.games.browser_games.catalog import Catalog
from playbench.games.browser_games.page import control_script
from playbench.games.browser_games.server import StaticServer

TILE_W, TILE_H, LABEL_H, PAD, COLUMNS = 400, 225, 34, 12, 4


def screenshots(catalog: Catalog) -> list[tuple[str, Image.Image]]:
    """(label, start-state picture) for each game of the catalog."""
    shots = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable() or "/usr/bin/chromium",
                                    args=["--no-sandbox"])
        for game in catalog.game_ids():
            raw = yaml.safe_load((catalog.games_dir / f"{game}.yaml").read_text())
            with StaticServer(catalog.game_dir(game).parent) as server:
                ctx = browser.new_context(viewport={"width": 1280, "height": 720})
                ctx.add_init_script("window.__PB_SEED = 1;")
                ctx.add_init_script(control_script())
                page = ctx.new_page()
                entry = catalog.entry_page(catalog.game(game))
                page.goto(server.url(f"{catalog.game_dir(game).name}/{entry}"))
                page.wait_for_function("window.gameAPI && gameAPI.getState().status !== 'loading'")
                page.evaluate("new Promise(r => requestAnimationFrame(() => r(0)))")
                png = page.screenshot()
                ctx.close()
            label = f"{raw.get('title', game)} - {raw.get('genre', '?')}"
            shots.append((label, Image.open(io.BytesIO(png)).convert("RGB")))
        browser.close()
    return shots


def sheet(shots: list[tuple[str, Image.Image]]) -> Image.Image:
    rows = (len(shots) + COLUMNS - 1) // COLUMNS
    out = Image.new("RGB", (PAD + COLUMNS * (TILE_W + PAD), PAD + rows * (TILE_H + LABEL_H + PAD)),
                    "#20232a")
    draw = ImageDraw.Draw(out)
    try:
        font: ImageFont.ImageFont | ImageFont.FreeTypeFont = ImageFont.truetype(
            "DejaVuSans-Bold.ttf", 18)
    except OSError:
        font = ImageFont.load_default()
    for i, (label, img) in enumerate(shots):
        x = PAD + (i % COLUMNS) * (TILE_W + PAD)
        y = PAD + (i // COLUMNS) * (TILE_H + LABEL_H + PAD)
        out.paste(img.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS), (x, y))
        draw.text((x + 4, y + TILE_H + 7), label, fill="#f0f0f0", font=font)
    return out


def main() -> None:
    root = Path(str(resources.files("playbench.games.browser_games") / "bundled"))
    default = Path(__file__).parent / "screenshots" / "browser-games.png"
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    sheet(screenshots(Catalog(root))).save(target, optimize=True)
    print(target)


if __name__ == "__main__":
    main()
