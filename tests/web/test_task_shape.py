"""Issue 31 (web task files): the task object's own fields are read through one typed model;
a field of the wrong type - anywhere, including inside PlayBench's own ``playbench`` block - gets
one line from ``web check`` naming the task file, the task and the field, never a traceback, and
never passes unnoticed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.app.cli import main
from playbench.games.web.tasks import load_text, task_from_level
from tests.web.test_tasks import _task

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=3),
    max_leaves=6)
"""Any JSON value a task file could hold."""


def _whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(s, str) for s in v)


FINE = {
    # what VWA's files and PlayBench's block accept for each field (docs/reference/web.md)
    "task_id": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "geolocation": lambda v: v is None or (isinstance(v, dict)
                                           and {"latitude", "longitude"} <= set(v)),
    "viewport_size": lambda v: v is None or (isinstance(v, dict) and set(v) <= {"width", "height"}
                                             and all(_whole(x, 100, 8000) for x in v.values())),
    "image": lambda v: v is None or isinstance(v, (str, list)),
    "eval": lambda v: v is None or isinstance(v, dict),
    "playbench": lambda v: v is None or isinstance(v, dict),
    "playbench.reference": _strings,
    "playbench.wrong": _strings,
    "playbench.viewport": lambda v: v is None or (isinstance(v, list) and len(v) == 2
                                                  and all(_whole(x, 200, 8000) for x in v)),
}


def _with(field: str, value: Any) -> dict[str, Any]:
    """A good task with ``field`` (``playbench.x``: inside the block) set to ``value``."""
    top, _, sub = field.partition(".")
    return _task(**{top: {sub: value} if sub else value})


@st.composite
def malformed(draw: st.DrawFn) -> tuple[str, Any]:
    field = draw(st.sampled_from(sorted(FINE)))
    value = draw(JSON.filter(lambda v: not FINE[field](v)))
    return field, value


def _check_dir(tmp: Path, tasks: list[dict[str, Any]], capsys: Any) -> tuple[int, list[str], str]:
    (tmp / "tasks.json").write_text(json.dumps(tasks))
    code = main(["web", "check", "--site", "CLASSIFIEDS=http://127.0.0.1:9", str(tmp)])
    captured = capsys.readouterr()
    return code, captured.out.strip().splitlines(), captured.err


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(malformed())
def test_a_malformed_field_is_named_with_its_file_never_a_traceback(tmp_path, capsys, bad):
    field, value = bad
    code, lines, err = _check_dir(tmp_path, [_task(task_id=3), _with(field, value)], capsys)
    assert "Traceback" not in err
    assert code == 1, lines
    assert lines[0] == "tasks.json: task 3: ok"
    assert lines[1].startswith("tasks.json: task ") and ": unusable: " in lines[1]
    assert f"unusable: {field}: " in lines[1] or f"; {field}: " in lines[1], lines[1]


def test_a_playbench_block_of_the_wrong_shape_is_reported_not_dropped_or_reshaped(
        tmp_path, capsys):
    tasks = [_task(task_id=1, playbench="solve it"),
             _task(task_id=2, playbench={"reference": 5}),
             _task(task_id=3, playbench={"reference": "click [#go]"}),
             _task(task_id=4, playbench={"viewport": 5}),
             _task(task_id=5, playbench={"wrong": [1, 2], "viewport": [800, 600]}),
             _task(task_id=6, playbench={"reference": ["stop [1]"], "viewport": [800, 600]})]
    code, lines, err = _check_dir(tmp_path, tasks, capsys)
    assert "Traceback" not in err and code == 1
    assert lines == [
        "tasks.json: task 1: unusable: playbench: must be an object",
        "tasks.json: task 2: unusable: playbench.reference: must be a list of action texts",
        "tasks.json: task 3: unusable: playbench.reference: must be a list of action texts",
        "tasks.json: task 4: unusable: playbench.viewport: must be [width, height] in pixels "
        "(200..8000)",
        "tasks.json: task 5: unusable: playbench.wrong: must be a list of action texts",
        "tasks.json: task 6: ok"]


def test_a_good_block_is_read_as_before_and_a_bad_one_gives_no_trajectories():
    good, bad = load_text(json.dumps([
        _task(task_id=1, playbench={"reference": ["stop [1]"], "wrong": ["stop [0]"],
                                    "viewport": [800, 600], "note": "kept out"}),
        _task(task_id=2, playbench={"reference": "stop [1]", "viewport": [800, 600]})]),
        "t.json")
    task = task_from_level(good)
    assert (task.reference, task.wrong, task.viewport) == (("stop [1]",), ("stop [0]",),
                                                           (800, 600))
    assert json.loads(good.text)["playbench"] == {"reference": ["stop [1]"],
                                                  "wrong": ["stop [0]"], "viewport": [800, 600]}
    broken = task_from_level(bad)
    assert (broken.reference, broken.viewport) == ((), None)
    assert json.loads(bad.text)["playbench"] == {"reference": "stop [1]", "viewport": [800, 600]}
