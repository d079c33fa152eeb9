"""The example bot (examples/herald_bot.py) finishes a Dominion game and a Domaine game through the API alone.

It runs in its own process against the live test server, using nothing but
HTTP; the other seat is driven by this test, also through the API, with a
plain strategy of its own.

The test database is SQLite in memory, one connection shared by the live
server's threads, which cannot take two requests at once ("table is
locked"): here the server answers one request at a time and the event
stream does not wait (the bot then polls). The long poll itself is tested
in ``test_api`` and measured in docs/api.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer

from api.tokens import token_create
from games import services
from games.models import Game
from tests.factories import UserFactory

BOT = Path(__file__).resolve().parents[2] / "examples" / "herald_bot.py"
#: The longest a whole game may take here (seconds).
GAME_TIMEOUT = 300


def _call(url: str, token: str, method: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{url}/api/v1{path}", data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def _human_move(kind: str, state: dict[str, Any]) -> dict[str, Any]:
    """The test's own seat: buys the dearest card it can (Dominion), sells and draws (Domaine)."""
    legal = state["legal"]
    if kind == "dominion":
        acts = {m["act"] for m in legal}
        if state["decision"] is None:
            if "end_actions" in acts:
                return {"act": "end_actions"}
            if "play_treasures" in acts:
                return {"act": "play_treasures"}
            costs = {p["card"]: p["cost"] for p in state["view"]["supply"]}
            buys = [m for m in legal if m["act"] == "buy" and m["card"] not in ("Curse", "Copper")]
            if buys:
                return max(buys, key=lambda m: (costs[m["card"]], m["card"]))
            if "end_turn" in acts:
                return {"act": "end_turn"}
        return legal[0]
    sells = [m for m in legal if m["act"] == "sell"]
    deck = [m for m in legal if m.get("from") == "deck"]
    return (sells or deck or legal)[0]


@pytest.fixture
def one_request_at_a_time(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """Serialise the live server's requests (see the module's docstring) and turn the long poll off."""
    lock = threading.Lock()
    original = ThreadedWSGIServer.process_request_thread

    def serialised(self: Any, request: Any, client_address: Any) -> None:
        with lock:
            original(self, request, client_address)

    monkeypatch.setattr(ThreadedWSGIServer, "process_request_thread", serialised)
    settings.HERALD_API_EVENTS_MAX_WAIT = 0
    settings.HERALD_API_EVENTS_POLL_AFTER = 0.1


@pytest.mark.usefixtures("one_request_at_a_time")
@pytest.mark.parametrize(("kind", "options"), [("dominion", {"kingdom": "First Game"}), ("domaine", {})])
def test_the_example_bot_finishes_a_game(kind: str, options: dict[str, Any], live_server: Any) -> None:
    human, robot = UserFactory.create(username="human"), UserFactory.create(username="robot")
    _t, human_token = token_create(user=human, name="test", scopes=["read", "play"])
    _t, robot_token = token_create(user=robot, name="bot", scopes=["read", "play"])
    game = services.game_create(
        creator=human,
        kind=kind,
        options=options,
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    services.game_join(game_id=game.pk, user=robot)
    url = live_server.url
    bot = subprocess.Popen(
        [sys.executable, str(BOT), "--url", url, "--token", robot_token, "--game", str(game.pk), "--seed", "7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + GAME_TIMEOUT
        moves = 0
        while time.monotonic() < deadline:
            state = _call(url, human_token, "GET", f"/games/{game.pk}")
            if state["game"]["status"] != "active":
                break
            if state["game"]["my_move"] and state["legal"]:
                move = _human_move(kind, state)
                try:
                    _call(
                        url,
                        human_token,
                        "POST",
                        f"/games/{game.pk}/moves",
                        {"move": move, "expected_seq": state["game"]["last_seq"]},
                    )
                    moves += 1
                except urllib.error.HTTPError as exc:
                    assert exc.code == 409, exc.read()  # only a stale seq, never a refusal
            else:
                time.sleep(0.05)
        out, err = bot.communicate(timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    assert bot.returncode == 0, err
    finished = Game.objects.get(pk=game.pk)
    assert finished.status == Game.Status.FINISHED
    assert sorted(s.rank or 0 for s in finished.seats.all()) in ([1, 2], [1, 1])
    assert moves > 5
    bot_moves = [line for line in out.splitlines() if '"act"' in line]
    assert len(bot_moves) > 5 and "refused" not in out
    assert f"game {game.pk}: over (finished)" in out
