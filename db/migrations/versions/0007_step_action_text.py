"""A step's action is unbounded text, as its raw reply already is.

``steps.action`` was ``VARCHAR(2000)``, but a step stores up to the cap of db/caps.py (256 KiB
and a note) in every text field - a model's WebUI page, a long ``type [id] [text]``. SQLite
never enforced the length; PostgreSQL refused such a step ("value too long for type character
varying(2000)") and the episode ended in error. On PostgreSQL the column becomes ``TEXT`` (a
type change in place: no row is rewritten); on SQLite the declared type is changed in the
schema text only, as SQLite stores the values the same way under either name.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

LIMIT = 2000


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_declared_type("VARCHAR(2000)", "TEXT")
    else:
        op.alter_column("steps", "action", type_=sa.Text(),
                        existing_type=sa.String(LIMIT), existing_nullable=True)


def downgrade() -> None:
    bind = op.get_bind()
    longest = bind.execute(sa.text("SELECT MAX(LENGTH(action)) FROM steps")).scalar() or 0
    if longest > LIMIT:
        raise RuntimeError(f"cannot downgrade: a stored action has {longest} characters, more "
                           f"than the {LIMIT} the older schema holds; nothing was changed")
    if bind.dialect.name == "sqlite":
        _sqlite_declared_type("TEXT", "VARCHAR(2000)")
    else:
        op.alter_column("steps", "action", type_=sa.String(LIMIT),
                        existing_type=sa.Text(), existing_nullable=True)


def _sqlite_declared_type(old: str, new: str) -> None:
    """Rename the declared type of ``steps.action`` in SQLite's schema text. Copying the
    table (Alembic's batch mode) would rewrite every step - minutes on a large file - for a
    change SQLite does not act on: both names give the column TEXT affinity."""
    bind = op.get_bind()
    sql = bind.execute(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' "
                               "AND name = 'steps'")).scalar_one()
    target = f"action {old}"
    if target not in sql:
        raise RuntimeError(f"steps.action is not declared as {old} in this database's schema")
    version = bind.execute(sa.text("PRAGMA schema_version")).scalar_one()
    bind.execute(sa.text("PRAGMA writable_schema = ON"))
    bind.execute(sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' "
                         "AND name = 'steps'"), {"sql": sql.replace(target, f"action {new}", 1)})
    bind.execute(sa.text(f"PRAGMA schema_version = {int(version) + 1}"))
    bind.execute(sa.text("PRAGMA writable_schema = OFF"))
