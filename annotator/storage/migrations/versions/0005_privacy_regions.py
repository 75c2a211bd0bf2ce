"""privacy regions: boxes an annotator marked on a step's screenshot (device pixels) for an export to mask

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25 09:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.add_column(sa.Column("privacy_regions", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.drop_column("privacy_regions")
