"""The one YAML reader (games/yamlfile.py): alias bombs, deep nesting and big files are refused
with a short message naming the line and column; everything else reads as PyYAML reads it."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.games import yamlfile
from playbench.games.yamlfile import (
    MAX_ALIAS_NODES,
    MAX_BYTES,
    MAX_DEPTH,
    YamlError,
    load_yaml,
    read_text,
    read_yaml,
)
from tests.yaml_bombs import alias_bomb, block_nesting, flow_nesting

SHORT = 400
"""The longest message any refusal may print (the inputs below are up to megabytes)."""


def refusal(text: str) -> YamlError:
    with pytest.raises(YamlError) as caught:
        load_yaml(text, "f.yaml")
    err = caught.value
    assert len(str(err)) < SHORT, str(err)
    return err


def test_an_alias_bomb_is_refused_at_the_alias_that_passes_the_limit():
    err = refusal(alias_bomb("key", levels=9))
    assert err.line is not None and err.column is not None
    assert "aliases stand for more than 100,000 values" in err.problem
    assert str(err).startswith(f"f.yaml: line {err.line}, column {err.column}: ")


def test_shared_values_within_the_limit_read_as_pyyaml_reads_them():
    # PyYAML's own dump anchors a repeated value (GameWorld's catalog holds one)
    shared = {"cells": {f"c{i}": [i, i + 1] for i in range(50)}}
    text = yaml.safe_dump({"a": shared, "b": shared, "c": [shared] * 5})
    assert "&id001" in text and "*id001" in text
    assert load_yaml(text) == yaml.safe_load(text)
    small_bomb = alias_bomb("key", levels=3)  # 1,000 strings: harmless, so accepted
    assert load_yaml(small_bomb) == yaml.safe_load(small_bomb)


def test_many_small_aliases_add_up():
    anchor = "base: &b {" + ", ".join(f"k{i}: {i}" for i in range(99)) + "}\n"
    # each alias stands for 199 nodes (the mapping, 99 keys, 99 values)
    uses = MAX_ALIAS_NODES // 199 + 1
    text = anchor + "uses:\n" + "".join("  - *b\n" for _ in range(uses))
    err = refusal(text)
    assert err.line == 2 + uses and "aliases stand for" in err.problem
    ok = anchor + "uses:\n" + "".join("  - *b\n" for _ in range(uses - 1))
    assert len(load_yaml(ok)["uses"]) == uses - 1


def test_a_value_that_contains_itself_is_refused():
    err = refusal("a: &x [1, *x]\n")
    assert (err.line, err.column) == (1, 11) and "cannot contain itself" in err.problem


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500])
def test_nesting_past_the_limit_is_refused(depth):
    err = refusal(block_nesting(depth))
    assert err.problem.startswith(f"lists and mappings nest deeper than {MAX_DEPTH} levels")
    assert err.line == MAX_DEPTH + 1
    assert load_yaml(block_nesting(MAX_DEPTH)) is not None


def test_flow_nesting_a_hundred_thousand_deep_is_refused():
    err = refusal(flow_nesting(100_000))
    assert err.line == 1 and err.column is not None and err.column <= 1100
    assert "nest" in err.problem


def test_a_big_file_is_refused_unread(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("items:\n" + "  - xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n" * 200_000)
    with pytest.raises(YamlError) as caught:
        read_yaml(big)
    assert str(caught.value) == (f"{big}: too big: {big.stat().st_size / 1e6:.1f} MB "
                                 "(PlayBench reads YAML files of up to 4 MiB)")
    with pytest.raises(YamlError, match="too big"):
        load_yaml("a: " + "x" * MAX_BYTES)


def test_a_device_without_a_size_is_refused_after_the_limit():
    with pytest.raises(YamlError, match=r"^/dev/zero: too big: 4\.2 MB"):
        read_text(Path("/dev/zero"))


def test_unreadable_and_non_utf8_files_are_named(tmp_path):
    with pytest.raises(YamlError, match=r"nope\.yaml: cannot be read \(No such file"):
        read_yaml(tmp_path / "nope.yaml")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(YamlError, match=r"latin\.yaml: line 2: not UTF-8 text"):
        read_yaml(latin)


@pytest.mark.parametrize("text,where,problem", [
    ("name: x\nbudget: 3\n\tfoo: 1\n", (3, 1), "not valid YAML (found a tab character"),
    ("a: [1, 2\nb: 3\n", (2, 2), "not valid YAML (did not find expected ',' or ']'"),
    ("a: *nowhere\n", (1, 4), "not valid YAML (found undefined alias 'nowhere'"),
    ("a: 2001-13-01\n", (1, 4), "not valid YAML (cannot read this value (month must be"),
    ("a: " + "9" * 5000 + "\n", (1, 4), "not valid YAML (cannot read this value (Exceeds"),
    ("a: !!python/object:os.system x\n", (1, 4), "not valid YAML (could not determine a "
                                                 "constructor"),
])
def test_mistakes_name_line_and_column_and_quote_little(text, where, problem):
    err = refusal(text)
    assert (err.line, err.column) == where and err.problem.startswith(problem), err.problem


def test_a_long_line_is_quoted_as_a_short_excerpt():
    text = "a: b\n" + "c: " + "d" * 1_000_000 + ": e\n"
    err = refusal(text)
    assert err.line == 2 and "..." in err.problem


def test_the_c_parser_is_used_when_pyyaml_has_it():
    assert yaml.__with_libyaml__ == yamlfile.C_PARSER


YAMLISH = st.text(alphabet="ab01 :-[]{},&*!|>'\"#?\n\t%@`.\\", max_size=120)
FRAGMENTS = st.lists(st.sampled_from([
    "a: ", "- ", "&x ", "*x", "[", "]", "{", "}", ", ", "\n", "  ", "? ", "!!str ", "!!int ",
    "!!binary ", "<<: ", "|\n", "'q'", '"\\u00e9"', "1e999", ".nan", "2001-02-30", "~", "#c",
    "---\n", "...\n", "%YAML 1.1\n", "\t", "&y ", "*y",
]), max_size=40).map("".join)


def _same(a: object, b: object) -> bool:
    """Equal, counting NaN as equal to itself (``.nan`` reads as a float NaN)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return repr(a) == repr(b)


@settings(max_examples=300, deadline=None)
@given(st.one_of(YAMLISH, FRAGMENTS))
def test_any_text_gives_a_value_or_our_error(text):
    try:
        value = load_yaml(text, "p.yaml")
    except YamlError as err:
        assert str(err).startswith("p.yaml: ") and len(str(err)) < SHORT
        return
    try:
        expected = yaml.load(text, Loader=yaml.CSafeLoader if yaml.__with_libyaml__
                             else yaml.SafeLoader)
    except (yaml.YAMLError, ValueError, OverflowError):
        # PyYAML raised what we read fine: never, as our parser is PyYAML's
        raise AssertionError(f"PyYAML refuses what was read: {text!r}") from None
    assert _same(value, expected)


def test_no_other_product_module_reads_yaml_itself():
    """Every YAML read goes through games/yamlfile.py, so its limits hold everywhere."""
    root = Path(__file__).resolve().parents[2]
    readers = []
    for package in ("app", "games", "db", "evaluators", "resources"):
        for path in (root / package).rglob("*.py"):
            if path.name == "yamlfile.py" and path.parent.name == "games":
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"^\s*(import yaml\b|from yaml[. ])", text, re.MULTILINE):
                readers.append(str(path.relative_to(root)))
    assert readers == []
