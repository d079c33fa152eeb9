"""One structured log line per request and per task, with ids and durations, and nothing personal."""

from __future__ import annotations

import json
import logging

import pytest

from ops.logs import JsonFormatter, TextFormatter
from ops.tasks import heartbeat
from tests.conftest import make_game, user_to_move

pytestmark = pytest.mark.django_db

ADD = json.dumps({"act": "add", "n": 1})


def request_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "herald.request"]


def test_one_line_per_request_with_game_user_and_seq(client, caplog, player, opponent):
    game = make_game(player, opponent)
    mover = user_to_move(game)
    client.force_login(mover)
    with caplog.at_level(logging.INFO, logger="herald.request"):
        client.post(f"/games/{game.pk}/move", {"move": ADD, "seq": 0}, HTTP_HX_REQUEST="true")
    [record] = request_records(caplog)
    line = json.loads(JsonFormatter().format(record))
    assert line["msg"] == "request"
    assert line["view"] == "games:move"
    assert line["route"] == "games/<int:game_id>/move"
    assert (line["method"], line["status"]) == ("POST", 200)
    assert (line["game_id"], line["user_id"], line["seq"]) == (game.pk, mover.pk, 0)
    assert line["htmx"] is True
    assert line["duration_ms"] >= 0
    assert mover.username not in json.dumps(line)
    assert "\n" not in JsonFormatter().format(record)


def test_anonymous_pages_and_unknown_paths_log_no_user_and_no_path(client, caplog, player):
    with caplog.at_level(logging.INFO, logger="herald.request"):
        client.get("/")
        client.get(f"/no-such-page/{player.username}/")
    lobby, missing = request_records(caplog)
    assert (lobby.view, lobby.status, lobby.user_id) == ("games:lobby", 200, None)
    assert (missing.view, missing.status) == (None, 404)
    assert player.username not in TextFormatter().format(missing)


def test_one_line_per_task(caplog):
    with caplog.at_level(logging.INFO, logger="herald.task"):
        heartbeat.delay()
    [record] = [r for r in caplog.records if r.name == "herald.task"]
    assert (record.task, record.state, record.task_args) == ("ops.tasks.heartbeat", "SUCCESS", [])
    assert record.duration_ms >= 0


def test_errors_are_logged_with_their_traceback():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("herald.task", logging.ERROR, __file__, 1, "task failed", (), None)
        import sys

        record.exc_info = sys.exc_info()
    record.game_id = 7
    line = json.loads(JsonFormatter().format(record))
    assert line["game_id"] == 7
    assert "Traceback" in line["exc"] and "ValueError: boom" in line["exc"]


@pytest.mark.parametrize("seq", ["²", "①", "٣²", "9" * 5000])
def test_a_seq_of_digits_int_cannot_read_is_logged_without_a_500(seq, player, opponent):
    """str.isdigit() is true for '²' and '①', which int() refuses, as it refuses more than 4300 digits:
    the request log must not turn a poll's 400 (or any game page) into a 500 because of the seq it records."""
    from django.test import Client

    game = make_game(player, opponent)
    client = Client(raise_request_exception=False)
    client.force_login(player)
    assert client.get(f"/games/{game.pk}/poll", {"seq": seq}).status_code == 400
    assert client.get(f"/games/{game.pk}/", {"seq": seq}).status_code == 200
    assert client.post(f"/games/{game.pk}/move", {"move": ADD, "seq": seq}).status_code == 400
