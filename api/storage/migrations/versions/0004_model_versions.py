"""The recogniser's model versions, the active one, and the adaptation jobs (api/storage/model_versions.py).

Embedded databases of the release that added them without a migration already have these tables: kept as they are.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "model_versions" not in existing:
        op.create_table("model_versions",
                        sa.Column("id", sa.Text, primary_key=True),
                        sa.Column("created_at", sa.Text, nullable=False),
                        sa.Column("adaptation", sa.Text, nullable=False))
    if "model_settings" not in existing:
        op.create_table("model_settings",
                        sa.Column("key", sa.Text, primary_key=True),
                        sa.Column("value", sa.Text, nullable=False))
    if "adapt_jobs" not in existing:
        op.create_table("adapt_jobs",
                        sa.Column("id", sa.Text, primary_key=True),
                        sa.Column("created_at", sa.Text, nullable=False),
                        sa.Column("updated_at", sa.Text, nullable=False),
                        sa.Column("state", sa.Text, nullable=False),
                        sa.Column("progress", sa.Float, nullable=False),
                        sa.Column("message", sa.Text, nullable=False),
                        sa.Column("version", sa.Text),
                        sa.Column("outcome", sa.Text))


def downgrade() -> None:
    op.drop_table("adapt_jobs")
    op.drop_table("model_settings")
    op.drop_table("model_versions")
