"""Fault injection for the offline endpoint, from a short text spec.

``--faults`` is a comma-separated list of rules, each ``KIND`` followed by when it happens:
``KIND:P`` with probability P per request (seeded), ``KIND@N`` on request N (1-based; several
with ``+``, ranges with ``-``: ``500@2+5-7``), or ``KIND%N`` on every N-th request. The first
matching rule wins. Kinds: ``429`` (rate limited, with Retry-After), ``500``, ``503``, ``timeout``
(the server holds the request and never answers), ``malformed`` (HTTP 200 whose body is not
JSON), ``cut`` (the connection closes in the middle of the response), ``context`` (400 context
length exceeded), ``auth`` (401).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

KINDS = ("429", "500", "503", "timeout", "malformed", "cut", "context", "auth")
_RULE = re.compile(r"^(?P<kind>[a-z0-9]+)(?:(?P<op>[:@%])(?P<arg>[0-9.+\-]+))$")


class FaultSpecError(ValueError):
    """A --faults spec that cannot be read; the message names the rule."""


@dataclass(frozen=True)
class FaultRule:
    kind: str
    probability: float | None = None
    requests: frozenset[int] = field(default_factory=frozenset)
    every: int | None = None

    def matches(self, n: int, rng: random.Random) -> bool:
        if self.probability is not None:
            return rng.random() < self.probability
        if self.every is not None:
            return n % self.every == 0
        return n in self.requests


def parse_faults(spec: str | None) -> tuple[FaultRule, ...]:
    if not spec or not spec.strip():
        return ()
    rules = []
    for item in (s.strip() for s in spec.split(",")):
        m = _RULE.match(item)
        if not m:
            raise FaultSpecError(f"fault rule {item!r} must look like KIND:P, KIND@N or KIND%N "
                                 f"(kinds: {', '.join(KINDS)})")
        kind, op, arg = m.group("kind"), m.group("op"), m.group("arg")
        if kind not in KINDS:
            raise FaultSpecError(f"fault rule {item!r}: unknown kind {kind!r} "
                                 f"(kinds: {', '.join(KINDS)})")
        try:
            if op == ":":
                p = float(arg)
                if not 0.0 <= p <= 1.0:
                    raise ValueError
                rules.append(FaultRule(kind, probability=p))
            elif op == "%":
                every = int(arg)
                if every < 1:
                    raise ValueError
                rules.append(FaultRule(kind, every=every))
            else:
                numbers: set[int] = set()
                for part in arg.split("+"):
                    lo, _, hi = part.partition("-")
                    a, b = int(lo), int(hi or lo)
                    if a < 1 or b < a:
                        raise ValueError
                    numbers.update(range(a, b + 1))
                rules.append(FaultRule(kind, requests=frozenset(numbers)))
        except ValueError:
            raise FaultSpecError(f"fault rule {item!r}: bad number {arg!r} (probability 0-1, "
                                 "request numbers from 1, every N >= 1)") from None
    return tuple(rules)


def pick_fault(rules: tuple[FaultRule, ...], n: int, rng: random.Random) -> str | None:
    """The fault for request number ``n``, if any."""
    for rule in rules:
        if rule.matches(n, rng):
            return rule.kind
    return None
