"""What the offline endpoint answers for web tasks, from a version-2 hint
(``playbench.app.agents.hints``).

The endpoint cannot see the browser, so the client's hint carries the page facts: the reference
trajectory's next action for the current page (the oracle) and the Set-of-Marks ids. The
oracle replays that action; off the reference path (after a noisy or random step, or when the
reference's element is not on the page) it stops with an empty answer, since nothing on the
server knows a way back. The random policy clicks a listed element, types a word into a text
field, scrolls or goes back - never ``stop``, ``goto`` or tab actions - so random episodes end
by the budget or VWA's early stops. Badly formatted replies imitate the ways models miss VWA's
format.
"""

from __future__ import annotations

import random

from playbench.app.agents.hints import WebHint
from playbench.app.agents.protocols.base import Reply
from playbench.games.browser.actions import SUMMARY_PHRASE

PAGE_MOVES = ("scroll [down]", "scroll [up]", "go_back")
WORDS = ("bike", "lamp", "red", "cheap", "guitar", "sofa", "kite", "blue")
LOST = ("I can no longer follow the reference path from this page, so I stop here. "
        f"{SUMMARY_PHRASE} ```stop []```")


def oracle_moves(web: WebHint) -> list[str] | Reply:
    """The reference's next action, or a ``stop []`` reply off the path."""
    if web.oracle:
        return list(web.oracle[:1])
    return Reply(LOST)


def random_web_action(web: WebHint, rng: random.Random) -> str:
    """One random action on the hinted page (``scroll [down]`` and the like when it lists
    no element)."""
    pool = [f"click [{i}]" for i in web.ids]
    pool += [f"type [{i}] [{rng.choice(WORDS)}]" for i in web.typable]
    pool += list(PAGE_MOVES)
    return rng.choice(pool)


def malformed_web(rng: random.Random) -> Reply:
    """One reply that misses VWA's format in a way models do."""
    k = rng.randrange(5)
    if k == 0:
        return Reply(rng.choice(["Let me read the page again before deciding.",
                                 "The listing I need is probably further down.", "..."]))
    if k == 1:  # an action name outside the vocabulary
        return Reply(f"The search box is the way in. {SUMMARY_PHRASE} ```search [bike]```")
    if k == 2:  # an element named by its text instead of its id
        return Reply(f"I will open the category. {SUMMARY_PHRASE} ```click [Bicycles]```")
    if k == 3:  # the action without the backticks
        return Reply(f"Scrolling shows more. {SUMMARY_PHRASE} scroll [down]")
    return Reply(f"Cut off mid-answer. {SUMMARY_PHRASE} ```click [")
