"""Draw docs/contact-sheet.png: boards of every game from the shipped packs, each at its start
and halfway through its optimal solution, rendered by the games' own renderers.

    SDL_VIDEODRIVER=dummy .venv/bin/python docs/make_contact_sheet.py [OUT.png]

Rows: the six ``ingvp`` packs (levels 1, 21 and 41: for Sokoban one from each end of its room
shapes) and three MageBench tiers. Frames are scaled to a common tile size; the picture is what
a player sees, so looking at it is a quick check of every renderer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from playbench.games.base import BoardEnv, Level
from playbench.games.packs import resolve
from playbench.games.registry import get

# pygame reads this when a display is first initialised: no window for a script.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

TILE = 230          # frames are scaled to fit a TILE x TILE box
CAPTION = 34        # caption height under each frame
LABEL = 170         # row-label column width
GAP = 12
BACKGROUND = (246, 244, 240)
INK = (40, 40, 48)
MUTED = (110, 110, 120)

ROWS = (
    ("Sokoban", "sokoban", "ingvp", (1, 21, 41)),
    ("Maze", "maze", "ingvp", (1, 21, 41)),
    ("Tower of Hanoi", "hanoi", "ingvp", (1, 21, 41)),
    ("15-puzzle", "npuzzle", "ingvp", (1, 21, 41)),
    ("8-queens", "queens", "ingvp", (1, 21, 41)),
    ("Sudoku", "sudoku", "ingvp", (1, 21, 41)),
    ("MageBench", "sokoban", "magebench", (51, 108, 164)),  # small-v1, v1, huge-v0
)
"""(row label, game, pack, level numbers)."""


def frames(game: str, level: Level) -> list[tuple[Image.Image, str]]:
    """The level's start frame and the frame halfway through an optimal solution."""
    spec = get(game)
    env = BoardEnv(spec)
    env.reset(level)
    start = Image.fromarray(env.render())
    plan = spec.solve(env.rules, env.state, None) or []
    half = len(plan) // 2
    for move in plan[:half]:
        env.step(move)
    mid = Image.fromarray(env.render())
    return [(start, f"#{level.number} start"), (mid, f"#{level.number} after {half}/{len(plan)}")]


def fitted(frame: Image.Image) -> Image.Image:
    scale = min(TILE / frame.width, TILE / frame.height)
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    return frame.resize(size, Image.Resampling.LANCZOS)


def sheet() -> Image.Image:
    columns = 2 * max(len(numbers) for *_, numbers in ROWS)
    width = LABEL + columns * (TILE + GAP) + GAP
    row_h = TILE + CAPTION + GAP
    title_h = 56
    image = Image.new("RGB", (width, title_h + len(ROWS) * row_h + GAP), BACKGROUND)
    draw = ImageDraw.Draw(image)
    big = ImageFont.load_default(size=26)
    mid = ImageFont.load_default(size=19)
    small = ImageFont.load_default(size=15)
    draw.text((GAP, 14), "PlayBench boards: each level at its start and halfway through an "
              "optimal solution", fill=INK, font=big)
    for r, (label, game, pack, numbers) in enumerate(ROWS):
        top = title_h + r * row_h
        draw.text((GAP, top + TILE // 2 - 22), label, fill=INK, font=mid)
        draw.text((GAP, top + TILE // 2 + 4), f"pack {pack}", fill=MUTED, font=small)
        levels = {lv.number: lv for lv in resolve(get(game), pack).levels}
        col = 0
        for number in numbers:
            level = levels[number]
            for frame, caption in frames(game, level):
                tile = fitted(frame)
                left = LABEL + col * (TILE + GAP)
                image.paste(tile, (left + (TILE - tile.width) // 2,
                                   top + (TILE - tile.height) // 2))
                if game == "sokoban" and "tier" in level.meta and caption.endswith("start"):
                    caption = f"{caption} ({level.meta['tier'].removeprefix('Sokoban-')})"
                draw.text((left + 2, top + TILE + 6), caption, fill=MUTED, font=small)
                col += 1
    return image


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent / "contact-sheet.png"
    sheet().save(out, optimize=True)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
