"""The desktop shell (PySide6): the only package that imports Qt.

``main.run_app`` starts it; ``models`` holds the Qt-free state the views show; every other
module is one view or dialog.

PySide6 6.12 treats ``None``, ``True`` and ``False`` as immortal objects, as they are from
Python 3.12 on; on 3.11 that corrupts their reference counts and aborts the interpreter after a
few thousand Qt calls. pyproject.toml therefore keeps Python 3.11 on PySide6 6.11, and
``./bootstrap`` prefers Python 3.12 when it is available.
"""
