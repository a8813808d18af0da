"""Football scenario files: the bundled set's shape, a round trip through the file format, a
person's own file, and errors that name the line (no engine needed)."""

from collections import Counter
from pathlib import Path

import pytest

from playbench.games.base import LevelError
from playbench.games.football import scenarios
from playbench.games.football.kind import KIND, SPEC
from playbench.games.packs import load_file


def test_the_bundled_set_has_every_zone_and_category_four_times():
    levels = KIND.load("magebench")
    cells = Counter((lv.meta["zone"], lv.meta["category"]) for lv in levels)
    assert set(cells) == {(z, c) for z in scenarios.ZONES for c in scenarios.CATEGORIES}
    assert set(cells.values()) == {scenarios.PER_CELL}
    assert len({lv.text for lv in levels}) == len(levels)  # no two scenarios alike


def test_the_mini_set_is_part_of_the_full_set_and_covers_every_zone():
    full = {lv.text for lv in KIND.load("magebench")}
    mini = KIND.load("magebench-mini")
    assert {lv.text for lv in mini} <= full
    assert {lv.meta["zone"] for lv in mini} == set(scenarios.ZONES)


def test_the_bundled_files_are_what_the_generator_writes(tmp_path):
    scenarios.write_bundled(tmp_path)
    for name in ("magebench", "magebench-mini"):
        shipped = (Path(scenarios.__file__).parent / "scenarios" / f"{name}.football")
        assert (tmp_path / f"{name}.football").read_text() == shipped.read_text()


def test_scenario_file_round_trip(tmp_path):
    levels = KIND.load("magebench:1-12")
    text = scenarios.dump(levels)
    path = tmp_path / "mine.football"
    path.write_text(text)
    again = load_file(SPEC, path)
    assert [(lv.text, lv.title, dict(lv.meta)) for lv in again] == \
        [(lv.text, lv.title, dict(lv.meta)) for lv in levels]
    parsed = [scenarios.scenario_of(lv) for lv in again]
    assert [scenarios.body(s) for s in parsed] == [lv.text for lv in levels]
    assert scenarios.dump(again) == text


def test_a_persons_own_scenario_loads_with_its_players(tmp_path):
    path = tmp_path / "corner.football"
    path.write_text("; my corner\nzone 9\ncategory teamwork\nball 0.900 0.400\n"
                    "L GK -1.000 0.000\nL CF 0.880 0.380\nL AM 0.800 0.100\n"
                    "R GK 1.000 0.000\nR CB 0.950 0.050\n")
    (lv,) = KIND.load(str(path))
    s = scenarios.scenario_of(lv)
    assert (lv.title, s.zone, s.category) == ("my corner", 9, "teamwork")
    assert [(p.side, p.role) for p in s.players] == [("L", "GK"), ("L", "CF"), ("L", "AM"),
                                                    ("R", "GK"), ("R", "CB")]
    grf = s.grf()
    # GRF places the right team in its frame; neither lazy nor kept from control
    assert grf["right"][1] == [-0.95, -0.05, "CB", False, True]
    KIND.check_level(lv)


@pytest.mark.parametrize("bad, line, words", [
    ("zone 10", 2, "zone must be 1 to 9"),
    ("category lucky", 3, "category must be one of"),
    ("ball 1.5 0", 4, "off the pitch"),
    ("L XX 0 0", 5, "role must be one of"),
    ("L CM 0 zero", 5, "y must be a number"),
])
def test_a_broken_line_is_named(tmp_path, bad, line, words):
    good = ["; t", "zone 1", "category personal", "ball 0 0", "L CM 0.1 0.1",
            "L GK -1 0", "R GK 1 0"]
    good[line - 1] = bad
    path = tmp_path / "bad.football"
    path.write_text("\n".join(good) + "\n")
    with pytest.raises(LevelError) as err:
        KIND.load(str(path))
    assert words in str(err.value)
    assert f"bad.football:{line}:" in str(err.value)


def test_each_side_needs_exactly_one_keeper(tmp_path):
    path = tmp_path / "nokeeper.football"
    path.write_text("zone 1\ncategory personal\nball 0 0\nL CM 0 0\nR GK 1 0\n")
    with pytest.raises(LevelError, match="our team .* needs exactly one GK"):
        KIND.load(str(path))


def test_the_sketch_marks_every_player_in_its_colour():
    from playbench.games.football.render import BALL, OURS, THEIRS, sketch
    lv = KIND.load("magebench-mini:1")[0]
    pic = sketch(scenarios.scenario_of(lv), 400)
    count = {c: int((pic == c).all(axis=2).sum()) for c in (OURS, THEIRS, BALL)}
    assert all(count.values())
    thumb = KIND.thumbnail(lv, 64)
    assert thumb is not None and thumb.shape[1] == 64 and thumb.dtype.name == "uint8"


def test_settings_and_player_flags_round_trip_and_bad_ones_are_named(tmp_path):
    path = tmp_path / "set.football"
    text = ("; set\nzone 2\ncategory personal\nconfig offsides true\n"
            "config right_team_difficulty 0.25\nball -0.8107 0.1\nL GK -1.0 0.0 uncontrollable\n"
            "L CF -0.7 0.0 lazy\nR GK 0.99 0.0\n")
    path.write_text(text)
    (lv,) = KIND.load(str(path))
    s = scenarios.scenario_of(lv)
    assert [(p.lazy, p.controllable) for p in s.players] == [(False, False), (True, True),
                                                            (False, True)]
    assert s.grf()["config"] == {"offsides": True, "right_team_difficulty": 0.25}
    assert scenarios.scenario_of(scenarios.level(s, 1)) == s
    assert "ball -0.8107 0.1" in scenarios.body(s)  # four decimals stay
    for bad, words in (("config offsides maybe", "true or false"),
                       ("config frames 3", "not a setting"),
                       ("L CF -0.7 0.0 sleepy", "lazy and uncontrollable")):
        path.write_text(text.replace("config offsides true", bad).replace(
            "L CF -0.7 0.0 lazy", bad if bad.startswith("L") else "L CF -0.7 0.0 lazy"))
        with pytest.raises(LevelError, match=words) as err:
            KIND.load(str(path))
        assert err.value.source == str(path) and err.value.line in (4, 8)
