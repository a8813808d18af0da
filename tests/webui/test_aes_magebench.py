"""AES as MageBench's published harness computes it (``mode="magebench"``), beside PlayBench's
stricter reading, on hand-built element lists: each test changes one thing and checks the score
moves as the harness's rule says (expected values computed from the rule, not from our code)."""

from __future__ import annotations

import pytest

from playbench.games.webui.aes import AREA_POWER, Element, aes, element_score, state_score
from playbench.games.webui.aes_values import harness_similarity, similarity

BOX = (0.0, 0.0, 100.0, 20.0)
OTHER = (0.0, 100.0, 200.0, 140.0)


def el(box=BOX, *, filter_by="text", evalby=("text",), html="", **values) -> Element:
    vals = {"text": "Hello", **{k.replace("_", "-"): v for k, v in values.items()}}
    return Element(box, 0, vals, filter_by, tuple(evalby), html or f"<p>{box}</p>")


def w(box) -> float:
    return ((box[2] - box[0]) * (box[3] - box[1])) ** AREA_POWER


def test_an_element_whose_filter_cannot_be_evaluated_is_dropped_not_kept_at_zero() -> None:
    plain = el(BOX)
    odd = el(OTHER, filter_by="background", evalby=("text",))  # no such filter in the harness
    page = [plain, odd]
    assert aes([page], [page], "magebench")[0] == pytest.approx(1.0)
    # Ours keeps it: the filter reads a value the truth does not have, so it never matches.
    strict = aes([page], [page], "playbench")[0]
    assert strict == pytest.approx(w(BOX) / (w(BOX) + w(OTHER)))
    # Filters the harness has no filter function for are dropped too.
    shadowed = el(OTHER, filter_by="box-shadow", box_shadow="rgb(0, 0, 0) 1px 1px 1px 0px")
    assert aes([[plain, shadowed]], [[plain, shadowed]], "magebench")[0] == pytest.approx(1.0)


def test_a_shorthand_weighs_as_the_mean_of_its_parts() -> None:
    radii = {f"border_{c}_radius": "10px" for c in ("top_left", "top_right", "bottom_left",
                                                    "bottom_right")}
    truth = el(evalby=("border-radius", "color"), color="rgb(0, 0, 0)", **radii)
    changed = dict(radii, border_top_left_radius="5px")
    gen = el(color="rgb(0, 0, 0)", **changed)
    corners = [0.5, 1.0, 1.0, 1.0]
    harness = (100 * sum(corners) / 4 + 30 * 1.0 + 46 * 1.0) / (100 + 30 + 46)
    assert element_score(truth, gen, "magebench") == pytest.approx(harness)
    ours = (100 * sum(corners) + 30 * 1.0) / (4 * 100 + 30)
    assert element_score(truth, gen, "playbench") == pytest.approx(ours)


def test_shadows_background_size_and_gradients_are_scored() -> None:
    box = similarity("box-shadow", "rgb(40, 50, 80) 0px 6px 18px 2px",
                     "rgb(40, 50, 80) 0px 6px 9px 2px")
    assert box == pytest.approx((2 * 1 + 1 + 1 + 0.5 + 1) / 6)
    text = similarity("text-shadow", "rgb(120, 130, 160) 1px 2px 4px",
                      "rgb(120, 130, 160) 1px 2px 6px")
    assert text == pytest.approx((2 * 1 + 1 + 1 + 0.5) / 5)
    size = similarity("background-size", "100px 50px", "50px 50px")
    assert size == pytest.approx((0.5 + 1) / 2)
    grad = similarity("background-linear-gradient",
                      "rgba(0, 0, 0, 0) linear-gradient(90deg, rgb(250, 200, 90), "
                      "rgb(240, 120, 60)) repeat scroll 0% 0%",
                      "rgba(0, 0, 0, 0) linear-gradient(90deg, rgb(250, 200, 90), "
                      "rgb(240, 120, 124)) repeat scroll 0% 0%")
    # The transparent rgba() background colour is not one of the gradient's colours.
    assert grad == pytest.approx((1.0 + (1 + 1 + (1 - 64 / 256)) / 3) / 2)
    # `background` in data-evalby scores the gradient's parts when the truth draws one.
    bg = ("rgba(0, 0, 0, 0) linear-gradient(90deg, rgb(250, 200, 90), rgb(240, 120, 60)) "
          "repeat scroll 0% 0%")
    truth = el(evalby=("background",), background=bg, background_color="rgba(0, 0, 0, 0)",
               background_repeat="repeat")
    flat = el(background="rgb(9, 9, 9) none repeat scroll 0% 0%",
              background_color="rgb(9, 9, 9)", background_repeat="repeat")
    assert element_score(truth, truth, "playbench") == pytest.approx(1.0)
    assert element_score(truth, flat, "playbench") < 1.0


def test_what_the_harness_cannot_compare_is_skipped() -> None:
    assert harness_similarity("width", "100px", "auto") is None
    assert harness_similarity("letter-spacing", "normal", "normal") is None
    assert harness_similarity("color", "rgb(1, 2, 3)", "transparent") is None
    assert harness_similarity("box-shadow", "none", "rgb(0, 0, 0) 1px 1px 1px 0px") is None
    # ... so an element whose only scored part is skipped scores by its box alone.
    truth = el(evalby=("width",), width="100px")
    gen = el(width="auto")
    assert element_score(truth, gen, "magebench") == pytest.approx(1.0)
    assert element_score(truth, gen, "playbench") == pytest.approx(0.0)
    # has_text always passes, src and type are read as (empty) CSS properties: always equal.
    assert harness_similarity("has_text", "x", "") == 1.0
    assert harness_similarity("src", "a.png", "b.png") == 1.0


def test_the_harness_matches_overlapping_pairs_whose_filter_fails() -> None:
    truth = [el(BOX, text="Hello")]
    gen = [el(BOX, text="Goodbye")]
    # GIoU 1 + filter -1 = 0 >= -1: matched; the text scores 0 and the box 1.
    expected = (6.8 * 0 + 46 * 1) / (6.8 + 46)
    assert aes([truth], [gen], "magebench")[0] == pytest.approx(expected)
    assert aes([truth], [gen], "playbench")[0] == 0.0


def test_a_truth_element_assigned_to_a_non_candidate_is_left_out_of_the_weight() -> None:
    far = (1500.0, 900.0, 1600.0, 920.0)
    truth = [el(BOX, text="Hello"), el(OTHER, text="World")]
    gen = [el(BOX, text="Hello"), el(far, text="Nothing alike")]
    part = state_score(truth, gen, "magebench")
    assert part.weight == pytest.approx(w(BOX))  # "World" weighs nothing
    assert part.ratio == pytest.approx(1.0)
    strict = state_score(truth, gen, "playbench")
    assert strict.weight == pytest.approx(w(BOX) + w(OTHER))
    # More truth elements than generated ones: the unassigned one weighs and scores 0.
    short = state_score(truth, gen[:1], "magebench")
    assert short.weight == pytest.approx(w(BOX) + w(OTHER))
    assert short.ratio == pytest.approx(w(BOX) / (w(BOX) + w(OTHER)))


def test_reference_scores_one_and_blank_zero_in_both_readings() -> None:
    radii = {f"border_{c}_radius": "4px" for c in ("top_left", "top_right", "bottom_left",
                                                   "bottom_right")}
    page = [el(BOX), el(OTHER, filter_by="color", evalby=("color", "border-radius"),
                        color="rgb(1, 2, 3)", **radii)]
    for mode in ("magebench", "playbench"):
        assert aes([page], [page], mode)[0] == pytest.approx(1.0)
        assert aes([page], [[]], mode)[0] == 0.0
    with pytest.raises(ValueError, match="unknown AES mode"):
        aes([page], [page], "other")
