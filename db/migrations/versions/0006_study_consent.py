"""Consent, instructions and the "seen before?" answer of each study member.

``study_members`` gains when the member accepted the study's consent text (``consented``), the
SHA-256 of the consent and instructions texts they were shown (so a text changed later is
visible), and their answer to the study's optional "have you seen these tasks before?"
question (``seen_before``: NULL when not asked or not yet answered). All nullable: members who
joined before this revision, and studies without consent, keep NULL.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_COLUMNS = ("consented", "consent_sha256", "instructions_sha256", "seen_before")


def upgrade() -> None:
    op.add_column("study_members", sa.Column("consented", sa.DateTime(), nullable=True))
    op.add_column("study_members", sa.Column("consent_sha256", sa.String(64), nullable=True))
    op.add_column("study_members",
                  sa.Column("instructions_sha256", sa.String(64), nullable=True))
    op.add_column("study_members", sa.Column("seen_before", sa.Boolean(), nullable=True))


def downgrade() -> None:
    for column in _COLUMNS:
        op.execute(f"ALTER TABLE study_members DROP COLUMN {column}")  # SQLite >= 3.35, PG
