"""A person's clicks and keys become the canonical actions a model would send.

The browser tests find elements with Playwright's own layout boxes (not the Set-of-Marks list),
forward clicks and keys at those points, and check both the recorded action and what it does
when stepped."""

from __future__ import annotations

import pytest

from playbench.app.ui.models.web_input import BrowserInput
from playbench.games.browser.som import SomItem
from tests.web.conftest import web_task

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def _centre(env, selector: str) -> tuple[float, float]:
    box = await env.session.page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _id_of(obs, tag: str, text: str) -> int:
    return next(e["id"] for e in obs.info["som"] if e["tag"] == tag and e["text"] == text)


def _keys(hi: BrowserInput, text: str):
    out = []
    for ch in text:
        out += hi.key(ch, ch)
    return out


async def test_a_click_on_a_link_is_click_of_its_id(make_env):
    env = make_env()
    try:
        obs = await env.reset(web_task(), 0)
        hi = BrowserInput(obs.info["som"])
        [got] = hi.click(*await _centre(env, ".cats a:has-text('Cars')"))
        assert got.text == f"click [{_id_of(obs, 'A', 'Cars')}]" and not got.coordinate
        tr = await env.step(env.parse_action(got.text))
        assert tr.valid and tr.observation.info["url"].endswith("category=cars")
    finally:
        await env.close()


async def test_typing_then_enter_is_one_type_action(make_env):
    env = make_env()
    try:
        obs = await env.reset(web_task(), 0)
        hi = BrowserInput(obs.info["som"])
        assert hi.click(*await _centre(env, "input[type=search]")) == []
        assert _keys(hi, "red lamx") == []
        assert hi.key("Backspace") == [] and hi.key("p", "p") == []
        assert hi.key("Shift", modifiers=["Shift"]) == []
        [got] = hi.key("Enter")
        assert got.text == f"type [{_id_of(obs, 'INPUT', 'Search listings')}] [red lamp]"
        decision = got.decision(env.parse_action)
        assert decision.raw == "typed 'red lamp', then Enter" and decision.info["input"] == "human"
        tr = await env.step(decision.entries[0])
        assert tr.valid and "q=red+lamp" in tr.observation.info["url"]
    finally:
        await env.close()


async def test_leaving_a_field_commits_without_enter_then_replays_the_click(make_env):
    env = make_env()
    try:
        obs = await env.reset(web_task(), 0)
        hi = BrowserInput(obs.info["som"])
        hi.click(*await _centre(env, "input[type=search]"))
        _keys(hi, "kite")
        cars = await _centre(env, ".cats a:has-text('Cars')")
        [commit] = hi.click(*cars)
        search_id = _id_of(obs, "INPUT", "Search listings")
        assert commit.text == f"type [{search_id}] [kite] [0]"
        tr = await env.step(env.parse_action(commit.text))
        assert tr.valid and not tr.observation.info["url"].endswith("cars")
        searched = next(e for e in tr.observation.info["som"] if e["id"] == search_id)
        assert searched["value"] == "kite"
        [click] = hi.update(tr.observation.info["som"])
        assert click.text == f"click [{_id_of(tr.observation, 'A', 'Cars')}]"
        tr = await env.step(env.parse_action(click.text))
        assert tr.observation.info["url"].endswith("category=cars")
    finally:
        await env.close()


async def test_a_click_on_no_element_is_a_marked_coordinate_click(make_env):
    env = make_env()
    try:
        obs = await env.reset(web_task(), 0)
        hi = BrowserInput(obs.info["som"])
        x, y = 20, 300  # the page margin beside the hero banner
        assert hi.element_at(x, y) is None
        [got] = hi.click(x, y)
        assert got.text == "click_at [20] [300]" and got.coordinate
        assert got.decision(env.parse_action).info["coordinate_click"] is True
        tr = await env.step(env.parse_action(got.text))
        assert tr.valid and not tr.changed
    finally:
        await env.close()


async def test_a_list_choice_and_the_browser_controls(make_env):
    env = make_env()
    try:
        obs = await env.reset(web_task(), 0)
        hi = BrowserInput(obs.info["som"])
        assert hi.click(*await _centre(env, "select[name=category]")) == []
        select = _id_of(obs, "SELECT", "All categories")
        assert hi.choosing is not None and "Cars" in hi.choosing.options
        [got] = hi.choose("Cars")
        assert got.text == f"type [{select}] [Cars] [0]"
        tr = await env.step(env.parse_action(got.text))
        assert tr.valid
        assert [c.text for c in hi.wheel(1)] == ["scroll [down]"]
        assert hi.wheel(-0.5) == [] and [c.text for c in hi.wheel(-0.5)] == ["scroll [up]"]
        assert [c.text for c in hi.key("a", "a", ["Control"])] == ["press [Control+a]"]
        assert [c.text for c in hi.back() + hi.forward() + hi.new_tab() + hi.tab(0)
                + hi.close_tab()] == ["go_back", "go_forward", "new_tab", "tab_focus [0]",
                                      "close_tab"]
        assert [c.text for c in hi.goto(" http://127.0.0.1:9/x ")] == ["goto [http://127.0.0.1:9/x]"]
        assert [c.text for c in hi.stop(" $115 ")] == ["stop [$115]"]
    finally:
        await env.close()


def _item(i, tag, box, **kw):
    return SomItem(i, tag, kw.pop("text", ""), box, **kw)


async def test_emptying_a_field_that_held_text_sends_only_the_clearing():
    field = _item(3, "INPUT", (0, 300, 200, 30), editable=True, value="abc")
    hi = BrowserInput([field])
    hi.click(10, 310)
    for _ in range(3):
        hi.key("Backspace")
    assert [c.text for c in hi.key("Enter")] == ["click [3]", "press [Control+a]",
                                                 "press [Backspace]", "press [Enter]"]


async def test_innermost_element_wins_and_untouched_fields_are_clicks():
    card = _item(1, "A", (0, 0, 200, 200))
    button = _item(2, "BUTTON", (10, 10, 50, 20))
    field = _item(3, "INPUT", (0, 300, 200, 30), editable=True, value="old")
    area = _item(4, "TEXTAREA", (0, 400, 200, 80), editable=True)
    hi = BrowserInput([card, button, field, area])
    assert [c.text for c in hi.click(20, 15)] == ["click [2]"]
    assert [c.text for c in hi.click(150, 150)] == ["click [1]"]
    assert hi.click(10, 310) == []
    assert [c.text for c in hi.back()] == ["click [3]"]          # typed nothing
    assert [c.text for c in hi.update([card, button, field, area])] == ["go_back"]
    hi.click(10, 310)
    for _ in range(3):
        hi.key("Backspace")
    _keys(hi, "new")
    # the field held "old": it is emptied the way a model would empty it, then typed into
    assert [c.text for c in hi.key("Tab")] == ["click [3]", "press [Control+a]",
                                               "press [Backspace]", "type [3] [new] [0]"]
    assert [c.text for c in hi.update([card, button, field, area])] == ["press [Tab]"]
    hi.click(10, 410)
    _keys(hi, "a")
    assert hi.key("Enter") == []                                  # a new line in a text area
    _keys(hi, "b")
    assert hi.key("Escape") == [] and hi.typing is None           # Escape drops the typing
    hi.click(10, 410)
    _keys(hi, "a")
    hi.key("Enter")
    hi.paste("pasted")
    assert [c.text for c in hi.stop("x")] == ["type [4] [a\npasted] [0]"]
