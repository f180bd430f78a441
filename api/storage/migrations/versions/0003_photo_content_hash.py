"""recognitions.photo_sha256: the stored photo's content hash, by which the dataset export keeps one example per
photo and splits train/val. Photos stored before it have none; the export hashes those as it reads them.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("recognitions", sa.Column("photo_sha256", sa.Text()))


def downgrade() -> None:
    with op.batch_alter_table("recognitions") as table:  # SQLite drops a column by copying the table
        table.drop_column("photo_sha256")
