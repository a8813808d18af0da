"""The names a user picks results by - metrics and resampling units - in a module that imports
nothing, so the command line can offer them as choices without loading the results code (whose
package imports NumPy and the database layer)."""

METRICS = ("accuracy", "completion", "efficiency", "magebench", "steps_over_optimal",
           "human_relative")
"""What a leaderboard row can be sorted and plotted by."""

RESAMPLING = ("levels", "people")
"""The unit a bootstrap interval resamples: levels (clusters of episodes) or people."""
