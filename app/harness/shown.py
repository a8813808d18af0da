"""Text from a harness made safe to show a person.

A request's messages, tool descriptions and harness and task names are the harness's text,
shown as they are on the person's terminal (``playbench serve-human``) or in the app. Control
characters in them would act rather than show: ``ESC ] 0 ; ... BEL`` retitles a terminal,
``ESC [ 2 J`` clears it, a carriage return overwrites the line the person reads, and Unicode's
bidirectional overrides reorder what the person sees. :func:`safe_text` spells each such
character out as an escape (``\\x1b``, ``\\u202e``), keeping newlines and tabs.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")
"""C0 controls but tab and newline, DEL, C1 controls, bidirectional marks and overrides, and
lone surrogates (which no terminal encoding can print)."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with every character that would act on a display spelled out as an escape."""
    return _UNSAFE.sub(_escape, text)


__all__ = ["safe_text"]
