"""The web action grammar: VWA's twelve actions, canonical text, and the reply rule."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.games.base import MoveError
from playbench.games.browser.actions import (
    SUMMARY_PHRASE,
    VWA_ACTIONS,
    WebAction,
    extract_action,
    format_action,
    parse_action,
    read_action,
)
from playbench.games.types import Invalid

CASES = [
    ("click [12]", WebAction("click", element=12)),
    ("hover [3]", WebAction("hover", element=3)),
    ("type [5] [red bike]", WebAction("type", element=5, text="red bike")),
    ("type [5] [red bike] [0]", WebAction("type", element=5, text="red bike", enter=False)),
    ("press [Control+a]", WebAction("press", text="Control+a")),
    ("scroll [down]", WebAction("scroll", direction="down")),
    ("new_tab", WebAction("new_tab")),
    ("tab_focus [1]", WebAction("tab_focus", index=1)),
    ("close_tab", WebAction("close_tab")),
    ("goto [http://127.0.0.1:9/index.php?page=item&id=4]",
     WebAction("goto", text="http://127.0.0.1:9/index.php?page=item&id=4")),
    ("go_back", WebAction("go_back")),
    ("go_forward", WebAction("go_forward")),
    ("stop [$1,250]", WebAction("stop", text="$1,250")),
]


def test_every_vwa_action_has_a_case():
    assert {a.name for _, a in CASES} == set(VWA_ACTIONS)


@pytest.mark.parametrize("text,action", CASES)
def test_parse_and_format_are_inverse_on_canonical_texts(text, action):
    assert parse_action(text) == action
    assert format_action(action) == text


@pytest.mark.parametrize("text,canonical", [
    # VWA's reader (browser_env/actions.py, create_id_based_action) accepts each of these.
    ("click[7]", "click [7]"), ("type [5] [bike] [1]", "type [5] [bike]"),
    ("scroll down", "scroll [down]"), ("stop", "stop []"), ("stop []", "stop []"),
    ("type [3] [a] [b] [0]", "type [3] [a] [b] [0]"),
    ("click [12] on the button", "click [12]"), ("hover [4] (the menu)", "hover [4]"),
    ("go_back [1]", "go_back"), ("new_tab [1]", "new_tab"), ("close_tab now", "close_tab"),
    ("stop 42", "stop []"), ("scroll [downwards]", "scroll [down]"),
])
def test_other_spellings_read_as_vwa_reads_them(text, canonical):
    assert format_action(parse_action(text)) == canonical


def test_bracket_contents_keep_their_spaces_as_in_vwa():
    assert parse_action("stop [ Yes ]").text == " Yes "
    assert parse_action("type [5] [ red bike ] [0]") == WebAction("type", element=5,
                                                                  text=" red bike ", enter=False)
    assert parse_action("press [ Enter ]").text == " Enter "
    assert format_action(parse_action("stop [ Yes ]")) == "stop [ Yes ]"


@pytest.mark.parametrize("text,kind", [
    ("", "malformed"), ("click", "malformed"), ("click [x]", "malformed"),
    ("type [4]", "malformed"), ("scroll [left]", "malformed"), ("tab_focus []", "malformed"),
    ("goto []", "malformed"), ("type [4] []", "malformed"),
    # VWA matches the name exactly: no upper case, no spaces inside brackets of ids, no
    # second space before a bracket.
    ("CLICK [7]", "not_in_vocabulary"), ("Stop [x]", "not_in_vocabulary"),
    ("hover [ 2 ]", "malformed"), ("click  [7]", "malformed"), ("scroll [UP]", "malformed"),
    # clear and upload are read as VWA's reader reads them; their arguments are required.
    ("clear [x]", "malformed"), ("upload [4]", "malformed"), ("Clear [4]", "not_in_vocabulary"),
    ("jump [3]", "not_in_vocabulary"), ("double_click [3]", "not_in_vocabulary"),
    ("please click [3]", "not_in_vocabulary"),
])
def test_unreadable_actions_raise_with_a_kind(text, kind):
    with pytest.raises(MoveError) as info:
        parse_action(text)
    assert info.value.kind == kind


def test_clear_and_upload_are_read_as_vwas_reader_reads_them():
    assert parse_action("clear [4]") == WebAction("clear", element=4)
    assert parse_action("clear [4] the search box") == WebAction("clear", element=4)
    assert parse_action("upload [7] [images/kite.png]") == WebAction(
        "upload", element=7, text="images/kite.png")
    # VWA appends the type-like [1] flag when none is given; a given flag is dropped.
    assert parse_action("upload [7] [kite.png] [0]") == WebAction("upload", element=7,
                                                                  text="kite.png")
    assert format_action(parse_action("clear [4]")) == "clear [4]"


def test_read_action_gives_an_invalid_with_a_reason_instead_of_raising():
    got = read_action("erase [4]")
    assert isinstance(got, Invalid) and got.kind == "not_in_vocabulary" and "erase" in got.reason
    blank = read_action("   ")
    assert isinstance(blank, Invalid) and blank.kind == "no_action" and blank.reason
    assert read_action("click [4]") == WebAction("click", element=4)


def test_coordinate_click_is_its_own_marked_action():
    action = parse_action("click_at [640] [360]")
    assert action.is_coordinate and (action.x, action.y) == (640, 360)
    assert not parse_action("click [4]").is_coordinate
    assert "click_at" not in VWA_ACTIONS


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=40)
_some = _text.filter(bool)
_actions = st.one_of(
    st.builds(lambda n, i: WebAction(n, element=i), st.sampled_from(["click", "hover"]),
              st.integers(0, 10_000)),
    st.builds(lambda i, t, e: WebAction("type", element=i, text=t, enter=e),
              st.integers(0, 500), _some, st.booleans()),
    st.builds(lambda t: WebAction("press", text=t), _some),
    st.builds(lambda d: WebAction("scroll", direction=d), st.sampled_from(["up", "down"])),
    st.builds(lambda i: WebAction("tab_focus", index=i), st.integers(0, 50)),
    st.builds(lambda t: WebAction("goto", text=t), _some),
    st.builds(lambda t: WebAction("stop", text=t), _text),
    st.builds(lambda x, y: WebAction("click_at", x=x, y=y), st.integers(0, 4000),
              st.integers(0, 4000)),
    st.builds(lambda i: WebAction("clear", element=i), st.integers(0, 999)),
    st.builds(lambda i, t: WebAction("upload", element=i, text=t), st.integers(0, 999), _some),
    st.sampled_from([WebAction(n) for n in ("new_tab", "close_tab", "go_back", "go_forward")]),
)


@given(_actions)
def test_parse_of_format_gives_the_action_back(action):
    assert parse_action(format_action(action)) == action


@given(st.one_of(_text, st.builds(lambda n, t: n + t, st.sampled_from(
    [*VWA_ACTIONS, "click_at", "clear", "upload", "Click"]), _text)))
def test_any_text_reads_to_an_action_or_an_invalid_with_a_reason(text):
    got = read_action(text)
    if isinstance(got, Invalid):
        assert got.reason and got.kind in ("no_action", "malformed", "not_in_vocabulary")
    else:
        assert isinstance(got, WebAction)
        assert parse_action(format_action(got)) == got


def test_reply_rule_takes_the_first_fence_anywhere_as_vwa_does():
    # VWA's CoT reader searches the whole reply for the first fenced span; the summary
    # phrase is asked for by the prompt but not looked for.
    reply = ("The search box is [5]. Earlier I tried ```click [2]```.\n"
             f"{SUMMARY_PHRASE} ```type [5] [red lamp]``` and then ```click [9]```")
    assert extract_action(reply) == "click [2]"
    assert extract_action("I will go back.\n```\ngo_back\n```\n```stop [x]```") == "go_back"


def test_a_language_tag_stays_part_of_the_action_as_in_vwa():
    found = extract_action(f"{SUMMARY_PHRASE}:\n```text\nscroll [down]\n```")
    assert found == "text\nscroll [down]"
    assert isinstance(read_action(found), Invalid)


def test_reply_without_a_fence_is_no_action():
    with pytest.raises(MoveError) as info:
        extract_action(f"{SUMMARY_PHRASE} click [3]")
    assert info.value.kind == "no_action"
