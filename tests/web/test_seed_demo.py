"""``manage.py seed_demo`` (what ``make run`` shows a newcomer): users, a game in progress, a finished game."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from urllib.parse import quote

import pytest
from django.conf import settings
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


@pytest.mark.django_db(transaction=True)
def test_make_runs_seeding_without_redis_prints_only_the_demo_lines():
    """What `make run` shows before the server starts, run as it runs it: its own process, no REDIS_URL
    (it looks for Redis only afterwards), DEBUG on. The in-process test above runs under the test settings,
    whose broker depends on the tester's REDIS_URL, so it could not see kombu's "No hostname was supplied",
    logged when the memory broker's URL named no host."""
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        pytest.skip("the seeding process reaches the test database by its URL: PostgreSQL only")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "CELERY_", "HERALD_LIVE_"))}
    login = f"{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}"
    env.update(DEBUG="1", DATABASE_URL=f"postgres://{login}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}")
    done = subprocess.run(
        [sys.executable, "manage.py", "seed_demo"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines and all(line.startswith(("Demo ", "Finished demo game")) for line in lines), lines
