"""Seat.forfeit_seq: after which move a seat forfeited, so the log can say "X resigned" in its place.

Seats that forfeited before this field existed get the last move made
before their ``timed_out`` (0: before any move).
"""

from django.db import migrations, models
from django.db.models import Max


def backfill(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    Action = apps.get_model("games", "Action")
    for seat in Seat.objects.filter(forfeited=True, forfeit_seq__isnull=True).exclude(timed_out=None).iterator():
        last = Action.objects.filter(game_id=seat.game_id, created__lte=seat.timed_out).aggregate(m=Max("seq"))["m"]
        seat.forfeit_seq = last or 0
        seat.save(update_fields=["forfeit_seq"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_seat_standing_action_standing"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="forfeit_seq",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
