"""Web Push: browser notifications beside the emails, from the same outbox rows and the same settings.

A browser that the user turns notifications on in subscribes with the
site's VAPID public key (``PushManager.subscribe``) and posts its
subscription here (:func:`subscription_save`). Each outbox row of the
``push`` channel (``correspondence.outbox`` writes one beside the email row
for users with a subscription) is sent by ``outbox.notification_send`` with
the same claim, commit, send, mark: :func:`push_send` posts the encrypted
payload (RFC 8291, by pywebpush) to every subscription of the user, signed
with the site's VAPID key (RFC 8292). A push service that answers 404 or 410
says the subscription is gone: its row is deleted. The service worker
(``push-sw.js``) shows the notification and opens the game when clicked.

A subscription belongs to one account at a time: the account that last
subscribed that endpoint (another person turning notifications on in the
same browser takes it over, and each push goes to the subscriptions its user
holds when it is sent, so the first person's pending notices never reach
it). Signing out drops this browser's subscription for the account signing
out (:func:`on_signed_out`: the session remembers the endpoint it
subscribed; the page's script also unsubscribes the browser), and a page
of another account that finds the browser still subscribed releases it
(:func:`subscription_claim`), so one person's notices never reach the next
person who uses the browser.

Only endpoints on the browsers' own push services are accepted
(``settings.PUSH_SERVICE_HOSTS``, https): the server posts to whatever URL
a subscription names, which must never be one of our own machines.
"""

from __future__ import annotations

import functools
import json
import logging
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.utils import timezone, translation
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush

from accounts.models import User
from correspondence.emails import content_for
from correspondence.models import Notification, PushSubscription

log = logging.getLogger(__name__)

#: How long a push service keeps a message for a browser that is offline (seconds): a day, like a move's email.
PUSH_TTL = 24 * 3600
#: The push service's answers that mean "this subscription is gone": drop it (RFC 8030 §7.3, §8.1).
GONE = (404, 410)
#: The session key that remembers the endpoint this browser subscribed in this session (for sign-out).
SESSION_ENDPOINT = "herald_push_endpoint"
#: Where ``make run`` keeps the key it made (DEBUG only, when VAPID_PRIVATE_KEY is unset).
DEV_KEY_NAME = "vapid_private.pem"


class InvalidSubscription(ValueError):
    """A subscription that is not one a browser's push service gave: its sentence says why."""


class PushServiceError(OSError):
    """Every push service of the user failed for a reason that may pass (5xx, 429, network): retry later.

    An ``OSError``, so the send task's retry (``TRANSIENT_MAIL_ERRORS``) covers it.
    """


@functools.cache
def _vapid() -> Vapid | None:
    """The site's VAPID key: ``settings.VAPID_PRIVATE_KEY`` (PEM), else with DEBUG one kept in ``var/``, else None."""
    pem = (settings.VAPID_PRIVATE_KEY or "").strip()
    if pem:
        return Vapid.from_pem(pem.encode())
    if not settings.DEBUG:
        return None
    path = settings.VAR_DIR / DEV_KEY_NAME
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = Vapid()
        key.generate_keys()
        path.write_bytes(key.private_pem())
    return Vapid.from_pem(path.read_bytes())


def push_enabled() -> bool:
    """True when the site has a VAPID key, so browsers may subscribe."""
    return _vapid() is not None


def public_key() -> str:
    """The VAPID public key as browsers want it (``applicationServerKey``: base64url of the raw point), or ""."""
    key = _vapid()
    if key is None:
        return ""
    raw = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(raw)


def _check_endpoint(endpoint: str) -> None:
    """Refuse an endpoint outside the browsers' push services (``settings.PUSH_SERVICE_HOSTS``)."""
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if settings.PUSH_ALLOW_HTTP else ("https",)
    host = (parts.hostname or "").lower()
    if parts.scheme not in schemes or not host:
        raise InvalidSubscription("The endpoint must be an https URL.")
    if not any(host == h or host.endswith("." + h) for h in settings.PUSH_SERVICE_HOSTS):
        raise InvalidSubscription("The endpoint is not on a known push service.")


def storable(text: str) -> bool:
    """True when ``text`` can be stored and sent: UTF-8 encodable (no lone surrogate) and printable (no NUL).

    A lone surrogate fails every database's encoding, a NUL PostgreSQL's text
    columns: both were a 500 rather than the caller's 400.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return text.isprintable()


def subscription_save(*, user: User, data: Any) -> PushSubscription:
    """Keep a browser's subscription (``PushSubscription.toJSON()``: endpoint and keys) for ``user``.

    The same endpoint subscribed again (or by another account in the same
    browser) replaces the old row. Raises ``InvalidSubscription`` for
    anything else than a subscription of a known push service.
    """
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise InvalidSubscription("A subscription has an endpoint and keys.")
    endpoint, keys = data.get("endpoint"), data["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not (isinstance(endpoint, str) and isinstance(p256dh, str) and isinstance(auth, str)):
        raise InvalidSubscription("A subscription has an endpoint and keys.")
    if not (endpoint and p256dh and auth):
        raise InvalidSubscription("A subscription has an endpoint and keys.")
    if not all(storable(v) for v in (endpoint, p256dh, auth)):
        raise InvalidSubscription("The subscription holds characters no URL or key has.")
    if len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        raise InvalidSubscription("The subscription is too long.")
    _check_endpoint(endpoint)
    row, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
    )
    return row


def subscription_delete(*, user: User, endpoint: str) -> bool:
    """Forget ``user``'s subscription at ``endpoint`` (notifications turned off in that browser)."""
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def subscription_claim(*, user: User, endpoint: str) -> bool:
    """Whether this browser's subscription at ``endpoint`` is ``user``'s; another account's is dropped.

    Asked by a signed-in page that finds its browser subscribed: a
    subscription left behind by another account (who never signed out
    here) must not bring that account's notices to this person, so it is
    deleted, and the page unsubscribes the browser when the answer is no.
    """
    PushSubscription.objects.filter(endpoint=endpoint).exclude(user=user).delete()
    return PushSubscription.objects.filter(endpoint=endpoint, user=user).exists()


def on_signed_out(sender: type, request: Any = None, user: User | None = None, **kwargs: Any) -> None:
    """``user_logged_out``: drop the subscription this browser made for ``user`` in the session that ends.

    The session is read before ``logout`` flushes it. The user's other
    browsers and devices keep theirs.
    """
    session = getattr(request, "session", None)
    endpoint = session.get(SESSION_ENDPOINT) if session is not None else None
    if user is not None and getattr(user, "pk", None) is not None and isinstance(endpoint, str):
        subscription_delete(user=user, endpoint=endpoint)


def on_user_saved(sender: type, instance: User, update_fields: Any = None, **kwargs: Any) -> None:
    """``post_save`` of users: forget every push subscription of an account just deactivated or deleted.

    Nothing is pushed to such an account (``outbox._skip_reason``), but its
    rows kept the browsers' endpoints and keys, and would bring its notices
    back to those browsers (maybe someone else's by then) if it were ever
    reactivated. A browser subscribes again when its player turns
    notifications on again. Another field saved of an account already closed
    changes nothing (its subscriptions went when it closed).
    """
    if instance.is_active and instance.deleted is None:
        return
    if update_fields is not None and not {"is_active", "deleted"} & set(update_fields):
        return
    PushSubscription.objects.filter(user_id=instance.pk).delete()


def payload_for(n: Notification) -> dict[str, Any]:
    """What the notification shows: the email's subject and first line, and the game's address to open."""
    content = content_for(n)
    with translation.override(n.user.language or settings.LANGUAGE_CODE):
        lines = [str(line) for line in content["lines"]]
    url = content["games"][0][1] if content.get("games") else settings.SITE_URL
    return {"title": str(content["subject"]), "body": " ".join(lines[:2]), "url": url, "tag": _tag(n)}


def _tag(n: Notification) -> str:
    """The notification's tag: one per game (a newer notice replaces an older one), or per piece of news."""
    return f"game-{n.game_id}" if n.game_id is not None else f"{n.kind}-{n.seq}"


def push_send(n: Notification) -> int:
    """Post ``n`` to every browser its user subscribed; return how many push services accepted it.

    No database lock is held (the caller claimed the row and committed).
    Expired subscriptions (404, 410) are deleted. The message's ``Topic``
    is the row's, so a resend after a crash replaces the first copy still
    waiting at the push service instead of adding a second.

    Raises:
        PushServiceError: no push service accepted it and at least one failed
            for a reason that may pass (the row is retried).
    """
    key = _vapid()
    subs = list(PushSubscription.objects.filter(user_id=n.user_id))
    if key is None or not subs:
        return 0
    data = json.dumps(payload_for(n), ensure_ascii=False)
    delivered, failures = 0, []
    for sub in subs:
        info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
        try:
            webpush(
                info,
                data=data,
                vapid_private_key=key,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=PUSH_TTL,
                timeout=settings.PUSH_TIMEOUT,
                headers={"Topic": f"n{n.pk}", "Urgency": "normal"},
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                sub.delete()
                log.info("push subscription %s is gone (%s): dropped", sub.pk, status)
                continue
            failures.append(f"{status}: {exc}")
        except ValueError:
            # Keys no browser made (they cannot encrypt): the subscription is no use to anyone.
            sub.delete()
            log.info("push subscription %s has unusable keys: dropped", sub.pk)
        except requests.RequestException as exc:
            failures.append(repr(exc))
        else:
            delivered += 1
            PushSubscription.objects.filter(pk=sub.pk).update(last_sent=timezone.now())
    if failures and not delivered:
        raise PushServiceError("; ".join(failures)[:1000])
    return delivered
