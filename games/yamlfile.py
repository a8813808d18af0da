"""The one way PlayBench reads YAML it did not write: study and sweep files, browser-game catalogs.

Plain ``yaml.safe_load`` runs no code, but it still trusts the file's size and shape. Three
shapes cost far more than the file's bytes (docs/security.md, "YAML files"):

- **Alias bombs** ("billion laughs"): ten anchors, each a list of ten aliases of the one before,
  are a few hundred bytes that stand for 10^9 nodes. PyYAML builds them as shared objects, so the
  load itself is cheap; whatever walks the result afterwards (a check that prints the value it
  refuses, a JSON dump of the stored file) walks all 10^9 and needs gigabytes. We cannot refuse
  aliases outright: GameWorld's own catalog is written by PyYAML, which anchors repeated values
  (``cell_bindings: &id001`` ... ``*id001`` in its minesweeper game). Instead, while the document
  is composed, every node knows how many nodes it stands for once its aliases are expanded, and
  the aliases of one file may stand for at most :data:`MAX_ALIAS_NODES` nodes in all. That is
  counted from the anchors' sizes, never by expanding anything, so a bomb is refused after reading
  a few hundred bytes with no memory spent.
- **Deep nesting**: ``[[[[...`` 100,000 levels deep. The composer and constructor recurse once
  per level, so Python's recursion limit is reached; nesting deeper than :data:`MAX_DEPTH` is
  refused at the first level too many.
- **Huge files**: a file is read only up to :data:`MAX_BYTES`; a bigger one is refused before it
  is parsed, naming its size.

libyaml's C parser reads the text when PyYAML was built with it (about ten times faster than the
pure-Python reader); the composing, where the limits are counted, is always ours. A problem is
reported as :class:`YamlError` with its line and column and at most a short excerpt of the input,
so a message never grows with the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent
from yaml.nodes import Node
from yaml.resolver import Resolver

MAX_BYTES = 4 * 1024 * 1024
"""The largest YAML file read (4 MiB). Study, sweep and catalog files are a few KiB (the biggest
bundled GameWorld game file is 7 KB)."""
MAX_DEPTH = 40
"""The deepest nesting of lists and mappings. Study files nest 4 levels, GameWorld's catalog 8."""
MAX_ALIAS_NODES = 100_000
"""How many nodes the aliases of one document may stand for in all. GameWorld's one shared
value (minesweeper's cell bindings) is 487 nodes; a billion-laughs file asks for 10^9."""
EXCERPT = 60
"""The most characters of the input (or of a value) a message quotes."""

try:  # libyaml's parser when PyYAML was built with it
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]
    C_PARSER = True
except ImportError:  # pragma: no cover - depends on how PyYAML was installed
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)

    C_PARSER = False


class YamlError(ValueError):
    """A YAML file or text that cannot be read: too big, not YAML, or past a limit.

    ``line`` and ``column`` are 1-based (None for the file as a whole); ``problem`` is short and
    quotes at most :data:`EXCERPT` characters of the input."""

    def __init__(self, source: str, problem: str, line: int | None = None,
                 column: int | None = None) -> None:
        self.source = source
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(f"{source}: {problem}" if line is None
                         else f"{source}: {self.where}: {problem}")

    @property
    def where(self) -> str:
        """``line 3, column 7``, or ``file`` when the problem is the whole file."""
        if self.line is None:
            return "file"
        return f"line {self.line}" + (f", column {self.column}" if self.column else "")


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages that quote a value.

    A value read from a file can be megabytes long (or, through aliases, stand for far more);
    quoting it whole would make the message as big."""
    if isinstance(value, (list, dict, tuple, set)):
        # never build the repr of a big container just to cut it
        size = len(value)
        if size > limit // 2:
            return f"<{type(value).__name__} of {size} items>"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


class _LimitError(ComposerError):
    """A document past one of this module's limits (said as such, not as a syntax error)."""


class _Composer(Composer):
    """PyYAML's composer, counting nesting depth and what aliases stand for as it goes.

    ``_sums`` holds, per open collection, the expanded size of the children composed so far;
    ``_sizes`` the expanded size of each finished anchored node. Neither grows with the file
    beyond its depth and its anchors."""

    def __init__(self) -> None:
        super().__init__()
        self._sums: list[int] = []
        self._sizes: dict[str, int] = {}
        self._aliased = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        # the parser half of the loader gives peek_event (PyYAML's own Composer relies on it too)
        event = self.peek_event()  # type: ignore[attr-defined]
        mark: Any = event.start_mark
        if isinstance(event, AliasEvent):
            anchor = str(event.anchor)
            size = self._sizes.get(anchor)
            if size is None and anchor in self.anchors:
                raise ComposerError(None, None, f"alias *{_cut(anchor)} is used inside "
                                    "the value it names (a value cannot contain itself)", mark)
            self._aliased += size or 0
            if self._aliased > MAX_ALIAS_NODES:
                raise _LimitError(None, None, f"aliases stand for more than "
                                  f"{MAX_ALIAS_NODES:,} values in all (alias *{_cut(anchor)} "
                                  f"alone for {size:,}); write the values out or share fewer",
                                  mark)
            node = super().compose_node(parent, index)
            self._add(size or 1)
            return node
        collection = isinstance(event, (SequenceStartEvent, MappingStartEvent))
        if collection:
            if len(self._sums) >= MAX_DEPTH:
                raise _LimitError(None, None, f"lists and mappings nest deeper than "
                                  f"{MAX_DEPTH} levels", mark)
            self._sums.append(0)
        node = super().compose_node(parent, index)
        size = 1 + (self._sums.pop() if collection else 0)
        if getattr(event, "anchor", None) is not None:
            self._sizes[event.anchor] = size
        self._add(size)
        return node

    def _add(self, size: int) -> None:
        if self._sums:
            self._sums[-1] += size


class _Constructor(SafeConstructor):
    """SafeConstructor whose value errors are YAML errors with the value's position, like every
    other problem of the file: a 13th month, an integer of 5,000 digits, and what PyYAML's own
    constructors stumble on (``!!int ''`` indexes an empty string, ``!!bool x`` looks up a
    word it does not know)."""

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError, LookupError, TypeError) as err:
            reason = _cut(str(err)) or type(err).__name__
            raise ConstructorError(None, None, f"cannot read this value ({reason})",
                                   node.start_mark) from None


class _Loader(_Composer, _Parser, _Constructor, Resolver):
    """Our composer before the parser in the method order, so libyaml only parses."""

    def __init__(self, text: str) -> None:
        _Parser.__init__(self, text)
        _Composer.__init__(self)
        _Constructor.__init__(self)
        Resolver.__init__(self)


def _cut(text: str, limit: int = EXCERPT) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _near(text: str, line: int, column: int) -> str:
    """At most :data:`EXCERPT` characters of ``text`` around 0-based (line, column)."""
    start = 0
    for _ in range(line):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    row = text[start:] if end < 0 else text[start:end]
    lo = max(0, min(column - EXCERPT // 2, len(row) - EXCERPT))
    part = row[lo:lo + EXCERPT]
    return ("..." if lo else "") + part + ("..." if lo + EXCERPT < len(row) else "")


def load_yaml(text: str, source: str = "<yaml>") -> Any:
    """The value of one YAML document, within this module's limits; :class:`YamlError` names
    ``source``, the line and column, and what is wrong."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise YamlError(source, _too_big(size))
    loader = _Loader(text)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        problem = _cut(str(err.problem or err.context or "unreadable"), 2 * EXCERPT)
        if mark is None:
            raise YamlError(source, problem) from None
        near = _near(text, mark.line, mark.column).rstrip()
        if near:
            problem += f", near {near!r}"
        if not isinstance(err, _LimitError):
            problem = f"not valid YAML ({problem})"
        raise YamlError(source, problem, mark.line + 1, mark.column + 1) from None
    except yaml.YAMLError as err:
        raise YamlError(source, f"not valid YAML ({_cut(str(err), 2 * EXCERPT)})") from None
    finally:
        loader.dispose()


def read_text(path: Path) -> str:
    """The UTF-8 text of the file at ``path``, refused unread past :data:`MAX_BYTES`; an
    unreadable file or one that is not UTF-8 is a :class:`YamlError` too."""
    try:
        with open(path, "rb") as f:
            # one byte past the limit is enough to know: a file that grows, or a device with no
            # size (/dev/zero), is refused like a big file, without reading it all
            data = f.read(MAX_BYTES + 1)
    except OSError as err:
        raise YamlError(str(path), f"cannot be read ({err.strerror or err})") from None
    if len(data) > MAX_BYTES:
        try:
            size = max(path.stat().st_size, len(data))
        except OSError:
            size = len(data)
        raise YamlError(str(path), _too_big(size))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise YamlError(str(path), f"not UTF-8 text ({err.reason})", line) from None


def read_yaml(path: Path) -> Any:
    """The value of the YAML file at ``path``: :func:`read_text`, then :func:`load_yaml`."""
    return load_yaml(read_text(path), str(path))


def _too_big(size: int) -> str:
    shown = f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size:,} bytes"
    return f"too big: {shown} (PlayBench reads YAML files of up to {MAX_BYTES // 1024 ** 2} MiB)"
