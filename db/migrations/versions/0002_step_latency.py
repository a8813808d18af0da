"""Steps get a latency column: the time a model request took, apart from think time.

Think time covers the whole decision (queueing, retries, parsing); latency is the endpoint's own
answer time, which cost and throughput reports need. Older rows kept it in ``info``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("steps") as batch:
        batch.add_column(sa.Column("latency_ms", sa.Float(), nullable=False,
                                   server_default="0"))
    steps = sa.table("steps", sa.column("id", sa.Integer), sa.column("info", sa.JSON),
                     sa.column("latency_ms", sa.Float))
    conn = op.get_bind()
    rows = conn.execute(sa.select(steps.c.id, steps.c.info)).all()
    for row_id, info in rows:
        if isinstance(info, dict) and "latency_ms" in info:
            rest = {k: v for k, v in info.items() if k != "latency_ms"}
            conn.execute(sa.update(steps).where(steps.c.id == row_id).values(
                latency_ms=float(info["latency_ms"]), info=rest))


def downgrade() -> None:
    with op.batch_alter_table("steps") as batch:
        batch.drop_column("latency_ms")
