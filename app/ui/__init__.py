"""The desktop shell (PySide6): the only package that imports Qt.

``main.run_app`` starts it; ``models`` holds the Qt-free state the views show; every other
module is one view or dialog.

Python 3.11 and PySide6 6.12: the bindings treat ``None``, ``True`` and ``False`` as immortal,
as they are from Python 3.12 on (PEP 683) - a Qt method returning nothing hands back ``None``,
and ``Signal.emit`` hands back ``True``, without taking a reference. On 3.11 every such call
therefore lowers the singleton's reference count by one, and after some thousands of calls
(paints, signals, setters) CPython frees ``None`` and aborts ("none_dealloc" /
"bool_dealloc", usually at exit). :func:`_immortal_singletons` gives the three objects the
effectively endless reference count 3.12 gives them, so the app and its tests run on 3.11 too.
It runs once, when this package is first imported, before any Qt call can be made through it.
"""

from __future__ import annotations

import sys


def _immortal_singletons() -> None:
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes
    for obj in (None, True, False):
        # ob_refcnt is the first field of every CPython object.
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 48


_immortal_singletons()
