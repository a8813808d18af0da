"""Studies: practice episodes are marked, annotators' task orders are recorded, and results
queries get indexes over (study, practice) and over scores by name.

``episodes.practice`` lets the results leave practice plays out with plain SQL (no JSON
lookups, which differ between SQLite and PostgreSQL). ``study_members`` keeps the seed each
member's task order was drawn from, and the order itself, so a queue is the same after a restart
or on another machine.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, not batch mode: batch mode copies and drops the episodes table, and
    # with foreign keys on, dropping it would cascade-delete every step and score.
    op.add_column("episodes", sa.Column("practice", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    op.create_index("ix_episodes_study", "episodes", ["study_id", "practice"], unique=False)
    # Covers the leaderboard's pivot of a few named scores (no table lookups).
    op.create_index("ix_scores_name", "scores", ["name", "episode_id", "value"], unique=False)
    op.create_table(
        "study_members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("task_order", sa.JSON(), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["participant_id"], ["participants.id"],
                                name=op.f("fk_study_members_participant_id_participants")),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"],
                                name=op.f("fk_study_members_study_id_studies"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_members")),
        sa.UniqueConstraint("study_id", "participant_id",
                            name=op.f("uq_study_members_study_id_participant_id")),
    )


def downgrade() -> None:
    op.drop_table("study_members")
    op.drop_index("ix_scores_name", table_name="scores")
    op.drop_index("ix_episodes_study", table_name="episodes")
    op.execute("ALTER TABLE episodes DROP COLUMN practice")  # SQLite >= 3.35 and PostgreSQL
