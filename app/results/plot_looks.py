"""How each participant looks in the result plots: one colour per participant, people and
models told apart at a glance.

People take cool colours (blues, greens, violets), drawn as plain bars and round points;
models and scripts take warm colours (oranges, reds, browns), drawn as hatched bars and square
points, so a reader can tell the two apart even in a grey-scale print. Colours are handed out
in the order participants are given, so the same order always gives the same looks (the bar
plot and the score distribution sort people first, then by name).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matplotlib import colormaps
from matplotlib.colors import to_hex

PEOPLE_COLOURS = ("#1f5fa8", "#2a9d8f", "#6a4c93", "#7fa7d9", "#3d7a3d", "#17a2c7",
                  "#a58fd1", "#24507a")
MODEL_COLOURS = ("#d17a22", "#c23b3b", "#8c6d31", "#e0a800", "#b5527a", "#e06a4e",
                 "#7a3b1e")
# Past the fixed palettes, colours are spread evenly over a colour map of the same family,
# so every participant still differs from every other one of its side.
PEOPLE_MAP = "winter"
MODEL_MAP = "autumn"


@dataclass(frozen=True)
class Look:
    colour: str
    """A ``#rrggbb`` colour."""
    hatch: str
    """Bar hatching: "" for people, ``//`` for models."""
    marker: str
    """Point marker: ``o`` for people, ``s`` for models."""
    person: bool


def _spread(palette: tuple[str, ...], cmap: str, count: int) -> list[str]:
    if count <= len(palette):
        return list(palette[:count])
    colours = colormaps[cmap]
    return [to_hex(colours(i / max(1, count - 1))) for i in range(count)]


def looks(participants: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Look]:
    """``(kind, name)`` -> its look, for each distinct pair in ``participants`` (kind
    ``human`` is a person; every other kind is drawn as a model)."""
    people: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for key in participants:
        side = people if key[0] == "human" else others
        if key not in side:
            side.append(key)
    out: dict[tuple[str, str], Look] = {}
    for key, colour in zip(people, _spread(PEOPLE_COLOURS, PEOPLE_MAP, len(people)),
                           strict=True):
        out[key] = Look(colour, "", "o", True)
    for key, colour in zip(others, _spread(MODEL_COLOURS, MODEL_MAP, len(others)),
                           strict=True):
        out[key] = Look(colour, "//", "s", False)
    return out
