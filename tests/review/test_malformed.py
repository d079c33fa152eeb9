"""Malformed requests to the day's new endpoints answer 4xx, never 500."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.test import Client
from django.urls import reverse
from py_vapid import Vapid

from correspondence import push
from correspondence.models import PushSubscription
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vapid(settings):
    key = Vapid()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    push._vapid.cache_clear()
    yield settings
    push._vapid.cache_clear()


@pytest.mark.parametrize(
    "body",
    [
        '{"endpoint": "https://fcm.googleapis.com/fcm/send/a", "keys": {"p256dh": "\\ud800", "auth": "x"}}',
        '{"endpoint": "https://fcm.googleapis.com/fcm/send/\\ud800", "keys": {"p256dh": "k", "auth": "x"}}',
        '{"endpoint": "https://fcm.googleapis.com/fcm/send/a", "keys": {"p256dh": "k\\u0000", "auth": "x"}}',
    ],
)
def test_a_subscription_with_a_lone_surrogate_or_nul_is_a_400(vapid, body):
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory.create())
    response = client.post(reverse("correspondence:push_subscribe"), body, content_type="application/json")
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert PushSubscription.objects.count() == 0


@pytest.mark.parametrize("endpoint", ["\\ud800", "https://fcm.googleapis.com/\\u0000"])
def test_an_unsubscribe_with_a_lone_surrogate_or_nul_is_a_400(endpoint):
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory.create())
    body = '{"endpoint": "' + endpoint + '"}'
    response = client.post(reverse("correspondence:push_unsubscribe"), body, content_type="application/json")
    assert response.status_code == HTTPStatus.BAD_REQUEST


@pytest.mark.parametrize("target", ["x", "-1", "%00", "nan", "games"])
def test_the_hints_switch_with_an_odd_next_goes_to_the_rules(target):
    client = Client(raise_request_exception=False)
    response = client.post(reverse("guide:hints"), {"hints": "off", "next": target})
    assert response.status_code == HTTPStatus.FOUND
    assert response["Location"] == "/rules/"
