"""Concurrent storms on PostgreSQL: joins followed at once by resignations while mail is being sent, and the
same move posted several times at once. No 500, no move or resignation lost, each email sent once.

With the old send (its row, the game's and the user's locked through the
SMTP conversation, in the join's order reversed) resignations waited and
PostgreSQL broke deadlocks by rolling back a send or a request.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus

import time_machine
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from correspondence import outbox, sweep
from correspondence.models import Notification
from games import services
from games.models import Action, Game
from tests.conftest import make_game, user_to_move
from tests.factories import UserFactory
from tests.faults.conftest import count, count_response

#: Seconds each email takes to "send" during the storms: a slow mail server.
MAIL_DELAY = 0.05


def run_threads(jobs: list[Callable[[], None]]) -> None:
    """Run each job in its own thread (with its own database connection), all released at once."""
    gate = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        try:
            gate.wait(10)
            job()
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def slow_mail(monkeypatch) -> None:
    """Every email takes MAIL_DELAY seconds to hand over, as to a slow server."""
    send = EmailBackend.send_messages

    def slow(self, messages):
        time.sleep(MAIL_DELAY)
        return send(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", slow)


def drain_outbox(stop: threading.Event) -> Callable[[], None]:
    """A sender beside the requests: sends every pending row it sees until ``stop`` (as a worker would)."""

    def job() -> None:
        while not stop.is_set():
            for pk in Notification.objects.filter(status="pending").values_list("pk", flat=True):
                outbox.notification_send(notification_id=pk)
            time.sleep(0.01)

    return job


def test_joins_followed_at_once_by_resignations_beside_slow_sends(monkeypatch, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    slow_mail(monkeypatch)
    games = []
    for i in range(8):
        creator, joiner = UserFactory.create(username=f"c{i}"), UserFactory.create(username=f"j{i}")
        game = services.game_create(
            creator=creator,
            kind="counter",
            options={"target": 10},
            players=2,
            rated=False,
            private=False,
            time_per_move=timedelta(days=1),
        )
        games.append((game, signed_in(creator), signed_in(joiner)))
    resign_times: list[float] = []
    statuses: list[int] = []
    stop = threading.Event()

    def join_then_resign(game: Game, creator: Client, joiner: Client) -> Callable[[], None]:
        def job() -> None:
            statuses.append(joiner.post(reverse("games:join", args=[game.pk])).status_code)
            started = time.monotonic()
            statuses.append(creator.post(reverse("games:resign", args=[game.pk]), {"confirm": "1"}).status_code)
            resign_times.append(time.monotonic() - started)

        return job

    senders = [drain_outbox(stop), drain_outbox(stop)]
    storm = [join_then_resign(*g) for g in games]

    def storm_then_stop() -> None:
        run_threads(storm)
        stop.set()

    run_threads([storm_then_stop, *senders])
    for status in statuses:
        count_response(status)
    assert statuses.count(HTTPStatus.FOUND) == len(statuses) == 16, Counter(statuses)
    for game, _, _ in games:
        game.refresh_from_db()
        # Resigned before a move of their own: the game is aborted (games.leaving.at_move_0), not finished.
        assert game.aborted_at_move_0 and game.seats.get(user=game.creator).resigned, "no resignation lost"
    assert max(resign_times) < 3, f"a resignation waited {max(resign_times):.2f} s"
    assert_each_email_sent_once()


def test_the_same_move_posted_at_once_from_three_tabs_applies_once_per_turn(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    games = [make_game(UserFactory.create(username=f"a{i}"), UserFactory.create(username=f"b{i}")) for i in range(4)]
    rounds = 4
    ok: Counter[int] = Counter()
    statuses: list[int] = []

    def play(game: Game) -> Callable[[], None]:
        def job() -> None:
            for _ in range(rounds):
                game.refresh_from_db()
                seq, mover = game.last_seq, user_to_move(game)
                tabs = [signed_in(mover) for _ in range(3)]
                answers: list[int] = []

                def post(tab: Client, seq: int = seq, answers: list[int] = answers) -> Callable[[], None]:
                    # As htmx posts it: 200 applied, 409 stale (a plain post is redirected either way).
                    url = reverse("games:move", args=[game.pk])
                    data = {"move": '{"act": "add", "n": 1}', "seq": seq}
                    return lambda: answers.append(tab.post(url, data, HTTP_HX_REQUEST="true").status_code)

                run_threads([post(tab) for tab in tabs])
                statuses.extend(answers)
                ok[game.pk] += answers.count(HTTPStatus.OK)

        return job

    run_threads([play(g) for g in games])
    for status in statuses:
        count_response(status)
    count("moves attempted", len(statuses))
    saved = Action.objects.filter(game__in=games).count()
    count("moves saved", saved)
    count("moves refused as stale", statuses.count(HTTPStatus.CONFLICT))
    assert HTTPStatus.INTERNAL_SERVER_ERROR not in statuses
    assert set(statuses) <= {HTTPStatus.OK, HTTPStatus.CONFLICT}, Counter(statuses)
    assert saved == rounds * len(games), "each turn applied exactly once"
    assert all(ok[g.pk] == rounds for g in games), "every move answered as saved is in the log"
    assert_each_email_sent_once()


def assert_each_email_sent_once() -> None:
    """Send what is left (the sweep), then: one delivery per row marked sent, no Message-ID twice."""
    with time_machine.travel(timezone.now() + sweep.OUTBOX_GRACE + timedelta(seconds=1)):
        sweep.sweep()
    assert not Notification.objects.filter(status__in=["pending", "sending"]).exists()
    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    sent = Notification.objects.filter(status="sent").count()
    count("emails expected", sent)
    count("emails sent", len(set(ids)))
    count("email deliveries", len(ids))
    assert len(ids) == len(set(ids)) == sent, Counter(ids).most_common(3)
