"""The app's look: Fusion with a light palette and a small stylesheet (sizes, emphasis,
state colours). Kept in one place so views only name roles (object names, properties)."""

from __future__ import annotations

from playbench.app.ui.qt import QApplication, QColor, QPalette

STYLE = """
QLabel#title { font-size: 15pt; font-weight: 600; color: #1d2330; }
QLabel#heading { font-size: 10.5pt; font-weight: 600; color: #3a4456; margin-top: 6px; }
QLabel#hint { color: #5d6675; }
QLabel#warning { color: #a4401a; }
QLabel#big { font-size: 28pt; font-weight: 700; color: #1d2330; }
QLabel#figure { font-size: 14pt; font-weight: 600; color: #1d2330; }
QFrame#figures { background: #f1f3f7; border: 1px solid #d9dde5; border-radius: 8px; }
QLabel#feedback { font-size: 11pt; padding: 4px 2px; min-height: 2.4em; }
QLabel#feedback[kind="bad"] { color: #b3261e; }
QLabel#feedback[kind="good"] { color: #1f7a3a; }
QLabel#feedback[kind="neutral"] { color: #5d6675; }
QLabel[kind="bad"] { color: #b3261e; }
QLabel[kind="good"] { color: #1f7a3a; }
QFrame#banner { border-radius: 8px; padding: 6px; background: #e8ecf4; }
QFrame#banner[kind="good"] { background: #dff3e4; border: 1px solid #9fd3ae; }
QFrame#banner[kind="neutral"] { background: #fff4d6; border: 1px solid #e5cf8a; }
QLabel#banner_text { font-size: 13pt; font-weight: 600; }
QFrame#nodb { background: #fde7e4; border: 1px solid #e8a59c; border-radius: 6px; }
QPushButton#primary { font-weight: 600; padding: 7px 16px; background: #2f6fdf; color: white;
                      border: 1px solid #2658b4; border-radius: 5px; }
QPushButton#primary:disabled { background: #aebfdf; border-color: #aebfdf; }
QPushButton#primary:hover { background: #2a63c8; }
QPushButton#primary:focus { border: 3px solid #0b1f4d; padding: 5px 14px; }
QPushButton { padding: 4px 12px; border: 1px solid #b4bcc9; border-radius: 4px;
              background: #f0f2f6; }
QPushButton:hover { background: #e6eaf1; }
QPushButton:pressed { background: #d9dfe9; }
QPushButton:disabled { color: #9aa2ae; border-color: #d3d8e0; }
QPushButton:focus { border: 2px solid #1f5fd1; padding: 3px 11px; }
QPushButton#pause[paused="true"] { font-weight: 600; background: #2f6fdf; color: white;
                                   padding: 4px 18px; border: 1px solid #2658b4;
                                   border-radius: 4px; }
QPushButton#digit { min-width: 30px; max-width: 38px; font-size: 12pt; font-weight: 600; }
QFrame#card { background: white; border: 1px solid #d9dde5; border-radius: 8px; }
QLabel#card_head { font-weight: 600; color: #3a4456; }
QScrollArea#transcript { background: #f1f3f7; }
QScrollArea#transcript > QWidget > QWidget { background: #f1f3f7; }
QLabel#status_line { color: #3a4456; padding: 2px; }
QLabel#probe[ok="true"] { color: #1f7a3a; }
QLabel#probe[ok="false"] { color: #b3261e; }
QListWidget#games::item { padding: 3px; font-size: 11pt; }
QListWidget#packs::item { padding: 3px; }
QDialog, QMessageBox { border: 1px solid #9aa3b2; }
QTabWidget::pane { border-top: 1px solid #d0d5de; }
QTabBar::tab { padding: 7px 18px; font-size: 10.5pt; }
QTabBar::tab:selected { font-weight: 600; }
"""


def apply_style(app: QApplication) -> None:
    app.setStyle("Fusion")
    pal = QPalette()
    base = {
        QPalette.ColorRole.Window: QColor(248, 249, 251),
        QPalette.ColorRole.WindowText: QColor(29, 35, 48),
        QPalette.ColorRole.Base: QColor(255, 255, 255),
        QPalette.ColorRole.AlternateBase: QColor(244, 246, 250),
        QPalette.ColorRole.Text: QColor(29, 35, 48),
        QPalette.ColorRole.Button: QColor(240, 242, 246),
        QPalette.ColorRole.ButtonText: QColor(29, 35, 48),
        QPalette.ColorRole.Highlight: QColor(47, 111, 223),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.ToolTipBase: QColor(255, 255, 240),
        QPalette.ColorRole.ToolTipText: QColor(29, 35, 48),
        QPalette.ColorRole.PlaceholderText: QColor(130, 138, 150),
    }
    for role, colour in base.items():
        pal.setColor(role, colour)
    app.setPalette(pal)
    app.setStyleSheet(STYLE)
