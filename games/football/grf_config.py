"""The scenario settings a football scenario may carry: the fields of GRF's scenario config
(``builder.config().NAME = VALUE`` in a GRF scenario builder, ``config NAME VALUE`` in our
``.football`` format), what type each takes, and which of them the engine applies.

A MageBench scenario file sets eight of them (the game's length, determinism, offside, the
three ways an episode ends and the two teams' AI difficulty). Every value a file sets is kept
with the level. The engine applies the ones in :data:`APPLIED`; the others belong to the run,
not to the scenario (GRF itself overwrites the agent counts, the seed and real-time play from
the environment's own config after the builder ran, and PlayBench decides who the player
controls and seeds every episode itself), so they are kept as data and not sent to GRF.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

Value = bool | int | Decimal
"""A setting's value: a flag, a whole number, or a number kept exactly as written."""

KINDS: dict[str, str] = {
    "game_duration": "int",
    "deterministic": "bool",
    "offsides": "bool",
    "end_episode_on_score": "bool",
    "end_episode_on_out_of_play": "bool",
    "end_episode_on_possession_change": "bool",
    "left_team_difficulty": "difficulty",
    "right_team_difficulty": "difficulty",
    "second_half": "int",
    "use_magnet": "bool",
    "control_all_players": "bool",
    "dynamic_player_selection": "bool",
    "real_time": "bool",
    "game_engine_random_seed": "int",
    "reverse_team_processing": "bool",
    "left_agents": "int",
    "right_agents": "int",
    "controllable_left_players": "int",
    "controllable_right_players": "int",
}
"""Every field of GRF 2.10.2's ``ScenarioConfig`` a builder can set, and its value's type."""

APPLIED = ("game_duration", "deterministic", "offsides", "end_episode_on_score",
           "end_episode_on_out_of_play", "end_episode_on_possession_change",
           "left_team_difficulty", "right_team_difficulty", "second_half", "use_magnet")
"""The settings the engine applies (docs/football.md lists them)."""
MAX_INT = 10_000_000
"""The largest whole number a setting may take (GRF's game lengths are in the thousands)."""


def check(name: str, value: object) -> Value:
    """``value`` as the setting ``name`` takes it; raises ``ValueError`` saying what is wrong
    (an unknown name, a value of the wrong type or out of range)."""
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"{name!r} is not a setting of GRF's scenario config (known: "
                         f"{', '.join(KINDS)})")
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{name} takes True or False, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise ValueError(f"{name} takes a number, got {value!r}")
    if kind == "int":
        if not isinstance(value, int) or not 0 <= value <= MAX_INT:
            raise ValueError(f"{name} takes a whole number from 0 to {MAX_INT}, got {value}")
        return value
    number = Decimal(value)
    if not (number.is_finite() and 0 <= number <= 1):
        raise ValueError(f"{name} takes a number from 0 to 1, got {value}")
    return number


def text(value: Value) -> str:
    """A setting's value as our format writes it: ``true``/``false``, digits, or the number in
    fixed-point notation (exactly the value read)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return format(value, "f")


def parse(name: str, word: str) -> Value:
    """The value of ``config NAME WORD`` in our format; raises ``ValueError``."""
    kind = KINDS.get(name)
    if kind == "bool":
        if word not in ("true", "false"):
            raise ValueError(f"{name} takes true or false, got {word!r}")
        return check(name, word == "true")
    if kind == "int":
        if not word.isascii() or not word.isdigit():
            raise ValueError(f"{name} takes a whole number, got {word!r}")
        return check(name, int(word))
    if kind is None:
        return check(name, word)  # raises, naming the known settings
    try:
        number = Decimal(word)
    except InvalidOperation:
        raise ValueError(f"{name} takes a number, got {word!r}") from None
    return check(name, number)


def engine_value(value: Value) -> bool | int | float:
    """The value as the engine server takes it (JSON: numbers as floats)."""
    return float(value) if isinstance(value, Decimal) else value
