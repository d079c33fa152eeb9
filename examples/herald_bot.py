#!/usr/bin/env python3
"""An example bot for Herald's public API: plays Dominion and Domaine by correspondence.

It uses nothing but the API over HTTP (and Python's standard library): it
reads a game's state, which lists the moves legal for its seat, picks one,
sends it with the position it was chosen for (``expected_seq``), and waits
on the event stream until it is its move again. Its strategy is simple and
lives here, in the client: Big Money with a taste for Actions in Dominion,
a taker of territory in Domaine (it builds a play part by part from the
state's ``plays`` and ``POST /games/{id}/choices``). Replace
``choose_dominion`` and ``choose_domaine`` with something better. Every
field it reads is in the guide the site serves at ``/api/v1/guide/`` (the
API, and each game's moves, views and decisions).

    python examples/herald_bot.py --url http://127.0.0.1:8000 --token hrld_... --game 42
    python examples/herald_bot.py --url http://127.0.0.1:8000 --token hrld_...   # every game, until stopped

The token needs the ``read`` and ``play`` scopes (Settings -> API tokens);
a program that plays on its own belongs on a bot account.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

#: How long one event-stream read may wait on the server (it caps this at 25 s).
WAIT = 20


class ApiError(Exception):
    """A refusal from the API: ``status`` and the problem details it sent."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        super().__init__(f"{status} {problem.get('code')}: {problem.get('detail')}")
        self.status = status
        self.problem = problem


class Herald:
    """A small client of ``/api/v1/``: JSON in and out, bearer token, waits out rate limits."""

    def __init__(self, url: str, token: str) -> None:
        self.base = url.rstrip("/") + "/api/v1"
        self.token = token

    def call(self, method: str, path: str, body: Any = None, **params: Any) -> Any:
        """Send one request; return the parsed JSON (None for 204). Raises ApiError on 4xx."""
        query = ("?" + urllib.parse.urlencode(params)) if params else ""
        data = json.dumps(body).encode() if body is not None else None
        while True:
            request = urllib.request.Request(self.base + path + query, data=data, method=method)
            request.add_header("Authorization", f"Bearer {self.token}")
            request.add_header("Accept", "application/json")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=WAIT + 15) as response:
                    raw = response.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as exc:
                problem = json.loads(exc.read() or b"{}")
                if exc.code == 429:  # too fast: wait as told, then try again
                    time.sleep(int(exc.headers.get("Retry-After", "5")))
                    continue
                raise ApiError(exc.code, problem) from None

    def get(self, path: str, **params: Any) -> Any:
        """GET ``path``."""
        return self.call("GET", path, **params)

    def post(self, path: str, body: Any = None) -> Any:
        """POST ``body`` as JSON to ``path``."""
        return self.call("POST", path, body if body is not None else {})


# --- Dominion: Big Money, playing the Actions it draws --------------------------------------

#: What a card is worth keeping: junk first when discarding or trashing.
JUNK = {"Curse": -3, "Estate": -2, "Copper": -1}


def _costs(view: dict[str, Any]) -> dict[str, int]:
    return {pile["card"]: pile["cost"] for pile in view["supply"]}


def _keep_value(card: str, costs: dict[str, int]) -> int:
    return JUNK.get(card, costs.get(card, 3))


def choose_dominion(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Pick a Dominion move from ``state["legal"]``."""
    view, legal, decision = state["view"], state["legal"], state["decision"]
    costs = _costs(view)
    if decision is not None and decision["kind"] != "turn":  # an answer is asked (a discard, a gain, ...)
        if decision["answer"] == "yes_no":
            return {"act": "yes"} if {"act": "yes"} in legal else legal[0]
        if decision["answer"] == "gain":
            return max(legal, key=lambda m: (costs.get(m["card"], 0), m["card"]))
        if legal and all(m["act"] == "choose" for m in legal):
            worth = [sum(_keep_value(c, costs) for c in m["cards"]) for m in legal]
            # Discarding or trashing: give up the least worth keeping; other choices: take the best.
            giving_up = any(word in decision["kind"] for word in ("discard", "trash"))
            best = min(worth) if giving_up else max(worth)
            return legal[worth.index(best)]
        return legal[0]
    acts = {m["act"] for m in legal}
    types = {pile["card"]: pile["types"] for pile in view["supply"]}
    actions = [m for m in legal if m["act"] == "play" and "Action" in types.get(m.get("card", ""), [])]
    if view["turn"]["phase"] == "action" and actions:
        return max(actions, key=lambda m: (costs.get(m["card"], 0), m["card"]))
    if "play_treasures" in acts:
        return {"act": "play_treasures"}
    coins = view["turn"]["coins"]
    buys = {m["card"] for m in legal if m["act"] == "buy"}
    provinces = next((p["count"] for p in view["supply"] if p["card"] == "Province"), 8)
    wanted = ["Province"] if coins >= 8 else []
    if provinces <= 4 and coins in (5, 6, 7):
        wanted.append("Duchy")
    if coins >= 6:
        wanted.append("Gold")
    if coins == 5 and "Laboratory" in buys:
        wanted.append("Laboratory")
    if provinces <= 2 and coins in (2, 3, 4):
        wanted.append("Estate")
    if coins >= 3:
        wanted.append("Silver")
    for card in wanted:
        if card in buys:
            return {"act": "buy", "card": card}
    if "end_turn" in acts:
        return {"act": "end_turn"}
    return legal[0]


# --- Domaine: claim land when it can, sell otherwise, draw from the deck ---------------------------

#: The parts of a play that take a list of values (the others take one value).
LIST_PARTS = ("borders", "knights", "squares")


def build_play(api: Herald, game_id: int, option: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A full Domaine play from one entry of the state's ``plays``: its first part from ``next``, then each
    further part from ``POST /games/{id}/choices``, a random legal value each time, until none is left."""
    move: dict[str, Any] = {"act": "play", "card": option["card"], "option": option["option"]}
    step = option["next"]
    while step["part"] is not None and step.get("choices"):
        value = rng.choice(step["choices"])
        if step["part"] in LIST_PARTS:
            move.setdefault(step["part"], []).append(value)
        else:
            move[step["part"]] = value
        step = api.post(f"/games/{game_id}/choices", {"move": move})
    if step["part"] in ("knight", "with") and not step.get("choices"):
        # A desertion or an alliance names both its squares or neither: with no second one, play it bare.
        return {"act": "play", "card": option["card"], "option": option["option"]}
    return move


def choose_domaine(api: Herald, game_id: int, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Pick a Domaine move: a play with parts (built from ``state["plays"]``) when it has one, else a sale,
    else a whole move from ``state["legal"]`` (setup placements, takes)."""
    legal, decision = state["legal"], state["decision"]
    kind = decision["kind"] if decision else ""
    if kind == "play":
        useful = [p for p in state["plays"] if p["next"]["part"] is not None and p["next"].get("choices")]
        if useful:
            return build_play(api, game_id, rng.choice(useful), rng)
        sells = [m for m in legal if m["act"] == "sell"]
        return rng.choice(sells or legal)
    if kind == "take":
        return next((m for m in legal if m.get("from") == "deck"), legal[0])
    return rng.choice(legal)


def choose_dominion_move(api: Herald, game_id: int, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Dominion's moves are whole: pick one of ``state["legal"]``."""
    return choose_dominion(state, rng)


STRATEGIES = {"dominion": choose_dominion_move, "domaine": choose_domaine}


# --- Playing ---------------------------------------------------------------------------------------


def play_turns(api: Herald, game_id: int, rng: random.Random, log: Any) -> dict[str, Any]:
    """Make every move owed in game ``game_id`` now; return its state once nothing is owed."""
    while True:
        state = api.get(f"/games/{game_id}")
        game = state["game"]
        if not game["my_move"] or not state["legal"]:
            return state
        move = STRATEGIES[game["kind"]](api, game_id, state, rng)
        try:
            api.post(f"/games/{game_id}/moves", {"move": move, "expected_seq": game["last_seq"]})
            print(f"game {game_id}: {json.dumps(move)}", file=log)
        except ApiError as exc:
            if exc.problem.get("code") == "stale_move":
                continue  # the game moved on (a simultaneous answer): read it again
            if exc.status == 422:  # refused by the rules: say why, then try another legal move
                print(f"game {game_id}: {json.dumps(move)} refused: {exc}", file=log)
                state["legal"] = [m for m in state["legal"] if m != move]
                if not state["legal"]:
                    raise
                continue
            raise


def run(api: Herald, games: list[int] | None, rng: random.Random, log: Any) -> None:
    """Play ``games`` until they are over (or, with None, every game where it is the bot's move, forever)."""
    cursor = api.get("/events")["cursor"]
    pending = set(games) if games else None
    todo = list(games) if games else [g["id"] for g in api.get("/games/my-move")]
    while pending is None or pending:
        for game_id in todo:
            state = play_turns(api, game_id, rng, log)
            if pending is not None and state["game"]["status"] not in ("open", "active"):
                pending.discard(game_id)
                print(f"game {game_id}: over ({state['game']['status']})", file=log)
        if pending is not None and not pending:
            return
        page = api.get("/events", after=cursor, wait=WAIT)
        cursor = page["cursor"]
        if not page["events"]:
            time.sleep(page["poll_after"])  # a server that does not hold polls open says how long to pause
        touched = list(dict.fromkeys(e["game"] for e in page["events"]))
        todo = [g for g in touched if pending is None or g in pending]
        if pending is not None and not page["events"]:
            todo = sorted(pending)  # nothing new: look at each game once more (cheap)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and play."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal access token with read and play")
    parser.add_argument("--game", type=int, action="append", help="play this game until it ends (repeatable)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the bot's own choices")
    args = parser.parse_args(argv)
    api = Herald(args.url, args.token)
    me = api.get("/me")
    print(f"playing as {me['name']}", file=sys.stderr)
    run(api, args.game, random.Random(args.seed), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
