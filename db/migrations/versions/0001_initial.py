"""Initial schema: participants, tasks, studies, episodes, steps, frames, scores.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('frames',
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.Column('width', sa.Integer(), nullable=False),
    sa.Column('height', sa.Integer(), nullable=False),
    sa.Column('png', sa.LargeBinary(), nullable=False),
    sa.PrimaryKeyConstraint('hash', name=op.f('pk_frames'))
    )
    op.create_table('participants',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=36), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('details', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_participants')),
    sa.UniqueConstraint('kind', 'name', name=op.f('uq_participants_kind_name')),
    sa.UniqueConstraint('uid', name=op.f('uq_participants_uid'))
    )
    op.create_table('studies',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('protocol', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_studies')),
    sa.UniqueConstraint('name', name=op.f('uq_studies_name')),
    sa.UniqueConstraint('uid', name=op.f('uq_studies_uid'))
    )
    op.create_table('tasks',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=40), nullable=False),
    sa.Column('level_hash', sa.String(length=64), nullable=False),
    sa.Column('level_text', sa.Text(), nullable=False),
    sa.Column('level_number', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=300), nullable=False),
    sa.Column('source', sa.String(length=500), nullable=False),
    sa.Column('meta', sa.JSON(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tasks')),
    sa.UniqueConstraint('game', 'level_hash', name=op.f('uq_tasks_game_level_hash'))
    )
    op.create_table('episodes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sa.String(length=36), nullable=False),
    sa.Column('participant_id', sa.Integer(), nullable=False),
    sa.Column('task_id', sa.Integer(), nullable=False),
    sa.Column('study_id', sa.Integer(), nullable=True),
    sa.Column('setting', sa.String(length=80), nullable=False),
    sa.Column('player', sa.String(length=200), nullable=False),
    sa.Column('budget', sa.JSON(), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('end_reason', sa.String(length=300), nullable=True),
    sa.Column('n_steps', sa.Integer(), nullable=False),
    sa.Column('owner', sa.String(length=200), nullable=False),
    sa.Column('start_frame', sa.String(length=64), nullable=True),
    sa.Column('start_state', sa.String(length=64), nullable=False),
    sa.Column('started', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended', sa.DateTime(timezone=True), nullable=True),
    sa.Column('meta', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['participant_id'], ['participants.id'], name=op.f('fk_episodes_participant_id_participants')),
    sa.ForeignKeyConstraint(['start_frame'], ['frames.hash'], name=op.f('fk_episodes_start_frame_frames')),
    sa.ForeignKeyConstraint(['study_id'], ['studies.id'], name=op.f('fk_episodes_study_id_studies')),
    sa.ForeignKeyConstraint(['task_id'], ['tasks.id'], name=op.f('fk_episodes_task_id_tasks')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_episodes')),
    sa.UniqueConstraint('uid', name=op.f('uq_episodes_uid'))
    )
    op.create_index('ix_episodes_participant', 'episodes', ['participant_id'], unique=False)
    op.create_index('ix_episodes_status', 'episodes', ['status'], unique=False)
    op.create_index('ix_episodes_task', 'episodes', ['task_id'], unique=False)
    op.create_table('scores',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('value', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['episode_id'], ['episodes.id'], name=op.f('fk_scores_episode_id_episodes'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_scores')),
    sa.UniqueConstraint('episode_id', 'name', name=op.f('uq_scores_episode_id_name'))
    )
    op.create_table('steps',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('episode_id', sa.Integer(), nullable=False),
    sa.Column('index', sa.Integer(), nullable=False),
    sa.Column('decision', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=2000), nullable=True),
    sa.Column('raw', sa.Text(), nullable=False),
    sa.Column('valid', sa.Boolean(), nullable=False),
    sa.Column('invalid_kind', sa.String(length=40), nullable=True),
    sa.Column('invalid_reason', sa.Text(), nullable=True),
    sa.Column('changed', sa.Boolean(), nullable=False),
    sa.Column('reward', sa.Float(), nullable=False),
    sa.Column('state_hash', sa.String(length=64), nullable=False),
    sa.Column('frame', sa.String(length=64), nullable=True),
    sa.Column('think_ms', sa.Float(), nullable=False),
    sa.Column('prompt_tokens', sa.Integer(), nullable=False),
    sa.Column('completion_tokens', sa.Integer(), nullable=False),
    sa.Column('cost', sa.Float(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('info', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['episode_id'], ['episodes.id'], name=op.f('fk_steps_episode_id_episodes'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['frame'], ['frames.hash'], name=op.f('fk_steps_frame_frames')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_steps')),
    sa.UniqueConstraint('episode_id', 'index', name=op.f('uq_steps_episode_id_index'))
    )


def downgrade() -> None:
    op.drop_table('steps')
    op.drop_table('scores')
    op.drop_index('ix_episodes_task', table_name='episodes')
    op.drop_index('ix_episodes_status', table_name='episodes')
    op.drop_index('ix_episodes_participant', table_name='episodes')
    op.drop_table('episodes')
    op.drop_table('tasks')
    op.drop_table('studies')
    op.drop_table('participants')
    op.drop_table('frames')
