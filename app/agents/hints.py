"""State hints for the offline endpoint: what it needs to rebuild the position it is asked about.

The offline server (``playbench.app.agents.serve``) cannot see our environment. A profile with
``state_hints: true`` (only ever set for serve-model profiles) sends, in one request header, the
game, the level text, the rule options, the setting and every recorded step's action and
validity; the server replays them to reach the same state. Real endpoints never receive this
header. The format is versioned base64 JSON.

Version 1 is the board-game hint. Version 2 adds an optional ``web`` object for web tasks, where
the server cannot rebuild the page: the client sends what the environment knows about the
current page instead - the reference trajectory's next action for it (``oracle``, from
``PlayContext.oracle()``, computed only for stand-in profiles) and the Set-of-Marks ids on it
(``ids``, with the text fields in ``typable``) for random play. A web hint leaves ``level``
empty (the task JSON is not needed and would bloat the header). Board hints are still written as
version 1, byte for byte as before, and the decoder reads both versions.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from playbench.app.agents.protocols import kind_family
from playbench.app.core.player import PlayContext

HEADER = "X-PlayBench-Hint"
VERSION = 1
WEB_VERSION = 2
VERSIONS = (VERSION, WEB_VERSION)
MAX_IDS = 2000
"""Most Set-of-Marks ids a web hint lists (a page with more is listed in part)."""

_CLICK = re.compile(r"^click \[(\d+)\]$")
_TYPE = re.compile(r"^type \[(\d+)\] ")


class HintError(ValueError):
    """A hint header that cannot be read; the message says which part is wrong."""


@dataclass(frozen=True)
class WebHint:
    """What a stand-in endpoint needs about the current page of a web task."""

    oracle: tuple[str, ...] | None = None
    """The reference's next action for this page (canonical text), or None off the path."""
    ids: tuple[int, ...] = ()
    """Set-of-Marks ids of the elements on the page."""
    typable: tuple[int, ...] = ()
    """Those of them that take text."""


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
    web: WebHint | None = None
    """Set for web tasks only (version 2)."""


def web_hint(context: PlayContext) -> WebHint:
    """The current page as the environment sees it: the oracle's next action and the ids
    (read from the page's concrete vocabulary, ``click [id]`` and ``type [id] [...]``)."""
    try:
        plan = context.oracle()
    except Exception:  # a task that cannot be played: the step itself reports why
        plan = None
    try:
        vocabulary = context.vocabulary()
    except Exception:
        vocabulary = []
    ids = [int(m.group(1)) for m in map(_CLICK.match, vocabulary) if m]
    typable = [int(m.group(1)) for m in map(_TYPE.match, vocabulary) if m]
    return WebHint(tuple(plan[:1]) if plan else None, tuple(ids[:MAX_IDS]),
                   tuple(typable[:MAX_IDS]))


def _page_kind(game: str) -> bool:
    """Whether ``game``'s tasks are web pages played with VisualWebArena's prompts: its hints
    carry the page's facts, since the endpoint cannot rebuild a page from a level text."""
    return kind_family(game) == "vwa"


def hint_from_context(context: PlayContext) -> Hint:
    task = context.task
    steps = tuple((s.action, bool(s.valid)) for s in context.history)
    if _page_kind(task.game):
        return Hint(task.game, "", context.setting.name, dict(task.options), steps,
                    context.seed, context.decision, task.level.content_hash, web_hint(context))
    return Hint(task.game, task.level.text, context.setting.name, dict(task.options),
                steps, context.seed, context.decision, task.level.content_hash)


def encode_hint(hint: Hint) -> str:
    data = {"v": VERSION if hint.web is None else WEB_VERSION, **asdict(hint)}
    data["steps"] = [list(s) for s in hint.steps]
    if hint.web is None:
        del data["web"]
    else:
        web = data["web"]
        web["oracle"] = None if hint.web.oracle is None else list(hint.web.oracle)
        web["ids"], web["typable"] = list(hint.web.ids), list(hint.web.typable)
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_hint(text: str) -> Hint:
    try:
        data: Any = json.loads(base64.urlsafe_b64decode(text.encode("ascii")).decode("utf-8"))
    except (binascii.Error, UnicodeError, ValueError) as err:
        raise HintError(f"{HEADER} is not base64 JSON ({err})") from None
    if not isinstance(data, dict):
        raise HintError(f"{HEADER} must hold a JSON object")
    if data.get("v") not in VERSIONS:
        raise HintError(f"{HEADER} version {data.get('v')!r} is not supported (want "
                        f"{' or '.join(map(str, VERSIONS))})")
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
    web = _web_part(data.get("web")) if data["v"] == WEB_VERSION else None
    return Hint(data["game"], data["level"], data["setting"],
                {str(k): str(v) for k, v in options.items()},
                tuple((s[0], bool(s[1])) for s in steps), int(data.get("seed", 0)),
                int(data.get("decision", 0)), str(data.get("level_hash", "")), web)


def _web_part(value: Any) -> WebHint:
    """The ``web`` object of a version-2 hint."""
    if not isinstance(value, dict):
        raise HintError(f"{HEADER} version {WEB_VERSION} needs a 'web' object")
    oracle = value.get("oracle")
    if oracle is not None and not (isinstance(oracle, list)
                                   and all(isinstance(a, str) for a in oracle)):
        raise HintError(f"{HEADER} field 'web.oracle' must be a list of action texts or null")
    lists = []
    for name in ("ids", "typable"):
        items = value.get(name, [])
        if not isinstance(items, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in items):
            raise HintError(f"{HEADER} field 'web.{name}' must be a list of element ids")
        lists.append(tuple(items))
    return WebHint(None if oracle is None else tuple(oracle), lists[0], lists[1])
