"""Portable files made from the database: trajectories, score tables, training data."""
