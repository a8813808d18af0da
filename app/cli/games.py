"""``playbench games``: each game's play settings and their default budgets."""

from __future__ import annotations

import argparse

from app.cli.common import table
from app.core.settings import SETTINGS, WEB, undo_allowed
from games import registry

WEB_HELP = ("Web tasks (VisualWebArena): one action per step - click [id], hover [id], "
            "type [id] [text], press [keys], scroll [up|down], new_tab, tab_focus [i], "
            "close_tab, goto [url], go_back, go_forward, stop [answer]")


def add_parsers(sub) -> None:
    g = sub.add_parser("games", help="list games, their play settings and default budgets")
    g.add_argument("game", nargs="?", help="only this game")
    g.set_defaults(handler=cmd_games)


def budget_text(budget) -> str:
    parts = []
    if budget.max_actions is not None:
        parts.append(f"{budget.max_actions} actions")
    if budget.max_decisions is not None:
        n = budget.max_decisions
        parts.append(f"{n} model call" + ("" if n == 1 else "s"))
    stops = []
    if budget.stop_after_unparseable is not None:
        stops.append(f"{budget.stop_after_unparseable} unreadable")
    if budget.stop_after_identical is not None:
        stops.append(f"{budget.stop_after_identical} identical")
    if stops:
        parts.append("early stop: " + " or ".join(stops) + " in a row")
    return ", ".join(parts) or "unlimited"


def cmd_games(args: argparse.Namespace) -> int:
    names = registry.available() + [WEB]
    if args.game:
        if args.game not in names:
            from app.cli.common import UsageError
            raise UsageError(f"unknown game {args.game!r} (valid: {', '.join(names)})")
        names = [args.game]
    for i, name in enumerate(names):
        if i:
            print()
        if name == WEB:
            print(f"{name} - {WEB_HELP}")
        else:
            spec = registry.get(name)
            print(f"{name} - {spec.title}: {spec.move_help}")
        rows = []
        for s in SETTINGS.values():
            if not s.applies_to(name):
                continue
            rows.append([s.name, budget_text(s.default_budget(name)),
                         "yes" if undo_allowed(s, name) else "-", s.description])
        table(["setting", "default budget", "undo", "what the player sees and sends"], rows)
    return 0
