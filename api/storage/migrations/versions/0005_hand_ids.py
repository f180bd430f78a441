"""Every hand of a game gets a stable id (issue 50): hands used to be addressed by their position, which shifts
when an earlier hand is deleted. A stored hand without one gets "h1", "h2", … by its place; later hands are
named by the game's version that records them (api/routers/games.py), which is always above those.

Revision ID: 0005
Revises: 0004
"""

import json
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

games = sa.table("games", sa.column("id", sa.Text), sa.column("hands", sa.Text))


def with_ids(hands: list[dict]) -> list[dict]:
    return [{"id": f"h{n}", **hand} if "id" not in hand else hand for n, hand in enumerate(hands, start=1)]


def without_ids(hands: list[dict]) -> list[dict]:
    return [{key: value for key, value in hand.items() if key != "id"} for hand in hands]


def rewrite(hands_of: Callable[[list[dict]], list[dict]]) -> None:
    db = op.get_bind()
    for game_id, hands in db.execute(sa.select(games.c.id, games.c.hands)).all():
        db.execute(games.update().where(games.c.id == game_id).values(hands=json.dumps(hands_of(json.loads(hands)))))


def upgrade() -> None:
    rewrite(with_ids)


def downgrade() -> None:
    rewrite(without_ids)
