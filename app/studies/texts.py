"""The texts a study shows its annotators: ``instructions`` (Markdown), an optional ``consent``
text, and whether the pre-study "seen these tasks before?" question is asked.

Each text is written in the study file itself or kept in a file beside it
(``instructions: {file: instructions.md}``, relative to the study file). The text is read once,
when the study is checked, and stored in its protocol: a file edited after ``study create``
changes nothing for the study already stored, so the hashes kept with each member's consent
always refer to the text they were shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playbench.games.yamlfile import excerpt

MAX_TEXT_BYTES = 64 * 1024
"""The longest instructions or consent text (64 KiB, UTF-8). A consent form plus a page of
instructions is a few KiB; a bigger value is almost surely the wrong file."""

Report = Callable[[str, str], None]
"""Records one problem as (field, reason)."""


@dataclass(frozen=True)
class StudyTexts:
    """What the study shows before its first task."""

    instructions: str = ""
    consent: str = ""
    """Empty when the study asks for no consent."""
    ask_seen_before: bool = False

    @property
    def any(self) -> bool:
        """Whether there is anything to show before the first task."""
        return bool(self.instructions or self.consent or self.ask_seen_before)


def read_texts(data: Mapping[str, Any], base: Path, report: Report) -> StudyTexts:
    """The ``instructions``, ``consent`` and ``ask_seen_before`` fields of a study file's
    mapping; every problem goes to ``report`` naming the field (and the file, for a missing
    or unreadable one)."""
    instructions = _text("instructions", data.get("instructions"), base, report)
    consent = _text("consent", data.get("consent"), base, report)
    ask = data.get("ask_seen_before", False)
    if not isinstance(ask, bool):
        report("ask_seen_before", f"must be true or false, got {excerpt(ask)}")
        ask = False
    return StudyTexts(instructions, consent, ask)


def _text(where: str, value: Any, base: Path, report: Report) -> str:
    """One text field: inline text, or ``{file: PATH}`` read beside the study file."""
    if value is None:
        return ""
    if isinstance(value, Mapping):
        if set(value) != {"file"} or not isinstance(value["file"], str) or \
                not value["file"].strip():
            report(where, "write the text itself, or {file: NAME.md} (a file beside the "
                          "study file)")
            return ""
        return _from_file(where, base / value["file"], report)
    if not isinstance(value, str):
        report(where, f"must be Markdown text or {{file: NAME.md}}, got {excerpt(value)}")
        return ""
    return _checked(where, value, report)


def _from_file(where: str, path: Path, report: Report) -> str:
    if not path.is_file():
        report(f"{where}.file", f"{path}: no such file")
        return ""
    try:
        size = path.stat().st_size
        if size > MAX_TEXT_BYTES:
            report(f"{where}.file", f"{path}: {size:,} bytes; at most {MAX_TEXT_BYTES:,}")
            return ""
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        report(f"{where}.file", f"{path}: not UTF-8 text (byte {err.start})")
        return ""
    except OSError as err:
        report(f"{where}.file", f"{path}: cannot be read ({err.strerror})")
        return ""
    return _checked(f"{where}.file", text, report, str(path))


def _checked(where: str, text: str, report: Report, source: str = "") -> str:
    at = f"{source}: " if source else ""
    if not text.strip():
        report(where, f"{at}is empty; leave the field out instead")
        return ""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_TEXT_BYTES:
        report(where, f"{at}longer than {MAX_TEXT_BYTES:,} bytes")
        return ""
    if "\x00" in text:
        report(where, f"{at}holds a NUL character")
        return ""
    return text
