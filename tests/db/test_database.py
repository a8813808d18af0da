"""The database: pragmas, migrations (also of older files), refusing foreign files, frames."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from playbench.app.core.budget import Budget
from playbench.app.core.env import make_env
from playbench.app.core.episode import Episode
from playbench.app.core.recorder import DbRecorder
from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.app.players.scripted import RandomPlayer, SolverPlayer
from playbench.db import engine as db_engine
from playbench.db.engine import DatabaseProblem, head_revision, open_database
from playbench.db.models import Base
from playbench.db.store import Store
from playbench.games.sokoban.generator import generate


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sqlite_pragmas(db_url):
    db = open_database(db_url)
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000
    db.dispose()


def test_migrated_schema_matches_the_models(db_url):
    db = open_database(db_url)
    with db.engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"version_table": "playbench_schema"})
        assert compare_metadata(ctx, Base.metadata) == []
        assert ctx.get_current_revision() == head_revision()
    db.dispose()


def test_foreign_keys_are_enforced(db_url):
    db = open_database(db_url)
    with pytest.raises(sa.exc.IntegrityError), db.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO scores (episode_id, name, value) VALUES (999, 'x', 1)")
    db.dispose()


def test_an_older_playbench_database_is_upgraded_keeping_its_data(tmp_path):
    """A file made at revision 0001, holding a step whose latency sat in ``info``."""
    path = tmp_path / "old.sqlite3"
    engine = db_engine.make_engine(f"sqlite:///{path}")
    cfg = db_engine._alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.exec_driver_sql(
            "INSERT INTO participants (id, uid, kind, name, details, created) "
            "VALUES (1, 'p1', 'script', 'solver', '{}', '2026-01-01')")
        conn.exec_driver_sql(
            "INSERT INTO tasks (id, game, level_hash, level_text, level_number, title, source, "
            "meta) VALUES (1, 'sokoban', 'h', '#', 1, '', '', '{}')")
        conn.exec_driver_sql(
            "INSERT INTO episodes (id, uid, participant_id, task_id, setting, player, budget, "
            "rules, seed, status, n_steps, owner, start_state, started, meta) VALUES "
            "(1, 'e1', 1, 1, 'default', 'solver', '{}', '{}', 0, 'done', 1, '', '', "
            "'2026-01-01', '{}')")
        conn.exec_driver_sql(
            "INSERT INTO steps (episode_id, \"index\", decision, action, raw, valid, changed, "
            "reward, state_hash, think_ms, prompt_tokens, completion_tokens, cost, created, info) "
            "VALUES (1, 0, 0, 'U', 'U', 1, 1, -0.5, 'x', 1.0, 10, 5, 0.01, '2026-01-01', ?)",
            (json.dumps({"latency_ms": 123.5, "note": "kept"}),))
    engine.dispose()

    db = open_database(f"sqlite:///{path}")
    store = Store(db)
    step = store.steps(1)[0]
    assert step.latency_ms == 123.5 and step.info == {"note": "kept"}
    assert store.episode(1).participant.name == "solver"
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM playbench_schema").scalar() == \
            head_revision()
        # 0007 renamed the action's declared type in place: the file is still sound.
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        schema = conn.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE name = 'steps'").scalar()
        assert "action TEXT" in schema and "VARCHAR(2000)" not in schema
    db.dispose()


async def test_a_downgrade_that_would_cut_an_action_is_refused(tmp_path):
    """Going back below 0007 (actions held to 2,000 characters) refuses while a longer
    action is stored, and leaves the file at its revision."""
    from tests.db.test_field_caps import record, start
    url = f"sqlite:///{tmp_path / 'long.sqlite3'}"
    store = Store(open_database(url))
    recorder = DbRecorder(store)
    episode = await recorder.begin(start(), None)
    await recorder.step(episode, record(0, action="a" * 2001), None)
    store.db.dispose()
    engine = db_engine.make_engine(url)
    cfg = db_engine._alembic_config()
    with pytest.raises(RuntimeError, match="2001 characters"), engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM playbench_schema").scalar() == \
            head_revision()
        assert len(conn.exec_driver_sql("SELECT action FROM steps").scalar()) == 2001
    engine.dispose()


def test_a_foreign_sqlite_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    con.commit()
    con.close()
    before = file_digest(path)
    with pytest.raises(DatabaseProblem, match="not a PlayBench database.*invoices"):
        open_database(f"sqlite:///{path}")
    assert file_digest(path) == before


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 100)
    before = file_digest(path)
    with pytest.raises(DatabaseProblem, match="cannot open the database"):
        open_database(f"sqlite:///{path}")
    assert file_digest(path) == before


def test_a_newer_schema_is_refused(db_url):
    db = open_database(db_url)
    with db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE playbench_schema SET version_num = '9999'")
    db.dispose()
    with pytest.raises(DatabaseProblem, match="newer PlayBench"):
        open_database(db_url)


def test_missing_directory_is_reported(tmp_path):
    with pytest.raises(DatabaseProblem, match="does not exist"):
        open_database(f"sqlite:///{tmp_path}/nowhere/x.sqlite3")


def test_url_choice(monkeypatch, tmp_path):
    monkeypatch.setenv("PLAYBENCH_DB", "sqlite:///from-env.sqlite3")
    assert db_engine.choose_url("sqlite:///explicit.sqlite3") == "sqlite:///explicit.sqlite3"
    assert db_engine.choose_url(None) == "sqlite:///from-env.sqlite3"
    monkeypatch.delenv("PLAYBENCH_DB")
    assert db_engine.choose_url(None).endswith("playbench.sqlite3")


async def _record(store, player, level, budget=Budget(max_actions=40), seed=0):
    task = Task("sokoban", level, {}, "test")
    ep = Episode(make_env(task), player, task, setting=get_setting("default"), budget=budget,
                 recorder=DbRecorder(store), seed=seed)
    return await ep.run()


async def test_every_step_and_frame_lands_in_the_database(db_url):
    store = Store(open_database(db_url))
    level = generate(1, seed=4, width=8, height=8, boxes=2)[0]
    result = await _record(store, RandomPlayer(), level, seed=1)
    rows = store.steps(result.episode_id)
    assert [(r.index, r.action, r.valid, r.state_hash) for r in rows] == \
        [(s.index, s.action, s.valid, s.state_hash) for s in result.steps]
    row = store.episode(result.episode_id)
    assert row.episode.status == "done" and row.episode.n_steps == len(rows)
    assert row.scores == pytest.approx(result.scores)
    # Frames are content-addressed: unchanged states share one stored frame.
    frames = {r.frame for r in rows}
    with store.db.engine.connect() as conn:
        n_frames = conn.exec_driver_sql("SELECT count(*) FROM frames").scalar()
    assert n_frames == len(frames | {row.episode.start_frame}) < len(rows) + 1
    png = store.frame_png(rows[0].frame)
    assert png.startswith(b"\x89PNG")


async def test_the_same_level_is_one_task(db_url):
    store = Store(open_database(db_url))
    level = generate(1, seed=4, width=8, height=8, boxes=2)[0]
    a = await _record(store, SolverPlayer(), level)
    b = await _record(store, RandomPlayer(), level)
    assert store.episode(a.episode_id).task.id == store.episode(b.episode_id).task.id


def test_revision_names_match_alembic():
    from alembic.script import ScriptDirectory

    from playbench.db.engine import _alembic_config, known_revisions
    script = ScriptDirectory.from_config(_alembic_config())
    ordered = [rev.revision for rev in reversed(list(script.walk_revisions()))]
    assert known_revisions() == ordered
    assert head_revision() == script.get_current_head()
