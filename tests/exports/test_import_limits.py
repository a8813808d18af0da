"""Issue 27, foreign files: an export is untrusted input. Numbers too big for their column, NaN,
Infinity, a line nested 100,000 deep and a manifest that lies are refused naming the file,
line and field, with nothing written; a long import says what it is doing on stderr."""

from __future__ import annotations

import io
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.cli.transfer import ProgressLine
from playbench.app.exports.importer import import_bundle
from playbench.app.exports.lines import ImportProblem, parse_line, validate_line
from playbench.app.exports.schema import MAX_NUMBER, WHOLE, StepLine
from tests.exports.test_import import copy_bundle, counts, edit_line, fresh
from tests.studies.helpers import run_cli


def set_field(name, value, inside=None):
    def change(line: str) -> str:
        obj = json.loads(line)
        (obj[inside] if inside else obj)[name] = value
        return json.dumps(obj)
    return change


def raw_field(name, literal):
    """Put ``literal`` (JSON text as written, e.g. ``1e999``) as the value of ``name``."""
    def change(line: str) -> str:
        obj = json.loads(line)
        obj[name] = "@@"
        return json.dumps(obj).replace('"@@"', literal)
    return change


def manifest_field(name, value):
    def change(line: str) -> str:
        obj = json.loads(line)
        obj[name] = value
        return json.dumps(obj)
    return change


DEEP = "[" * 100_000 + "]" * 100_000

REFUSALS = [
    ("steps.jsonl", 3, raw_field("think_ms", "1" + "0" * 400),
     "steps.jsonl:3: field 'think_ms' must be a number from 0 to 1e+15"),
    ("steps.jsonl", 4, set_field("reward", float("nan")),
     "steps.jsonl:4: field 'reward' is NaN, which is not a finite number"),
    ("steps.jsonl", 5, raw_field("reward", "1e999"),
     "steps.jsonl:5: field 'reward' is 1e999, which is not a finite number"),
    ("steps.jsonl", 2, raw_field("cost", "-Infinity"),
     "steps.jsonl:2: field 'cost' is -Infinity, which is not a finite number"),
    ("steps.jsonl", 6, raw_field("info", DEEP),
     "steps.jsonl:6: JSON nested deeper than PlayBench reads"),
    ("steps.jsonl", 3, set_field("latency_ms", -5), "steps.jsonl:3: field 'latency_ms' must"),
    ("steps.jsonl", 3, set_field("decision", 2 ** 40), "steps.jsonl:3: field 'decision' must be"
                                                       " a whole number from 0 to 2,147,483,647"),
    ("steps.jsonl", 4, set_field("tokens", {"prompt": -1, "completion": 0}),
     "steps.jsonl:4: field 'tokens' must hold whole numbers"),
    ("steps.jsonl", 2, set_field("invalid_kind", "k" * 41),
     "steps.jsonl:2: field 'invalid_kind' is 41 characters long; at most 40 are stored"),
    ("episodes.jsonl", 2, set_field("seed", 10 ** 12), "episodes.jsonl:2: field 'seed' must be"),
    ("episodes.jsonl", 1, set_field("setting", "x" * 81), "episodes.jsonl:1: field 'setting' is"),
    ("episodes.jsonl", 3, set_field("solved", float("inf"), inside="scores"),
     "episodes.jsonl:3: field 'solved' is Infinity, which is not a finite number"),
    ("episodes.jsonl", 3, set_field("solved", "yes", inside="scores"),
     "episodes.jsonl:3: scores: field 'solved' has the wrong type (str)"),
    ("episodes.jsonl", 2, set_field("participant", {"kind": "human", "name": "n" * 201}),
     "episodes.jsonl:2: participant: field 'name' is 201 characters long"),
    ("episodes.jsonl", 1, set_field("number", 2 ** 31, inside="level"),
     "episodes.jsonl:1: level: field 'number' must be a whole number"),
    ("manifest.json", 1, manifest_field("episodes", "two"),
     "manifest.json: field 'episodes' has the wrong type (str)"),
    ("manifest.json", 1, manifest_field("steps", -1),
     "manifest.json: field 'steps' must be a whole number"),
]


@pytest.mark.parametrize("name,line,change,message", REFUSALS,
                         ids=[m.split(": ", 1)[1][:40] for *_, m in REFUSALS])
def test_a_bad_field_is_named_and_nothing_is_written(source, tmp_path, name, line, change,
                                                    message):
    bundle = copy_bundle(source, tmp_path)
    if name == "manifest.json":
        path = bundle / name
        path.write_text(change(path.read_text().replace("\n", " ")))
    else:
        edit_line(bundle / name, line, change)
    target = fresh(tmp_path / "t.sqlite3")
    with pytest.raises(ImportProblem) as caught:
        import_bundle(target, bundle)
    assert str(caught.value).startswith(message), str(caught.value)
    assert len(str(caught.value)) < 300
    assert counts(target) == [0, 0, 0, 0, 0]
    target.db.dispose()


def test_a_manifest_that_miscounts_its_episodes_is_refused(source, tmp_path):
    """A bundle whose last episodes were lost in the copy is otherwise consistent."""
    bundle = copy_bundle(source, tmp_path)
    manifest = json.loads((bundle / "manifest.json").read_text())
    episodes = (bundle / "episodes.jsonl").read_text().splitlines()
    last = json.loads(episodes[-1])["id"]
    (bundle / "episodes.jsonl").write_text("\n".join(episodes[:-1]) + "\n")
    steps = [s for s in (bundle / "steps.jsonl").read_text().splitlines()
             if json.loads(s)["episode"] != last]
    (bundle / "steps.jsonl").write_text("\n".join(steps) + "\n")
    target = fresh(tmp_path / "t.sqlite3")
    with pytest.raises(ImportProblem) as caught:
        import_bundle(target, bundle)
    assert str(caught.value) == (
        f"manifest.json: field 'episodes' says {manifest['episodes']:,}, the export holds "
        f"{manifest['episodes'] - 1:,} (a file cut short, or from another export?)")
    assert counts(target) == [0, 0, 0, 0, 0]
    target.db.dispose()


def test_the_command_refuses_nan_without_a_traceback(source, tmp_path):
    bundle = copy_bundle(source, tmp_path)
    edit_line(bundle / "steps.jsonl", 4, set_field("reward", float("nan")))
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    r = run_cli(["import", str(bundle)], db=url, cwd=tmp_path)
    assert r.code == 1, r.err
    assert "Traceback" not in r.err and "INSERT" not in r.err, r.err
    assert r.err.strip() == (f"playbench import: {bundle}/steps.jsonl:4: field 'reward' is NaN, "
                             "which is not a finite number (JSON numbers must be finite) - "
                             "nothing imported")


def test_progress_is_quiet_at_first_then_at_most_once_per_interval():
    now = [100.0]
    out = io.StringIO()
    line = ProgressLine(out, every=5.0, clock=lambda: now[0])
    for t, steps in ((1, 10_000), (4.9, 20_000), (5.0, 30_000), (7, 40_000), (10.5, 50_000)):
        now[0] = 100.0 + t
        line("checking", steps)
    now[0] = 112.0
    line("writing", 2000)  # a new phase: its rate counts from here
    now[0] = 116.0
    line("writing", 40_000)
    assert out.getvalue().splitlines() == [
        "checking: 30,000 steps (6,000/s, 5 s so far)",
        "checking: 50,000 steps (4,762/s, 10 s so far)",
        "writing: 40,000 steps (10,000/s, 16 s so far)",
    ]


# -- property tests of the line parser -----------------------------------------------------------

JSONISH = st.text(alphabet='{}[]":,0123456789.eE+-NaInfityrulsx \\', max_size=80)


@settings(max_examples=400, deadline=None)
@given(st.one_of(JSONISH, st.text(max_size=60)))
def test_any_line_gives_an_object_or_our_problem(line):
    try:
        obj = parse_line("f.jsonl:1", line)
    except ImportProblem as err:
        assert str(err).startswith("f.jsonl:1: ") and len(str(err)) < 300
        return
    assert isinstance(obj, dict)
    assert obj == json.loads(line)


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                max_size=3),
    max_leaves=12)


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), VALUES, max_size=4))
def test_objects_read_back_exactly_unless_a_number_is_not_finite(obj):
    line = json.dumps(obj)
    if _finite(obj):
        assert parse_line("f.jsonl:1", line) == obj
    else:
        with pytest.raises(ImportProblem, match="which is not a finite number"):
            parse_line("f.jsonl:1", line)


GOOD_STEP = {"episode": "e", "index": 0, "decision": 0, "action": "U", "raw": "U",
             "valid": True, "changed": True, "reward": 0.0, "state_hash": "ab",
             "think_ms": 1.5, "tokens": {"prompt": 0, "completion": 0}, "cost": 0.0,
             "latency_ms": 0.0, "info": {}, "invalid_kind": None, "invalid_reason": None}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(list(StepLine.model_fields)),
       st.one_of(VALUES, st.integers(min_value=-2 ** 70, max_value=2 ** 70)))
def test_a_step_with_any_value_in_any_field_passes_or_is_named(field, value):
    step = {**GOOD_STEP, field: value}
    try:
        validate_line("steps.jsonl:9", json.dumps(step), StepLine)
    except ImportProblem as err:
        assert str(err).startswith(("steps.jsonl:9: field ", "steps.jsonl:9: frame ")) or (
            "which is not a finite number" in str(err)), str(err)
        return
    # what passes fits its column: finite, in range, short enough
    for name in ("reward", "think_ms", "cost", "latency_ms"):
        v = step[name]
        assert v is None or (not isinstance(v, bool) and abs(v) <= MAX_NUMBER)
    assert 0 <= step["decision"] <= WHOLE
    assert all(type(step["tokens"][k]) is int for k in ("prompt", "completion"))
