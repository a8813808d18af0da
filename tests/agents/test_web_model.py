"""The ``vwa`` protocol for web tasks without a browser: prompts, VWA's reply rule and how
failures are classified, 100,000 generated replies, the web settings, version-2 hints, and what
serve-model answers for a web hint."""

from __future__ import annotations

import base64
import json
import random
import string

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from playbench.app.agents.client import ModelClient
from playbench.app.agents.hints import (
    Hint,
    HintError,
    WebHint,
    decode_hint,
    encode_hint,
    hint_from_context,
)
from playbench.app.agents.images import ImageEncoder
from playbench.app.agents.profiles import ModelProfile
from playbench.app.agents.protocols import Reply, ToolCall, Turn, family_of, make_protocols
from playbench.app.agents.protocols.vwa import OBSERVATION_CHARS, cut_page
from playbench.app.agents.serve import ModelServer, ServeOptions
from playbench.app.agents.serve.noise import malformed
from playbench.app.core.player import PastStep, PlayContext
from playbench.app.core.settings import SETTINGS, UnknownSetting, get_setting
from playbench.app.core.task import Task
from playbench.app.core.types import INVALID_KINDS, Action, Invalid, Observation
from playbench.games.base import Level
from playbench.games.browser.actions import (
    SUMMARY_PHRASE,
    VWA_ACTIONS,
    WebAction,
    format_action,
    parse_action,
)
from playbench.games.web.config import WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.kind import VWA_BUDGET

VWA = make_protocols()["vwa"]
READ = WebTaskEnv(config=WebConfig()).parse_action
SOM, TEXT = SETTINGS["vwa:som"], SETTINGS["vwa:text"]
FRAME = np.full((64, 40, 3), 200, np.uint8)
PICTURE = np.zeros((8, 8, 3), np.uint8)
PAGE = "[1] [A] [Swapyard]\n[2] [INPUT] [Search listings]\n[] [StaticText] [Retro road bike]"
INFO = {"url": "http://127.0.0.1:5000/index.php?page=item&id=7", "intent": "Find the red kite.",
        "tabs": [{"index": 0, "title": "Home · Swapyard", "url": "http://x/", "active": False},
                 {"index": 1, "title": "Kites · Swapyard", "url": "http://y/", "active": True}],
        "input_images": [PICTURE]}


def turn(setting=SOM, history=(), feedback=None, text=PAGE, info=None, game="web"):
    obs = Observation(FRAME, text, (), INFO if info is None else info)
    return Turn(game, setting, {}, obs, list(history), feedback, len(history),
                len(history), False, ImageEncoder())


def parse(text, setting=SOM):
    return VWA.parse(Reply(text), "web", setting, READ)


def entries(parsed):
    return [e.text if isinstance(e, Action) else e.kind for e in parsed.entries]


def images_in(messages):
    return [p for m in messages if isinstance(m["content"], list)
            for p in m["content"] if p["type"] == "image_url"]


# -- prompts --------------------------------------------------------------------------------

def test_user_turn_shows_page_url_tabs_objective_previous_action_and_failure():
    past = PastStep(0, 0, "click [9]", "raw", False, "there is no element [9] on this page")
    prompt = VWA.build(turn(history=[past], feedback="there is no element [9] on this page"))
    user = prompt.messages[-1]["content"][0]["text"]
    assert PAGE in user
    assert f"URL: {INFO['url']}" in user and "OBJECTIVE: Find the red kite." in user
    assert "PREVIOUS ACTION: click [9]" in user
    assert "there is no element [9] on this page" in user
    assert "(1) Kites · Swapyard [current]" in user and "(0) Home · Swapyard |" in user
    first = VWA.build(turn()).messages[-1]["content"][0]["text"]
    assert "PREVIOUS ACTION: None" in first and "could not be carried out" not in first


def test_system_text_names_every_vwa_action_and_the_summary_sentence():
    system = VWA.build(turn()).messages[0]["content"]
    assert SUMMARY_PHRASE in system
    for action in ("click [id]", "hover [id]", "type [id] [content]", "press [key_comb]",
                   "scroll [down]", "scroll [up]", "new_tab", "tab_focus [tab_index]", "close_tab",
                   "goto [url]", "go_back", "go_forward", "stop [answer]"):
        assert f"```{action}```" in system, action
    assert len(VWA_ACTIONS) == 12
    assert "click_at" not in system


def test_system_text_carries_vwa_s_information_and_no_more_rules():
    """VWA's Set-of-Marks prompt (agent/prompts/raw/p_som_cot_id_actree_3s.py) has no N/A rule
    and says nothing of replacing a field's text; ours must not add either."""
    som = VWA.build(turn()).messages[0]["content"]
    text_only = VWA.build(turn(setting=TEXT)).messages[0]["content"]
    assert "N/A" not in som and "N/A" not in text_only
    assert "replac" not in som.lower()
    for fact in ("[id] [tagType] [text content]", "[] [StaticText] [text]", "OBJECTIVE",
                 "URL", "PREVIOUS ACTION", "[0]", "Enter"):
        assert fact in som, fact
    assert "screenshot" in som and "screenshot" not in text_only


def test_three_worked_examples_precede_the_turn_and_follow_the_format():
    messages = VWA.build(turn()).messages
    roles = [m["role"] for m in messages]
    assert roles == ["system"] + ["user", "assistant"] * 3 + ["user"]
    for m in messages[1:-1]:
        if m["role"] == "user":
            assert "OBSERVATION:" in m["content"] and "OBJECTIVE:" in m["content"]
        else:
            assert m["content"].rstrip().endswith("```")
            got = parse(m["content"])
            assert all(isinstance(e, Action) for e in got.entries), m["content"]


def test_image_is_attached_only_in_the_image_setting():
    som = VWA.build(turn(SOM)).messages
    pics = images_in(som)
    assert len(pics) == 2  # the marked screenshot, then the task's picture
    assert pics[0]["image_url"]["url"] == ImageEncoder()(FRAME)
    assert "IMAGES: (1) the current page" in som[-1]["content"][0]["text"]
    text = VWA.build(turn(TEXT)).messages
    assert images_in(text) == [] and isinstance(text[-1]["content"], str)
    assert "screenshot" not in text[0]["content"]
    assert "1 picture, which this setting does not show" in text[-1]["content"]
    assert PAGE in text[-1]["content"]
    default = VWA.build(turn(get_setting("default", "web"))).messages
    assert len(images_in(default)) == 2


def test_long_pages_are_cut_at_a_line_with_a_note():
    lines = [f"[{i}] [A] [listing number {i} " + "x" * 80 + "]" for i in range(1, 400)]
    page = "\n".join(lines)
    assert len(page) > OBSERVATION_CHARS
    cut = cut_page(page)
    body, note = cut.rsplit("\n", 1)
    assert len(body) <= OBSERVATION_CHARS and page.startswith(body)
    shown = body.count("\n") + 1
    assert note == f"(... {len(lines) - shown} more lines not shown)"
    user = VWA.build(turn(TEXT, text=page)).messages[-1]["content"]
    assert "more lines not shown" in user and lines[-1] not in user
    assert cut_page(PAGE) == PAGE
    assert cut_page("y" * 50, 10).startswith("y" * 10 + "\n(... 0 more lines")


def test_sampling_defaults_are_vwa_and_a_profile_wins():
    prompt = VWA.build(turn())
    assert prompt.params == {"temperature": 1.0, "top_p": 0.9}
    client = ModelClient(ModelProfile("p", "http://h/v1", "m", top_p=0.5), "k")
    params = client.params(prompt)
    assert params["temperature"] == 1.0 and params["top_p"] == 0.5


def test_web_tasks_play_as_vwa_in_every_web_setting():
    assert family_of("vwa:som") == family_of("vwa:text") == "vwa"
    assert family_of("default", "web") == "vwa" and family_of("default", "maze") == "ingvp"


# -- replies --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,want", [
    (f"The box is [5]. {SUMMARY_PHRASE} ```type [5] [guitar] [1]```", ["type [5] [guitar]"]),
    (f"{SUMMARY_PHRASE} ```type [5] [red kite] [0]```", ["type [5] [red kite] [0]"]),
    # VWA reads the fence's whole content: a language tag makes the action unreadable.
    (f"{SUMMARY_PHRASE}\n```text\nclick [12]\n```", ["not_in_vocabulary"]),
    (f"{SUMMARY_PHRASE}\n```\nclick [12]\n```", ["click [12]"]),
    (f"{SUMMARY_PHRASE} ```stop [$279.49]```", ["stop [$279.49]"]),
    (f"{SUMMARY_PHRASE} ```STOP```", ["not_in_vocabulary"]),  # VWA's names are lower-case
    (f"{SUMMARY_PHRASE} ```stop```", ["stop []"]),
    (f"{SUMMARY_PHRASE} ```click [12] on the Search button```", ["click [12]"]),
    # the first fence anywhere, as VWA's reader takes it
    (f"Maybe ```scroll [down]```. {SUMMARY_PHRASE} ```click [3]``` or ```click [4]```",
     ["scroll [down]"]),
    ("I will scroll: ```scroll [down]``` then ```click [2]```", ["scroll [down]"]),
    ("", ["no_action"]),
    ("I am not sure what to do on this page.", ["no_action"]),
    (f"{SUMMARY_PHRASE} ``````", ["no_action"]),
    (f"{SUMMARY_PHRASE} click [3]", ["malformed"]),
    (f"{SUMMARY_PHRASE} ```click [3]", ["malformed"]),
    (f"{SUMMARY_PHRASE} ```click [Bicycles]```", ["malformed"]),
    (f"{SUMMARY_PHRASE} ```search [bike]```", ["not_in_vocabulary"]),
    (f"{SUMMARY_PHRASE} ```click_at [10] [20]```", ["not_in_vocabulary"]),
])
def test_vwa_reply_rule_and_failure_kinds(text, want):
    got = parse(text)
    assert entries(got) == want
    for e in got.entries:
        if isinstance(e, Invalid):
            assert e.reason


def test_reasoning_is_what_comes_before_the_summary_sentence():
    got = parse(f"The search box is [2].\n{SUMMARY_PHRASE} ```type [2] [kite]```")
    assert got.reasoning == "The search box is [2]."
    assert VWA.parse(Reply("", (ToolCall("c", "click", "{}"),)), "web", SOM,
                     READ).entries[0].kind == "no_action"


def test_format_answer_is_read_back_as_the_same_action():
    for action in ("click [7]", "type [3] [Is it sold?] [0]", "stop [N/A]", "goto [http://x/?a=1]",
                   "press [Control+a]", "tab_focus [1]", "go_back"):
        reply = VWA.format_answer([action], "web", SOM, "Because.")
        assert reply.content.startswith("Because. ")
        assert entries(parse(reply.content)) == [action]


# -- 100,000 generated replies -----------------------------------------------------------------

GENERATED = 100_000
_JUNK = string.ascii_letters + string.digits + " \n\t[]()`'\":.,#*-_<>/\\é€😀"
_WORDS = ["red bike", "$115", "N/A", "Tidy diamond kite; Retro diamond kite", "kite", "",
          "Is it sold?", "a [b] c", "Kids bike, pink, 16-inch", "0", "http://x/a?b=c"]


def random_action(rng: random.Random) -> str:
    """A canonical VWA action text."""
    name = rng.choice(VWA_ACTIONS)
    n = rng.randrange(1, 300)
    text = {"click": f"click [{n}]", "hover": f"hover [{n}]",
            # VWA cannot type an empty text (its pattern needs one character); the canonical
            # text spells the Enter flag out where the text would read as one ("0")
            "type": format_action(WebAction("type", element=n, enter=rng.random() < 0.5,
                                            text=rng.choice([w for w in _WORDS if w]))),
            "press": f"press [{rng.choice(['Enter', 'Control+a', 'ArrowDown', 'Tab'])}]",
            "scroll": f"scroll [{rng.choice(['up', 'down'])}]", "tab_focus": f"tab_focus [{n % 4}]",
            "goto": f"goto [http://127.0.0.1:{n}/index.php?page=item&id={n}]",
            "stop": f"stop [{rng.choice(_WORDS)}]"}.get(name, name)
    return format_action(parse_action(text))


def wrap(rng: random.Random, action: str) -> tuple[str, bool]:
    """A model-like reply naming ``action``; the flag says the action must be read back."""
    base = VWA.format_answer([action], "web", SOM, rng.choice(["", "Let me see. The list helps."]))
    text = base.content
    k = rng.randrange(11)
    if k == 0:
        return text, True
    if k == 1:  # VWA keeps a language tag as part of the action: only a bare fence reads
        tag = rng.choice(["text", "bash", ""])
        return f"Thinking.\n{SUMMARY_PHRASE}\n```{tag}\n{action}\n```", not tag
    if k == 2:
        return f"{text}\nI hope this helps.", True
    if k == 3:  # no summary sentence: VWA reads the first fenced span anywhere
        return f"Next: ```{action}```", True
    if k == 4:  # only the first fence counts (VWA)
        return f"{text}\nOr maybe ```scroll [up]```.", True
    if k == 5:  # the format restated before the real answer: VWA reads the restated fence
        return f'I must end with "{SUMMARY_PHRASE} ```click [1234]```".\n{text}', False
    if k == 6:
        return text[:rng.randrange(len(text) + 1)], False
    if k == 7:
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice(_JUNK) + text[i + 1:], False
    if k == 8:
        return f"{SUMMARY_PHRASE} {action}", False
    if k == 9:
        return "".join(rng.choice(_JUNK) for _ in range(rng.randrange(80))), False
    return malformed("vwa", "web", SOM, rng).content, False


def check(parsed, raw: str) -> list[str]:
    assert len(parsed.entries) == 1, raw
    entry = parsed.entries[0]
    if isinstance(entry, Invalid):
        assert entry.kind in INVALID_KINDS and entry.reason, (raw, entry)
        return []
    assert isinstance(entry, Action), (raw, entry)
    return [entry.text]


def test_100k_generated_replies_are_all_classified():
    rng = random.Random("vwa-parser")
    survived, kinds = 0, set()
    for _ in range(GENERATED):
        action = random_action(rng)
        text, keep = wrap(rng, action)
        parsed = VWA.parse(Reply(text), "web", rng.choice([SOM, TEXT]), READ)
        texts = check(parsed, text)
        kinds.update(e.kind for e in parsed.entries if isinstance(e, Invalid))
        if keep:
            assert texts == [action], (text, texts)
            survived += 1
    assert survived > GENERATED // 3
    assert {"no_action", "malformed", "not_in_vocabulary"} <= kinds


@given(text=st.text(max_size=300), inside=st.text(max_size=60))
def test_arbitrary_text_never_raises(text, inside):
    check(parse(text), text)
    check(parse(f"{text} {SUMMARY_PHRASE} ```{inside}```"), inside)


# -- settings ---------------------------------------------------------------------------------

def test_web_settings_belong_to_web_with_vwa_budget():
    for name in ("vwa:som", "vwa:text", "default"):
        s = get_setting(name, "web")
        assert s.budget == VWA_BUDGET
    assert SOM.observation == "both" and TEXT.observation == "text"
    with pytest.raises(UnknownSetting, match="valid: default, vwa:som, vwa:text"):
        get_setting("ingvp:image-multi", "web")
    with pytest.raises(UnknownSetting):
        get_setting("vwa:som", "sokoban")


def test_games_command_lists_the_web_settings(capsys):
    from playbench.app.cli import main
    assert main(["games", "web"]) == 0
    out = capsys.readouterr().out
    assert "vwa:som" in out and "vwa:text" in out and "30 actions" in out
    assert "ingvp:" not in out


# -- hints ------------------------------------------------------------------------------------

def _context(game: str, vocabulary, oracle) -> PlayContext:
    level = Level(game, "+S X+" if game != "web" else '{"task_id": 3}', 3)
    return PlayContext(Task(game, level, {}, "t"), SOM if game == "web" else SETTINGS["default"],
                       1, 1, None, None, None, None,
                       [PastStep(0, 0, "click [4]", "r", True, None)], READ,
                       lambda: vocabulary, oracle, 5)


def test_board_hints_stay_version_1_and_old_headers_still_decode():
    h = hint_from_context(_context("maze", [], lambda: None))
    data = json.loads(base64.urlsafe_b64decode(encode_hint(h)))
    assert data["v"] == 1 and "web" not in data and data["level"] == "+S X+"
    old = base64.urlsafe_b64encode(json.dumps(
        {"v": 1, "game": "maze", "level": "+S X+", "setting": "default", "options": {},
         "steps": [["L", True]], "seed": 0, "decision": 1, "level_hash": "h"}).encode()).decode()
    assert decode_hint(old).web is None and decode_hint(old).steps == (("L", True),)


def test_web_hints_carry_the_oracle_and_the_page_ids():
    vocab = ["click [1]", "hover [1]", "click [2]", "type [2] [test]", "scroll [down]"]
    h = hint_from_context(_context("web", vocab, lambda: ["type [2] [kite]"]))
    assert h.level == "" and h.web == WebHint(("type [2] [kite]",), (1, 2), (2,))
    back = decode_hint(encode_hint(h))
    assert back == h
    assert json.loads(base64.urlsafe_b64decode(encode_hint(h)))["v"] == 2

    def broken():
        raise RuntimeError("task cannot be played")
    assert hint_from_context(_context("web", vocab, broken)).web.oracle is None
    for web in ({"oracle": "click [1]"}, {"ids": ["1"]}, None):
        bad = base64.urlsafe_b64encode(json.dumps(
            {"v": 2, "game": "web", "level": "", "setting": "vwa:som", "web": web}).encode())
        with pytest.raises(HintError):
            decode_hint(bad.decode())


# -- what serve-model answers for a web hint ---------------------------------------------------

def _answer(server: ModelServer, web: WebHint, decision: int = 0) -> Reply:
    hint = Hint("web", "", "vwa:text", {}, (), 0, decision, "h", web)
    return server.answer(encode_hint(hint))


def test_oracle_replays_the_hinted_action_and_stops_off_the_path():
    server = ModelServer(ServeOptions(port=0))
    try:
        assert entries(parse(_answer(server, WebHint(("click [8]",), (8,))).content)) == [
            "click [8]"]
        lost = _answer(server, WebHint(None, (1, 2)))
        assert entries(parse(lost.content)) == ["stop []"]
    finally:
        server.stop()


def test_random_and_noise_answer_on_the_hinted_page():
    random_server = ModelServer(ServeOptions(policy="random", port=0))
    noisy_server = ModelServer(ServeOptions(noise=1.0, seed=4, port=0))
    try:
        web = WebHint(None, (3, 4, 5), (5,))
        seen = set()
        for d in range(60):
            got = parse(_answer(random_server, web, d).content)
            seen.update(entries(got))
        allowed = {"click [3]", "click [4]", "click [5]", "scroll [down]", "scroll [up]",
                   "go_back"}
        assert {"click [3]", "scroll [down]"} <= seen
        assert all(t in allowed or t.startswith("type [5] [") for t in seen), seen
        kinds = set()
        for d in range(80):
            for e in parse(_answer(noisy_server, web, d).content).entries:
                kinds.add(e.kind if isinstance(e, Invalid) else "action")
        assert {"action", "no_action", "malformed", "not_in_vocabulary"} <= kinds
        assert noisy_server.stats.noisy == 80
    finally:
        random_server.stop()
        noisy_server.stop()
