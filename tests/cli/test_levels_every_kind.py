"""``playbench levels`` for every kind that has tasks, as a person types it (issue 28).

Before, the command looked the name up among board games only, so ``playbench levels webui``
- which docs/webui.md told people to use - said "unknown game". Each test here runs the real
command in a subprocess: list the kind's task sets, show a range of one and write it to a file,
then import that file; the levels read back are the ones written (same texts, so the same
content hashes in the database; a kind whose file numbers tasks from 1 may number them anew).
"""

from __future__ import annotations

import json

import pytest

from playbench.games.browser_games.tasks import bundled_root
from playbench.games.kind import default_registry

CASES = {
    # kind: (the bundled source it lists, a range of it to write, rows that range shows)
    "webui": ("webui", "webui:1-2", 2),
    "web": ("classifieds", "classifieds:0-1", 2),
    "css-repair": ("css-repair", "css-repair:2-3", 2),
    "sokoban": ("ingvp", "ingvp:1-3", 3),
}


def table_rows(out: str) -> list[str]:
    """The body rows of the plain table the command prints (after its ``---`` rule)."""
    lines = out.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("-----"))
    return [line for line in lines[rule + 1:] if line.strip() and not line.startswith("wrote")]


@pytest.mark.parametrize("game", list(CASES))
def test_list_show_write_and_read_back(cli, tmp_path, game):
    bundled, source, count = CASES[game]
    listed = cli("levels", game)
    assert listed.code == 0, listed.err
    assert bundled in listed.out.split(":", 1)[1]

    written = tmp_path / f"{game}-levels.out"
    shown = cli("levels", game, "--pack", source, "--out", str(written))
    assert shown.code == 0, shown.err
    assert len(table_rows(shown.out)) == count
    assert f"wrote {count} levels to {written}" in shown.out

    back = cli("levels", game, "--import", str(written))
    assert back.code == 0, back.err
    assert len(table_rows(back.out)) == count  # numbered as the file numbers them

    kind = default_registry().get(game)
    assert [lv.text for lv in kind.load(str(written))] == [lv.text for lv in kind.load(source)]


@pytest.mark.parametrize("game", ["webui", "css-repair"])
def test_export_takes_the_kinds_format_and_refuses_another(cli, tmp_path, game):
    """``--export`` writes the format named (JSON, the kinds' task file), and an unknown one
    is refused before anything is written."""
    _, source, count = CASES[game]
    target = tmp_path / "tasks.json"
    wrong = cli("levels", game, "--pack", source, "--export", str(target), "--format", "xsb")
    assert wrong.code != 0 and "unknown format 'xsb'" in wrong.err and "json" in wrong.err
    assert not target.exists()
    done = cli("levels", game, "--pack", source, "--export", str(target), "--format", "json")
    assert done.code == 0, done.err
    assert len(json.loads(target.read_text(encoding="utf-8"))) == count


def test_browser_games_list_and_import_a_catalog_and_say_why_there_is_no_file(cli, tmp_path):
    """Browser-game tasks live in a catalog folder: ``--import`` reads one; there is no task
    file to write them to, and the command says so instead of writing nothing silently."""
    listed = cli("levels", "browser-games")
    assert listed.code == 0, listed.err and "bundled" in listed.out
    catalog = cli("levels", "browser-games", "--import", str(bundled_root()))
    assert catalog.code == 0, catalog.err
    expected = default_registry().get("browser-games").load("all")
    assert len(table_rows(catalog.out)) == len(expected) > 0
    out = tmp_path / "games.json"
    refused = cli("levels", "browser-games", "--pack", "bundled", "--out", str(out))
    assert refused.code != 0 and "no task file" in refused.err
    assert not out.exists()


def test_board_options_are_refused_for_task_kinds(cli):
    refused = cli("levels", "webui", "--generate", "3")
    assert refused.code != 0
    assert "--generate applies to board games; webui is not one" in refused.err
