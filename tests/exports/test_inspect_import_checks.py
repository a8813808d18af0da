"""What ``playbench import`` does with Inspect logs it should not take whole: another tool's
log, a PlayBench log edited afterwards, a newer PlayBench's, one too large, arbitrary bytes; and
what the export says without the optional ``inspect`` extra. Each refusal names the log (and the
sample) and leaves the database as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSpec, read_eval_log, write_eval_log

from playbench.app.exports import inspect_import
from playbench.app.exports.inspect_import import import_inspect, inspect_logs
from playbench.app.exports.inspect_log import export_inspect
from playbench.app.exports.lines import ImportProblem
from playbench.db.engine import open_database
from playbench.db.store import Store
from tests.exports.conftest import snapshot


@pytest.fixture(scope="module")
def logs(source, tmp_path_factory) -> Path:
    """The source study's Inspect export (people and scripts on Sokoban and maze)."""
    out = tmp_path_factory.mktemp("inspect")
    export_inspect(source.store, out)
    return out


@pytest.fixture
def empty(tmp_path):
    store = Store(open_database(f"sqlite:///{tmp_path / 'empty.sqlite3'}"))
    yield store
    store.db.dispose()


def _copy(logs: Path, to: Path) -> Path:
    to.mkdir()
    for p in logs.glob("*.eval"):
        (to / p.name).write_bytes(p.read_bytes())
    return to


def _refused(store: Store, paths: list[Path], match: str) -> None:
    before = snapshot(store)
    with pytest.raises(ImportProblem, match=match):
        import_inspect(store, paths)
    assert snapshot(store) == before


def test_json_logs_import_like_eval_logs(logs, source, empty, tmp_path):
    as_json = tmp_path / "json"
    as_json.mkdir()
    for p in logs.glob("*.eval"):
        write_eval_log(read_eval_log(str(p)), str(as_json / f"{p.stem}.json"), format="json")
    found = inspect_logs(as_json)
    assert len(found) == len(list(logs.glob("*.eval"))) and all(p.suffix == ".json"
                                                                  for p in found)
    import_inspect(empty, found)
    assert snapshot(empty) == snapshot(source.store)


def test_another_tools_log_is_refused_by_name(empty, tmp_path):
    foreign = EvalLog(status="success", eval=EvalSpec(
        created="2026-01-01T00:00:00+00:00", task="theory_of_mind", dataset=EvalDataset(),
        model="openai/gpt-4o", config=EvalConfig()))
    path = tmp_path / "foreign.eval"
    write_eval_log(foreign, str(path))
    _refused(empty, [path], r"^foreign\.eval: an Inspect log PlayBench did not write")


def test_an_edited_step_is_refused_with_its_log_and_sample(logs, empty, tmp_path):
    copy = _copy(logs, tmp_path / "edited")
    path = sorted(copy.glob("*.eval"))[-1]
    log = read_eval_log(str(path), resolve_attachments=True)
    sample = log.samples[0]
    sample.metadata["playbench"]["steps"][1]["reward"] = "lots"
    write_eval_log(log, str(path))
    _refused(empty, inspect_logs(copy),
             rf"^{path.name}: sample {sample.id} epoch 1: steps\[1\]: field 'reward' has the "
             r"wrong type \(str\)$")


def test_a_sample_another_tool_added_is_refused(logs, empty, tmp_path):
    copy = _copy(logs, tmp_path / "added")
    path = sorted(copy.glob("*.eval"))[0]
    log = read_eval_log(str(path), resolve_attachments=True)
    log.samples[0].metadata.pop("playbench")
    write_eval_log(log, str(path))
    _refused(empty, inspect_logs(copy), "its metadata has no PlayBench episode and steps")


def test_a_newer_playbenchs_log_is_refused(logs, empty, tmp_path):
    copy = _copy(logs, tmp_path / "newer")
    path = sorted(copy.glob("*.eval"))[0]
    log = read_eval_log(str(path), resolve_attachments=True)
    log.eval.metadata["playbench"]["schema_version"] = 99
    write_eval_log(log, str(path))
    _refused(empty, inspect_logs(copy), "written by a newer PlayBench")


def test_a_log_larger_than_the_limit_is_refused_before_it_is_read(logs, empty, monkeypatch):
    biggest = max(logs.glob("*.eval"), key=lambda p: p.stat().st_size)
    monkeypatch.setattr(inspect_import, "MAX_LOG_BYTES", 4096)
    _refused(empty, [biggest], "bytes unpacked; PlayBench reads logs of at most 4,096")


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=300),
                      st.builds(lambda t: b'{"version": 2, "status": "success", ' + t,
                                st.binary(max_size=200)),
                      st.builds(lambda t: b"PK\x03\x04" + t, st.binary(max_size=200))),
       suffix=st.sampled_from([".eval", ".json"]))
def test_any_bytes_are_refused_as_import_problems(body, suffix, empty, tmp_path):
    path = tmp_path / f"log{suffix}"
    path.write_bytes(body)
    found = inspect_logs(path)
    if found:
        _refused(empty, found, path.name)


def test_without_the_inspect_extra_the_command_names_it(tmp_path):
    code = ("import sys; sys.modules['inspect_ai'] = None; from playbench.app.cli import main; "
            f"sys.exit(main(['export', '--format', 'inspect', '--out', {str(tmp_path)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PLAYBENCH_DB": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                               "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=60)
    assert done.returncode != 0
    assert "optional 'inspect' extra" in done.stderr and "playbench[inspect]" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_long_group_is_split_into_parts_that_import_whole(source, empty, tmp_path,
                                                            monkeypatch):
    from playbench.app.exports import inspect_log
    monkeypatch.setattr(inspect_log, "PART_STEPS", 30)
    out = tmp_path / "parts"
    report = export_inspect(source.store, out)
    logs = [read_eval_log(str(p)) for p in report.logs]
    parts = [log for log in logs if log.eval.metadata["playbench"]["part"] > 1]
    assert parts, "a group over 30 steps is written in parts"
    for log in logs:
        steps = [len(s.metadata["playbench"]["steps"]) for s in log.samples]
        assert sum(steps) - steps[-1] < 30  # full before its last episode, not after
    ids = [(log.eval.model, log.eval.task_args["setting"], s.id, s.epoch)
           for log in logs for s in log.samples]
    assert len(ids) == len(set(ids)) == report.episodes  # epochs go on across parts
    import_inspect(empty, inspect_logs(out))
    assert snapshot(empty) == snapshot(source.store)
