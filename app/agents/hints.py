"""State hints for the offline endpoint: what it needs to rebuild the position it is asked about.

The offline server (``app.agents.serve``) cannot see our environment. A profile with
``state_hints: true`` (only ever set for serve-model profiles) sends, in one request header, the
game, the level text, the rule options, the setting and every recorded step's action and
validity; the server replays them to reach the same state. Real endpoints never receive this
header. The format is versioned base64 JSON so other kinds of task (web tasks replaying a
reference trajectory) can add fields without breaking old servers.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

from app.core.player import PlayContext

HEADER = "X-PlayBench-Hint"
VERSION = 1


class HintError(ValueError):
    """A hint header that cannot be read; the message says which part is wrong."""


@dataclass(frozen=True)
class Hint:
    game: str
    level: str
    setting: str
    options: Mapping[str, str] = field(default_factory=dict)
    steps: tuple[tuple[str | None, bool], ...] = ()
    """(canonical action or None, valid) of every recorded step, in order."""
    seed: int = 0
    decision: int = 0
    level_hash: str = ""


def hint_from_context(context: PlayContext) -> Hint:
    task = context.task
    return Hint(task.game, task.level.text, context.setting.name, dict(task.options),
                tuple((s.action, bool(s.valid)) for s in context.history), context.seed,
                context.decision, task.level.content_hash)


def encode_hint(hint: Hint) -> str:
    data = {"v": VERSION, **asdict(hint)}
    data["steps"] = [list(s) for s in hint.steps]
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_hint(text: str) -> Hint:
    try:
        data: Any = json.loads(base64.urlsafe_b64decode(text.encode("ascii")).decode("utf-8"))
    except (binascii.Error, UnicodeError, ValueError) as err:
        raise HintError(f"{HEADER} is not base64 JSON ({err})") from None
    if not isinstance(data, dict):
        raise HintError(f"{HEADER} must hold a JSON object")
    if data.get("v") != VERSION:
        raise HintError(f"{HEADER} version {data.get('v')!r} is not supported (want {VERSION})")
    for name in ("game", "level", "setting"):
        if not isinstance(data.get(name), str):
            raise HintError(f"{HEADER} field {name!r} must be a string")
    steps = data.get("steps", [])
    if not isinstance(steps, list) or not all(
            isinstance(s, list) and len(s) == 2 and (s[0] is None or isinstance(s[0], str))
            for s in steps):
        raise HintError(f"{HEADER} field 'steps' must be a list of [action, valid] pairs")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise HintError(f"{HEADER} field 'options' must be an object")
    return Hint(data["game"], data["level"], data["setting"],
                {str(k): str(v) for k, v in options.items()},
                tuple((s[0], bool(s[1])) for s in steps), int(data.get("seed", 0)),
                int(data.get("decision", 0)), str(data.get("level_hash", "")))
