"""MageBench's own football files - the list files, the scenario builders ``R<zone>_<P|T|R>_<k>.py``
and a folder of them - read as data (``data/magebench/resources`` is our own fixture set in
MageBench's layout and syntax). The numbers are compared with the files' text read by a regular
expression here, not by the importer's own parser."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.games.base import LevelError
from playbench.games.football import scenarios
from playbench.games.football.kind import KIND
from playbench.games.football.magebench_files import scenario_from_text

RESOURCES = Path(__file__).parent / "data" / "magebench" / "resources"
ALL = RESOURCES / "Football_all.json"
MINI = RESOURCES / "Football_mini.json"
CALL = re.compile(r"AddPlayer\(([-0-9.]+), ([-0-9.]+), e_PlayerRole_(\w\w)(.*)\)")


def file_players(path: Path) -> list[tuple[str, str, str, str, str]]:
    """(team, x, y, role, rest) per AddPlayer line of a fixture, as written."""
    team, out = "L", []
    for line in path.read_text().splitlines():
        if "SetTeam(Team.e_Right)" in line:
            team = "R"
        m = CALL.search(line)
        if m:
            out.append((team, *m.groups()))
    return out


def ball_of(path: Path) -> tuple[str, str]:
    m = re.search(r"SetBallPosition\(([-0-9.]+), ([-0-9.]+)\)", path.read_text())
    assert m
    return m.group(1), m.group(2)


def test_a_list_file_gives_its_scenarios_in_its_order_with_magebench_names():
    levels = KIND.load(str(ALL))
    names = [Path(p).stem for p in json.loads(ALL.read_text())]
    assert [lv.title for lv in levels] == names == ["R5_T_3", "R1_P_1", "R9_R_2"]
    assert [lv.number for lv in levels] == [1, 2, 3]
    assert [lv.meta["category"] for lv in levels] == ["teamwork", "personal", "real-world"]
    assert [lv.title for lv in KIND.load(f"{MINI}:2")] == ["R5_T_3"]
    assert [lv.title for lv in KIND.load(f"{ALL}:2-3")] == ["R1_P_1", "R9_R_2"]


def test_a_single_file_and_a_folder_are_sources_too():
    (one,) = KIND.load(str(RESOURCES / "Football" / "R1_P_1.py"))
    assert one.title == "R1_P_1" and one.meta["magebench"] == "R1_P_1"
    folder = KIND.load(str(RESOURCES / "Football"))
    assert [lv.title for lv in folder] == ["R1_P_1", "R5_T_3", "R9_R_2"]


def test_positions_keep_the_files_decimals_and_the_right_team_turns_into_our_frame():
    for lv in KIND.load(str(ALL)):
        path = RESOURCES / "Football" / f"{lv.title}.py"
        written = file_players(path)
        ours = [line.split() for line in lv.text.splitlines() if line[:2] in ("L ", "R ")]
        assert len(ours) == len(written)
        for (team, x, y, role, _), words in zip(written, ours, strict=True):
            assert words[:2] == [team, role]
            if team == "L":
                assert words[2:4] == [x, y]  # the very text of the file
            else:  # GRF mirrors the right team's own frame: x and y negated, exactly
                assert Decimal(words[2]) == -Decimal(x) and Decimal(words[3]) == -Decimal(y)
        assert lv.text.splitlines()[lv.text.splitlines().index(
            next(w for w in lv.text.splitlines() if w.startswith("ball ")))] == \
            "ball {} {}".format(*ball_of(path))
        # and what the engine is sent is what the file gives GRF (the right team in its frame)
        sent = scenarios.scenario_of(lv).grf()
        for team, key in (("L", "left"), ("R", "right")):
            assert [e[:3] for e in sent[key]] == [[float(x), float(y), role] for t, x, y, role, _
                                                  in written if t == team]


def test_teams_of_any_size_flags_and_settings_are_kept():
    (lv,) = KIND.load(f"{ALL}:1")
    s = scenarios.scenario_of(lv)
    assert (len(s.side("L")), len(s.side("R"))) == (8, 10)
    written = file_players(RESOURCES / "Football" / "R5_T_3.py")
    flags = [(p.lazy, p.controllable) for p in s.players]
    assert flags == [("lazy=True" in rest or rest.startswith(", True"),
                      not ("controllable=False" in rest or rest.endswith("False")))
                     for *_, rest in written]
    assert flags.count((False, True)) == 15  # the three flagged players are the exceptions
    assert dict(s.config) == {
        "game_duration": 400, "deterministic": False, "offsides": False,
        "end_episode_on_score": True, "end_episode_on_out_of_play": True,
        "end_episode_on_possession_change": True, "right_team_difficulty": Decimal("0.05"),
        "left_team_difficulty": Decimal("1.0")}
    assert s.grf()["config"]["right_team_difficulty"] == 0.05


def _cell(x: float, y: float) -> tuple[int, int]:
    """(column from our goal, row from the top) of the 3 x 3 grid a point lies in."""
    return min(int((x + 1) / (2 / 3)), 2), min(int((y + 0.42) / 0.28), 2)


def test_magebench_zones_count_rows_first_and_ours_columns_first():
    # MageBench's R1..R3 run along the top row (as its files place the ball), ours down the
    # first column: each fixture's ball lies in the cell both numbers name
    for lv in KIND.load(str(ALL)):
        col, row = _cell(*scenarios.scenario_of(lv).ball)
        assert lv.meta["magebench_zone"] == 3 * row + col + 1
        assert lv.meta["zone"] == 3 * col + row + 1
    text = (RESOURCES / "Football" / "R1_P_1.py").read_text()
    assert scenario_from_text(text, "R3_P_1", "x").meta["zone"] == 7
    assert scenario_from_text(text, "R7_T_2", "x").meta["zone"] == 3
    assert scenario_from_text(text, "R4_R_1", "x").meta["zone"] == 2


# --- refused files --------------------------------------------------------------------------

HEADER = "import gfootball_engine as libgame\nTeam = libgame.e_Team\n" + "".join(
    f"e_PlayerRole_{r} = libgame.e_PlayerRole.e_PlayerRole_{r}\n" for r in ("GK", "CF"))
BODY = ("    builder.SetBallPosition(0.1, 0.0)\n"
        "    builder.AddPlayer(-0.99, 0.0, e_PlayerRole_GK)\n"
        "    builder.SetTeam(Team.e_Right)\n"
        "    builder.AddPlayer(-0.99, 0.0, e_PlayerRole_GK)\n")


def hostile(marker: Path) -> dict[str, tuple[str, int, str]]:
    """File text, the line to be named and words of what was found, per way of running code."""
    m = str(marker)
    top = HEADER.count("\n") + 1
    fn = f"def build_scenario(builder):\n{BODY}"
    return {
        "__import__ at the top": (f"{HEADER}__import__('os').system('touch {m}')\n{fn}", top,
                                  "__import__('os').system"),
        "__import__ in the builder": (
            f"{HEADER}def build_scenario(builder):\n    __import__('os').system('touch {m}')\n"
            f"{BODY}", top + 1, "__import__"),
        "open": (f"{HEADER}def build_scenario(builder):\n{BODY}    open('{m}', 'w')\n",
                 top + 5, "found `open('"),
        "a lambda": (f"{HEADER}f = lambda: open('{m}', 'w')\n{fn}", top, "lambda"),
        "a decorator": (f"{HEADER}@print\n{fn}", top, "@print"),
        "a loop": (f"{HEADER}def build_scenario(builder):\n    for i in range(3):\n"
                   f"        builder.AddPlayer(0.1, 0.1, e_PlayerRole_CF)\n{BODY}", top + 1,
                   "for i in range(3)"),
        "another import": (f"import os\n{HEADER}{fn}", 1, "import os"),
        "attribute access": (f"{HEADER}def build_scenario(builder):\n"
                             f"    builder.__class__.x = 1\n{BODY}", top + 1, "builder.__class__"),
        "arithmetic": (f"{HEADER}def build_scenario(builder):\n"
                       f"    builder.SetBallPosition(0.1 + 0.2, 0.0)\n{BODY}", top + 1,
                       "0.1 + 0.2"),
        "a call as a value": (f"{HEADER}def build_scenario(builder):\n"
                              f"    builder.config().game_duration = len('{m}')\n{BODY}",
                              top + 1, "len("),
        "a name it never defined": (f"{HEADER}def build_scenario(builder):\n{BODY}"
                                    f"    builder.AddPlayer(0.1, 0.1, e_PlayerRole_AM)\n",
                                    top + 5, "e_PlayerRole_AM"),
    }


@pytest.mark.parametrize("case", list(hostile(Path("m"))))
def test_a_file_outside_the_grammar_is_refused_naming_file_line_and_what(tmp_path, case):
    marker = tmp_path / "marker"
    text, line, words = hostile(marker)[case]
    path = tmp_path / "Football" / "R2_P_1.py"
    path.parent.mkdir()
    path.write_text(text)
    (tmp_path / "Football_all.json").write_text('["Football/R2_P_1.py"]')
    for source in (path, tmp_path / "Football_all.json", path.parent):
        with pytest.raises(LevelError) as err:
            KIND.load(str(source))
        assert err.value.source == str(path) and err.value.line == line, str(err.value)
        assert words in err.value.reason
    assert not marker.exists()


def test_the_hostile_payload_would_run_if_the_file_were_executed(tmp_path):
    # the refusal above is what keeps the marker away: run as Python, the same file makes it
    marker = tmp_path / "marker"
    text = hostile(marker)["__import__ at the top"][0].replace(
        "import gfootball_engine as libgame\n", "").replace("libgame.", "")
    path = tmp_path / "R1_P_1.py"
    path.write_text("\n".join(line for line in text.splitlines()
                              if not line.startswith(("Team", "e_Player"))))
    subprocess.run([sys.executable, str(path)], check=False, capture_output=True, timeout=30)
    assert marker.exists()


@pytest.mark.parametrize("text, words", [
    ("def build_scenario(builder):\n    builder.SetBallPosition(1.5, 0.0)\n", "off the pitch"),
    ("def build_scenario(builder):\n    pass\n", "never places the ball"),
    ("x = 1\n", "found `x = 1`"),
    ("def build_scenario(builder):\n    builder.config().frames = 3\n", "not a setting"),
    ("def build_scenario(builder):\n    builder.config().offsides = 1\n", "True or False"),
])
def test_scenarios_we_cannot_play_are_refused_with_the_reason(text, words):
    with pytest.raises(LevelError, match=words):
        scenario_from_text(text, "R1_P_1", "R1_P_1.py")


def test_a_badly_named_file_or_list_entry_is_named(tmp_path):
    bad = tmp_path / "corner.py"
    bad.write_text((RESOURCES / "Football" / "R1_P_1.py").read_text())
    with pytest.raises(LevelError, match=r"named R<zone>_<P\|T\|R>_<number>\.py"):
        KIND.load(str(bad))
    lst = tmp_path / "list.json"
    lst.write_text('["Football/R1_P_1.py", "Football/missing.py"]')
    with pytest.raises(LevelError, match="entry 1 names 'Football/R1_P_1.py', which is not"):
        KIND.load(str(lst))


# --- property tests ----------------------------------------------------------------------------

ROLES = ("CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF")
coord_x = st.integers(-10000, 10000).map(lambda n: Decimal(n).scaleb(-4))
coord_y = st.integers(-4200, 4200).map(lambda n: Decimal(n).scaleb(-4))
player = st.tuples(coord_x, coord_y, st.sampled_from(ROLES), st.booleans(), st.booleans(),
                   st.sampled_from(["positional", "keywords", "none"]))
team = st.tuples(coord_x, coord_y, st.lists(player, max_size=10))
SETTINGS = st.dictionaries(
    st.sampled_from(["game_duration", "offsides", "deterministic", "right_team_difficulty",
                     "left_team_difficulty", "end_episode_on_score", "second_half"]),
    st.integers(0, 1000), max_size=5)


def _literal(d: Decimal) -> str:
    return format(d, "f")


def _builder(ball, left, right, config, star):
    head = "from . import *\n" if star else HEADER + "".join(
        f"e_PlayerRole_{r} = libgame.e_PlayerRole.e_PlayerRole_{r}\n" for r in ROLES)
    lines = [head, '"""our own scenario"""', "def build_scenario(builder):"]
    for name, n in config.items():
        value = (n % 2 == 0) if name in ("offsides", "deterministic", "end_episode_on_score") \
            else (Decimal(n % 101).scaleb(-2) if "difficulty" in name else n)
        lines.append(f"    builder.config().{name} = {value}")
    lines.append(f"    builder.SetBallPosition({_literal(ball[0])}, {_literal(ball[1])})")
    for side, (gx, gy, rest) in (("Left", left), ("Right", right)):
        lines.append(f"    builder.SetTeam(Team.e_{side})")
        lines.append(f"    builder.AddPlayer({_literal(gx)}, {_literal(gy)}, e_PlayerRole_GK)")
        for x, y, role, lazy, ctrl, style in rest:
            extra = {"positional": f", {lazy}, {ctrl}",
                     "keywords": f", controllable={ctrl}, lazy={lazy}", "none": ""}[style]
            lines.append(f"    builder.AddPlayer({_literal(x)}, {_literal(y)}, "
                         f"e_PlayerRole_{role}{extra})")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ball=st.tuples(coord_x, coord_y), left=team, right=team, config=SETTINGS,
       star=st.booleans(), zone=st.integers(1, 9), letter=st.sampled_from("PTR"))
def test_generated_scenario_files_round_trip_to_the_same_positions(ball, left, right, config,
                                                                   star, zone, letter):
    text = _builder(ball, left, right, config, star)
    lv = scenario_from_text(text, f"R{zone}_{letter}_1", "gen.py")
    s = scenarios.scenario_of(lv)
    expect = [("L", left[0], left[1], "GK", False, True)] + [
        ("L", x, y, r, la if st_ != "none" else False, c if st_ != "none" else True)
        for x, y, r, la, c, st_ in left[2]]
    expect += [("R", -right[0] if right[0] else right[0], -right[1] if right[1] else right[1],
                "GK", False, True)] + [
        ("R", -x if x else x, -y if y else y, r, la if st_ != "none" else False,
         c if st_ != "none" else True) for x, y, r, la, c, st_ in right[2]]
    words = [line.split() for line in lv.text.splitlines() if line[:2] in ("L ", "R ")]
    assert [(w[0], Decimal(w[2]), Decimal(w[3]), w[1]) for w in words] == \
        [(e[0], e[1], e[2], e[3]) for e in expect]
    assert [(p.lazy, p.controllable) for p in s.players] == [(e[4], e[5]) for e in expect]
    assert s.ball == (float(ball[0]), float(ball[1]))
    assert [k for k, _ in s.config] == list(config)
    # turning the right team back gives the file's numbers
    assert [e[:2] for e in s.grf()["right"]] == \
        [[float(right[0]), float(right[1])]] + [[float(x), float(y)] for x, y, *_ in right[2]]


MUTATIONS = ["", "(", ")", ":", "\n", " ", "-", "0", ".", "e", "__import__('os')", "lambda: 0",
             "@", "for x in y:", "builder.", "open(", "**", "\x00", "'", "\\", "import os\n",
             "True", "#", "\t", "1e999", "0x", "not ", "[", "yield", "async "]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_scenario_files_give_a_level_error_and_nothing_else(data):
    base = (RESOURCES / "Football" / data.draw(st.sampled_from(
        ["R1_P_1.py", "R5_T_3.py", "R9_R_2.py"]))).read_text()
    text = base
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + data.draw(st.sampled_from(MUTATIONS)) + text[at + cut:]
    try:
        lv = scenario_from_text(text, "R1_P_1", "mutated.py")
    except LevelError as err:
        assert err.source == "mutated.py"
    else:
        scenarios.scenario_of(lv)  # what loads is a scenario our format reads back
