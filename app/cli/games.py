"""``playbench games``: each registered kind of task, its play settings and their default
budgets, and which of its episodes can be resumed (the kind's ``ReplaySpec``, with its reason
when some cannot)."""

from __future__ import annotations

import argparse

from playbench.app.cli.common import table


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
    from playbench.app.core.settings import undo_allowed
    from playbench.games.kind import default_registry
    kinds = default_registry()
    names = kinds.names()
    if args.game:
        if args.game not in names:
            from playbench.app.cli.common import UsageError
            raise UsageError(f"unknown game {args.game!r} (valid: {', '.join(names)})")
        names = [args.game]
    for i, name in enumerate(names):
        if i:
            print()
        kind = kinds.get(name)
        print(f"{name} - {kind.title}: {kind.help}")
        print(kind.replay.summary())
        rows = []
        for s in kind.settings().values():
            rows.append([s.name, budget_text(s.budget),
                         "yes" if undo_allowed(s, name) else "-",
                         "yes" if kind.replay.resumes(s.name) else "no", s.description])
        table(["setting", "default budget", "undo", "resume", "what the player sees and sends"],
              rows)
    return 0
