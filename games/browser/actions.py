"""The web action grammar: VisualWebArena's twelve actions, their text forms, and the reply rule.

Facts from docs/reference/web.md (VWA):

- the twelve actions are ``click [id]``, ``hover [id]``, ``type [id] [text]`` (Enter is pressed
  after the text unless the action ends in ``[0]``), ``press [key_comb]``, ``scroll [up|down]``,
  ``new_tab``, ``tab_focus [i]``, ``close_tab``, ``goto [url]``, ``go_back``, ``go_forward`` and
  ``stop [answer]``;
- a model reply ends with "In summary, the next action I will perform is" followed by the action
  in triple backticks; VWA's reader takes the first fenced span anywhere in the reply.

The grammar is VWA's own reader's, quirks included (see :func:`parse_action`).

VWA's reader also takes ``clear [id]`` (click the element, select all, Backspace) and
``upload [id] [path]`` (click the element and give the file chooser that opens the file
``path``); they are not in its prompt's list, so models are not offered them, but a reply using
them is read and carried out (:mod:`playbench.games.browser.execute`).

PlayBench adds one action outside VWA's twelve, ``click_at [x] [y]``: a click at page
coordinates, recorded only when a person clicks where no Set-of-Marks element is (so such steps
are marked as coordinate clicks in the record). Models are never offered it.

Every action VWA can express has one canonical text; ``parse_action(format_action(a)) == a``
(a ``type`` needs a non-empty text, ``press`` and ``goto`` a non-empty argument).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from playbench.games.base import MoveError, RuleOption
from playbench.games.types import Invalid

SUMMARY_PHRASE = "In summary, the next action I will perform is"

VWA_ACTIONS = ("click", "hover", "type", "press", "scroll", "new_tab", "tab_focus", "close_tab",
               "goto", "go_back", "go_forward", "stop")
"""The twelve actions of VWA's Set-of-Marks action space, in the paper's order."""

TYPE_RULE = RuleOption(
    "type_field", ("keep", "clear"), "keep",
    "What `type` does with a field's old text: keep it and type at the caret after clicking "
    "(VWA) or clear the field first.")
"""The web kind's rule option for ``type`` (docs/fidelity.md, VisualWebArena)."""

COORDINATE_ACTION = "click_at"
NO_ARGUMENT = ("new_tab", "close_tab", "go_back", "go_forward")


@dataclass(frozen=True)
class WebAction:
    """One parsed web action.

    ``element`` is the Set-of-Marks id for click/hover/type, ``text`` the typed text, the key
    combination, the URL or the stop answer, ``enter`` whether ``type`` presses Enter afterwards,
    ``direction`` ``up``/``down`` for scroll, ``index`` the tab for ``tab_focus`` and ``x``/``y``
    the page point of a coordinate click.
    """

    name: str
    element: int | None = None
    text: str = ""
    enter: bool = True
    direction: str = ""
    index: int | None = None
    x: int | None = None
    y: int | None = None

    @property
    def is_coordinate(self) -> bool:
        return self.name == COORDINATE_ACTION


_NO_NAME = "no action name"


def _fail(text: str, why: str, kind: str = "malformed") -> MoveError:
    return MoveError(f"{why}: {text.strip()[:120]!r}", kind)


def action_name(text: str) -> str:
    """The name VWA reads from an action text: what comes before the first ``[`` (stripped),
    or the first word when there is no bracket; "" for blank text.

    VWA's reader (``browser_env/actions.py``, docs/reference/web.md) compares this name with
    its actions exactly, so ``Click [3]`` and ``please click [3]`` name no action."""
    src = text.strip()
    if "[" in src:
        return src.split("[", 1)[0].strip()
    words = src.split()
    return words[0] if words else ""


def _search(pattern: str, src: str) -> re.Match[str] | None:
    # Line breaks may sit inside brackets (see parse_action); VWA's own patterns stop at them.
    return re.search(pattern, src, re.DOTALL)


def parse_action(text: str) -> WebAction:
    """Read one action with VWA's grammar; raise :class:`playbench.games.base.MoveError` otherwise.

    The grammar is VWA's (its id-based reader): the name is what precedes the first bracket
    (or the first word), matched case-sensitively; the arguments are found by a search from
    the name on, so trailing words are ignored (``click [12] on the button`` is ``click
    [12]``, ``go_back [1]`` is ``go_back``); at most one space between the name and a bracket
    and between brackets; bracket contents are kept as written (``stop [ Yes ]`` answers
    " Yes "); ``type`` without a final ``[0]`` or ``[1]`` presses Enter; ``stop`` without a
    bracketed answer answers "". ``clear [id]`` and ``upload [id] [path]`` are read as VWA's
    reader reads them (``upload`` takes a final ``[0]``/``[1]`` flag as ``type`` does; it is
    dropped, since VWA's ``[1]`` only appends a line break to the path).
    One deliberate difference (docs/fidelity.md): the text inside brackets may hold line
    breaks, so a multi-line ``type`` or ``stop`` keeps its lines where VWA's patterns fail.
    """
    src = text.strip()
    name = action_name(src)
    if not name:
        raise _fail(text, _NO_NAME)
    if name in NO_ARGUMENT:
        return WebAction(name)
    if name in ("click", "hover", "clear"):
        m = _search(name + r" ?\[(\d+)\]", src)
        if not m:
            raise _fail(text, f"{name} needs an element id, as in {name} [12]")
        return WebAction(name, element=int(m.group(1)))
    if name == "type":
        if not src.endswith(("[0]", "[1]")):
            src += " [1]"
        m = _search(r"type ?\[(\d+)\] ?\[(.+)\] ?\[(\d+)\]", src)
        if not m:
            raise _fail(text, "type needs an element id and a text, as in type [5] [red bike]")
        return WebAction("type", element=int(m.group(1)), text=m.group(2),
                         enter=m.group(3) == "1")
    if name == "upload":
        if not src.endswith(("[0]", "[1]")):
            src += " [1]"
        m = _search(r"upload ?\[(\d+)\] ?\[(.+)\] ?\[(\d+)\]", src)
        if not m:
            raise _fail(text, "upload needs an element id and a file path, as in "
                              "upload [5] [images/photo.png]")
        return WebAction("upload", element=int(m.group(1)), text=m.group(2))
    if name in ("press", "goto"):
        m = _search(name + r" ?\[(.+)\]", src)
        if not m:
            example = "press [Control+a]" if name == "press" else "goto [http://example.com]"
            raise _fail(text, f"{name} needs its argument in brackets, as in {example}")
        return WebAction(name, text=m.group(1))
    if name == "scroll":
        m = re.search(r"scroll ?\[?(up|down)\]?", src)
        if not m:
            raise _fail(text, "scroll needs a direction, as in scroll [down]")
        return WebAction(name, direction=m.group(1))
    if name == "tab_focus":
        m = re.search(r"tab_focus ?\[(\d+)\]", src)
        if not m:
            raise _fail(text, "tab_focus needs a tab number, as in tab_focus [0]")
        return WebAction(name, index=int(m.group(1)))
    if name == "stop":
        m = _search(r"stop ?\[(.+)\]", src)
        return WebAction(name, text=m.group(1) if m else "")
    if name == COORDINATE_ACTION:
        m = re.search(r"click_at ?\[(\d+)\] ?\[(\d+)\]", src)
        if not m:
            raise _fail(text, "click_at needs page coordinates, as in click_at [640] [360]")
        return WebAction(name, x=int(m.group(1)), y=int(m.group(2)))
    raise _fail(text, f"unknown action {name[:40]!r} (valid: {', '.join(VWA_ACTIONS)}; "
                      "names are lower-case)", "not_in_vocabulary")


def read_action(text: str) -> WebAction | Invalid:
    """:func:`parse_action` that never raises: an unreadable text gives an :class:`Invalid`
    whose reason says why (the kind is ``malformed``, ``not_in_vocabulary`` or, for blank
    text, ``no_action``)."""
    try:
        return parse_action(text)
    except MoveError as err:
        kind = "no_action" if not text.strip() else err.kind
        return Invalid(kind, err.reason, text[:200])


def format_action(action: WebAction) -> str:
    """The canonical text of an action (VWA's spelling; Enter after ``type`` is implied)."""
    n = action.name
    if n in NO_ARGUMENT:
        return n
    if n in ("click", "hover", "clear"):
        return f"{n} [{action.element}]"
    if n == "upload":
        base = f"upload [{action.element}] [{action.text}]"
        return base + " [1]" if base.endswith(("[0]", "[1]")) else base
    if n == "type":
        base = f"type [{action.element}] [{action.text}]"
        if not action.enter:
            return base + " [0]"
        # VWA reads a final [0] or [1] as the Enter flag: spell it out when the text itself
        # would end the action that way ("type [5] [x [0]").
        return base + " [1]" if base.endswith(("[0]", "[1]")) else base
    if n == "press":
        return f"press [{action.text}]"
    if n == "scroll":
        return f"scroll [{action.direction}]"
    if n == "tab_focus":
        return f"tab_focus [{action.index}]"
    if n == "goto":
        return f"goto [{action.text}]"
    if n == "stop":
        return f"stop [{action.text}]"
    if n == COORDINATE_ACTION:
        return f"click_at [{action.x}] [{action.y}]"
    raise ValueError(f"not a web action: {action!r}")


def extract_action(reply: str) -> str:
    """The action text in a model's reply, by VWA's rule: the first span between triple
    backticks anywhere in the reply, stripped of surrounding white space.

    VWA's prompt asks for the summary phrase before the fence, but its reader
    (``agent/prompts/prompt_constructor.py``, docs/reference/web.md) looks only for the first
    fence, wherever it is and whatever precedes it; a language tag on the fence's first line
    stays part of the action (and makes it unreadable), as in VWA. Raises MoveError
    ``no_action`` when no closed fence exists.
    """
    m = re.search(r"```(.*?)```", reply, re.DOTALL)
    if m is None:
        raise MoveError("no action in triple backticks", "no_action")
    return m.group(1).strip()
