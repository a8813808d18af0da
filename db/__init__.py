"""Persistence: SQLAlchemy models, engine set-up with migrations, and the repositories."""
