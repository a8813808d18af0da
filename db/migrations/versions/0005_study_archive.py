"""Archived studies: a finished or mistaken study leaves the annotators' Studies list.

``studies.archived`` holds when the study was archived (NULL: active). Nothing of an archived
study is deleted: its episodes, queues and results stay where they were.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("studies", sa.Column("archived", sa.DateTime(), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE studies DROP COLUMN archived")  # SQLite >= 3.35, PostgreSQL
