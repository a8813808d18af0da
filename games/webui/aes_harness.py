"""The parts of AES that follow MageBench's published harness rather than the paper's words.

``microsoft/MageBench``, ``env/utils/WebUI_utils.py``, read for its behaviour (our own code):

- comparisons the paper does not describe: shadows (``box-shadow``, ``text-shadow``),
  ``background-size`` and the colours of a gradient background (:func:`compound_similarity`);
- the box score each matched element carries beside its properties, at a fixed weight of 46
  (:func:`box_score`);
- the matching (:func:`harness_match`): a pair may be matched when ``GIoU + filter - 1e-5 *
  generated descendants`` is at least -1 (the filter is 0 when it passes, -1 when not, so a
  pair whose filter fails can still match if the boxes overlap enough); the Hungarian
  assignment then minimises the negated sum; a truth element assigned to a pair that was not a
  candidate is left out of the state (neither scored nor weighed), while one left without any
  generated element (more truth elements than generated ones) weighs and scores 0.

Values that cannot be read as the comparison needs (``none``, ``auto``, a colour that is not
``rgb``) make :func:`compound_similarity` return None: the harness's comparison raises there
and the part is skipped, neither scored nor weighed.
"""

from __future__ import annotations

import re

import numpy as np
from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

BOX_WEIGHT = 46.0
"""The weight of the box score in an element's score (the harness's tuned constant)."""
HARNESS_CHILD_PENALTY = 1e-5
"""The harness's penalty per descendant of the generated element in the matching."""
CANDIDATE = -1.0
"""A pair's matching value must be at least this to be matched (harness)."""

_COLOUR = re.compile(r"rgba?\(\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)[^)]*\)")
_OPAQUE = re.compile(r"rgb\(\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\)")
_PX = re.compile(r"(-?\d+(?:\.\d+)?(?:e-?\d+)?)px")


def px_similarity(truth: float, generated: float) -> float:
    """``1 - |gen - gt| / gt`` floored at 0 (a zero truth: 1 only against zero)."""
    if truth == 0:
        return 1.0 if generated == 0 else 0.0
    return max(0.0, 1.0 - abs(generated - truth) / abs(truth))


def rgb_similarity(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return float(np.mean([max(0.0, 1.0 - abs(x - y) / 256) for x, y in zip(a, b, strict=True)]))


def colours(value: str) -> list[tuple[float, float, float]]:
    return [(float(m[0]), float(m[1]), float(m[2])) for m in _COLOUR.findall(value)]


def pixels(value: str) -> list[float]:
    return [float(x) for x in _PX.findall(_COLOUR.sub(" ", value))]


def shadow_similarity(truth: str, generated: str, *, text: bool) -> float | None:
    """A shadow's colour (weight 2) and its pixel lengths (weight 1 each). ``box-shadow``:
    the colour and the four lengths (offsets, blur, spread), over 6; ``text-shadow``: the
    colour (0 if the two list different numbers of colours) and the lengths two by two."""
    tc, gc = colours(truth), colours(generated)
    tp, gp = pixels(truth), pixels(generated)
    if not text:
        if not tc or len(tp) < 4:
            return None  # ``none`` or unreadable: the harness's parse fails
        if not gc or len(gp) < 4:
            return 0.0
        lengths = sum(px_similarity(a, b) for a, b in zip(tp[:4], gp[:4], strict=True))
        return (2 * rgb_similarity(tc[0], gc[0]) + lengths) / 6
    score = weight = 0.0
    if tc:
        weight += 2
        if len(tc) == len(gc):
            score += 2 * rgb_similarity(tc[0], gc[0])
    for a, b in zip(tp, gp, strict=False):
        score += px_similarity(a, b)
        weight += 1
    return score / weight if weight else None


def size_similarity(truth: str, generated: str) -> float | None:
    """``background-size`` as two pixel lengths, the mean of their similarities."""
    tw = truth.split()
    if len(tw) != 2 or not all(t.endswith("px") for t in tw):
        return None
    gw = generated.split()
    if len(gw) != 2 or not all(g.endswith("px") for g in gw):
        return 0.0
    return sum(px_similarity(float(a[:-2]), float(b[:-2]))
               for a, b in zip(tw, gw, strict=True)) / 2


def gradient_similarity(truth: str, generated: str) -> float | None:
    """The opaque ``rgb()`` colours of a gradient background (the computed ``background``,
    whose transparent ``rgba`` background colour is left out, as the harness's pattern
    does), compared in order, their mean similarity."""
    def opaque(value: str) -> list[tuple[float, float, float]]:
        return [(float(m[0]), float(m[1]), float(m[2])) for m in _OPAQUE.findall(value)]
    pairs = list(zip(opaque(truth), opaque(generated), strict=False))
    if not pairs:
        return None if not opaque(truth) else 0.0
    return sum(rgb_similarity(a, b) for a, b in pairs) / len(pairs)


def compound_similarity(how: str, truth: str, generated: str) -> float | None:
    """The comparisons of :data:`COMPOUND` (None: the truth value cannot be compared)."""
    if how == "box-shadow":
        return shadow_similarity(truth, generated, text=False)
    if how == "text-shadow":
        return shadow_similarity(truth, generated, text=True)
    if how == "background-size":
        return size_similarity(truth, generated)
    return gradient_similarity(truth, generated)


COMPOUND = ("box-shadow", "text-shadow", "background-size", "gradient")


def giou_plus_one(gen: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """GIoU of every generated box (rows) with every truth box (columns) with the harness's
    pixel convention (areas ``(w + 1) * (h + 1)``), and the intersection over the smaller box."""
    g = gen[:, None, :]
    t = truth[None, :, :]
    iw = np.clip(np.minimum(g[..., 2], t[..., 2]) - np.maximum(g[..., 0], t[..., 0]) + 1,
                 0, None)
    ih = np.clip(np.minimum(g[..., 3], t[..., 3]) - np.maximum(g[..., 1], t[..., 1]) + 1,
                 0, None)
    inter = iw * ih
    area_g = (g[..., 2] - g[..., 0] + 1) * (g[..., 3] - g[..., 1] + 1)
    area_t = (t[..., 2] - t[..., 0] + 1) * (t[..., 3] - t[..., 1] + 1)
    union = area_g + area_t - inter
    hull = ((np.maximum(g[..., 2], t[..., 2]) - np.minimum(g[..., 0], t[..., 0]) + 1)
            * (np.maximum(g[..., 3], t[..., 3]) - np.minimum(g[..., 1], t[..., 1]) + 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        giou = np.where(union > 0, inter / union, 0.0) - np.where(hull > 0,
                                                                   (hull - union) / hull, 0.0)
        small = np.where(np.minimum(area_g, area_t) > 0, inter / np.minimum(area_g, area_t),
                         0.0)
    return giou, small


def box_score(truth: tuple[float, ...], generated: tuple[float, ...]) -> float:
    """The harness's box score of a matched pair: ``0.5 + overlap / 2`` where the boxes
    intersect (overlap over the smaller box), else ``(GIoU + 1) / 2``."""
    giou, small = giou_plus_one(np.array([generated], dtype=float),
                                np.array([truth], dtype=float))
    if small[0, 0] > 0:
        return float(small[0, 0] / 2 + 0.5)
    return float((giou[0, 0] + 1) / 2)


def harness_match(boxes_t: np.ndarray, boxes_g: np.ndarray, kids_g: np.ndarray,
                  allowed: np.ndarray) -> tuple[list[tuple[int, int]], list[int]]:
    """(truth, generated) matched pairs and the truth indices left out of the state (see the
    module docstring). ``allowed`` is the filter, generated rows by truth columns."""
    nt, ng = len(boxes_t), len(boxes_g)
    if nt == 0 or ng == 0:
        return [], []
    giou, _ = giou_plus_one(boxes_g, boxes_t)
    value = (giou + np.where(allowed, 0.0, -1.0)
             - HARNESS_CHILD_PENALTY * kids_g[:, None]).T  # truth rows
    candidate = value >= CANDIDATE
    cost = np.where(candidate, -value, 1e5)
    rows, cols = linear_sum_assignment(cost)
    pairs = [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if candidate[r, c]]
    left_out = [int(r) for r, c in zip(rows, cols, strict=True) if not candidate[r, c]]
    return pairs, left_out


__all__ = ["BOX_WEIGHT", "COMPOUND", "box_score", "compound_similarity",
           "giou_plus_one", "harness_match", "px_similarity"]
