"""Locust users for Herald's load run: browse the lobby, open games, poll, move.

Started by ``bench/load/run.py``, which passes the host and, in
``HERALD_LOAD_SESSIONS``, a JSON file of signed-in sessions (one per seeded
active user). Every request carries ``X-Forwarded-Proto: https`` and a
matching Origin, as a TLS-terminating proxy would, so the site runs with its
production settings (HTTPS redirect, secure cookies, CSRF origin checks).

Each simulated user is one person at a keyboard at a time: a visit of
about ``VISIT_TASKS`` steps as one seeded player, then the next visit as
another player drawn from all the seeded ones, so the 32 concurrent users
are 32 of the 200 active players at any moment and every player's moves
come due (with a fixed 32 players their games soon all waited on others,
and a run saw too few moves for a p99). In a loop with a think time around
the page's 5 s poll interval, a user looks at the lobby, opens one of their
games, polls it as the page does every 5 s, and when it is their move, makes
one (the End Action phase / End turn buttons the page offers, as a player
who only passes would). ``/bench/bare/`` is requested now and then as the
baseline.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from pathlib import Path

from locust import FastHttpUser, task

SESSIONS = json.loads(Path(os.environ["HERALD_LOAD_SESSIONS"]).read_text())
_next = itertools.count()
#: Steps (tasks) of one visit before the keyboard passes to another player: about a minute at 3-7 s each.
VISIT_TASKS = 12
#: The players someone is at the keyboard as now (locust's users share this process): a new visit is never
#: a player already being played, or two users would race on the same moves and count 409s as failures.
_at_keyboard: set[int] = set()
CSRF = "loadtestcsrftokenloadtestcsrftok"  # any 32 letters: Django compares cookie and header

GAME_LINK = re.compile(r'href="/games/(\d+)/"')
POLL = re.compile(r'hx-get="(/games/\d+/poll\?[^"]+)"')
SEQ = re.compile(r'name="seq" value="(\d+)"')
PASS_ACT = re.compile(r'name="act" value="(end_actions|end_turn)"')


class Player(FastHttpUser):
    """One signed-in player."""

    def wait_time(self) -> float:
        """Seconds until this user's next step (3-7); a visit that has had its steps passes the keyboard on.

        A correspondence player's page polls every 5 s; between polls they
        read, think, or leave. 3-7 s between actions keeps each simulated
        user busier than a real one while staying a "user", not a request flood.
        """
        self.steps += 1
        if self.steps >= VISIT_TASKS:
            free = [s for s in SESSIONS if s["user_id"] not in _at_keyboard] or SESSIONS
            self.visit(self.rng.choice(free))
        return self.rng.uniform(3, 7)

    def on_start(self) -> None:
        """Begin the first visit, as the next seeded player (so the first 32 visits are 32 different players)."""
        index = next(_next)
        self.rng = random.Random(index)
        self.me: dict | None = None
        self.visit(SESSIONS[index % len(SESSIONS)])

    def visit(self, me: dict) -> None:
        """Sign in as ``me`` (a seeded session): the cookies and proxy headers every request sends; then the lobby."""
        if self.me is not None:
            _at_keyboard.discard(self.me["user_id"])
        self.me = me
        _at_keyboard.add(me["user_id"])
        host = self.host.split("://", 1)[1]
        self.headers = {
            "Cookie": f"sessionid={me['session']}; csrftoken={CSRF}",
            "X-Forwarded-Proto": "https",
            "Origin": f"https://{host}",
            "Referer": f"https://{host}/",
        }
        self.my_games: list[int] = []
        self.steps = 0
        self.lobby()

    def get(self, path: str, name: str):
        """GET ``path`` with this player's cookies, reported under ``name``."""
        return self.client.get(path, headers=self.headers, name=name)

    @task(2)
    def lobby(self) -> None:
        """The lobby: open games, your move, your other games, recent results."""
        response = self.get("/", "lobby")
        if response.status_code == 200 and response.text:
            self.my_games = [int(g) for g in GAME_LINK.findall(response.text)] or self.my_games

    @task(6)
    def poll(self) -> None:
        """What an open game page does every 5 s: 204 while nothing changed."""
        if not self.my_games:
            return
        game = self.rng.choice(self.my_games)
        page = self.get(f"/games/{game}/", "game page")
        match = POLL.search(page.text or "")
        if match:
            url = match.group(1).replace("&amp;", "&")
            self.client.get(url, headers={**self.headers, "HX-Request": "true"}, name="poll")

    @task(3)
    def move(self) -> None:
        """Open a game where it is this player's move and pass (End Action phase, or End turn)."""
        if not self.my_games:
            return
        game = self.rng.choice(self.my_games)
        page = self.get(f"/games/{game}/", "game page")
        text = page.text or ""
        seq, act = SEQ.search(text), PASS_ACT.search(text)
        if not (seq and act):
            return  # not this player's move in that game
        self.client.post(
            f"/games/{game}/move",
            data={"seq": seq.group(1), "act": act.group(1), "csrfmiddlewaretoken": CSRF},
            headers={**self.headers, "HX-Request": "true", "X-CSRFToken": CSRF},
            name="move",
        )

    @task(1)
    def bare(self) -> None:
        """The baseline: a bare Django view through the same middleware."""
        self.get("/bench/bare/", "bare view")
