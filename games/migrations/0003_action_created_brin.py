"""A BRIN index on the move log's ``created``, on PostgreSQL only.

The operators' numbers ("moves in the last hour and day") filter the whole
append-only log by time; rows are inserted in time order, so a BRIN index
answers that in a few pages for a fraction of a B-tree's size. SQLite (the
development default) has no BRIN and does not need it.
"""

from __future__ import annotations

from django.db import migrations


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS action_created_brin ON games_action USING brin (created)"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS action_created_brin")


class Migration(migrations.Migration):
    dependencies = [("games", "0002_clocks")]

    operations = [migrations.RunPython(create, drop)]
