"""Atomic Element Similarity (AES), MageBench WebUI's score, on element lists read from pages.

Facts from ``docs/reference/web.md`` (section "MageBench WebUI") and the MageBench paper; where
the paper leaves a detail open, MageBench's published harness (``microsoft/MageBench``,
``env/utils/WebUI_utils.py``, named in that reference file) settled it, and each such detail is
marked "(harness)" below. Our own code throughout.

A page state is a list of :class:`Element` values (box, descendant count, computed values).
Ground-truth elements carry ``data-filter-by`` (one property that must agree before a match is
accepted) and ``data-evalby`` (the ``|``-separated properties scored).

1. Matching (:func:`match`): the Hungarian algorithm (SciPy's ``linear_sum_assignment``)
   maximises ``GIoU(box) + filter - 1e-3 * |descendants difference|`` over (generated, truth)
   pairs; ``filter`` is -1 when the truth element's filter property is too far from the
   generated element's (text: similarity under 0.6; colour and lengths: 0.01 or less; other
   properties: not equal - thresholds (harness)). As the paper says, a pair whose filter fails
   is never a match, wherever its box lies.
2. Per-property similarity (:func:`similarity`): text - case-insensitive exact match under 10
   words, else the IoU of the word sets; lengths - ``1 - |gt - gen| / gt`` floored at 0 (equal
   zeros score 1); colours - the mean over R, G, B of ``1 - |diff| / 256`` (alpha ignored,
   harness); other properties - equality. Shorthands (``border``, ``border-radius``,
   ``outline``, ``border-top`` ...) are split into their longhands (harness).
3. Element score: the property similarities averaged with each property's weight
   (:data:`PROPERTIES`, the weights the harness ships, found by the paper's search for agreement
   with people), times the truth element's area ** 0.8987. Layout properties (margins,
   paddings, positions, flex alignment, transforms ...) are ignored; a property the table does
   not know is not scored (harness). Unmatched truth elements score 0 and still weigh.
4. Page score (:func:`aes`): each state (the loaded page, then after every scripted
   interaction) adds its elements' scores and weights; a state after an interaction counts only
   the truth elements the interaction changed (an element whose HTML is as before is left out,
   harness); a failed interaction scores 0 for its state and keeps the weight; the result is
   the score sum over the weight sum. A page that does not parse or render scores 0 before any
   of this (:mod:`playbench.games.webui.env`).

Two readings (``mode``): ``playbench`` - the rules above, our stricter reading of the paper -
and ``magebench`` - what MageBench's published harness computes, the default for tasks read
from MageBench's own files (the ``aes`` rule option, ``games/webui/kind.py``). In
``magebench``: a truth element whose ``data-filter-by`` names a property the harness has no
filter for (``background``, ``box-shadow``, anything outside the table) is dropped, not kept
at zero; each ``data-evalby`` entry scores the mean of its parts at the mean of their weights
(``border-radius`` weighs 100, not 4 x 100); a part the harness cannot compare (``auto``
against a length, a colour that is not ``rgb``) is skipped; ``has_text`` always passes;
``placeholder`` and ``value`` compare the element's text, ``src`` and ``type`` are read as the
(empty) CSS properties of those names, so they always agree; every matched element adds its box
score at weight 46; and the matching and its weights are the harness's
(:mod:`playbench.games.webui.aes_harness`). Both readings score shadows, ``background-size``
and gradient backgrounds, and split ``background`` into the gradient's colours, the
background colour and its repeat when the truth draws a gradient (else it scores nothing), as
the harness does; ``class`` is a filter only. docs/fidelity.md lists what still differs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

from playbench.games.webui.aes_harness import BOX_WEIGHT, box_score, harness_match
from playbench.games.webui.aes_values import (
    CHOICE,
    FILTER_ONLY,
    LAYOUT,
    MAGEBENCH,
    MODES,
    PLAYBENCH,
    PROPERTIES,
    READ_AS,
    SHORTHANDS,
    TEXT,
    TEXT_WORDS,
    colour_similarity,
    filter_evaluable,
    harness_similarity,
    length_similarity,
    similarity,
    text_similarity,
)
from playbench.games.webui.aes_values import passes as _passes

AREA_POWER = 0.8987
"""The exponent on a truth element's area in its weight (paper; the harness's 0.8987018...)."""
CHILD_PENALTY = 1e-3
"""Epsilon on the difference in descendant counts in the matching score (paper, issue 16)."""
@dataclass(frozen=True)
class Element:
    """One element of a rendered page state.

    ``box`` is (left, top, right, bottom) in page pixels; ``descendants`` counts the elements
    inside it; ``values`` maps a property name (CSS computed value, or ``text``, ``src``,
    ``type``, ``placeholder``, ``value``) to its value as the page reported it. Truth elements
    also carry ``filter_by`` and ``eval_by``, and ``html`` (their outer HTML) for telling which
    ones an interaction changed."""

    box: tuple[float, float, float, float]
    descendants: int = 0
    values: Mapping[str, str] = field(default_factory=dict)
    filter_by: str = ""
    eval_by: tuple[str, ...] = ()
    html: str = ""

    @property
    def area(self) -> float:
        left, top, right, bottom = self.box
        return max(0.0, right - left) * max(0.0, bottom - top)


GRADIENT_PARTS = ("background-linear-gradient", "background-color", "background-repeat")


def eval_groups(eval_by: Iterable[str], background: str | None = None) -> list[list[str]]:
    """The longhands each ``data-evalby`` entry scores, one group per entry: shorthands split,
    layout properties, filter-only ones and properties AES has no comparison for left out.
    ``background`` is the truth's computed ``background``: the entry ``background`` scores the
    gradient's parts only when it draws a gradient (harness)."""
    groups: list[list[str]] = []
    for name in eval_by:
        name = name.strip().lower()
        if not name or name in LAYOUT:
            continue
        if name == "background":
            parts: tuple[str, ...] = (GRADIENT_PARTS if "linear-gradient" in (background or "")
                                      else ())
        else:
            parts = SHORTHANDS.get(name, (name,))
        group = [p for p in parts if p in PROPERTIES and p not in FILTER_ONLY]
        if group:
            groups.append(group)
    return groups


def scored_properties(eval_by: Iterable[str], background: str | None = None) -> list[str]:
    """The longhand properties a ``data-evalby`` list scores (:func:`eval_groups` flattened,
    each once, order kept)."""
    out: list[str] = []
    for group in eval_groups(eval_by, background):
        out += [p for p in group if p not in out]
    return out


def needed_properties(truth: Iterable[Element]) -> list[str]:
    """Every property to read from a generated page to compare it with ``truth``."""
    names: list[str] = []
    for e in truth:
        for name in [e.filter_by, *scored_properties(e.eval_by, e.values.get("background"))]:
            for part in SHORTHANDS.get(name, (name,)):
                part = READ_AS.get(part, part)
                if part and part not in names:
                    names.append(part)
    if any(n in names for n in ("placeholder", "value")) and "text" not in names:
        names.append("text")  # the harness compares them by the element's text
    return names


def value_of(element: Element, name: str, mode: str = PLAYBENCH) -> str | None:
    """The value ``name`` is compared by (``mode`` as in :func:`similarity`)."""
    if mode == MAGEBENCH and name in ("placeholder", "value"):
        name = "text"
    return element.values.get(READ_AS.get(name, name))


def filter_passes(truth: Element, generated: Element) -> bool:
    """Whether the truth element's ``data-filter-by`` property agrees enough to allow a match
    (no filter: always)."""
    name = truth.filter_by
    if not name:
        return True
    for part in SHORTHANDS.get(name, (name,)):
        how = PROPERTIES.get(part, (CHOICE, 0.0))[0]
        if not _passes(how, similarity(part, truth.values.get(part),
                                       generated.values.get(part))):
            return False
    return True


def filter_matrix(truth: Sequence[Element], generated: Sequence[Element],
                  mode: str = PLAYBENCH) -> np.ndarray:
    """Which (generated, truth) pairs pass the truth element's filter (:func:`filter_passes`
    for every pair, computed once per distinct generated value so that a 200-element page
    takes milliseconds). In ``magebench`` a comparison the harness cannot make passes (its
    filter then costs 0.01, which we round to passing)."""
    allowed = np.ones((len(generated), len(truth)), dtype=bool)
    columns: dict[str, list[str | None]] = {}
    words: dict[str, list[tuple[str, ...]]] = {}
    for j, t in enumerate(truth):
        if not t.filter_by:
            continue
        for part in SHORTHANDS.get(t.filter_by, (t.filter_by,)):
            how = PROPERTIES.get(part, (CHOICE, 0.0))[0]
            values = columns.setdefault(f"{mode}:{part}",
                                        [value_of(g, part, mode) for g in generated])
            want = value_of(t, part, mode)
            if mode == MAGEBENCH and how not in (TEXT,):
                cache: dict[str | None, bool] = {}
                for v in values:
                    if v not in cache:
                        h = harness_similarity(part, want, v)
                        cache[v] = True if h is None else _passes(how, h)
                ok = np.array([cache[v] for v in values], dtype=bool)
            elif how == TEXT and want is not None and len(want.split()) < TEXT_WORDS:
                split = words.setdefault(part, [tuple((v or "").lower().split())
                                                for v in values])
                target = tuple(want.lower().split())
                ok = np.array([w == target and v is not None
                               for w, v in zip(split, values, strict=True)], dtype=bool)
            else:
                seen: dict[str | None, bool] = {}
                for v in values:
                    if v not in seen:
                        seen[v] = _passes(how, similarity(part, want, v))
                ok = np.array([seen[v] for v in values], dtype=bool)
            allowed[:, j] &= ok
    return allowed


def giou_matrix(gen: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """Generalised IoU of every generated box (rows) with every truth box (columns); boxes as
    (left, top, right, bottom). Two empty boxes at the same place have GIoU 1."""
    g = gen[:, None, :]
    t = truth[None, :, :]
    iw = np.clip(np.minimum(g[..., 2], t[..., 2]) - np.maximum(g[..., 0], t[..., 0]), 0, None)
    ih = np.clip(np.minimum(g[..., 3], t[..., 3]) - np.maximum(g[..., 1], t[..., 1]), 0, None)
    inter = iw * ih
    area_g = (g[..., 2] - g[..., 0]) * (g[..., 3] - g[..., 1])
    area_t = (t[..., 2] - t[..., 0]) * (t[..., 3] - t[..., 1])
    union = area_g + area_t - inter
    hull = ((np.maximum(g[..., 2], t[..., 2]) - np.minimum(g[..., 0], t[..., 0]))
            * (np.maximum(g[..., 3], t[..., 3]) - np.minimum(g[..., 1], t[..., 1])))
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 1.0)
        out = iou - np.where(hull > 0, (hull - union) / hull, 0.0)
    result: np.ndarray = out
    return result


def match(truth: Sequence[Element], generated: Sequence[Element]) -> list[tuple[int, int]]:
    """(truth index, generated index) pairs of the Hungarian matching (module docstring, 1)."""
    if not truth or not generated:
        return []
    boxes_g = np.array([e.box for e in generated], dtype=float)
    boxes_t = np.array([e.box for e in truth], dtype=float)
    score = giou_matrix(boxes_g, boxes_t)
    kids = np.abs(np.array([e.descendants for e in generated], dtype=float)[:, None]
                  - np.array([e.descendants for e in truth], dtype=float)[None, :])
    score = score - CHILD_PENALTY * kids
    allowed = filter_matrix(truth, generated)
    # A filtered pair is not a candidate: give it a value no allowed matching would pick.
    forbidden = -10.0 - CHILD_PENALTY * (kids.max() if kids.size else 0.0)
    weights = np.where(allowed, score, forbidden)
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return [(int(j), int(i)) for i, j in zip(rows, cols, strict=True) if allowed[i, j]]


def element_score(truth: Element, generated: Element, mode: str = PLAYBENCH) -> float:
    """The weighted mean similarity of the truth element's scored properties (1.0 when it
    lists none the table knows: the match itself is all there is to check). ``magebench``:
    each ``data-evalby`` entry the mean of its parts at the mean of their weights, plus the
    box score at weight 46 (module docstring)."""
    background = truth.values.get("background")
    if mode == MAGEBENCH:
        total = BOX_WEIGHT * box_score(truth.box, generated.box)
        weight = BOX_WEIGHT
        for group in eval_groups(truth.eval_by, background):
            done = [(PROPERTIES[p][1], harness_similarity(p, value_of(truth, p, mode),
                                                          value_of(generated, p, mode)))
                    for p in group]
            scored = [(w, s) for w, s in done if s is not None]
            if scored:
                total += sum(w * s for w, s in scored) / len(scored)
                weight += sum(w for w, _ in scored) / len(scored)
        return total / weight
    total = weight = 0.0
    for name in scored_properties(truth.eval_by, background):
        w = PROPERTIES[name][1]
        total += w * similarity(name, value_of(truth, name), value_of(generated, name))
        weight += w
    return total / weight if weight else 1.0


def element_weight(truth: Element) -> float:
    return float(truth.area ** AREA_POWER) if truth.area > 0 else 0.0


@dataclass(frozen=True)
class StateScore:
    """One page state's part of the score: the sum of weighted element scores, the sum of
    weights, and how many truth elements were scored and matched."""

    score: float
    weight: float
    counted: int
    matched: int

    @property
    def ratio(self) -> float:
        return self.score / self.weight if self.weight > 0 else 0.0


def state_score(truth: Sequence[Element], generated: Sequence[Element] | None,
                mode: str = PLAYBENCH) -> StateScore:
    """Score one state; ``generated`` None means the interaction that should have led to it
    failed (score 0, full weight). ``magebench``: elements the harness cannot filter are
    dropped first, and its matching decides the weights (module docstring)."""
    if mode == MAGEBENCH:
        truth = [t for t in truth if filter_evaluable(t.filter_by)]
    weight = sum(element_weight(t) for t in truth)
    if generated is None:
        return StateScore(0.0, weight, len(truth), 0)
    if mode != MAGEBENCH:
        pairs = match(truth, generated)
        score = sum(element_score(truth[j], generated[i]) * element_weight(truth[j])
                    for j, i in pairs)
        return StateScore(score, weight, len(truth), len(pairs))
    if not truth or not generated:
        return StateScore(0.0, weight, len(truth), 0)
    kids = np.array([g.descendants for g in generated], dtype=float)
    pairs, left_out = harness_match(np.array([t.box for t in truth], dtype=float),
                                    np.array([g.box for g in generated], dtype=float), kids,
                                    filter_matrix(truth, generated, mode))
    weight -= sum(element_weight(truth[j]) for j in left_out)
    score = sum(element_score(truth[j], generated[i], mode) * element_weight(truth[j])
                for j, i in pairs)
    return StateScore(score, weight, len(truth) - len(left_out), len(pairs))


def changed(before: Sequence[Element], after: Sequence[Element]) -> list[Element]:
    """The truth elements of ``after`` whose HTML is not among the elements of ``before``
    (what an interaction changed; the rest was already scored)."""
    seen: dict[str, int] = {}
    for e in before:
        seen[e.html] = seen.get(e.html, 0) + 1
    out = []
    for e in after:
        if seen.get(e.html, 0) > 0:
            seen[e.html] -= 1
        else:
            out.append(e)
    return out


def aes(truth_states: Sequence[Sequence[Element]],
        generated_states: Sequence[Sequence[Element] | None],
        mode: str = PLAYBENCH) -> tuple[float, list[StateScore]]:
    """AES over a page's states (the loaded page, then one per interaction): the score sum over
    the weight sum, and each state's part. ``generated_states[k]`` is None where interaction
    ``k`` failed on the generated page; a missing trailing state counts as failed. ``mode``:
    :data:`PLAYBENCH` or :data:`MAGEBENCH` (module docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown AES mode {mode!r} (valid: {', '.join(MODES)})")
    parts: list[StateScore] = []
    for k, truth in enumerate(truth_states):
        counted = list(truth) if k == 0 else changed(truth_states[k - 1], truth)
        gen = generated_states[k] if k < len(generated_states) else None
        parts.append(state_score(counted, gen, mode))
    weight = sum(p.weight for p in parts)
    total = sum(p.score for p in parts) / weight if weight > 0 else 0.0
    return (0.0 if math.isnan(total) else min(1.0, total)), parts


__all__ = ["AREA_POWER", "CHILD_PENALTY", "MAGEBENCH", "MODES", "PLAYBENCH", "Element",
           "LAYOUT", "PROPERTIES", "SHORTHANDS", "eval_groups", "filter_evaluable",
           "harness_similarity", "value_of",
           "StateScore", "aes", "changed", "colour_similarity", "element_score",
           "element_weight", "filter_matrix", "filter_passes", "giou_matrix",
           "length_similarity", "match",
           "needed_properties", "scored_properties", "similarity", "state_score",
           "text_similarity"]
