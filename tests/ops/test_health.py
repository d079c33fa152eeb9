"""/health/: 200 only when database, cache, broker and heartbeat are fine; names what is not."""

from __future__ import annotations

from datetime import timedelta
from http import HTTPStatus

import pytest
from django.db import OperationalError
from django.utils import timezone

from ops import health
from ops.models import Heartbeat
from ops.tasks import HEARTBEAT_NAME

pytestmark = pytest.mark.django_db

CHECKS = {"database", "cache", "broker", "heartbeat"}


def stamp(age: timedelta = timedelta(0)) -> None:
    Heartbeat.objects.update_or_create(name=HEARTBEAT_NAME, defaults={"stamped": timezone.now() - age})


def test_it_answers_200_when_everything_is_fine(client, workers):
    stamp()
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.OK
    assert response.json() == {"status": "ok", "checks": dict.fromkeys(CHECKS, "ok")}
    assert "no-cache" in response["Cache-Control"]
    assert "sessionid" not in response.cookies


def test_it_names_a_heartbeat_that_never_beat(client, workers):
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "ok", "heartbeat": "never"}


def test_it_names_a_stale_heartbeat(client, workers, settings):
    stamp(timedelta(seconds=settings.HERALD_HEARTBEAT_MAX_AGE + 5))
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"]["heartbeat"] == "stale"


def test_it_names_a_database_that_is_down_and_reveals_no_error(client, workers, monkeypatch):
    stamp()

    class Broken:
        def cursor(self):
            raise OperationalError("could not connect to server at db.internal:5432 as herald")

    monkeypatch.setattr(health, "connection", Broken())
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"]["database"] == "down"
    assert b"db.internal" not in response.content
    assert set(response.json()) == {"status", "checks"}


def test_it_names_a_cache_that_stores_nothing(client, workers, settings):
    stamp()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"]["cache"] == "not storing"


def test_it_names_a_broker_that_is_down(client, workers, monkeypatch):
    from website.celery import app

    stamp()
    real = app.connection_for_write
    # Port 1 on loopback: nothing listens, so the connection is refused at once.
    monkeypatch.setattr(app, "connection_for_write", lambda: real(url="redis://127.0.0.1:1/0"))
    response = client.get("/health/")
    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "down", "heartbeat": "ok"}


def test_without_workers_tasks_run_in_process_so_only_database_and_cache_count(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert client.get("/health/").status_code == HTTPStatus.OK


def test_it_answers_over_plain_http_when_https_is_enforced(client, workers, settings):
    stamp()
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/health/").status_code == HTTPStatus.OK
    assert client.get("/").status_code == HTTPStatus.MOVED_PERMANENTLY


def test_it_refuses_other_methods(client):
    assert client.post("/health/").status_code == HTTPStatus.METHOD_NOT_ALLOWED
