"""The library's start panel: the chosen level's picture and facts, who plays (the annotator,
a model profile, a scripted player), the setting and the budget."""

from __future__ import annotations

from typing import Any

from playbench.app.agents.profiles import DEMO, ProfileError
from playbench.app.core.settings import get_setting, undo_allowed
from playbench.app.ui.board import BoardWidget
from playbench.app.ui.models.app_state import AppState
from playbench.app.ui.models.catalog import PackRef
from playbench.app.ui.models.profiles import describe, load_profiles
from playbench.app.ui.models.start import (
    SCRIPTED_PLAYERS,
    StartRequest,
    budget_for,
    heading,
    settings_for,
    start_summary,
)
from playbench.app.ui.qt import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSpinBox,
    Qt,
    QVBoxLayout,
    QWidget,
    Signal,
)
from playbench.games import registry
from playbench.games.base import BoardEnv, Level, level_rule_options
from playbench.games.kind import default_registry
from playbench.games.kind import preview as kind_preview
from playbench.games.kind import unavailable as kind_unavailable


class StartPanel(QWidget):
    start_requested = Signal(object)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.game: str | None = None
        self.pack: PackRef | None = None
        self.levels: list[Level] = []
        self.index = -1
        self.setMinimumWidth(340)

        self.title = QLabel("Choose a level")
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        self.where = QLabel("")
        self.where.setObjectName("hint")
        self.where.setWordWrap(True)
        self.preview = BoardWidget()
        self.preview.accepts_input = False
        self.preview.setMinimumSize(280, 220)
        self.facts = QLabel("")
        self.facts.setWordWrap(True)

        self.player = QComboBox()
        self.player.setObjectName("player")
        self.setting = QComboBox()
        self.setting.setObjectName("setting")
        # A long model description ("Model: ... via ...") sized the player box wider than
        # the panel, which then squeezed the wrapped lines below it (the setting's help was
        # cut off): both boxes show what fits, their tooltip the whole choice.
        for combo in (self.player, self.setting):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.setting_help = QLabel("")
        self.setting_help.setWordWrap(True)
        self.setting_help.setObjectName("hint")
        self.max_actions = QSpinBox()
        self.max_actions.setRange(0, 10000)
        self.max_actions.setSpecialValueText("no limit")
        self.max_actions.setSuffix(" actions")
        self.max_actions.setToolTip("0 = no limit (a multi-step episode still stops after 200 "
                                    "actions)")
        self.seconds = QSpinBox()
        self.seconds.setRange(0, 24 * 3600)
        self.seconds.setSpecialValueText("no limit")
        self.seconds.setSuffix(" s")
        self.rules = QLabel("")
        self.rules.setWordWrap(True)
        self.rules.setObjectName("hint")
        self.play = QPushButton("Play")
        self.play.setObjectName("primary")
        self.play.setEnabled(False)
        self.summary = QLabel("")
        self.summary.setObjectName("start_summary")
        self.summary.setWordWrap(True)
        self.profile_note = QLabel("")
        self.profile_note.setWordWrap(True)
        self.profile_note.setObjectName("warning")
        self.profile_note.hide()

        box = QGroupBox("Start")
        form = QFormLayout(box)
        form.addRow("Player", self.player)
        form.addRow("", self.profile_note)
        form.addRow("Setting", self.setting)
        form.addRow("", self.setting_help)
        form.addRow("Budget", self.max_actions)
        form.addRow("Time limit", self.seconds)
        form.addRow("Rules", self.rules)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.where)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.facts)
        layout.addWidget(box)
        layout.addWidget(self.summary)
        layout.addWidget(self.play)

        self.setting.currentIndexChanged.connect(self._setting_changed)
        self.player.currentIndexChanged.connect(self._player_changed)
        self.max_actions.valueChanged.connect(self._show_summary)
        self.seconds.valueChanged.connect(self._show_summary)
        self.play.clicked.connect(self._start)
        self.refresh_players()

    # -- choices ------------------------------------------------------------------------------

    def refresh_players(self) -> None:
        """Re-list players (after the annotator or the profiles changed)."""
        keep = self.player.currentData()
        self.player.blockSignals(True)
        self.player.clear()
        who = self.state.prefs.annotator or "not set"
        self.player.addItem(f"Me - annotator {who}", "human")
        try:
            profiles = load_profiles()
            self.profile_note.hide()
        except ProfileError as err:
            profiles = {DEMO.name: DEMO}
            self.profile_note.setText(f"Model profiles could not be read: {err}")
            self.profile_note.show()
        for p in profiles.values():
            self.player.addItem(f"Model: {describe(p)}", f"model:{p.name}")
        for name in SCRIPTED_PLAYERS:
            self.player.addItem(f"Scripted: {name}", name)
        wanted = keep or self.state.prefs.last_player
        idx = self.player.findData(wanted)
        self.player.setCurrentIndex(max(0, idx))
        self.player.blockSignals(False)
        self._player_changed()

    def set_game(self, game: str) -> None:
        self.game = game
        self.setting.blockSignals(True)
        self.setting.clear()
        for s in settings_for(game):
            self.setting.addItem(s.name, s.name)
            self.setting.setItemData(self.setting.count() - 1, s.description,
                                     Qt.ItemDataRole.ToolTipRole)
        wanted = self.state.prefs.last_setting.get(game, "default")
        self.setting.setCurrentIndex(max(0, self.setting.findData(wanted)))
        self.setting.blockSignals(False)
        self._setting_changed()
        self._show_rules()

    def _show_rules(self) -> None:
        if self.game is None:
            return
        if not default_registry().get(self.game).rule_options:
            self.rules.setText("no rule options")
            return
        spec = registry.get(self.game)  # the rules validate and complete the chosen options
        chosen = spec.rule_options(self.state.prefs.rules.get(self.game, {}))
        self.rules.setText(", ".join(f"{k}={v}" for k, v in chosen.items())
                           + " (change in Settings > Rules)")

    def _setting_changed(self) -> None:
        if self.game is None or self.setting.currentData() is None:
            return
        s = get_setting(self.setting.currentData(), self.game)
        self.setting.setToolTip(f"{s.name}: {s.description}")
        extra = []
        if s.one_step:
            extra.append("you type the whole action list before any move is shown")
        if not s.history and not s.one_step:
            extra.append("your earlier moves are not listed")
        if undo_allowed(s, self.game):
            extra.append("undo allowed")
        self.setting_help.setText(s.description + (" - " + "; ".join(extra) if extra else ""))
        b = s.budget
        self.max_actions.setValue(b.max_actions or 0)
        self.seconds.setValue(int(b.seconds or 0))
        self._show_summary()

    def _player_changed(self) -> None:
        human = self.player.currentData() == "human"
        self.player.setToolTip(self.player.currentText())
        self.play.setText("Play" if human else "Watch the model play"
                          if str(self.player.currentData()).startswith("model:")
                          else "Watch the scripted player")
        self._show_summary()

    def _show_summary(self) -> None:
        """Say what Play starts; a model player or a budget other than the setting's own is
        marked (restyled as a warning) so that it is not started by accident."""
        if self.game is None or self.setting.currentData() is None:
            self.summary.setText("")
            return
        b = get_setting(self.setting.currentData(), self.game).budget
        text, unusual = start_summary(
            self.player.currentText(), self.player.currentData() == "human",
            self.max_actions.value(), self.seconds.value(), b.max_actions or 0,
            int(b.seconds or 0))
        self.summary.setText(text)
        self.summary.setObjectName("warning" if unusual else "hint")
        self.summary.style().unpolish(self.summary)
        self.summary.style().polish(self.summary)

    def showEvent(self, event: Any) -> None:
        """Model profiles may have been added meanwhile (``playbench models add`` beside the
        app): the player list is read again whenever the panel is shown."""
        super().showEvent(event)
        self.refresh_players()

    def set_level(self, pack: PackRef | None, levels: list[Level], index: int) -> None:
        self.pack, self.levels, self.index = pack, list(levels), index
        if pack is None or index < 0:
            self.title.setText("Choose a level")
            self.where.setText("")
            self.preview.set_frame(None)
            self.preview.set_placeholder("No level selected")
            self.facts.setText("")
            self.play.setEnabled(False)
            return
        lv = levels[index]
        kind = default_registry().get(pack.game)
        title, where = heading(kind.title, pack.source, lv)
        self.title.setText(title)
        self.where.setText(where)
        facts = dict(kind.describe(lv))
        optimal = lv.meta.get("optimal")
        parts = [f"{k}: {v}" for k, v in facts.items() if v is not None]
        if optimal is not None or any(x.meta.get("optimal") is not None for x in levels):
            parts.append(f"optimal: {optimal if optimal is not None else 'unknown'} moves")
        self.facts.setText("   ".join(parts))
        picture, missing = kind_preview(kind, lv), kind_unavailable(kind)
        if picture is not None or missing:  # a kind that draws its own start or cannot run
            self.preview.set_frame(picture)
            if missing:
                self.preview.set_placeholder(missing)
                self.facts.setText(f"{self.facts.text()}\n{missing}")
            self.play.setEnabled(not missing)
            self.play.setToolTip(missing or "")
            return
        try:  # the preview follows the chosen rule options, so it needs the game's rules
            spec = registry.get(pack.game)  # chosen options win, else the level's own
            env: BoardEnv[Any, Any] = BoardEnv(spec, level_rule_options(
                spec.options, lv, self.state.prefs.rules.get(pack.game, {})))
            env.reset(lv)
            self.preview.set_frame(env.render())
            self.play.setEnabled(True)
        except ValueError as err:  # LevelError or a bad rule option
            self.preview.set_frame(None)
            self.preview.set_placeholder(f"This level cannot start under the chosen rules:\n{err}")
            self.play.setEnabled(False)

    # -- start --------------------------------------------------------------------------------

    def request(self) -> StartRequest | None:
        if self.pack is None or self.index < 0 or self.game is None:
            return None
        setting = get_setting(self.setting.currentData(), self.game)
        budget = budget_for(setting, self.game, self.max_actions.value(), self.seconds.value())
        spec = registry.get(self.game)
        # Only the chosen options (a bad saved one stops here, as before);
        # StartRequest.task() completes them per level.
        rules = dict(self.state.prefs.rules.get(self.game, {}))
        spec.rule_options(rules)
        return StartRequest(self.pack, tuple(self.levels), self.index,
                            self.player.currentData(), setting.name, budget, rules)

    def _start(self) -> None:
        req = self.request()
        if req is None:
            return
        prefs = self.state.prefs
        self.state.prefs = prefs.with_(last_player=req.player,
                                       last_setting={**prefs.last_setting, req.game: req.setting})
        self.start_requested.emit(req)
