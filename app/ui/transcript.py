"""The transcript pane of the model demo: one card per decision, newest at the bottom.

A card appears when the model is asked (showing how long it has been thinking, or that the
demo is paused), shows the reply as it streams in, and is completed when the decision arrives:
reasoning, raw reply with the parsed action marked, each step's outcome (invalid reason in red),
tokens, cost and latency.
"""

from __future__ import annotations

from collections.abc import Sequence

from playbench.app.core.recorder import StepRecord
from playbench.app.core.types import Decision
from playbench.app.ui.models.transcript import decision_html, partial_html, usage_line
from playbench.app.ui.qt import QFrame, QLabel, QScrollArea, Qt, QVBoxLayout, QWidget


class DecisionCard(QFrame):
    def __init__(self, number: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.number = number
        self.head = QLabel(f"Decision {number + 1}")
        self.head.setObjectName("card_head")
        self.head.setWordWrap(True)  # the usage line is long; the card keeps the pane's width
        self.body = QLabel("")
        self.body.setObjectName("card_body")
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.head)
        layout.addWidget(self.body)
        self.done = False

    def waiting(self, seconds: float, paused: bool, note: str = "") -> None:
        """Show the wait for the reply; ``note`` says why it is long (a retry, say)."""
        if self.done:
            return
        if paused:
            self.head.setText(f"Decision {self.number + 1} · paused (press Resume or Step)")
        else:
            extra = f" · {note}" if note else ""
            self.head.setText(f"Decision {self.number + 1} · waiting for the reply "
                              f"({seconds:.1f} s){extra}")

    def streamed(self, text: str) -> None:
        """Show the reply received so far (the model is still answering)."""
        if self.done:
            return
        self.body.setText(partial_html(text))

    def fill(self, decision: Decision, records: Sequence[StepRecord]) -> None:
        self.done = True
        think = records[0].think_ms if records else 0.0
        self.head.setText(f"Decision {self.number + 1} · {usage_line(decision, think)}")
        self.body.setText(decision_html(decision, records))


class TranscriptPane(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        # Cards wrap to the pane's width (their text has break chances everywhere, see
        # models/transcript.breakable); a sideways scroll bar only hid that they did not.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.inner = QWidget()
        self.column = QVBoxLayout(self.inner)
        self.column.setContentsMargins(6, 6, 6, 6)
        self.column.addStretch(1)
        self.setWidget(self.inner)
        self.cards: dict[int, DecisionCard] = {}
        self._records: dict[int, list[StepRecord]] = {}
        self.empty = QLabel("The model's replies appear here, one card per decision.")
        self.empty.setObjectName("hint")
        self.column.insertWidget(0, self.empty)

    def clear(self) -> None:
        for card in self.cards.values():
            card.deleteLater()
        self.cards.clear()
        self._records.clear()
        self.empty.show()

    def card(self, decision: int) -> DecisionCard:
        card = self.cards.get(decision)
        if card is None:
            self.empty.hide()
            card = DecisionCard(decision)
            self.cards[decision] = card
            self.column.insertWidget(self.column.count() - 1, card)
            bar = self.verticalScrollBar()
            bar.rangeChanged.connect(lambda _lo, hi: bar.setValue(hi),
                                     Qt.ConnectionType.SingleShotConnection)
        return card

    def asked(self, decision: int) -> None:
        self.card(decision)

    def streaming(self, decision: int, text: str) -> None:
        self.card(decision).streamed(text)

    def answered(self, decision: Decision, record: StepRecord) -> None:
        records = self._records.setdefault(record.decision, [])
        records.append(record)
        self.card(record.decision).fill(decision, records)

    def pending(self) -> DecisionCard | None:
        for card in self.cards.values():
            if not card.done:
                return card
        return None
