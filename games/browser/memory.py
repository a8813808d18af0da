"""How much memory a sandboxed page may use, and how Chromium is held to it.

A page that allocates without end (a model's page, a catalog game with a leak) would otherwise
take the machine's memory: one such page held 3.4 GB. Two bounds apply to every page process
(each renderer), set from one number, ``PLAYBENCH_PAGE_MEMORY_MB`` (default
:data:`DEFAULT_PAGE_MEMORY_MB`):

- **V8's heap** (``--js-flags=--max-old-space-size``, half the number): JavaScript objects past
  it end the renderer with V8's own out-of-memory error;
- **the process's data segment** (``RLIMIT_DATA``, the whole number; Linux only): set on
  Chromium's child processes right after launch, so every renderer forked later inherits it.
  It counts the writable private memory a process commits (array buffers, images, WebAssembly
  memory - all that the V8 limit does not), not the address space V8 only reserves, which is
  why Chromium still starts under it. An allocation past it fails (``RangeError: Array buffer
  allocation failed``) or ends the renderer.

The browser process itself is left unbounded: it holds no page's objects (a page's blobs are
capped by Chromium and spill to disk), and ending it would end every session it serves.

A page whose renderer ends shows up as a Playwright ``crash`` event: the session notes it and
the step that was waiting on the page ends as its kind reports a failed page (an ``error``
episode with its steps kept, or a failed render that scores 0); nothing waits on it.
"""

from __future__ import annotations

import logging
import os
import resource
import sys
from pathlib import Path

log = logging.getLogger(__name__)

MEMORY_ENV = "PLAYBENCH_PAGE_MEMORY_MB"
DEFAULT_PAGE_MEMORY_MB = 1024
MIN_PAGE_MEMORY_MB = 256
"""The smallest limit accepted: an empty page's renderer already commits about 100 MiB."""


def page_memory_mb(value: int | str | None = None) -> int | None:
    """The per-page memory limit in MiB: ``value`` if given, else ``$PLAYBENCH_PAGE_MEMORY_MB``,
    else :data:`DEFAULT_PAGE_MEMORY_MB`. ``0`` turns the limit off (None). A value that is not
    a whole number, or is below :data:`MIN_PAGE_MEMORY_MB`, raises ValueError naming it."""
    raw = os.environ.get(MEMORY_ENV) if value is None else value
    if raw is None or raw == "":
        return DEFAULT_PAGE_MEMORY_MB
    try:
        mb = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{MEMORY_ENV}={raw!r}: the page memory limit is a whole number of "
                         "MiB (0 turns it off)") from None
    if mb == 0:
        return None
    if mb < MIN_PAGE_MEMORY_MB:
        raise ValueError(f"{MEMORY_ENV}={raw!r}: a page needs at least {MIN_PAGE_MEMORY_MB} "
                         "MiB (0 turns the limit off)")
    return mb


def js_flags(mb: int) -> str:
    """Chromium's switch that bounds V8's heap in every renderer to half of ``mb``."""
    return f"--js-flags=--max-old-space-size={max(mb // 2, 64)}"


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def find_marked(marker: str) -> int | None:
    """The process whose command line holds ``marker`` (the browser, launched with it)."""
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "cmdline").read_bytes().split(b"\0"):
                return int(entry.name)
        except OSError:
            continue
    return None


def descendants(root: int) -> list[int]:
    """Every living process below ``root`` (children first)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _parent(int(entry.name))
            if parent is not None:
                children.setdefault(parent, []).append(int(entry.name))
    out: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop(0)
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def limit_children(marker: str, mb: int) -> str:
    """Set ``RLIMIT_DATA`` to ``mb`` MiB on every child process of the Chromium launched with
    ``marker`` on its command line (see the module docstring). Returns "" when done, else why
    not (not Linux, the browser was not found, the kernel refused) - the caller logs it; V8's
    heap limit holds either way."""
    if not sys.platform.startswith("linux") or not hasattr(resource, "prlimit"):
        return "the page memory limit is set by V8's heap limit only on this platform"
    browser = find_marked(marker)
    if browser is None:
        return "Chromium's process was not found; V8's heap limit still applies"
    size = mb * 1024 * 1024
    refused = []
    for pid in descendants(browser):
        try:
            _, hard = resource.prlimit(pid, resource.RLIMIT_DATA)
            cap = size if hard == resource.RLIM_INFINITY else min(size, hard)
            resource.prlimit(pid, resource.RLIMIT_DATA, (cap, cap))
        except ProcessLookupError:
            continue
        except OSError as err:
            refused.append(f"{pid}: {err.strerror or err}")
    if refused:
        return "the memory limit could not be set on " + ", ".join(refused[:3])
    return ""


__all__ = ["DEFAULT_PAGE_MEMORY_MB", "MEMORY_ENV", "descendants", "find_marked", "js_flags",
           "limit_children", "page_memory_mb"]
