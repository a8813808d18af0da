"""The loop every player goes through: Env, Player, Budget, Episode, Recorder, replay."""
