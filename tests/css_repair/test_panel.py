"""The CSS repair tool panel (Qt-free, games/css_repair/panel.py): each control a person uses
becomes the canonical text of the tool call a model would write, which the kind's own parser
reads back to the same call; the app reaches the panel through the kind only."""

from __future__ import annotations

from types import SimpleNamespace as NS

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.players.human import HumanInput
from playbench.app.ui.models.tool_panel import NoToolPanel, ToolPanels, panel_for
from playbench.games.css_repair.kind import KIND
from playbench.games.css_repair.tools import Call, parse_call
from playbench.games.kind import default_registry

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(
    str.strip)
PROPERTY = st.from_regex(r"[a-z]{1,8}(-[a-z]{1,8}){0,2}", fullmatch=True)
VALUE = st.from_regex(r"[a-z0-9#.%]{1,8}( [a-z0-9#.%]{1,8}){0,3}", fullmatch=True)


def make() -> tuple[list[HumanInput], object]:
    sent: list[HumanInput] = []
    return sent, panel_for(KIND, sent.append)


@given(TEXT, PROPERTY, VALUE)
def test_every_control_sends_a_call_the_kind_reads_back(selector, prop, value):
    sent, panel = make()
    panel.pick(selector)
    panel.show_rule(selector)
    panel.edit(selector, prop, value)
    panel.revert()
    panel.fixed()
    calls = [parse_call(s.text) for s in sent]
    assert [c.name for c in calls] == ["get_selectors_by_html_elements", "select_rule",
                                       "edit_rule", "revert_last_edit", "fixed"]
    assert calls[0].args == (selector,) and calls[1].args == (selector,)
    assert calls[2] == Call("edit_rule", (selector, prop, value))
    assert [s.raw for s in sent] == [f"pick:{selector}", f"rule:{selector}",
                                     f"edit:{selector}", "button:revert", "button:fixed"]


def test_observations_fill_the_panel():
    sent, panel = make()
    page = '<html><body><header class="top bar"><a id="home" class="x">Home</a></header>'
    panel.observe(NS(text=f"Hint: the bar\nCurrent HTML (index.html):\n{page}",
                     info={"ssim": 0.5, "start_ssim": 0.4, "result": ""}))
    assert panel.elements() == ["body", "header.top.bar", "a#home.x"]
    assert panel.hint == "the bar" and "0.500" in panel.status()
    panel.pick("header.top.bar")
    assert panel.listed_selectors()
    panel.observe(NS(text="", info={"ssim": 0.5, "result":
                                    "- <header> header.top.bar: '.top', '.bar', '.top'"}))
    assert panel.selectors == (".top", ".bar")
    panel.show_rule(".top")
    assert not panel.listed_selectors()
    panel.observe(NS(text="", info={"result": ".top {\n  display: block;\n  gap: 2px;\n}"}))
    assert panel.rule == (("display", "block"), ("gap", "2px"))


def test_only_a_kind_with_a_panel_gives_one():
    assert isinstance(KIND, ToolPanels)
    board = default_registry().get("sokoban")
    assert not isinstance(board, ToolPanels)
    with pytest.raises(NoToolPanel, match="sokoban"):
        panel_for(board, lambda _given: None)
