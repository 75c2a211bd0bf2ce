"""suggested target boxes: each step's box of the element under its action's point, derived from the screen's
elements at collection or import, and what it was derived from

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 01:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE (no batch rebuild): label revisions point at the steps.
    op.add_column("steps", sa.Column("suggested_box", sa.JSON(), nullable=True))
    op.add_column("steps", sa.Column("suggested_box_source", sa.String(length=40), nullable=True))


def downgrade() -> None:
    op.drop_column("steps", "suggested_box_source")
    op.drop_column("steps", "suggested_box")
