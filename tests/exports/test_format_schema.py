"""Issue 31: the JSONL line format is defined once (app/exports/schema.py) and used by the export,
the import and docs/export-format.md. These fail when the page's schema or tables and the models
disagree, or when the exporter writes a line the models do not describe."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.exports.jsonl import _step_texts
from playbench.app.exports.lines import validate_line
from playbench.app.exports.schema import (
    FILES,
    MAX_NUMBER,
    WHOLE,
    EpisodeLine,
    Manifest,
    StepLine,
    StudyLine,
    json_schema,
)
from tests.studies.helpers import run_cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "export-format.md"


def _doc_schema() -> dict:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- schema: begin -->\n```json\n(.*?)\n```\n<!-- schema: end -->", text,
                      re.S)
    assert block, "docs/export-format.md has no generated schema block"
    return json.loads(block.group(1))


def test_the_pages_schema_is_the_models():
    assert _doc_schema() == json_schema(), (
        "docs/export-format.md's JSON Schema differs from app/exports/schema.py: paste the "
        "output of `playbench export --schema` between its schema markers")


def _table_fields(section: str) -> list[str]:
    """The field names in the first column of the table under ``## section``."""
    text = DOC.read_text(encoding="utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    names: list[str] = []
    for line in body.splitlines():
        if line.startswith("| `"):
            names += re.findall(r"`([a-z_]+)`", line.split("|")[1])
    return names


def test_every_field_has_a_row_in_its_table_and_no_row_is_invented():
    for section, model in (("manifest.json", Manifest), ("episodes.jsonl", EpisodeLine),
                           ("steps.jsonl", StepLine), ("studies.jsonl", StudyLine)):
        fields = [f.alias or name for name, f in model.model_fields.items()]
        assert sorted(_table_fields(section)) == sorted(fields), section


def test_the_command_prints_the_schema_the_page_holds(tmp_path):
    r = run_cli(["export", "--schema"], db=f"sqlite:///{tmp_path / 'x.sqlite3'}", cwd=tmp_path)
    assert r.code == 0, r.err
    assert json.loads(r.out) == _doc_schema()


def test_exported_lines_are_the_models_fields_in_their_order(source):
    for name, model in FILES.items():
        path = source.bundle / name
        lines = [path.read_text()] if name.endswith(".json") else \
            path.read_text().splitlines()
        assert lines, name
        fields = [f.alias or n for n, f in model.model_fields.items()]
        for line in lines:
            obj = json.loads(line)
            assert list(obj) == fields, name
            model.model_validate_json(line)


# -- property: what the exporter writes, the importer reads back the same -----------------------

_WHOLE = st.integers(0, WHOLE)
_MEASURE = st.floats(0, MAX_NUMBER, allow_nan=False)
_TEXT = st.text(max_size=30)
_INFO = st.dictionaries(_TEXT, st.one_of(st.none(), st.booleans(), st.integers(-2 ** 60, 2 ** 60),
                                         st.floats(allow_nan=False, allow_infinity=False),
                                         _TEXT), max_size=4)


@settings(max_examples=300, deadline=None)
@given(st.tuples(st.just(1), _WHOLE, _WHOLE, st.none() | st.text(max_size=2000), _TEXT,
                 st.booleans(), st.none() | st.text(max_size=40), st.none() | _TEXT,
                 st.booleans(), st.floats(-MAX_NUMBER, MAX_NUMBER, allow_nan=False),
                 st.text(max_size=64), st.none() | st.text("0123456789abcdef", min_size=64,
                                                           max_size=64),
                 _MEASURE, _WHOLE, _WHOLE, _MEASURE, _MEASURE), _INFO)
def test_an_exported_step_line_reads_back_as_written(row, info):
    line = _step_texts("e-1", [(*row, json.dumps(info, ensure_ascii=False))])[0]
    back = validate_line("steps.jsonl:1", line, StepLine)
    (_, index, decision, action, raw, valid, invalid_kind, invalid_reason, changed, reward,
     state_hash, frame, think_ms, prompt, completion, cost, latency_ms) = row
    assert (back.index, back.decision, back.action, back.raw, back.valid, back.invalid_kind,
            back.invalid_reason, back.changed, back.reward, back.state_hash, back.think_ms,
            back.tokens.prompt, back.tokens.completion, back.cost, back.latency_ms) == (
        index, decision, action, raw, valid, invalid_kind, invalid_reason, changed, reward,
        state_hash, think_ms, prompt, completion, cost, latency_ms)
    assert back.frame == (f"{frame}.png" if frame else None)
    assert back.info == info
