"""Draws resources/icons/playbench.png: a 3x3 board with a crate and a player on it.

Run from the repository root: `.venv/bin/python packaging/make_icon.py`.
"""

from pathlib import Path

from PIL import Image, ImageDraw

SIZE = 256


def main() -> None:
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((8, 8, SIZE - 8, SIZE - 8), radius=44, fill=(34, 52, 86))
    cell, origin = 60, 38
    for r in range(3):
        for c in range(3):
            x, y = origin + c * cell, origin + r * cell
            shade = (236, 228, 210) if (r + c) % 2 == 0 else (220, 210, 188)
            d.rounded_rectangle((x + 3, y + 3, x + cell - 3, y + cell - 3), radius=8, fill=shade)
    x, y = origin + 2 * cell, origin + 0 * cell          # target, top right
    d.ellipse((x + 22, y + 22, x + cell - 22, y + cell - 22), fill=(214, 32, 32))
    x, y = origin + 1 * cell, origin + 1 * cell          # crate, centre
    d.rounded_rectangle((x + 8, y + 8, x + cell - 8, y + cell - 8), radius=6,
                        fill=(240, 196, 40), outline=(168, 126, 12), width=4)
    d.line((x + 12, y + 12, x + cell - 12, y + cell - 12), fill=(168, 126, 12), width=4)
    d.line((x + cell - 12, y + 12, x + 12, y + cell - 12), fill=(168, 126, 12), width=4)
    x, y = origin + 0 * cell, origin + 2 * cell          # player, bottom left
    d.ellipse((x + 14, y + 20, x + cell - 14, y + cell - 8), fill=(46, 168, 72))
    d.ellipse((x + 20, y + 6, x + cell - 20, y + 26), fill=(24, 104, 44))
    out = Path(__file__).resolve().parents[1] / "resources" / "icons" / "playbench.png"
    img.save(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
