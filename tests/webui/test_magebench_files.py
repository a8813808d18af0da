"""MageBench's own WebUI files as they sit in its repository, read by ``--levels`` and the
Library: a task folder, a folder of task folders, a list file (``WebUI_mini.json``) with a
range; every kind of scored step their ``actions.py`` files use carried over as ops; the
pictures a folder holds served as bytes; and malformed folders and lists refused with a message
naming the file and the entry or line.

The fixtures (``tests/webui/magebench_files/resources``) are our own three small tasks written
in MageBench's layout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from playbench.games.base import LevelError
from playbench.games.registry import default_registry
from playbench.games.webui.tasks import load_levels, task_of

RESOURCES = Path(__file__).parent / "magebench_files" / "resources"
LIST = RESOURCES / "WebUI_mini.json"
NAMES = ["Counter-Card", "Signup-Form", "Drop-Zone"]


def ops_of(ops: list[dict]) -> set[str]:
    """Every op kind in ``ops``, nested ones included."""
    out: set[str] = set()
    for op in ops:
        out.add(op["op"])
        out |= ops_of(op.get("ops") or [])
    return out


def test_a_list_file_loads_its_folders_in_order_with_their_magebench_names() -> None:
    levels = load_levels(str(LIST))
    assert [lv.title for lv in levels] == NAMES
    assert [lv.number for lv in levels] == [1, 2, 3]
    assert all(lv.meta["aes"] == "magebench" for lv in levels)
    assert [lv.title for lv in load_levels(f"{LIST}:2-3")] == NAMES[1:]
    assert [lv.title for lv in load_levels(f"{LIST}:Drop-Zone")] == ["Drop-Zone"]


def test_a_task_folder_and_a_folder_of_tasks_load_too() -> None:
    one = load_levels(str(RESOURCES / "WebUI" / "Signup-Form"))
    assert [lv.title for lv in one] == ["Signup-Form"]
    every = load_levels(str(RESOURCES / "WebUI"))
    assert sorted(lv.title for lv in every) == sorted(NAMES)
    # The same task read from the list and from its folder is the same task (content hash).
    by_list = {lv.title: lv.content_hash for lv in load_levels(str(LIST))}
    assert one[0].content_hash == by_list["Signup-Form"]


def test_the_kind_loads_them_through_its_own_source_seam() -> None:
    kind = default_registry().get("webui")
    levels = kind.load(str(LIST))
    assert len(levels) == 3
    for lv in levels:
        kind.check_level(lv)
        assert kind.library_values(lv)[0] == "magebench"
    assert "aes" in {o.name for o in kind.rule_options}


def test_the_reference_files_prompt_and_pictures_are_read_as_published() -> None:
    tasks = {lv.title: task_of(lv) for lv in load_levels(str(LIST))}
    card = tasks["Counter-Card"]
    assert set(card.reference) == {"index.html", "style.css", "script.js"}
    assert card.reference["style.css"] == (RESOURCES / "WebUI/Counter-Card/style.css").read_text()
    assert "Counter Card" in card.description and "_images/origin.png" in card.description
    assert not any(p.startswith("_images") for p in card.resources)
    drop = tasks["Drop-Zone"]
    assert set(drop.reference) == {"index.html"}  # style.css is linked but not there
    assert drop.resources["img/logo.png"] == (RESOURCES / "WebUI/Drop-Zone/img/logo.png"
                                              ).read_bytes()
    assert drop.aes == "magebench"


def test_every_kind_of_scored_step_is_carried_over() -> None:
    tasks = {lv.title: task_of(lv) for lv in load_levels(str(LIST))}
    names = {t: [s["name"] for s in task.interactions] for t, task in tasks.items()}
    assert names == {
        "Counter-Card": ["press_add_twice", "hover_card"],
        "Signup-Form": ["type_name", "copy_code", "choose_team", "choose_second", "send_form"],
        "Drop-Zone": ["drag_chip", "press_keys", "scroll_down"],
    }
    kinds: set[str] = set()
    for task in tasks.values():
        for step in task.interactions:
            assert step["do"] == "steps"
            kinds |= ops_of(step["ops"])
    assert kinds >= {"find", "click", "hover", "keys", "double_click", "drag", "key_down",
                     "key_up", "scroll", "submit", "wait", "call", "each", "if_text", "break",
                     "text"}
    # A compound step keeps its parts; the wait on an element keeps its time.
    twice = tasks["Counter-Card"].interactions[0]["ops"]
    assert [op["op"] for op in twice] == ["call", "call"]
    first = tasks["Signup-Form"].interactions[0]["ops"][0]
    assert (first["by"], first["value"], first["wait"]) == ("id", "name", 5.0)


def test_tasks_content_json_is_the_prompt_when_there_is_no_tasks_md(tmp_path) -> None:
    folder = tmp_path / "Counter-Card"
    shutil.copytree(RESOURCES / "WebUI" / "Counter-Card", folder)
    (folder / "tasks.md").unlink()
    task = task_of(load_levels(str(folder))[0])
    assert task.description.startswith("\n# Task Description: Counter Card")
    assert "base64" not in task.description


def copy_list(tmp_path: Path) -> Path:
    shutil.copytree(RESOURCES, tmp_path / "resources")
    return tmp_path / "resources" / "WebUI_mini.json"


def test_a_list_naming_a_missing_folder_says_which_entry(tmp_path) -> None:
    lst = copy_list(tmp_path)
    lst.write_text(json.dumps(["WebUI/Counter-Card", "WebUI/Nowhere"]))
    with pytest.raises(LevelError) as err:
        load_levels(str(lst))
    assert str(lst) in str(err.value) and "entry 2 (WebUI/Nowhere)" in str(err.value)


def test_a_list_mixing_folders_and_other_values_is_refused_cleanly(tmp_path) -> None:
    lst = copy_list(tmp_path)
    lst.write_text(json.dumps(["WebUI/Counter-Card", 7]))
    with pytest.raises(LevelError, match="entry 2 must be a folder path"):
        load_levels(str(lst))


def test_a_folder_without_index_html_is_refused_naming_it(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(LevelError, match="no MageBench WebUI task here") as err:
        load_levels(str(tmp_path / "empty"))
    assert str(tmp_path / "empty") in str(err.value)


def test_a_malformed_actions_py_names_its_file_and_line(tmp_path) -> None:
    lst = copy_list(tmp_path)
    actions = lst.parent / "WebUI" / "Drop-Zone" / "actions.py"
    text = actions.read_text().replace("time.sleep(2)", "time.sleep(2)\n    print('hi')")
    actions.write_text(text)
    line = text.splitlines().index("    print('hi')") + 1
    with pytest.raises(LevelError) as err:
        load_levels(str(lst))
    assert f"{actions}:{line}" in str(err.value)
    assert "'print'" in str(err.value)


def test_undecodable_and_unreadable_files_are_refused_cleanly(tmp_path) -> None:
    lst = copy_list(tmp_path)
    (lst.parent / "WebUI" / "Signup-Form" / "script.js").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(LevelError, match="script.js.*not UTF-8"):
        load_levels(str(lst))
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(LevelError, match="not UTF-8"):
        load_levels(str(bad))
