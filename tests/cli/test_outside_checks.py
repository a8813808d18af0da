"""Issue 14 item 15: checking PlayBench from outside with the real CLI (subprocesses).

``playbench parse --setting S`` classifies replies (one JSON string per line) with the setting's
protocol and the kind's parser, for every setting of every kind that has a move parser;
``playbench web evaluate FILE:ID --answer --url [--page-html] [--browser]`` runs one task's
checks through the scoring episodes use. Task files are written here in VWA's format.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from playbench.app.agents.protocols import family_of, make_protocols
from playbench.app.cli.parse import classify
from playbench.games.base import MoveError
from playbench.games.browser.actions import format_action, parse_action
from playbench.games.kind import default_registry, unavailable
from playbench.games.types import Task

REGISTRY = default_registry()
# Kinds backed by an optional extra that is not installed here cannot start an environment;
# tests/football checks what such a kind says instead.
PARSED_KINDS = [pytest.param(k.name, marks=[pytest.mark.football] if k.name == "football" else [])
                for k in REGISTRY.listing()
                if k.view in ("board", "browser") and unavailable(k) is None]


def playbench(*args: str, stdin: str | None = None, env: dict | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "playbench", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def lines_of(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def board_env(name: str):
    kind = REGISTRY.get(name)
    source = kind.sources()[0].name
    level = kind.load(source)[0]
    task = Task(name, level, {}, source)
    env = kind.make_env(task, render=False)
    asyncio.run(env.reset(task, 0))
    return env


def reply_line(reply) -> str:
    """A protocol reply as ``playbench parse`` reads it (a string, or an object with calls)."""
    if not reply.tool_calls:
        return json.dumps(reply.content)
    return json.dumps({"content": reply.content, "tool_calls": [
        {"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})


@pytest.mark.parametrize("name", PARSED_KINDS)
def test_parse_reads_back_what_each_settings_protocol_writes(name):
    """Every setting of every kind: the answer the setting's protocol writes for a move is read
    back as that move, and a reply with no answer is invalid with a reason and a kind."""
    kind = REGISTRY.get(name)
    protocols = make_protocols()
    if kind.view == "board":
        moves = board_env(name).legal_actions()[:1]
    else:
        moves = [format_action(parse_action("scroll [down]"))]
    for setting_name, setting in kind.settings().items():
        reply = protocols[family_of(setting, name)].format_answer(moves, name, setting)
        got = list(classify([reply_line(reply), json.dumps("nothing to see here")],
                            setting_name, name, {}))
        assert [g["line"] for g in got] == [1, 2]
        assert got[0]["valid"] and got[0]["actions"] == moves, (setting_name, got[0])
        assert not got[1]["valid"] and got[1]["reason"] and got[1]["kind"], (setting_name, got[1])


def test_parse_cli_classifies_each_line_and_goes_on_after_a_bad_one():
    env = board_env("sokoban")
    canonical = env.parse_action("up").text
    replies = [json.dumps('{"output": "up"}'), "this is not JSON", "",
               json.dumps('{"output": "sideways"}'), json.dumps('{"output": "down"}')]
    run = playbench("parse", "--setting", "ingvp:text-multi", "--game", "sokoban",
                    stdin="\n".join(replies) + "\n")
    assert run.returncode == 1  # a line could not be read
    got = lines_of(run.stdout)
    assert [g["line"] for g in got] == [1, 2, 4, 5]  # the blank line is skipped, not a reply
    assert got[0]["valid"] and got[0]["actions"] == [canonical]
    assert got[0]["entries"] == [{"valid": True, "action": canonical, "kind": "move"}]
    assert "error" in got[1] and got[1]["error"].startswith("line 2: not JSON")
    assert "playbench parse: line 2:" in run.stderr
    with pytest.raises(MoveError) as refused:  # the kind's own parser says what is wrong
        env.parse_action("sideways")
    assert not got[2]["valid"]
    assert (got[2]["kind"], got[2]["reason"]) == (refused.value.kind, refused.value.reason)
    assert got[3]["valid"] and got[3]["actions"] == [env.parse_action("down").text]


def test_parse_cli_reads_web_replies_from_a_file(tmp_path):
    path = tmp_path / "replies.jsonl"
    fenced = "Let me look further down. In summary, the next action I will perform is " \
             "```scroll [down]```"
    path.write_text("\n".join(json.dumps(r) for r in (fenced, "I would click something")))
    run = playbench("parse", "--setting", "vwa:som", str(path))
    assert run.returncode == 0, run.stderr
    first, second = lines_of(run.stdout)
    assert first["valid"] and first["actions"] == [format_action(parse_action("scroll [down]"))]
    assert not second["valid"] and second["kind"] == "no_action"


def test_parse_cli_reads_tool_calls_and_names_ambiguous_settings():
    kind = REGISTRY.get("sokoban")
    name, args = kind.answers.text_to_tool("U")
    line = json.dumps({"content": "", "tool_calls": [{"name": name, "arguments": args}]})
    run = playbench("parse", "--setting", "tools:text", "--game", "sokoban", stdin=line + "\n")
    assert run.returncode == 0, run.stderr
    assert lines_of(run.stdout)[0]["actions"] == [board_env("sokoban").parse_action("U").text]
    ambiguous = playbench("parse", "--setting", "default", stdin="")
    assert ambiguous.returncode == 2 and "name one with --game" in ambiguous.stderr


# -- web evaluate ----------------------------------------------------------------------------

SITE = "http://127.0.0.1:9980"
ITEM = "__CLASSIFIEDS__/index.php?page=item&id=4"
PAGE = ('<html><body><h1>Blue kayak</h1><p class="price">$120.00</p>'
        '<p class="seller">Sold by river rat</p></body></html>')


def task_file(tmp_path, program_html) -> str:
    task = {"sites": ["classifieds"], "task_id": 21, "require_login": False,
            "storage_state": None, "start_url": "__CLASSIFIEDS__", "geolocation": None,
            "intent_template": "", "intent": "What does the blue kayak cost?", "image": None,
            "instantiation_dict": {}, "require_reset": False,
            "eval": {"eval_types": ["string_match", "url_match", "program_html"],
                     "reference_answers": {"must_include": ["blue kayak costs"]},
                     "reference_url": ITEM, "url_note": "EXACT", "program_html": program_html},
            "reasoning_difficulty": "easy", "visual_difficulty": "easy",
            "overall_difficulty": "easy", "comments": "", "intent_template_id": 0}
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([task]))
    return f"{path}:21"


def evaluate(spec: str, answer: str, url: str, html_path=None, *extra: str) -> dict:
    args = ["web", "evaluate", spec, "--answer", answer, "--url", url,
            "--site", f"CLASSIFIEDS={SITE}", *extra]
    if html_path is not None:
        args += ["--page-html", str(html_path)]
    run = playbench(*args, env={"PLAYBENCH_CHROMIUM": os.environ.get("PLAYBENCH_CHROMIUM",
                                                                     "/usr/bin/chromium")})
    assert run.returncode == 0, run.stderr
    [result] = lines_of(run.stdout)
    return result


def test_web_evaluate_scores_answer_url_and_page_html_without_a_browser(tmp_path):
    html = tmp_path / "page.html"
    html.write_text(PAGE)
    spec = task_file(tmp_path, [{"url": "last", "locator": "",
                                 "required_contents": {"must_include": ["Blue kayak"]}}])
    url = ITEM.replace("__CLASSIFIEDS__", SITE)
    good = evaluate(spec, "The blue kayak costs $120", url, html)
    assert good["checks"] == {"string_match": 1.0, "url_match": 1.0, "program_html": 1.0}
    assert good["score"] == 1.0 and good["task"] == 21 and good["url"] == url
    wrong_answer = evaluate(spec, "It is free", url, html)
    assert wrong_answer["checks"]["string_match"] == 0.0 and wrong_answer["score"] == 0.0
    wrong_url = evaluate(spec, "The blue kayak costs $120", url.replace("id=4", "id=5"), html)
    assert wrong_url["checks"]["url_match"] == 0.0 and wrong_url["score"] == 0.0
    other_page = tmp_path / "other.html"
    other_page.write_text(PAGE.replace("Blue kayak", "Red canoe"))
    assert evaluate(spec, "The blue kayak costs $120", url, other_page)[
        "checks"]["program_html"] == 0.0
    # placeholders are accepted in the URL too
    assert evaluate(spec, "The blue kayak costs $120", ITEM, html)["checks"]["url_match"] == 1.0


@pytest.mark.browser
def test_web_evaluate_says_what_needs_a_browser_and_runs_it_with_one(tmp_path):
    html = tmp_path / "page.html"
    html.write_text(PAGE)
    spec = task_file(tmp_path, [{"url": "last", "locator": "func:get_query_text(__page__, "
                                                            "'.price')",
                                 "required_contents": {"must_include": ["120.00"]}}])
    url = ITEM.replace("__CLASSIFIEDS__", SITE)
    static = evaluate(spec, "The blue kayak costs $120", url, html)
    assert static["checks"]["program_html"] is None and static["score"] is None
    assert any("needs a browser" in n for n in static["notes"])
    live = evaluate(spec, "The blue kayak costs $120", url, html, "--browser")
    assert live["checks"]["program_html"] == 1.0 and live["score"] == 1.0 and live["browser"]
    cheaper = tmp_path / "cheaper.html"
    cheaper.write_text(PAGE.replace("$120.00", "$99.00"))
    assert evaluate(spec, "The blue kayak costs $120", url, cheaper, "--browser")[
        "checks"]["program_html"] == 0.0


def test_parse_cli_names_a_kind_that_cannot_read_replies():
    run = playbench("parse", "--setting", "default", "--game", "sokoban", "--rule",
                    "no_such_rule=1", stdin=json.dumps("up") + "\n")
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("playbench parse: cannot read sokoban replies here:")
    assert "no_such_rule" in run.stderr and "Traceback" not in run.stderr
