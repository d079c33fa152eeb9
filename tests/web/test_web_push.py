"""Web Push against a fake push service on loopback: a small HTTP server that records what it is sent.

The browser's side is played by a key pair made here (what
``PushManager.subscribe`` holds), so the test can decrypt what the site sent
and read it as the service worker would.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from datetime import timedelta
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import translation
from py_vapid import Vapid

from accounts.services import user_delete
from correspondence import push
from correspondence.models import Notification, NotificationSettings, PushSubscription
from correspondence.outbox import SUSPENDED, notification_send
from correspondence.sweep import sweep
from games import services
from moderation.user_actions import user_ban, user_unban
from tests.conftest import make_game, user_to_move, user_waiting
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class FakePushService:
    """An HTTP server on 127.0.0.1 that records each request and answers 201, or ``answers[path]``."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answers: dict[str, int] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                service.requests.append(
                    {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
                )
                self.send_response(service.answers.get(self.path, HTTPStatus.CREATED))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """What a browser keeps of its subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


@pytest.fixture
def push_service(settings):
    key = Vapid()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    settings.PUSH_SERVICE_HOSTS = ["127.0.0.1"]
    settings.PUSH_ALLOW_HTTP = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    push._vapid.cache_clear()
    service = FakePushService()
    yield service
    service.close()
    push._vapid.cache_clear()


def subscribe(client, user, browser: Browser) -> None:
    client.force_login(user)
    response = client.post(
        reverse("correspondence:push_subscribe"), json.dumps(browser.subscription), content_type="application/json"
    )
    assert response.status_code == HTTPStatus.NO_CONTENT, response.content


def test_a_move_sends_one_push_to_the_subscribed_browser(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    browser = Browser(f"{push_service.url}/push/abc")
    subscribe(client, waiting, browser)

    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)

    assert [r["path"] for r in push_service.requests] == ["/push/abc"]
    sent = push_service.requests[0]
    assert sent["headers"]["content-encoding"] == "aes128gcm"
    assert sent["headers"]["authorization"].startswith("vapid t=")
    assert int(sent["headers"]["ttl"]) > 0
    shown = browser.read(sent["body"])
    assert shown["title"].startswith("Your move in ")
    assert shown["url"].endswith(f"/games/{game.pk}/")
    # beside the email, from the same outbox: each row sent once
    rows = Notification.objects.filter(user=waiting, kind=Notification.Kind.YOUR_MOVE)
    assert sorted(rows.values_list("channel", "status")) == [("email", "sent"), ("push", "sent")]
    assert len([m for m in mail.outbox if "Your move" in m.subject and m.to == [waiting.email]]) == 1
    # the sweep finds nothing left to send: no second push
    sweep()
    assert len(push_service.requests) == 1


@pytest.mark.parametrize("answer", [HTTPStatus.NOT_FOUND, HTTPStatus.GONE])
def test_an_expired_subscription_is_dropped(client, push_service, answer):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    gone = Browser(f"{push_service.url}/push/gone")
    kept = Browser(f"{push_service.url}/push/kept")
    subscribe(client, waiting, gone)
    subscribe(client, waiting, kept)
    push_service.answers["/push/gone"] = answer

    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)

    assert sorted(r["path"] for r in push_service.requests) == ["/push/gone", "/push/kept"]
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [kept.subscription["endpoint"]]
    row = Notification.objects.get(user=waiting, channel="push", kind="your_move")
    assert row.status == Notification.Status.SENT
    # with no subscription left, the next push row is skipped without a request
    push_service.answers["/push/kept"] = answer
    game.refresh_from_db()
    mover = user_to_move(game)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=1)
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=2)
    assert PushSubscription.objects.count() == 0
    last = Notification.objects.filter(user=waiting, channel="push").order_by("-pk").first()
    assert last.status == Notification.Status.SKIPPED


def test_a_push_service_error_is_retried_not_lost(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    browser = Browser(f"{push_service.url}/push/busy")
    subscribe(client, waiting, browser)
    push_service.answers["/push/busy"] = HTTPStatus.SERVICE_UNAVAILABLE
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    row = Notification.objects.get(user=waiting, channel="push", kind="your_move")
    assert row.status == Notification.Status.PENDING and row.attempts == 1
    assert PushSubscription.objects.count() == 1
    push_service.answers.pop("/push/busy")
    assert notification_send(notification_id=row.pk)
    assert len(push_service.requests) == 2
    assert browser.read(push_service.requests[-1]["body"])["title"].startswith("Your move in ")


def test_the_same_settings_turn_pushes_off(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    subscribe(client, waiting, Browser(f"{push_service.url}/push/abc"))
    NotificationSettings.objects.update_or_create(user=waiting, defaults={"push": False})
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    assert push_service.requests == []
    rows = Notification.objects.filter(user=waiting, kind="your_move")
    assert sorted(rows.values_list("channel", "status")) == [("email", "sent"), ("push", "skipped")]


def test_an_invitation_is_emailed_and_pushed(client, push_service):
    host, guest = UserFactory.create(display_name="Hostess"), UserFactory.create()
    browser = Browser(f"{push_service.url}/push/guest")
    subscribe(client, guest, browser)
    game = services.game_create(
        creator=host,
        kind="counter",
        options={"target": 10},
        players=2,
        rated=False,
        private=True,
        invited=[guest],
        time_per_move=timedelta(days=1),
    )
    [email] = [m for m in mail.outbox if guest.email in m.to]
    assert "Hostess invited you to" in email.subject and f"/games/{game.pk}/" in email.body
    [sent] = push_service.requests
    assert browser.read(sent["body"])["title"].startswith("Hostess invited you to")
    # and it can be turned off like any other kind
    assert NotificationSettings._meta.get_field("invited").default is True


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://evil.example/push/1",  # not a push service
        "http://fcm.googleapis.com/fcm/send/x",  # not https (in production settings)
        "file:///etc/passwd",
        "",
    ],
)
def test_a_subscription_outside_the_push_services_is_refused(client, settings, endpoint):
    key = Vapid()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    push._vapid.cache_clear()
    client.force_login(UserFactory.create())
    data = Browser(endpoint).subscription
    response = client.post(reverse("correspondence:push_subscribe"), json.dumps(data), content_type="application/json")
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert PushSubscription.objects.count() == 0
    push._vapid.cache_clear()


def test_the_subscribe_endpoints_refuse_bad_requests(client, push_service):
    url = reverse("correspondence:push_subscribe")
    assert client.post(url, "{}", content_type="application/json").status_code == HTTPStatus.FOUND  # sign in first
    client.force_login(UserFactory.create())
    assert client.get(url).status_code == HTTPStatus.METHOD_NOT_ALLOWED
    assert client.post(url, "not json", content_type="application/json").status_code == HTTPStatus.BAD_REQUEST
    assert client.post(url, "[]", content_type="application/json").status_code == HTTPStatus.BAD_REQUEST
    off = reverse("correspondence:push_unsubscribe")
    assert client.post(off, "{}", content_type="application/json").status_code == HTTPStatus.BAD_REQUEST
    assert client.post(off, '{"endpoint": "x"}', content_type="application/json").status_code == HTTPStatus.NO_CONTENT


def test_the_service_worker_is_served_at_the_root(client):
    response = client.get("/push-sw.js")
    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("push"' in response.content


def _post_json(client, name: str, data: dict) -> int:
    return client.post(reverse(name), json.dumps(data), content_type="application/json").status_code


def test_signing_out_drops_this_browsers_subscription_for_that_account(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    shared = Browser(f"{push_service.url}/push/shared")
    elsewhere = Browser(f"{push_service.url}/push/phone")
    subscribe(client, waiting, shared)
    PushSubscription.objects.create(
        user=waiting, **{"endpoint": elsewhere.subscription["endpoint"]}, p256dh="x", auth="y"
    )

    assert client.post(reverse("account_logout")).status_code == HTTPStatus.FOUND

    # The browser signed out of is no longer told; the user's other devices still are.
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [elsewhere.subscription["endpoint"]]
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    assert "/push/shared" not in [r["path"] for r in push_service.requests]


def test_a_subscription_taken_over_by_another_account_never_gets_the_first_ones_notices(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    first, second = user_waiting(game), UserFactory.create()
    browser = Browser(f"{push_service.url}/push/shared")
    subscribe(client, first, browser)
    push_service.answers["/push/shared"] = HTTPStatus.SERVICE_UNAVAILABLE  # the first user's push waits for a retry
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    row = Notification.objects.get(user=first, channel="push", kind="your_move")
    assert row.status == Notification.Status.PENDING and len(push_service.requests) == 1
    push_service.answers.pop("/push/shared")

    subscribe(client, second, browser)  # another person signs in on this browser and turns notifications on

    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [second.pk]
    notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert row.status == Notification.Status.SKIPPED and len(push_service.requests) == 1


def test_a_browser_left_subscribed_by_another_account_is_released_when_someone_else_signs_in(client, push_service):
    first, second = UserFactory.create(), UserFactory.create()
    browser = Browser(f"{push_service.url}/push/shared")
    subscribe(client, first, browser)
    endpoint = {"endpoint": browser.subscription["endpoint"]}
    assert _post_json(client, "correspondence:push_check", endpoint) == HTTPStatus.NO_CONTENT  # the first's own

    client.force_login(second)  # the first never signed out here (their session expired, or cookies were cleared)
    # The page asks whether the browser's subscription is this account's: it is not, so the browser drops it.
    assert _post_json(client, "correspondence:push_check", endpoint) == HTTPStatus.NOT_FOUND
    assert not PushSubscription.objects.exists()
    # An endpoint nobody holds is not this account's either.
    assert _post_json(client, "correspondence:push_check", endpoint) == HTTPStatus.NOT_FOUND
    assert _post_json(client, "correspondence:push_check", {}) == HTTPStatus.BAD_REQUEST


def test_the_sign_out_button_carries_what_the_browser_needs_to_unsubscribe(client):
    client.force_login(UserFactory.create())
    page = client.get(reverse("games:lobby")).content.decode()
    assert "data-push-signout" in page
    assert reverse("correspondence:push_unsubscribe") in page and reverse("correspondence:push_check") in page
    assert "correspondence/push" in page  # the script that does it, on every page of a signed-in user


def test_daily_digest_users_still_get_each_move_pushed(client, push_service):
    game = make_game(UserFactory.create(), UserFactory.create())
    waiting = user_waiting(game)
    browser = Browser(f"{push_service.url}/push/abc")
    subscribe(client, waiting, browser)
    NotificationSettings.objects.update_or_create(
        user=waiting, defaults={"your_move": NotificationSettings.YourMove.DIGEST}
    )
    services.game_submit_move(game_id=game.pk, user=user_to_move(game), move={"act": "add", "n": 1}, expected_seq=0)
    [sent] = push_service.requests
    assert browser.read(sent["body"])["title"].startswith("Your move in ")
    rows = Notification.objects.filter(user=waiting, kind="your_move")
    assert sorted(rows.values_list("channel", "status")) == [("email", "digest"), ("push", "sent")]
    # The settings page says so.
    client.force_login(waiting)
    page = client.get(reverse("correspondence:settings")).content.decode()
    assert "daily digest is for email only" in page and "Signing out turns notifications off" in page
    for language in ("zh-hans", "zh-hant"):
        with translation.override(language):
            shown = client.get(reverse("correspondence:settings"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "daily digest" not in shown and "Signing out" not in shown and "每日摘要" in shown, language


def test_a_banned_player_gets_neither_turn_emails_nor_pushes_while_the_ban_holds(client, push_service):
    """The walk-through's banned user still got "your move" by email and push; now both stop, and start again after."""
    game = make_game(UserFactory.create(), UserFactory.create())
    mover, waiting = user_to_move(game), user_waiting(game)
    browser = Browser(f"{push_service.url}/push/banned")
    subscribe(client, waiting, browser)
    moderator = UserFactory.create(is_staff=True, is_superuser=True)  # the Moderators group is flushed here
    user_ban(moderator=moderator, user=waiting, reason="cheating")
    mail.outbox.clear()

    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=0)
    sweep()

    assert push_service.requests == []
    assert not [m for m in mail.outbox if waiting.email in m.to]
    rows = Notification.objects.filter(user=waiting, kind=Notification.Kind.YOUR_MOVE)
    assert sorted(rows.values_list("channel", "status", "last_error")) == [
        ("email", "skipped", SUSPENDED),
        ("push", "skipped", SUSPENDED),
    ]

    # Once the ban is lifted, the next turn is told again, both ways.
    user_unban(moderator=moderator, user=waiting)
    services.game_submit_move(game_id=game.pk, user=waiting, move={"act": "add", "n": 1}, expected_seq=1)
    services.game_submit_move(game_id=game.pk, user=mover, move={"act": "add", "n": 1}, expected_seq=2)
    assert [r["path"] for r in push_service.requests] == ["/push/banned"]
    assert len([m for m in mail.outbox if "Your move" in m.subject and m.to == [waiting.email]]) == 1


@pytest.mark.parametrize("how", ["deactivated", "deleted"])
def test_closing_an_account_drops_its_push_subscriptions(client, push_service, how):
    """The walk-through found a deactivated account's subscriptions kept: its browsers' endpoints and keys."""
    closing, staying = UserFactory.create(), UserFactory.create()
    for n, user in enumerate([closing, closing, staying]):
        subscribe(Client(), user, Browser(f"{push_service.url}/push/{n}"))
    assert PushSubscription.objects.filter(user=closing).count() == 2

    if how == "deleted":
        user_delete(user=closing)
    else:
        closing.is_active = False  # as the admin's "active" box does
        closing.save()

    assert not PushSubscription.objects.filter(user=closing).exists()
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [staying.pk]
    # Reactivated, it has no browser to push to until one subscribes again.
    if how == "deactivated":
        closing.is_active = True
        closing.save()
        assert not PushSubscription.objects.filter(user=closing).exists()
