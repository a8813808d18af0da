"""The football engine server: Google Research Football behind a line protocol.

Runs as its own process under an interpreter that has ``gfootball`` (which may not be the one
running PlayBench: GRF 2.10.2 builds against Debian's Boost.Python, which exists for the
system's Python 3.11 only; see ``docs/football.md``). It imports nothing from PlayBench, only
the standard library, NumPy and GRF, so that any interpreter with the ``football`` extra can run
it by path. One GRF game lives in one process (GRF allows a single rendering engine per
process), which is also why the engine sits out of PlayBench's process.

Protocol: one JSON object per line on stdin, one per line on stdout.

- ``{"cmd": "reset", "scenario": {...}, "seed": N, "width": W}`` starts the scenario (the
  data file's object, see ``playbench.games.football.scenarios``: the ball, each team's
  ``[x, y, role, lazy, controllable]`` with the right team in its own frame, and the
  ``config`` settings it sets) with GRF's engine seed ``N`` and answers ``{"obs": RAW}``.
- ``{"cmd": "step", "action": I}`` plays one frame with GRF's full action set index ``I``
  (19 is the built-in AI) and answers ``{"obs": RAW, "done": bool}``.
- ``{"cmd": "frame"}`` answers ``{"width": W, "height": H, "rgb": BASE64}`` (the last frame).
- ``{"cmd": "quit"}`` ends the process.

Errors answer ``{"error": TEXT}``. ``RAW`` keeps the facts the reward and the automation read
(positions and directions of the ball and both teams, who owns the ball, score, frames left,
game mode, the controlled player).

Scenario config (docs/reference/football.md): a 400-frame game that ends on a goal, on the ball
going out of play and on a change of possession; no offside; the opponents' AI at difficulty
0.0 and our team's at 1.0 [code] - MageBench's values, which a scenario's own ``config``
settings replace (:data:`KINDS` lists the ones applied); GRF's stochastic engine seeded per episode
(``game_engine_random_seed``), which GRF replays exactly for the same seed and actions.

Determinism mode: the engine is always GRF's rendering engine, which draws only the frames
asked for. GRF's rendering engine and its headless engine play slightly different games from
the same seed (measured here on 59 frames of a scenario: the headless run parts from the others
at frame 6), so frames on or off must not change the engine, or a game recorded with frames
would not replay without them. Within the rendering engine, the game does not depend on which
frames are drawn nor on their size (the same 59 frames drawn every frame at 16, 64, 320 and
1280 px, or every tenth frame, or only the first), so each reset switches the rendering engine
on and drawing off, and ``frame`` draws one picture: about ten times faster than drawing
every frame.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import types
from typing import Any

MODULE = "playbench_scenario"
"""The module name the scenario is registered under inside ``gfootball.scenarios``."""

ROLES = ("GK", "CB", "LB", "RB", "DM", "CM", "LM", "RM", "AM", "CF")
DEFAULTS: dict[str, Any] = {
    "game_duration": 400, "deterministic": False, "offsides": False,
    "end_episode_on_score": True, "end_episode_on_out_of_play": True,
    "end_episode_on_possession_change": True, "right_team_difficulty": 0.0,
    "left_team_difficulty": 1.0}
"""MageBench's scenario settings, used where a scenario sets none (module docstring)."""
KINDS: dict[str, Any] = {
    "game_duration": int, "deterministic": bool, "offsides": bool,
    "end_episode_on_score": bool, "end_episode_on_out_of_play": bool,
    "end_episode_on_possession_change": bool, "left_team_difficulty": float,
    "right_team_difficulty": float, "second_half": int, "use_magnet": bool}
"""The scenario settings a scenario may change here (``grf_config.APPLIED`` in PlayBench;
this file imports nothing from PlayBench) and the type GRF's config takes for each."""


def _builder_module(scenario: dict[str, Any]) -> types.ModuleType:
    """A module with GRF's ``build_scenario`` hook that places the scenario's players."""
    import gfootball_engine as libgame  # type: ignore[import-not-found]

    settings = dict(DEFAULTS)
    given = scenario.get("config") or {}
    unknown = sorted(set(given) - set(KINDS))
    if unknown:
        raise ValueError(f"the engine does not apply the setting {unknown[0]!r}")
    settings.update(given)

    def build_scenario(builder: Any) -> None:
        cfg = builder.config()
        for name, value in settings.items():
            setattr(cfg, name, KINDS[name](value))
        bx, by = scenario["ball"]
        builder.SetBallPosition(float(bx), float(by))
        for side, key in ((libgame.e_Team.e_Left, "left"), (libgame.e_Team.e_Right, "right")):
            builder.SetTeam(side)
            for entry in scenario[key]:
                x, y, role = entry[:3]
                lazy = bool(entry[3]) if len(entry) > 3 else False
                controllable = bool(entry[4]) if len(entry) > 4 else True
                builder.AddPlayer(float(x), float(y),
                                  getattr(libgame.e_PlayerRole, f"e_PlayerRole_{role}"),
                                  lazy, controllable)

    module = types.ModuleType(f"gfootball.scenarios.{MODULE}")
    module.build_scenario = build_scenario  # type: ignore[attr-defined]
    return module


def _raw(obs: Any) -> dict[str, Any]:
    o = obs[0] if isinstance(obs, list) else obs

    def pairs(a: Any) -> list[list[float]]:
        return [[round(float(v[0]), 6), round(float(v[1]), 6)] for v in a]

    return {
        "ball": [round(float(v), 6) for v in o["ball"]],
        "ball_direction": [round(float(v), 6) for v in o["ball_direction"]],
        "ball_owned_team": int(o["ball_owned_team"]),
        "ball_owned_player": int(o["ball_owned_player"]),
        "left_team": pairs(o["left_team"]),
        "left_team_direction": pairs(o["left_team_direction"]),
        "right_team": pairs(o["right_team"]),
        "right_team_direction": pairs(o["right_team_direction"]),
        "score": [int(v) for v in o["score"]],
        "steps_left": int(o["steps_left"]),
        "game_mode": int(o["game_mode"]),
        "active": int(o.get("active", -1)),
    }


class Server:
    """One GRF environment, made on the first reset and reused for later ones."""

    def __init__(self) -> None:
        self.env: Any = None
        self.config: Any = None
        self.width = 0

    def reset(self, msg: dict[str, Any]) -> dict[str, Any]:
        from gfootball.env import config as grf_config  # type: ignore[import-not-found]
        from gfootball.env import football_env

        sys.modules[f"gfootball.scenarios.{MODULE}"] = _builder_module(msg["scenario"])
        width = int(msg.get("width", 640))
        if self.env is not None and width != self.width:
            self.env.close()
            self.env = None
        seed = int(msg.get("seed", 0))
        if self.env is None:
            self.config = grf_config.Config({
                "action_set": "full", "players": ["agent:left_players=1"],
                "level": MODULE, "real_time": False, "game_engine_random_seed": seed,
                "render_resolution_x": width, "render_resolution_y": width * 9 // 16,
                "display_game_stats": False,
            })
            self.env = football_env.FootballEnv(self.config)
            self.width = width
        # Drawing on before every reset. Before the first, this makes the engine GRF's
        # rendering engine from the start (asked later, GRF swaps engines mid-game through a
        # saved state, and that game differs from the ones a reused engine plays); before a
        # later one, it avoids a crash (SIGSEGV) GRF 2.10.2 has resetting with drawing off.
        self.env.render(mode="rgb_array")
        self.config["game_engine_random_seed"] = seed
        self.config["reverse_team_processing"] = bool(seed % 2)
        obs = self.env.reset()
        self.env.disable_render()  # then drawing only the frames asked for (module docstring)
        return {"obs": _raw(obs)}

    def step(self, msg: dict[str, Any]) -> dict[str, Any]:
        obs, _reward, done, _info = self.env.step(int(msg["action"]))
        return {"obs": _raw(obs), "done": bool(done)}

    def frame(self) -> dict[str, Any]:
        import numpy as np
        # GRF 2.10.2's "rgb_array" comes out in blue-green-red order (its own channel swap
        # undoes one the engine no longer makes: our yellow team showed up cyan), so the
        # channels are turned back here.
        bgr = self.env.render(mode="rgb_array")
        self.env.disable_render()
        rgb = np.ascontiguousarray(bgr[..., ::-1], dtype=np.uint8)
        h, w = rgb.shape[:2]
        return {"width": w, "height": h, "rgb": base64.b64encode(rgb.tobytes()).decode()}


def main() -> int:
    server = Server()
    # The protocol gets its own copy of stdout; file descriptor 1 then points at stderr, so
    # whatever GRF prints (from Python or from its C++ engine) cannot mix with the answers.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            cmd = msg.get("cmd")
            if cmd == "quit":
                break
            if cmd == "reset":
                answer = server.reset(msg)
            elif cmd == "step":
                answer = server.step(msg)
            elif cmd == "frame":
                answer = server.frame()
            elif cmd == "hello":
                import gfootball  # type: ignore[import-not-found]  # noqa: F401
                answer = {"ok": True, "python": sys.version.split()[0]}
            else:
                answer = {"error": f"unknown command {cmd!r}"}
        except Exception as err:  # the client shows the engine's own message
            answer = {"error": f"{type(err).__name__}: {err}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
