"""``manage.py seed_demo`` (what ``make run`` shows a newcomer): users, a game in progress, a finished game."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_game_in_progress_and_a_finished_rated_one_and_can_run_again(client):
    out = StringIO()
    call_command("seed_demo", stdout=out)
    running = Game.objects.get(status=Game.Status.ACTIVE, seats__user__username="alice")
    finished = Game.objects.get(status=Game.Status.FINISHED, seats__user__username="carol")
    assert finished.rated and sorted(s.rank for s in finished.seats.all()) in ([1, 2], [1, 1])
    assert f"/games/{finished.pk}/" in out.getvalue() and f"/games/{running.pk}/" in out.getvalue()
    carol = finished.seats.get(user__username="carol").user
    assert carol.check_password("herald-demo-password")
    client.force_login(carol)
    assert client.get(finished.get_absolute_url()).status_code == 200
    call_command("seed_demo", stdout=StringIO())  # again: nothing new
    assert Game.objects.count() == 2


def test_seeding_prints_no_demo_emails_and_no_broker_warning(settings, capsys, caplog):
    """`make run` printed some 40 demo emails before the server started, burying the sign-up link a new
    user looks for, and kombu's "No hostname was supplied"."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert "Demo game:" in out.getvalue()
    printed = capsys.readouterr().out
    assert "Subject:" not in printed
    assert not [r for r in caplog.records if "hostname" in r.getMessage() or r.name == "herald.task"]
