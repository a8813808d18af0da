"""Football scenarios as data: the file format, its reader and writer, and the generator of
PlayBench's own scenario set.

A scenario is a level: where the ball is and where the 22 players stand, with their roles
(GRF's scenario builder takes the same facts). MageBench's set is 9 field zones x 3 categories
(personal, teamwork, real-world) x 4 = 108 scenarios (docs/reference/football.md); ours has the
same shape with our own positions, written by :func:`generate`. A person adds their own
scenarios by writing a file in this format and adding it in the Library (or naming it on the
command line).

The format (suffix ``.football``), one scenario per block, blocks separated by a blank line::

    ; z4-teamwork-2
    zone 4
    category teamwork
    ball -0.120 0.050
    L GK -1.000 0.000
    L CB -0.700 -0.100
    ...
    R GK 1.000 0.000
    ...

A scenario may also carry GRF scenario settings, one ``config NAME VALUE`` line each
(``config game_duration 400``, ``config offsides false``; the names and which of them the engine
applies are in :mod:`playbench.games.football.grf_config`), and a player line may end with
``lazy`` (GRF's AI leaves the player still) and ``uncontrollable`` (never the one the person or
model controls), as GRF's ``AddPlayer`` takes them. Coordinates are decimals kept as written:
an imported MageBench scenario keeps its four decimals exactly.

Coordinates are GRF's pitch coordinates seen from the left team (the one the player controls):
x from -1 (own goal line) to 1 (the goal we attack), y from -0.42 (top touchline) to 0.42. The
right team is written in the same frame (the engine mirrors it for GRF, whose builder places the
right team in its own frame). Each side has one to eleven players, exactly one of them ``GK``.
Zones number a 3 x 3 grid: columns are our third, the middle third and the attacking third,
rows top, centre and bottom; zone = 3 * column + row + 1.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from playbench.games.base import Level, LevelError
from playbench.games.football import grf_config

GAME = "football"
ROLES = ("GK", "CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF")
"""GRF's player roles."""
CATEGORIES = ("personal", "teamwork", "real-world")
"""MageBench's three scenario categories (docs/reference/football.md)."""
ZONES = tuple(range(1, 10))
X_LIMIT = 1.0
Y_LIMIT = 0.42
PER_CELL = 4
"""Scenarios per zone and category (MageBench: 4, giving 108)."""


@dataclass(frozen=True)
class Player:
    side: str
    """``L`` (our team, attacking right) or ``R`` (the opponents)."""
    role: str
    x: float
    y: float
    lazy: bool = False
    """GRF's AI moves a lazy player only when it must."""
    controllable: bool = True
    """Whether the player may be the one controlled (GRF's ``controllable``)."""


@dataclass(frozen=True)
class Scenario:
    name: str
    zone: int
    category: str
    ball: tuple[float, float]
    players: tuple[Player, ...]
    config: tuple[tuple[str, grf_config.Value], ...] = ()
    """The GRF scenario settings the scenario sets, in its order (none: the engine's
    defaults, MageBench's values)."""

    def side(self, side: str) -> list[Player]:
        return [p for p in self.players if p.side == side]

    def grf(self) -> dict[str, object]:
        """The scenario as the engine server takes it: the right team in its own frame (GRF
        mirrors it, x and y, as it does for every scenario builder), each player with its
        ``lazy`` and ``controllable`` flags, and the settings the engine applies."""
        applied = {k: grf_config.engine_value(v) for k, v in self.config
                   if k in grf_config.APPLIED}
        return {"ball": list(self.ball),
                "left": [[p.x, p.y, p.role, p.lazy, p.controllable] for p in self.side("L")],
                "right": [[-p.x, -p.y, p.role, p.lazy, p.controllable]
                          for p in self.side("R")],
                "config": applied}


def _num(word: str, what: str, line: int) -> float:
    try:
        value = float(word)
    except ValueError:
        raise LevelError(f"{what} must be a number, got {word!r}", line=line) from None
    if not math.isfinite(value):
        raise LevelError(f"{what} must be a finite number, got {word!r}", line=line)
    return value


def _inside(x: float, y: float, what: str, line: int) -> None:
    if not (-X_LIMIT <= x <= X_LIMIT and -Y_LIMIT <= y <= Y_LIMIT):
        raise LevelError(f"{what} at ({x}, {y}) is off the pitch (x within -1..1, y within "
                         f"-0.42..0.42)", line=line)


def parse(text: str, name: str = "") -> Scenario:
    """One scenario from its body (the lines after the ``;`` title). Raises ``LevelError``
    naming the line (counted within the body) and what was expected."""
    zone: int | None = None
    category: str | None = None
    ball: tuple[float, float] | None = None
    players: list[Player] = []
    config: dict[str, grf_config.Value] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        words = raw.split()
        if not words or words[0].startswith(";"):
            continue
        head = words[0]
        if head == "zone" and len(words) == 2:
            if words[1] not in {str(z) for z in ZONES}:
                raise LevelError(f"zone must be 1 to 9, got {words[1]!r}", line=n)
            zone = int(words[1])
        elif head == "category" and len(words) == 2:
            if words[1] not in CATEGORIES:
                raise LevelError(f"category must be one of {', '.join(CATEGORIES)}, got "
                                 f"{words[1]!r}", line=n)
            category = words[1]
        elif head == "ball" and len(words) == 3:
            ball = (_num(words[1], "ball x", n), _num(words[2], "ball y", n))
            _inside(*ball, "the ball", n)
        elif head == "config" and len(words) == 3:
            if words[1] in config:
                raise LevelError(f"config {words[1]} is set twice", line=n)
            try:
                config[words[1]] = grf_config.parse(words[1], words[2])
            except ValueError as err:
                raise LevelError(str(err), line=n) from None
        elif head in ("L", "R") and 4 <= len(words) <= 6:
            if words[1] not in ROLES:
                raise LevelError(f"role must be one of {' '.join(ROLES)}, got {words[1]!r}",
                                 line=n)
            flags = words[4:]
            if any(f not in _FLAGS for f in flags) or len(set(flags)) < len(flags):
                raise LevelError(f"after a player's position come only the words lazy and "
                                 f"uncontrollable (each once), got {' '.join(flags)!r}", line=n)
            p = Player(head, words[1], _num(words[2], "x", n), _num(words[3], "y", n),
                       "lazy" in flags, "uncontrollable" not in flags)
            _inside(p.x, p.y, f"player {head} {p.role}", n)
            players.append(p)
        else:
            raise LevelError(f"expected 'zone N', 'category NAME', 'config NAME VALUE', "
                             f"'ball X Y' or 'L|R ROLE X Y [lazy] [uncontrollable]', got "
                             f"{raw.strip()!r}", line=n)
    if zone is None or category is None or ball is None:
        missing = [w for w, v in (("zone", zone), ("category", category), ("ball", ball))
                   if v is None]
        raise LevelError(f"the scenario has no {' and no '.join(missing)} line")
    for side, title in (("L", "our team (L)"), ("R", "the opponents (R)")):
        team = [p for p in players if p.side == side]
        if not 1 <= len(team) <= 11:
            raise LevelError(f"{title} needs 1 to 11 players, has {len(team)}")
        keepers = sum(p.role == "GK" for p in team)
        if keepers != 1:
            raise LevelError(f"{title} needs exactly one GK, has {keepers}")
    return Scenario(name, zone, category, ball, tuple(players), tuple(config.items()))


_FLAGS = ("lazy", "uncontrollable")


def coordinate(value: float) -> str:
    """A coordinate as the format writes it: three decimals when they hold the value exactly
    (the bundled set), else the shortest text that reads back as the same number."""
    short = f"{value:.3f}"
    return short if float(short) == value else repr(value)


def player_line(p: Player, x: str | None = None, y: str | None = None) -> str:
    """A player's line; ``x`` and ``y``: the coordinates' text when it is given exactly (an
    imported file's decimals), else written from the numbers."""
    words = [p.side, p.role, x if x is not None else coordinate(p.x),
             y if y is not None else coordinate(p.y)]
    words += ["lazy"] * p.lazy + ["uncontrollable"] * (not p.controllable)
    return " ".join(words)


def body(s: Scenario) -> str:
    """The scenario's lines without the title (a level's text)."""
    lines = [f"zone {s.zone}", f"category {s.category}"]
    lines += [f"config {k} {grf_config.text(v)}" for k, v in s.config]
    lines.append(f"ball {coordinate(s.ball[0])} {coordinate(s.ball[1])}")
    lines += [player_line(p) for p in s.players]
    return "\n".join(lines)


def level(s: Scenario, number: int) -> Level:
    return Level(GAME, body(s), number, s.name, {"zone": s.zone, "category": s.category})


def load(text: str, source: str = "<text>") -> list[Level]:
    """Every scenario of a ``.football`` file as a level; a broken block raises ``LevelError``
    naming the file, the line in the file and the level."""
    levels: list[Level] = []
    block: list[str] = []
    start = 1

    def flush() -> None:
        if not any(x.strip() for x in block):
            return
        title = ""
        lines = list(block)
        offset = start
        while lines and (not lines[0].strip() or lines[0].lstrip().startswith(";")):
            if lines[0].lstrip().startswith(";") and not title:
                title = lines[0].lstrip()[1:].strip()
            lines.pop(0)
            offset += 1
        number = len(levels) + 1
        try:
            s = parse("\n".join(lines), title)
        except LevelError as err:
            raise err.located(source=source, line_offset=offset - 1, level=number) from None
        levels.append(level(s, number))

    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not block:
                start = n
            block.append(line)
        else:
            flush()
            block = []
    flush()
    if not levels:
        raise LevelError("no scenario in the file", source=source)
    return levels


def dump(levels: Sequence[Level]) -> str:
    """A ``.football`` file holding ``levels`` (their titles as ``;`` lines)."""
    out = []
    for lv in levels:
        head = f"; {lv.title}\n" if lv.title else ""
        out.append(head + lv.text.strip("\n"))
    return "\n\n".join(out) + "\n"


def sniff(text: str) -> bool:
    """Whether ``text`` looks like a football scenario file."""
    words = {line.split()[0] for line in text.splitlines()[:40] if line.split()}
    return "ball" in words and "zone" in words


def scenario_of(lv: Level) -> Scenario:
    return parse(lv.text, lv.title)


# --- the bundled set --------------------------------------------------------------------------

_FORMATION = (  # a 4-4-2 for our team, x from our goal, spread over the width
    ("GK", -1.00, 0.00), ("LB", -0.75, -0.28), ("CB", -0.78, -0.09), ("CB", -0.78, 0.09),
    ("RB", -0.75, 0.28), ("LM", -0.45, -0.28), ("CM", -0.48, -0.09), ("CM", -0.48, 0.09),
    ("RM", -0.45, 0.28), ("CF", -0.15, -0.08), ("CF", -0.15, 0.08))
_CARRIER_ROLE = {0: "CB", 1: "CM", 2: "CF"}


def _clip(x: float, y: float) -> tuple[float, float]:
    return (max(-0.98, min(0.98, round(x, 3))), max(-0.40, min(0.40, round(y, 3))))


def _zone_ball(zone: int, rng: random.Random) -> tuple[float, float]:
    col, row = divmod(zone - 1, 3)
    x0 = -1 + col * 2 / 3
    y0 = -Y_LIMIT + row * 2 * Y_LIMIT / 3
    return _clip(rng.uniform(x0 + 0.08, x0 + 2 / 3 - 0.08),
                 rng.uniform(y0 + 0.04, y0 + 2 * Y_LIMIT / 3 - 0.04))


def _block(side: str, ball: tuple[float, float], rng: random.Random, shift: float,
           jitter: float) -> list[Player]:
    """A formation of ``side`` slid towards the ball (a compact match-like block)."""
    out = []
    for role, fx, fy in _FORMATION:
        if role == "GK":
            x, y = (-0.99, 0.0) if side == "L" else (0.99, 0.0)
        else:
            x = fx + shift * (ball[0] + 0.3) if side == "L" else -fx + shift * (ball[0] - 0.3)
            y = fy * 0.8 + 0.35 * ball[1]
            x, y = x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter)
        out.append(Player(side, role, *_clip(x, y)))
    return out


def _nearest(team: list[Player], ball: tuple[float, float]) -> int:
    return min((i for i, p in enumerate(team) if p.role != "GK"),
               key=lambda i: math.dist((team[i].x, team[i].y), ball))


def make(zone: int, category: str, index: int) -> Scenario:
    """One scenario of the bundled set, from its own seeded generator (same arguments, same
    scenario). personal: two or three opponents press the carrier and every teammate is
    marked; teamwork: the carrier has room and two or three teammates stand open ahead;
    real-world: both teams in a compact block slid towards the ball, as in open play (our own
    positions, not taken from recorded matches)."""
    rng = random.Random(f"playbench-football-{zone}-{category}-{index}")
    ball = _zone_ball(zone, rng)
    ours = _block("L", ball, rng, 0.9, 0.05)
    theirs = _block("R", ball, rng, 0.7, 0.05)
    carrier = _nearest(ours, ball)
    ours[carrier] = Player("L", _CARRIER_ROLE[(zone - 1) // 3], *_clip(ball[0] - 0.01, ball[1]))
    if category == "personal":
        mates = sorted((i for i, p in enumerate(ours) if p.role != "GK" and i != carrier),
                       key=lambda i: math.dist((ours[i].x, ours[i].y), ball))
        for k, i in enumerate(sorted((i for i, p in enumerate(theirs) if p.role != "GK"),
                                     key=lambda i: math.dist((theirs[i].x, theirs[i].y), ball))):
            if k < rng.choice((2, 3)):  # pressers in front of and beside the carrier
                a = rng.uniform(-1.1, 1.1)
                r = rng.uniform(0.05, 0.09)
                theirs[i] = Player("R", theirs[i].role,
                                   *_clip(ball[0] + r * math.cos(a), ball[1] + r * math.sin(a)))
            elif k - 3 < len(mates):  # the rest mark the teammates nearest the ball
                mate = ours[mates[k - 3]]
                theirs[i] = Player("R", theirs[i].role, *_clip(mate.x + 0.03, mate.y))
    elif category == "teamwork":
        opens = [i for i, p in enumerate(ours) if p.role != "GK" and i != carrier]
        rng.shuffle(opens)
        for i in opens[:rng.choice((2, 3))]:
            a = rng.uniform(-1.2, 1.2)
            r = rng.uniform(0.15, 0.3)
            ours[i] = Player("L", ours[i].role,
                             *_clip(ball[0] + r * math.cos(a), ball[1] + r * math.sin(a)))
        for i, p in enumerate(theirs):  # keep the opponents off the carrier
            d = math.dist((p.x, p.y), ball)
            if p.role != "GK" and d < 0.15:
                scale = 0.15 / max(d, 1e-3)
                theirs[i] = Player("R", p.role, *_clip(ball[0] + (p.x - ball[0]) * scale,
                                                       ball[1] + (p.y - ball[1]) * scale))
    return Scenario(f"z{zone}-{category}-{index}", zone, category, ball, tuple(ours + theirs))


def generate() -> list[Scenario]:
    """The bundled set: every zone, category and index (9 x 3 x 4 = 108)."""
    return [make(z, c, i) for z in ZONES for c in CATEGORIES for i in range(1, PER_CELL + 1)]


def mini(full: Sequence[Scenario]) -> list[Scenario]:
    """The mini subset: one scenario per zone, the categories taking turns (9 scenarios; our
    choice, the paper names no list). MageBench plays the mini set 10 times per level."""
    picks = []
    for z in ZONES:
        category = CATEGORIES[(z - 1) % 3]
        picks.append(next(s for s in full if s.zone == z and s.category == category))
    return picks


def write_bundled(directory: object) -> None:
    """Write ``magebench.football`` and ``magebench-mini.football`` into ``directory``."""
    from pathlib import Path
    d = Path(str(directory))
    full = generate()
    for name, chosen in (("magebench", full), ("magebench-mini", mini(full))):
        (d / f"{name}.football").write_text(
            dump([level(s, i) for i, s in enumerate(chosen, start=1)]), encoding="utf-8")


if __name__ == "__main__":  # python -m playbench.games.football.scenarios DIR
    import sys
    write_bundled(sys.argv[1])
