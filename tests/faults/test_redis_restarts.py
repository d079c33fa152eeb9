"""Redis dies three times under the processes of ``make serve``: nothing else stops, no move is lost.

The test starts what ``make serve`` starts, from the repository's own
``supervisord.conf``: supervisord running gunicorn (web), a Celery worker and
beat, with production settings (DEBUG off, the fail-soft cache, Celery on
Redis), on a ``redis-server`` of the test's own (cache and broker), the test's
PostgreSQL database and a loopback SMTP server, each on a port chosen when
the test runs. Static files are named plainly (``serve_settings``), so that
no ``collectstatic`` is needed.

A Dominion game is then played through the game page (HTMX posts) and the
API while that Redis is killed with SIGKILL (no persistence: every queued
task goes with it) and started again, three times; during each outage a
player resigns a side game, which owes both players an email. Then the
worker is killed, and later stopped, to see supervisord and ``/health/`` at
work. Shortened for the test's sake: the heartbeat (every second, stale after
6 s), the sweep (every 2 s) and its outbox grace (3 s).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils.crypto import get_random_string
from pytest_django import Settings

from accounts.models import User
from api.tokens import token_create
from correspondence.emails import message_id
from correspondence.models import Notification
from games.models import Action, Game
from tests.conftest import make_game, past_move_0
from tests.faults.conftest import RedisServer, SmtpServer, count, count_response, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SECRET_KEY = "faults-only-" + "k3y-" * 12
HEARTBEAT_MAX_AGE = 6
#: Seconds Redis is up, then down, in turn: three outages while moves are posted.
PHASES = [("up", 4.0), ("down", 5.0), ("up", 6.0), ("down", 5.0), ("up", 6.0), ("down", 5.0), ("up", 4.0)]
OUTAGES = sum(state == "down" for state, _ in PHASES)
KINGDOM = {"kingdom": "First Game"}
OUTAGES = sum(state == "down" for state, _ in PHASES)
KINGDOM = {"kingdom": "First Game"}


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 302 is an answer to look at, not to follow


OPENER = urllib.request.build_opener(_NoRedirects)


@dataclass
class Answer:
    """An HTTP answer: its status (0 when nothing answered: refused, reset or timed out) and body."""

    status: int
    body: bytes = b""

    def json(self) -> dict:
        return json.loads(self.body)


def fetch(
    url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None, counted: bool = True
) -> Answer:
    """One request to the web server, counted in the fault figures unless not ``counted`` (``/health/``, whose
    503 is an answer); never raises for an HTTP status."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data else "GET")
    try:
        with OPENER.open(request, timeout=15) as response:
            answer = Answer(response.status, response.read())
    except urllib.error.HTTPError as exc:
        answer = Answer(exc.code, exc.read())
    except (urllib.error.URLError, OSError):
        answer = Answer(0)
    if counted:
        count_response(answer.status)
    return answer


@dataclass
class Served:
    """The processes of ``make serve`` under the test's supervisord, and what they run on."""

    base: str
    redis: RedisServer
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    log: Path

    def ctl(self, *args: str) -> str:
        """Run ``supervisorctl -c supervisord.conf ARGS`` against this supervisord; return its output."""
        done = subprocess.run(
            [str(BIN / "supervisorctl"), "-c", str(ROOT / "supervisord.conf"), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout.strip()

    def pid(self, program: str) -> int:
        """The process id of a program (0 when it is not running)."""
        return int(self.ctl("pid", program) or 0)

    def health(self) -> dict:
        answer = fetch(self.base + "/health/", counted=False)
        assert answer.status in (HTTPStatus.OK, HTTPStatus.SERVICE_UNAVAILABLE), answer
        return answer.json()


@pytest.fixture
def served(tmp_path: Path, smtp_server: SmtpServer, settings: Settings) -> Iterator[Served]:
    """supervisord with web, worker and beat from ``supervisord.conf``, as ``make serve`` starts it."""
    redis = RedisServer(free_port())
    redis.start()
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_", "HERALD_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="tests.faults.serve_settings",
        PYTHONPATH=str(ROOT),
        PATH=f"{BIN}:{env.get('PATH', '')}",
        DATABASE_URL=f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        REDIS_URL=redis.url(1),
        DEBUG="0",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        EMAIL_URL=f"smtp://127.0.0.1:{smtp_server.port}",
        SITE_URL=f"http://127.0.0.1:{port}",
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="2",
        CELERY_CONCURRENCY="2",
        CELERY_BEAT_SCHEDULE_FILE=str(tmp_path / "celerybeat-schedule"),
        HERALD_RUN_DIR=str(tmp_path),
        HERALD_HEARTBEAT_EVERY="1",
        HERALD_HEARTBEAT_MAX_AGE=str(HEARTBEAT_MAX_AGE),
        HERALD_SWEEP_EVERY="2",
        HERALD_OUTBOX_GRACE="3",
        HERALD_YOUR_MOVE_EMAIL_DELAY="0",
        HERALD_FORCED_MOVE_GRACE="0",
        # Rate limits are not what this test is about: the pace below stays far from these.
        RATE_LIMIT_MOVE="1000/m",
        API_RATE_LIMIT_WRITE="1000/m",
        API_RATE_LIMIT_READ="2000/m",
        LOG_FORMAT="text",
        LOG_LEVEL="INFO",
    )
    settings.SECRET_KEY = SECRET_KEY  # the sessions the test makes are read by the web server
    log = tmp_path / "supervisord.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(BIN / "supervisord"), "-c", str(ROOT / "supervisord.conf")],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    served = Served(f"http://127.0.0.1:{port}", redis, env, process, log)
    try:
        wait_for(
            lambda: fetch(served.base + "/health/", counted=False).status == HTTPStatus.OK,
            timeout=90,
            what="web, worker and beat to start (/health/ 200, heartbeat fresh)",
        )
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # supervisord stops its programs, then itself
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        redis.kill()
        sys.stdout.write(log.read_text(errors="replace")[-20000:])  # shown by pytest if the test failed


@dataclass
class Player:
    """A user who plays through the web server: a session for the pages, a token for the API."""

    user: User
    base: str
    session: str = ""
    token: str = ""
    csrf: str = field(default_factory=lambda: get_random_string(32))

    def __post_init__(self) -> None:
        client = Client()
        client.force_login(self.user)
        self.session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.token = token_create(user=self.user, name="faults", scopes=["read", "play"])[1]

    def api(self, path: str, body: dict | None = None) -> Answer:
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body).encode()
        return fetch(f"{self.base}/api/v1{path}", data=data, headers=headers)

    def post(self, path: str, fields: dict[str, str]) -> Answer:
        """POST a form as the game page's HTMX does, with the session and CSRF cookies."""
        headers = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session}; {settings.CSRF_COOKIE_NAME}={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        return fetch(self.base + path, data=urllib.parse.urlencode(fields).encode(), headers=headers)


@dataclass
class Ledger:
    """Every move posted and what became of it."""

    stored: list[tuple[int, dict]] = field(default_factory=list)  # (the seq it took, the move)
    refused: list[tuple[int, str]] = field(default_factory=list)  # (status, what the answer said)


def reason(answer: Answer) -> str:
    """What a refusal says: the API's problem ``detail``, or the page's error text; empty when it says nothing."""
    if answer.body.startswith(b"{"):
        return str(answer.json().get("detail", ""))
    text = answer.body.decode(errors="replace")
    return text if 'role="alert"' in text or "error" in text else ""


def play_one(game: Game, players: list[Player], ledger: Ledger, rng: random.Random, step: int) -> None:
    """Ask the API who owes a move and what is legal; post one legal move (by page or API); note the outcome."""
    for player in players:
        state = player.api(f"/games/{game.pk}")
        assert state.status == HTTPStatus.OK, state  # reads are let through while the cache is away
        legal = state.json()["legal"]
        if legal:
            break
    else:
        return  # nobody owes a move this instant (the game ended): nothing to post
    seq = state.json()["game"]["last_seq"]
    move = {k: v for k, v in rng.choice(legal).items() if k != "player"}
    if step % 3:
        answer = player.post(reverse("games:move", args=[game.pk]), {"move": json.dumps(move), "seq": str(seq)})
    else:
        answer = player.api(f"/games/{game.pk}/moves", {"move": move, "expected_seq": seq})
    count("moves attempted")
    assert answer.status, "the web server answered"
    assert answer.status < HTTPStatus.INTERNAL_SERVER_ERROR, answer
    if answer.status == HTTPStatus.OK:
        ledger.stored.append((seq + 1, move))
    else:
        assert answer.status >= HTTPStatus.BAD_REQUEST, answer
        said = reason(answer)
        assert said, f"a refusal says why: {answer}"
        ledger.refused.append((answer.status, said))


def test_redis_killed_three_times_under_make_serve_stops_nothing_and_loses_no_move(
    served, smtp_server, player, opponent
):
    game = make_game(player, opponent, kind="dominion", options=KINGDOM)
    # Past move 0, so that a resignation ends the game with a result (before, it would abort it).
    side_games = [past_move_0(make_game(player, opponent, kind="dominion", options=KINGDOM)) for _ in range(OUTAGES)]
    players = [Player(player, served.base), Player(opponent, served.base)]
    web, worker, beat = (served.pid(p) for p in ("web", "worker", "beat"))
    assert web and worker and beat
    resigned_games: list[Game] = []
    rng = random.Random(27)
    ledger = Ledger()
    step = 0
    for state, seconds in PHASES:
        if state == "down":
            served.redis.kill()
            # While Redis is away: a resignation owes both players a "game over" email.
            side = side_games.pop()
            resigned = players[0].post(reverse("games:resign", args=[side.pk]), {"confirm": "1"})
            assert resigned.status == HTTPStatus.FOUND, resigned
            resigned_games.append(side)
        else:
            if served.redis.process.poll() is not None:
                served.redis.start()  # empty: the tasks queued before the kill are gone with it
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            play_one(game, players, ledger, rng, step)
            step += 1
            time.sleep(0.05)

    count("moves saved", len(ledger.stored))
    assert len(ledger.stored) >= 20, f"moves kept being stored ({len(ledger.stored)} of {step})"
    log = {a.seq: a.move for a in Action.objects.filter(game=game)}
    for seq, move in ledger.stored:
        assert all(log.get(seq, {}).get(k) == v for k, v in move.items()), f"move {seq} answered 200 is stored"
    assert all(status in (HTTPStatus.CONFLICT, HTTPStatus.TOO_MANY_REQUESTS) for status, _ in ledger.refused), (
        ledger.refused
    )

    # The emails owed while Redis was away go out once it is back (the sweep), each once.
    game_over = Notification.objects.filter(game__in=resigned_games, kind=Notification.Kind.GAME_OVER)
    assert game_over.count() == OUTAGES, "the other player of each game resigned during an outage is told"
    owed = [message_id("notification", pk) for pk in game_over.values_list("pk", flat=True)]
    wait_for(
        lambda: not Notification.objects.filter(status=Notification.Status.PENDING).exists(),
        timeout=40,
        what="every email owed to be sent or skipped",
    )
    received = smtp_server.message_ids()
    assert all(received.count(mid) == 1 for mid in owed), "each game-over email arrived, once"
    count("emails expected", len(owed))
    count("emails sent", len(owed))
    count("email deliveries", len(owed))

    # Nothing else stopped: the same web server, worker and beat as before the first kill, and a fresh heartbeat.
    assert (served.pid("web"), served.pid("worker"), served.pid("beat")) == (web, worker, beat)
    wait_for(lambda: served.health()["status"] == "ok", timeout=20, what="/health/ ok after the last outage")

    # A worker that dies anyway is started again by supervisord; the web server never notices.
    os.kill(worker, signal.SIGKILL)  # the worker this test's supervisord started, by its id
    wait_for(lambda: served.pid("worker") not in (0, worker), timeout=30, what="supervisord to restart the worker")
    assert served.pid("web") == web
    wait_for(lambda: served.health()["checks"]["heartbeat"] == "ok", timeout=30, what="the new worker's heartbeat")
    # And a worker that stays down shows on /health/ within HERALD_HEARTBEAT_MAX_AGE, while pages are served.
    served.ctl("stop", "worker")
    stopped = time.monotonic()
    wait_for(lambda: served.health()["checks"]["heartbeat"] == "stale", timeout=30, what="a stale heartbeat")
    assert time.monotonic() - stopped <= HEARTBEAT_MAX_AGE + 3
    assert fetch(served.base + reverse("games:lobby")).status == HTTPStatus.OK
