"""Reading VWA task files as published, checking them, and the `playbench web` commands."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from playbench.app.cli import main
from playbench.games.base import LevelError
from playbench.games.web.checks import check_config
from playbench.games.web.sources import load_tasks
from playbench.games.web.tasks import load_text, task_from_level

SITES = {"CLASSIFIEDS": None}


def _task(**changes):
    base = {"sites": ["classifieds"], "task_id": 7, "require_login": False,
            "storage_state": None, "start_url": "__CLASSIFIEDS__", "geolocation": None,
            "intent_template": "", "intent": "Find it", "image": None,
            "instantiation_dict": {}, "require_reset": False,
            "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "1"},
                     "reference_url": "", "program_html": []}}
    base.update(changes)
    return {k: v for k, v in base.items() if v != "__drop__"}


def _problems(obj, sites=SITES, judge=True):
    level = load_text(json.dumps(obj), "t.json")[0]
    return check_config(task_from_level(level), sites, judge)


def test_bundled_set_is_large_varied_and_usable():
    tasks = [task_from_level(t.level) for t in load_tasks("classifieds")]
    assert len(tasks) >= 30
    assert len({t.task_id for t in tasks}) == len(tasks)
    levels = Counter(t.config["overall_difficulty"] for t in tasks)
    assert set(levels) == {"easy", "medium", "hard"}
    kinds = Counter(k for t in tasks for k in t.eval["eval_types"])
    assert set(kinds) == {"string_match", "url_match", "program_html", "page_image_query"}
    checks = {k for t in tasks for k in (t.eval.get("reference_answers") or {})}
    assert checks == {"exact_match", "must_include", "must_exclude", "fuzzy_match"}
    notes = {t.eval.get("url_note") for t in tasks if "url_match" in t.eval["eval_types"]}
    assert notes == {"EXACT", "GOLD in PRED"}
    image_checks = {k for t in tasks for q in t.eval.get("page_image_query") or [] for k in q}
    assert {"eval_vqa", "eval_fuzzy_image_match"} <= image_checks
    assert sum(t.config["visual_difficulty"] != "easy" for t in tasks) >= 10
    assert all(t.reference and t.wrong for t in tasks)
    for t in tasks:
        assert [p for p in check_config(t, SITES, judge=True) if p.fatal] == [], t.task_id


def test_range_selects_task_ids_starting_at_zero():
    assert [t.level.number for t in load_tasks("classifieds:0-2,5")] == [0, 1, 2, 5]
    with pytest.raises(LevelError, match="selects no task"):
        load_tasks("classifieds:900")
    with pytest.raises(LevelError, match="no web task file"):
        load_tasks("no-such-set")


def test_level_text_is_canonical_and_holds_the_references():
    a = _task(playbench={"reference": ["stop [1]"], "viewport": [1280, 720]})
    b = dict(reversed(list(a.items())))
    la, lb = load_text(json.dumps(a), "a"), load_text(json.dumps(b), "b")
    assert la[0].content_hash == lb[0].content_hash
    assert "stop [1]" in la[0].text and la[0].meta["reference"] == ["stop [1]"]
    assert task_from_level(la[0]).viewport == (1280, 720)
    assert la[0].number == 7 and la[0].title == "Find it"


def test_a_single_object_file_is_one_task():
    assert len(load_text(json.dumps(_task()), "one.json")) == 1
    with pytest.raises(LevelError, match="not a JSON task file"):
        load_text("{oops", "bad.json")


@pytest.mark.parametrize("obj,field,text", [
    (_task(eval={"eval_types": ["string_match", "magic"],
                 "reference_answers": {"exact_match": "1"}}),
     "eval.eval_types[1]", "unknown evaluator 'magic'"),
    (_task(intent="__drop__"), "intent", "missing field"),
    (_task(eval={"eval_types": ["url_match"]}), "eval.reference_url", "missing"),
    (_task(eval={"eval_types": ["url_match"], "reference_url": "x", "url_note": "FUZZY"}),
     "eval.url_note", "unknown rule"),
    (_task(eval={"eval_types": ["program_html"], "program_html": [
        {"url": "func:shopping_get_latest_order_url()", "locator": "",
         "required_contents": {"must_include": ["x"]}}]}),
     "eval.program_html[0].url", "admin_accounts.SHOPPING"),
    (_task(eval={"eval_types": ["program_html"], "program_html": [
        {"url": "last", "locator": "func:gitlab_get_merge_request_comment(__page__)",
         "required_contents": {"must_include": ["x"]}}]}),
     "eval.program_html[0].locator", "unknown helper 'gitlab_get_merge_request_comment'"),
    (_task(eval={"eval_types": ["page_image_query"], "page_image_query": []}),
     "eval.page_image_query", "missing or empty"),
    (_task(eval={"eval_types": ["page_image_query"], "page_image_query": ["a.png"]}),
     "eval.page_image_query[0]", "must be an object"),
    (_task(eval={"eval_types": ["page_image_query"], "page_image_query": [
        {"eval_image_url": "func:get_image()", "eval_fuzzy_image_match": "x.png"}]}),
     "eval.page_image_query[0].eval_image_url", "unknown helper 'get_image'"),
    (_task(eval={"eval_types": ["program_html"], "program_html": [3]}),
     "eval.program_html[0]", "must be an object"),
    (_task(start_url="__SHOPPING__/cart"), "sites", "no address for __SHOPPING__"),
    (_task(eval={"eval_types": ["string_match"], "reference_answers": {"contains": "1"}}),
     "eval.reference_answers.contains", "unknown check"),
    (_task(require_login=True, storage_state="./missing.json", start_url="__SHOPPING__"),
     "storage_state", "not found"),
])
def test_bad_tasks_name_the_field(obj, field, text):
    fatal = [p for p in _problems(obj, {"CLASSIFIEDS": None, "SHOPPING": "http://s"}
                                  if field == "storage_state" else SITES) if p.fatal]
    assert any(p.field == field and text in p.message for p in fatal), fatal


def test_warnings_do_not_make_a_task_unusable():
    obj = _task(extra_field=1, eval={"eval_types": ["string_match"],
                                     "reference_answers": {"fuzzy_match": ["a red car"]}})
    problems = _problems(obj, judge=False)
    assert problems and not any(p.fatal for p in problems)
    assert {p.field for p in problems} == {"extra_field", "eval.reference_answers.fuzzy_match"}


def test_web_check_prints_one_line_per_task_and_fails_on_unusable(tmp_path, capsys):
    good = _task(task_id=0)
    bad = _task(task_id=1, eval={"eval_types": ["pixel_match"]})
    missing = _task(task_id=2, start_url="__drop__")
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([good, bad, missing]))
    assert main(["web", "check", str(path)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0] == "task 0: ok"
    assert lines[1].startswith("task 1: unusable: eval.eval_types[0]: unknown evaluator "
                               "'pixel_match'")
    assert lines[2] == "task 2: unusable: start_url: missing field"
    path.write_text(json.dumps([good]))
    assert main(["web", "check", str(path)]) == 0


def test_web_check_accepts_site_addresses(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_task(start_url="__REDDIT__/f/pics")))
    assert main(["web", "check", str(path)]) == 1
    assert main(["web", "check", str(path), "--site", "REDDIT=http://127.0.0.1:9999"]) == 0
    assert main(["web", "check", "classifieds"]) == 0
    assert capsys.readouterr().out.count(": ok") >= 30 + 1


def test_web_tasks_lists_the_bundled_set(capsys):
    assert main(["web", "tasks", "classifieds:0-1"]) == 0
    out = capsys.readouterr().out
    assert "Solid road bike" in out and "Open the Cars category." in out


@pytest.mark.browser
def test_cli_run_reports_the_failed_task_and_exits_1(tmp_path, capsys):
    from playbench.games.web.sources import bundled_dir
    good = json.loads((bundled_dir() / "classifieds.json").read_text())[2]
    bad = dict(good, task_id=77, eval={"eval_types": ["telepathy"]})
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([good, bad]))
    db = f"sqlite:///{tmp_path / 'pb.sqlite3'}"
    code = main(["run", "--game", "web", "--tasks", str(path), "--player", "solver", "--db", db,
                 "--no-progress"])
    out = capsys.readouterr()
    assert code == 1
    assert "task 77: eval.eval_types[0]: unknown evaluator 'telepathy'" in out.err
    assert "stopped" in out.out and "error" in out.out
