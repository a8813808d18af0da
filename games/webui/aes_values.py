"""AES's per-value rules: which properties are scored, with what weight, and how two values
of one property compare (``games/webui/aes.py`` holds the matching and the page score; its
docstring gives the sources and the two readings, ``playbench`` and ``magebench``)."""

from __future__ import annotations

import re

from playbench.games.webui.aes_harness import COMPOUND, compound_similarity

PLAYBENCH, MAGEBENCH = "playbench", "magebench"
MODES = (PLAYBENCH, MAGEBENCH)
"""The two readings of AES (module docstring)."""

TEXT_WORDS = 10
"""Texts shorter than this many words must match exactly (case aside)."""
TEXT_FILTER = 0.6
"""A text filter passes at similarity above this (harness)."""
NUMERIC_FILTER = 0.01
"""A colour or length filter passes at similarity above this (harness)."""

TEXT, LENGTH, COLOUR, CHOICE = "text", "length", "colour", "choice"

PROPERTIES: dict[str, tuple[str, float]] = {
    # name: (comparison, weight); the weights are those MageBench's harness ships (harness)
    "text": (TEXT, 6.8), "placeholder": (TEXT, 6.8), "value": (TEXT, 6.8),
    "has_text": ("has_text", 44.0),
    "color": (COLOUR, 30.0), "background-color": (COLOUR, 59.0),
    "background-image": (CHOICE, 12.6), "background-repeat": (CHOICE, 24.5),
    "src": (CHOICE, 12.6), "type": (CHOICE, 18.9),
    **{f"border-{s}-color": (COLOUR, 16.9) for s in ("top", "right", "bottom", "left")},
    **{f"border-{s}-width": (LENGTH, 2.1) for s in ("top", "right", "bottom", "left")},
    **{f"border-{s}-style": (CHOICE, 79.2) for s in ("top", "right", "bottom", "left")},
    **{f"border-{c}-radius": (LENGTH, 100.0)
       for c in ("top-left", "top-right", "bottom-left", "bottom-right")},
    "outline-style": (CHOICE, 79.2), "outline-width": (CHOICE, 2.1),
    "outline-color": (COLOUR, 16.9),
    "font-family": (CHOICE, 94.6), "font-size": (LENGTH, 9.8), "font-style": (CHOICE, 94.6),
    "font-weight": (CHOICE, 2.1), "height": (LENGTH, 31.92), "width": (LENGTH, 31.92),
    "tab-size": (CHOICE, 50.8), "letter-spacing": (LENGTH, 67.0), "display": (CHOICE, 51.0),
    "box-shadow": ("box-shadow", 56.7), "text-shadow": ("text-shadow", 83.0),
    "background-size": ("background-size", 14.3),
    "background-linear-gradient": ("gradient", 18.0),
    "class": (CHOICE, 66.6),
}
"""Every property AES scores: how it is compared and its weight."""

READ_AS = {"background-linear-gradient": "background"}
"""Properties read from another value of the page (a gradient's colours from the computed
``background``)."""
NO_FILTER = frozenset({"box-shadow", "text-shadow", "background-size",
                       "background-linear-gradient"})
"""Properties the harness compares but cannot filter by."""
FILTER_ONLY = frozenset({"class"})
"""Properties the harness filters by but never scores."""

LAYOUT = frozenset({
    "margin", "padding", "position", "top", "left", "right", "bottom", "z-index", "transform",
    "transition", "cursor", "overflow", "flex-wrap", "justify-content", "align-items",
    "text-transform", "float", "gap", "flex", "grid-template-columns",
    *(f"margin-{s}" for s in ("top", "right", "bottom", "left")),
    *(f"padding-{s}" for s in ("top", "right", "bottom", "left")),
})
"""Layout properties: listed in ``data-evalby`` or not, they are never scored."""

_SIDES = ("top", "right", "bottom", "left")
SHORTHANDS: dict[str, tuple[str, ...]] = {
    "border": tuple(f"border-{s}-width" for s in _SIDES),
    "border-radius": tuple(f"border-{c}-radius"
                           for c in ("top-left", "top-right", "bottom-left", "bottom-right")),
    "outline": ("outline-style", "outline-width", "outline-color"),
    **{f"border-{s}": (f"border-{s}-width", f"border-{s}-color") for s in _SIDES},
}
"""Shorthands a ``data-evalby`` may name, and the longhands that are compared (harness)."""

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def text_similarity(truth: str, generated: str) -> float:
    """Exact (case-insensitive, spacing normalised) under :data:`TEXT_WORDS` words in the
    truth, else the IoU of the two word sets."""
    a, b = truth.lower().split(), generated.lower().split()
    if len(a) < TEXT_WORDS:
        return 1.0 if a == b else 0.0
    union = set(a) | set(b)
    return len(set(a) & set(b)) / len(union) if union else 1.0


def length_similarity(truth: str, generated: str) -> float:
    """``1 - |gt - gen| / |gt|``, floored at 0, over the numbers in the two values (``10px``,
    ``10px 4px``); a zero truth scores 1 only against zero. Values without numbers (``auto``,
    ``normal``) are compared for equality."""
    xs, ys = _NUMBER.findall(truth), _NUMBER.findall(generated)
    if not xs or len(xs) != len(ys):
        return 1.0 if truth.strip() == generated.strip() else 0.0
    scores = []
    for x, y in zip(map(float, xs), map(float, ys), strict=True):
        if x == 0:
            scores.append(1.0 if y == 0 else 0.0)
        else:
            scores.append(max(0.0, 1.0 - abs(x - y) / abs(x)))
    return sum(scores) / len(scores)


def colour_similarity(truth: str, generated: str) -> float:
    """Mean over R, G, B of ``1 - |diff| / 256`` for two ``rgb()``/``rgba()`` values (alpha
    ignored); a value that is not a colour scores 0 unless both are the same text."""
    a, b = _rgb(truth), _rgb(generated)
    if a is None or b is None:
        return 1.0 if truth.strip() == generated.strip() else 0.0
    return sum(max(0.0, 1.0 - abs(x - y) / 256) for x, y in zip(a, b, strict=True)) / 3


def _rgb(value: str) -> tuple[float, float, float] | None:
    if not value.strip().startswith("rgb"):
        return None
    nums = _NUMBER.findall(value)
    return (float(nums[0]), float(nums[1]), float(nums[2])) if len(nums) >= 3 else None


def similarity(name: str, truth: str | None, generated: str | None) -> float:
    """How alike two values of property ``name`` are, in [0, 1] (see the module docstring).
    A value the generated page did not report scores 0."""
    if name == "has_text":
        return 1.0 if (generated or "").strip() else 0.0
    if truth is None or generated is None:
        return 0.0
    how = PROPERTIES.get(name, (CHOICE, 0.0))[0]
    if how in COMPOUND:
        s = compound_similarity(how, truth, generated)
        return (1.0 if truth.strip() == generated.strip() else 0.0) if s is None else s
    if how == TEXT:
        return text_similarity(truth, generated)
    if how == LENGTH:
        return length_similarity(truth, generated)
    if how == COLOUR:
        return colour_similarity(truth, generated)
    return 1.0 if truth.strip() == generated.strip() else 0.0


_SINGLE_PX = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?(?:px)?")


def harness_similarity(name: str, truth: str | None, generated: str | None) -> float | None:
    """:func:`similarity` as MageBench's harness computes it; None where its comparison
    raises, which skips the part (module docstring)."""
    how = PROPERTIES.get(name, (CHOICE, 0.0))[0]
    if name == "has_text" or name in ("src", "type"):
        return 1.0
    if truth is None or generated is None:
        return None
    if how in COMPOUND:
        return compound_similarity(how, truth, generated)
    if how == LENGTH:
        a, b = truth.strip(), generated.strip()
        if not (_SINGLE_PX.fullmatch(a) and _SINGLE_PX.fullmatch(b)):
            return None
        x, y = float(a.removesuffix("px")), float(b.removesuffix("px"))
        rel = abs(y - x) / x if x != 0 else float(y != 0)
        return 1 - rel if rel < 1.0 else 0.0
    if how == COLOUR:
        if "rgb" not in truth or "rgb" not in generated:
            return None
        return colour_similarity(truth, generated)
    if how == TEXT:
        return text_similarity(truth, generated)
    return 1.0 if truth == generated else 0.0


def passes(how: str, s: float) -> bool:
    if how == TEXT:
        return s > TEXT_FILTER
    if how == "has_text":
        return s > 0
    if how in (LENGTH, COLOUR):
        return s > NUMERIC_FILTER
    return s >= 1.0


def filter_evaluable(name: str) -> bool:
    """Whether the harness can filter by ``name`` (else it drops the element)."""
    return name in PROPERTIES and name not in NO_FILTER


__all__ = ["CHOICE", "COLOUR", "FILTER_ONLY", "LAYOUT", "LENGTH", "MAGEBENCH", "MODES",
           "NO_FILTER", "NUMERIC_FILTER", "PLAYBENCH", "PROPERTIES", "READ_AS", "SHORTHANDS",
           "TEXT", "TEXT_FILTER", "TEXT_WORDS", "colour_similarity", "filter_evaluable",
           "harness_similarity", "length_similarity", "passes", "similarity",
           "text_similarity"]
