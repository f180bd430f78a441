"""An index on confirmations.confirmed_at: the dataset export reads every confirmation in that order.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_confirmations_confirmed_at", "confirmations", ["confirmed_at"])


def downgrade() -> None:
    op.drop_index("ix_confirmations_confirmed_at", "confirmations")
