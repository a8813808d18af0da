"""Metrics: pure functions of a trajectory and facts about its final state. No Qt, no DB."""
