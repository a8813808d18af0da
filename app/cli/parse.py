"""``playbench parse``: read model replies the way an episode reads them, from outside.

Each input line is one reply written as a JSON string (``"In summary ... ```click [3]```"``),
or, for tool-calling settings, a JSON object ``{"content": ..., "tool_calls": [{"name": ...,
"arguments": ...}]}``. Each reply is read by the same code an episode uses - the setting's
prompt protocol (``playbench.app.agents.protocols``) and the kind's own move parser, looked up in
the
task-kind registry (:func:`playbench.app.core.episode.read_move`) - and printed as one JSON line::

    {"line": 1, "valid": true, "actions": ["click [3]"], "entries": [{"valid": true,
     "action": "click [3]", "kind": "move"}], "reasoning": "..."}

An entry that is not an action reads ``{"valid": false, "kind": "malformed", "reason": ...,
"text": ...}`` and the reply's ``valid`` is false with the first such entry's ``kind`` and
``reason``. A line that is not a JSON string (or reply object) prints ``{"line": N, "error":
...}``, is named on stderr, and reading goes on; the exit code is then 1. Blank lines are
skipped. Nothing is played: the parser needs no level, no browser and no model.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from playbench.app.cli.common import EXIT_OK, EXIT_RUNTIME, UsageError, parse_key_values

MAX_LINE_CHARS = 4 * 1024 * 1024
"""Longest input line read (a reply is at most a few hundred kilobytes)."""


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("parse", help="classify model replies as an episode would (one JSON "
                                     "string per line in, one JSON line per reply out)")
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="replies, one JSON string per line (default: standard input)")
    p.add_argument("--setting", required=True, help="play setting whose protocol reads the "
                                                    "replies (e.g. ingvp:text-multi, vwa:som)")
    p.add_argument("--game", help="kind of task (needed when several kinds offer the "
                                  "setting, e.g. default)")
    p.add_argument("--rule", action="append", metavar="NAME=VALUE",
                   help="rule option that changes how moves read (e.g. disk_order=a-largest)")
    p.set_defaults(handler=cmd_parse)


def kind_for(setting: str, game: str | None) -> str:
    """The kind whose setting is meant: ``game`` when given (checked), else the only kind
    offering ``setting``; a setting several kinds offer needs ``--game``."""
    from playbench.app.core.settings import UnknownSetting, get_setting
    from playbench.games.kind import UnknownKind, default_registry
    kinds = default_registry()
    if game is not None:
        try:
            get_setting(setting, game)
        except (UnknownSetting, UnknownKind) as err:
            raise UsageError(str(err)) from None
        return game
    offering = [k.name for k in kinds.listing() if setting in k.settings()]
    if not offering:
        try:
            get_setting(setting)
        except UnknownSetting as err:
            raise UsageError(str(err)) from None
    if len(offering) > 1:
        raise UsageError(f"setting {setting!r} is offered by several kinds "
                         f"({', '.join(offering)}); name one with --game")
    return offering[0]


def _reply(value: Any) -> Any:
    """A JSON value from one input line as a protocol reply, or a string saying why not."""
    from playbench.app.agents.protocols import Reply, ToolCall
    if isinstance(value, str):
        return Reply(value)
    if isinstance(value, dict) and isinstance(value.get("content", ""), str):
        calls = value.get("tool_calls") or []
        if not isinstance(calls, list):
            return "'tool_calls' must be a list"
        out = []
        for i, call in enumerate(calls):
            if not (isinstance(call, dict) and isinstance(call.get("name"), str)):
                return f"tool_calls[{i}] must be an object with a name"
            args = call.get("arguments", "{}")
            out.append(ToolCall(str(call.get("id", f"call_{i}")), call["name"],
                                args if isinstance(args, str) else json.dumps(args)))
        return Reply(value.get("content") or "", tuple(out))
    return "not a JSON string (write each reply as one JSON string, e.g. \"up\")"


def classify(lines: Iterable[str], setting: str, game: str,
             options: dict[str, str]) -> Iterator[dict[str, Any]]:
    """One result object per reply line (see the module docstring), reading each reply with
    the setting's protocol and the kind's parser."""
    from playbench.app.agents.protocols import family_of, make_protocols
    from playbench.app.core.episode import read_move
    from playbench.app.core.settings import get_setting
    from playbench.app.core.types import Action
    from playbench.games.base import Level, LevelError
    from playbench.games.kind import default_registry
    from playbench.games.types import Task
    kind = default_registry().get(game)
    chosen = get_setting(setting, game)
    protocol = make_protocols()[family_of(chosen, game)]
    try:
        env = kind.make_env(Task(game, Level(game, "", 0, ""), dict(options), "parse"),
                            render=False)
    except LevelError:
        raise  # the kind's own words (e.g. a kind played only through a harness session)
    except Exception as err:  # bad rule options, unreadable kind settings
        raise LevelError(f"cannot read {game} replies here: {type(err).__name__}: {err}") \
            from None
    try:
        for number, raw in enumerate(lines, 1):
            text = raw.rstrip("\n")
            if not text.strip():
                continue
            if len(text) > MAX_LINE_CHARS:
                yield {"line": number, "error": f"line {number}: longer than "
                                                f"{MAX_LINE_CHARS} characters; not read"}
                continue
            try:
                reply = _reply(json.loads(text))
            except ValueError as err:
                reply = f"not JSON ({err})"
            if isinstance(reply, str):
                yield {"line": number, "error": f"line {number}: {reply}"}
                continue
            parsed = protocol.parse(reply, game, chosen, lambda t: read_move(env, t))
            entries: list[dict[str, Any]] = []
            for entry in parsed.entries:
                if isinstance(entry, Action):
                    entries.append({"valid": True, "action": entry.text, "kind": entry.kind})
                else:
                    entries.append({"valid": False, "kind": entry.kind, "reason": entry.reason,
                                    "text": entry.text})
            bad = next((e for e in entries if not e["valid"]), None)
            out: dict[str, Any] = {"line": number, "valid": bad is None and bool(entries),
                                   "actions": [e["action"] for e in entries if e["valid"]],
                                   "entries": entries}
            if bad is not None:
                out["kind"], out["reason"] = bad["kind"], bad["reason"]
            elif not entries:
                out["kind"], out["reason"] = "malformed", "the reply holds no action"
            if parsed.reasoning:
                out["reasoning"] = parsed.reasoning
            yield out
    finally:
        import asyncio
        asyncio.run(env.close())


def _lines(stream: IO[str]) -> Iterator[str]:
    yield from stream


def cmd_parse(args: argparse.Namespace) -> int:
    game = kind_for(args.setting, args.game)
    options = parse_key_values(args.rule, "--rule")
    stream: IO[str] = open(args.file, encoding="utf-8") if args.file else sys.stdin  # noqa: SIM115
    failed = 0
    try:
        for result in classify(_lines(stream), args.setting, game, options):
            if "error" in result:
                failed += 1
                print(f"playbench parse: {result['error']}", file=sys.stderr)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    finally:
        if stream is not sys.stdin:
            stream.close()
    return EXIT_RUNTIME if failed else EXIT_OK


__all__ = ["add_parsers", "classify", "kind_for"]
