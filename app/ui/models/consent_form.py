"""The consent screen's rules, kept out of the widget (Qt-free): when "I agree" may be
pressed, what it and the screen say, and what is recorded (``app.studies.consent``)."""

from __future__ import annotations

from dataclasses import dataclass

from playbench.app.studies.consent import ConsentDue

SEEN_BEFORE_QUESTION = ("Have you seen these tasks or games before (played them, or seen "
                        "them played or solved)?")
DECLINED = ("You did not agree, so nothing was started and nothing about you was recorded. "
            "If you change your mind, press \"Next task\" again.")


@dataclass(frozen=True)
class ConsentForm:
    """What the screen shows for one member's :class:`ConsentDue`."""

    due: ConsentDue

    @property
    def asks_consent(self) -> bool:
        return bool(self.due.texts.consent)

    @property
    def asks_seen_before(self) -> bool:
        return self.due.texts.ask_seen_before

    def can_agree(self, ticked: bool, seen_before: bool | None) -> bool:
        """The button is enabled only once the consent box is ticked (when there is a consent
        text) and the question is answered (when it is asked)."""
        if self.asks_consent and not ticked:
            return False
        return not (self.asks_seen_before and seen_before is None)

    def agree_label(self) -> str:
        return "I agree - start the study" if self.asks_consent else "Start the study"

    def heading(self) -> str:
        return (f"Before your first task in {self.due.study}: read the instructions"
                + (" and the consent text" if self.asks_consent else ""))
