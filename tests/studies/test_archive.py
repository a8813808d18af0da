"""Archiving and deleting a study from the command line: an archived study leaves the list
(and the annotators' Studies view) with everything recorded in it kept; only a study in which
nothing was recorded can be deleted."""

from __future__ import annotations

from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.studies.helpers import run_cli, study_yaml


def test_archive_unarchive_and_delete_with_the_cli(tmp_path, db_url):
    for name in ("pilot", "mistake"):
        path = study_yaml(tmp_path, name=name, order="fixed")
        assert run_cli(["study", "create", str(path)], db=db_url, cwd=tmp_path).code == 0
    played = run_cli(["study", "run", "pilot", "--player", "solver", "--no-progress"],
                     db=db_url, cwd=tmp_path)
    assert played.code == 0, played.err

    listed = run_cli(["study", "list"], db=db_url, cwd=tmp_path)
    assert "pilot" in listed.out and "mistake" in listed.out

    assert run_cli(["study", "archive", "pilot"], db=db_url, cwd=tmp_path).code == 0
    listed = run_cli(["study", "list"], db=db_url, cwd=tmp_path)
    assert "pilot" not in listed.out and "1 archived study not shown" in listed.out
    every = run_cli(["study", "list", "--all"], db=db_url, cwd=tmp_path)
    assert "archived" in next(line for line in every.out.splitlines() if "pilot" in line)
    status = run_cli(["study", "status", "pilot"], db=db_url, cwd=tmp_path)
    assert status.code == 0  # an archived study keeps its records and results

    refused = run_cli(["study", "delete", "pilot"], db=db_url, cwd=tmp_path)
    assert refused.code == 1 and "recorded episode" in refused.err
    assert "archive it instead" in refused.err
    store = Store(open_database(db_url))
    assert store.episodes(limit=100), "a refused delete removes nothing"

    assert run_cli(["study", "unarchive", "pilot"], db=db_url, cwd=tmp_path).code == 0
    assert "pilot" in run_cli(["study", "list"], db=db_url, cwd=tmp_path).out

    assert run_cli(["study", "delete", "mistake"], db=db_url, cwd=tmp_path).code == 0
    assert store.study_names() == ["pilot"]
    missing = run_cli(["study", "archive", "nope"], db=db_url, cwd=tmp_path)
    assert missing.code == 1 and "no study named 'nope'" in missing.err
