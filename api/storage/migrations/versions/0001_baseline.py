"""The schema of the first releases: recognitions, confirmations, games.

Databases made by those releases (before migrations) already have these tables but no alembic_version: they are
left as they are and stamped, so every database continues from here.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "recognitions" not in existing:
        op.create_table("recognitions",
                        sa.Column("id", sa.Text, primary_key=True),
                        sa.Column("created_at", sa.Text, nullable=False),
                        sa.Column("image_file", sa.Text, nullable=False),
                        sa.Column("media_type", sa.Text, nullable=False),
                        sa.Column("result", sa.Text, nullable=False))
    if "confirmations" not in existing:
        op.create_table("confirmations",
                        sa.Column("recognition_id", sa.Text, sa.ForeignKey("recognitions.id"), primary_key=True),
                        sa.Column("confirmed_at", sa.Text, nullable=False),
                        sa.Column("body", sa.Text, nullable=False))
    if "games" not in existing:
        op.create_table("games",
                        sa.Column("id", sa.Text, primary_key=True),
                        sa.Column("version", sa.Integer, nullable=False),
                        sa.Column("created_at", sa.Text, nullable=False),
                        sa.Column("updated_at", sa.Text, nullable=False),
                        sa.Column("setup", sa.Text, nullable=False),
                        sa.Column("hands", sa.Text, nullable=False))


def downgrade() -> None:
    op.drop_table("games")
    op.drop_table("confirmations")
    op.drop_table("recognitions")
