"""A person's mouse and keyboard, recorded in the action vocabulary models use (no Qt here).

The browser pane shows the observation's frame and forwards events; this class turns them into
canonical VWA actions (docs/reference/web.md) that go through ``env.step`` exactly as a
model's would, so a person and a model are counted and replayed alike:

- a click becomes ``click [id]`` of the innermost Set-of-Marks element under the pointer, or
  ``click_at [x] [y]`` (marked ``coordinate``) where no element is;
- a click on a text field starts typing into it (nothing is sent yet); the keys edit a buffer
  that starts from the field's value; Enter commits one ``type [id] [text]`` (Enter pressed),
  preceded by ``click [id]``, ``press [Control+a]``, ``press [Backspace]`` when the field held
  text (VWA's ``type`` keeps old text, so it is deleted first, as a model would have to),
  leaving the field (a click elsewhere, Tab, a tab or history action) commits
  ``type [id] [text] [0]``; a field left untouched is recorded as the plain ``click [id]``;
  Escape drops the typing. In a multi-line field Enter is a new line;
- a click on a list (``<select>``) waits for :meth:`choose` with the option label, recorded as
  ``type [id] [label] [0]``;
- wheel notches become ``scroll [down]`` / ``scroll [up]`` (one per notch, one viewport each);
- other keys and key combinations become ``press [combo]`` (Playwright key names);
- back, forward, new tab, close tab, switching tab, the address bar and the answer box become
  ``go_back``, ``go_forward``, ``new_tab``, ``close_tab``, ``tab_focus [i]``, ``goto [url]`` and
  ``stop [answer]``.

When one event both ends typing and does something else (a click on a link while typing), the
commit is returned first and the event is kept; it is turned into an action against the *next*
observation's elements when the pane calls :meth:`update`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from playbench.app.core.types import Action, Decision
from playbench.games.browser.actions import WebAction, format_action
from playbench.games.browser.som import SomItem

MODIFIERS = ("Control", "Alt", "Shift", "Meta")
NOTCH = 1.0


@dataclass(frozen=True)
class Captured:
    """One canonical action and the input that produced it."""

    text: str
    raw: str
    coordinate: bool = False

    def decision(self, parse: Callable[[str], Action]) -> Decision:
        info = {"input": "human", "coordinate_click": True} if self.coordinate else {
            "input": "human"}
        return Decision.act(parse(self.text), raw=self.raw, info=info)


@dataclass
class _Typing:
    item: SomItem
    buffer: str
    original: str


def _items(elements: Iterable[SomItem | dict[str, Any]]) -> list[SomItem]:
    return [e if isinstance(e, SomItem) else SomItem.from_dict(e) for e in elements]


class BrowserInput:
    """Turns one person's input events into canonical actions for the current observation."""

    def __init__(self, elements: Iterable[SomItem | dict[str, Any]] = ()) -> None:
        self.elements = _items(elements)
        self.typing: _Typing | None = None
        self.choosing: SomItem | None = None
        self._scroll = 0.0
        self._deferred: list[Callable[[], list[Captured]]] = []

    # -- the observation ----------------------------------------------------------------------

    def update(self, elements: Iterable[SomItem | dict[str, Any]]) -> list[Captured]:
        """A new observation arrived (``info["som"]``). Returns the actions of events kept
        while typing was committed, now read against the new elements."""
        self.elements = _items(elements)
        self.typing, self.choosing = None, None
        pending, self._deferred = self._deferred, []
        out: list[Captured] = []
        for event in pending:
            out += event()
        return out

    def element_at(self, x: float, y: float) -> SomItem | None:
        """The innermost (smallest) marked element containing the point."""
        hits = [e for e in self.elements if e.contains(x, y)]
        return min(hits, key=lambda e: e.box[2] * e.box[3]) if hits else None

    # -- mouse --------------------------------------------------------------------------------

    def click(self, x: float, y: float) -> list[Captured]:
        item = self.element_at(x, y)
        if self.typing is not None:
            if item is not None and item.id == self.typing.item.id:
                return []  # moving the caret inside the field
            return self._leave(lambda: self.click(x, y))
        self.choosing = None
        where = f"click at ({x:.0f}, {y:.0f})"
        if item is None:
            move = WebAction("click_at", x=int(round(x)), y=int(round(y)))
            return [Captured(format_action(move), where + " on no element", coordinate=True)]
        if item.editable:
            self.typing = _Typing(item, item.value, item.value)
            return []
        if item.select:
            self.choosing = item
            return []
        return [Captured(format_action(WebAction("click", element=item.id)), where)]

    def hover(self, x: float, y: float) -> list[Captured]:
        item = self.element_at(x, y)
        if item is None:
            return []
        return [Captured(format_action(WebAction("hover", element=item.id)),
                         f"hover at ({x:.0f}, {y:.0f})")]

    def choose(self, label: str) -> list[Captured]:
        """The option picked from the list the last click opened."""
        if self.choosing is None:
            return []
        item, self.choosing = self.choosing, None
        move = WebAction("type", element=item.id, text=label, enter=False)
        return [Captured(format_action(move), f"chose {label!r}")]

    def wheel(self, notches: float) -> list[Captured]:
        """Wheel movement in notches, positive = down the page."""
        if self.typing is not None:
            return self._leave(lambda: self.wheel(notches))
        self._scroll += notches
        out = []
        while abs(self._scroll) >= NOTCH:
            down = self._scroll > 0
            self._scroll -= NOTCH if down else -NOTCH
            d = "down" if down else "up"
            out.append(Captured(f"scroll [{d}]", f"wheel {d}"))
        return out

    # -- keyboard -----------------------------------------------------------------------------

    def key(self, key: str, text: str = "", modifiers: Sequence[str] = ()) -> list[Captured]:
        """One key press: ``key`` is its Playwright name ("a", "Enter", "ArrowDown"), ``text``
        the character it types (if any), ``modifiers`` the held modifier names."""
        mods = [m for m in MODIFIERS if m in modifiers]
        chord = "+".join([*mods, key])
        if self.typing is None:
            if key in MODIFIERS:
                return []
            return [Captured(format_action(WebAction("press", text=chord)), f"key {chord}")]
        t = self.typing
        command = [m for m in mods if m != "Shift"]
        if key in MODIFIERS:
            return []
        if key == "Escape":
            self.typing = None
            return []
        if key == "Enter" and not command:
            if t.item.tag == "TEXTAREA":
                t.buffer += "\n"
                return []
            return self._commit(enter=True)
        if key == "Tab":
            return self._leave(lambda: self.key(key, text, modifiers))
        if key == "Backspace" and not command:
            t.buffer = t.buffer[:-1]
            return []
        if text and not command:
            t.buffer += text
            return []
        if command:
            return self._leave(lambda: self.key(key, text, modifiers))
        return []  # arrows, Home, End: caret moves inside the field

    def paste(self, text: str) -> list[Captured]:
        if self.typing is not None:
            self.typing.buffer += text
        return []

    # -- browser chrome -----------------------------------------------------------------------

    def back(self) -> list[Captured]:
        return self._chrome("go_back", "back button")

    def forward(self) -> list[Captured]:
        return self._chrome("go_forward", "forward button")

    def new_tab(self) -> list[Captured]:
        return self._chrome("new_tab", "new tab")

    def close_tab(self) -> list[Captured]:
        return self._chrome("close_tab", "close tab")

    def tab(self, index: int) -> list[Captured]:
        return self._chrome(f"tab_focus [{index}]", f"tab {index}")

    def goto(self, url: str) -> list[Captured]:
        return self._chrome(format_action(WebAction("goto", text=url.strip())), "address bar")

    def stop(self, answer: str) -> list[Captured]:
        """The answer box: ends the episode with this answer."""
        return self._chrome(format_action(WebAction("stop", text=answer.strip())),
                            "answer box")

    def action(self, text: str, raw: str) -> list[Captured]:
        """An action written out as a model writes it (the pane's action field); it is read,
        and refused if malformed, by the loop like a model's reply."""
        return self._chrome(text.strip(), raw)

    def _chrome(self, text: str, raw: str) -> list[Captured]:
        if self.typing is not None:
            return self._leave(lambda: self._chrome(text, raw))
        return [Captured(text, raw)]

    # -- typing -------------------------------------------------------------------------------

    def _commit(self, enter: bool) -> list[Captured]:
        t = self.typing
        assert t is not None
        self.typing = None
        if not enter and t.buffer == t.original:
            move = WebAction("click", element=t.item.id)
            return [Captured(format_action(move), "clicked a field, typed nothing")]
        how = "Enter" if enter else "leaving the field"
        focus = format_action(WebAction("click", element=t.item.id))
        out: list[Captured] = []
        if t.original:
            # VWA's type keeps a field's old text, and the buffer holds the field's whole new
            # content: empty the field first, with actions a model could send too.
            out = [Captured(focus, "the field held text: select it"),
                   Captured("press [Control+a]", "select the old text"),
                   Captured("press [Backspace]", "delete the old text")]
        if t.buffer:  # VWA's type needs a text; an emptied field needs only the clearing
            move = WebAction("type", element=t.item.id, text=t.buffer, enter=enter)
            return out + [Captured(format_action(move), f"typed {t.buffer!r}, then {how}")]
        if not out:
            out = [Captured(focus, "clicked a field")]
        return out + ([Captured("press [Enter]", "Enter in an empty field")] if enter else [])

    def _leave(self, then: Callable[[], list[Captured]]) -> list[Captured]:
        """Commit the typing without Enter and keep ``then`` for the next observation."""
        out = self._commit(enter=False)
        self._deferred.append(then)
        return out
