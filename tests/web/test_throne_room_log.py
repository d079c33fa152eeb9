"""A Throne Room played with no other Action card in hand does nothing, and the log says so (issue 33's
walk-through: "uses the Throne Room silently").

The line comes from the events the engine already records (``eventtext.read_plays``), so stored games and
the golden games replay unchanged; the last tests check that reading against what the engine itself saw,
over bot games and the golden corpus, at every position.
"""

from __future__ import annotations

import random
import re
from html import unescape
from pathlib import Path

import pytest
from django.urls import reverse

from games import services
from games.dominion.eventtext import read_plays
from games.engine.core import Event
from games.engine.dominion import effects
from games.engine.dominion.cards import ACTIONS
from games.engine.golden import read_record, record_files
from games.engine.registry import get_engine
from games.models import Game
from tests.conftest import make_game
from tests.dealing import deal_fixed

KINGDOM = ["Throne Room", "Village", "Smithy", "Market", "Militia", "Moat", "Cellar", "Chapel", "Library", "Festival"]
C, E = "Copper", "Estate"
IDLE = "plays Throne Room with no other Action card in hand: it does nothing."


def _setup(hand: list[str], players: int = 2) -> dict:
    seats = [{"hand": hand, "deck": [C] * 10}, {"hand": [C, C, C, E, E], "deck": [C] * 5}][:players]
    return {"players": players, "kingdom": KINGDOM, "seed": 3, "players_state": seats, "turn": {"player": 0}}


@pytest.fixture
def dealt(monkeypatch):
    """Deal seat 0 the hand ``dealt["moat"]`` (the helper's name for the one changing part)."""
    return deal_fixed(monkeypatch, lambda hand, players: _setup(hand, players), {"moat": [C] * 5})


def _move(game: Game, user, **move) -> Game:
    game.refresh_from_db()
    services.game_submit_move(game_id=game.pk, user=user, move=move, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def _log(client, user, game: Game, language: str = "en") -> list[str]:
    """The game page's log lines as ``user`` reads them, oldest first, without move numbers and names."""
    client.force_login(user)
    page = client.get(reverse("games:detail", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    log = page.split('class="log-entries"', 1)[1].split("</ol>", 1)[0]
    lines = [unescape(re.sub(r"<[^>]+>", "", body)).strip() for body in re.findall(r"<li[^>]*>(.*?)</li>", log)]
    names = [s.name for s in game.seats.all()]
    out = []
    for line in reversed(lines):
        line = re.sub(r"^\d+\s*", "", line)
        for position, name in enumerate(names):
            line = line.replace(str(name), f"P{position}")
        out.append(line)
    return out


pytestmark = pytest.mark.django_db


def _idle_throne_room(dealt, player, opponent):
    """A game where the player's first play is a Throne Room with no other Action card in hand."""
    dealt["moat"] = ["Throne Room", C, C, E, E]
    game = make_game(player, opponent, kind="dominion", options={"kingdom": KINGDOM})
    return _move(game, player, act="play", card="Throne Room")


def test_a_throne_room_with_no_other_action_says_it_does_nothing_to_every_reader(dealt, client, player, opponent):
    game = _idle_throne_room(dealt, player, opponent)
    for reader in (player, opponent):
        assert _log(client, reader, game)[-1] == f"P0 {IDLE}"
    # And it stays said once the turn goes on (the lines are kept from position to position).
    game = _move(game, player, act="play_treasures")
    assert f"P0 {IDLE}" in _log(client, player, game)
    assert any("没有其他行动牌" in line for line in _log(client, player, game, "zh-hans"))


def test_a_throne_room_waiting_for_its_choice_is_not_said_to_do_nothing(dealt, client, player, opponent):
    dealt["moat"] = ["Throne Room", "Village", "Smithy", C, C]
    game = make_game(player, opponent, kind="dominion", options={"kingdom": KINGDOM})
    game = _move(game, player, act="play", card="Throne Room")
    assert _log(client, opponent, game)[-1] == "P0 plays Throne Room."
    game = _move(game, player, act="choose", cards=["Village"])
    lines = _log(client, player, game)
    assert "P0 plays Throne Room." in lines and not any("does nothing" in line for line in lines)


def test_a_throne_room_played_twice_by_a_throne_room_does_nothing_the_second_time(dealt, client, player, opponent):
    """Rules 8.17, TR on TR: "if no Action is left for the second choice, that play does nothing"."""
    dealt["moat"] = ["Throne Room", "Throne Room", "Village", C, C]
    game = make_game(player, opponent, kind="dominion", options={"kingdom": KINGDOM})
    game = _move(game, player, act="play", card="Throne Room")
    game = _move(game, player, act="choose", cards=["Throne Room"])  # its first play takes Village, the only one
    plays = [line for line in _log(client, player, game) if " plays " in line]
    assert plays == [
        "P0 plays Throne Room.",
        "P0 plays Throne Room.",
        "P0 plays Village.",
        "P0 plays Village.",
        f"P0 {IDLE}",
    ]


def test_two_throne_rooms_and_no_other_action_both_plays_of_the_second_do_nothing(dealt, client, player, opponent):
    dealt["moat"] = ["Throne Room", "Throne Room", C, C, E]
    game = make_game(player, opponent, kind="dominion", options={"kingdom": KINGDOM})
    game = _move(game, player, act="play", card="Throne Room")  # it takes the other one by itself
    plays = [line for line in _log(client, opponent, game) if " plays " in line]
    assert plays == ["P0 plays Throne Room.", f"P0 {IDLE}", f"P0 {IDLE}"]


def test_the_replay_says_it_too(dealt, client, player, opponent):
    game = _idle_throne_room(dealt, player, opponent)
    services.game_resign(game_id=game.pk, user=player)  # who moved: at move 0 it would abort
    client.force_login(player)
    page = unescape(
        re.sub(r"<[^>]+>", "", client.get(reverse("games:replay", args=[game.pk]) + "?step=1").content.decode())
    )
    assert IDLE in page


# ---------------------------------------------------------------------------
# The reading against the engine's own knowledge


def _traced(monkeypatch) -> list[bool]:
    """Record, for every Throne Room the engine resolves (in the order of its ``play`` events), whether
    the hand held no Action card."""
    seen: list[bool] = []
    resolve = effects._PLAY["Throne Room"]

    def throne_room(st, p, pid):
        seen.append(not any(c in ACTIONS for c in st.hands[p]))
        resolve(st, p, pid)

    monkeypatch.setitem(effects._PLAY, "Throne Room", throne_room)
    return seen


def _throne_plays(events: list[tuple[int, Event]]) -> list[int]:
    return [i for i, (_s, e) in enumerate(events) if e.kind == "play" and e.data.get("card") == "Throne Room"]


def _check_every_position(engine, state, moves, seen) -> int:
    """Apply ``moves``; after each, read the whole log and the snapshot's last 400 events and compare."""
    events: list[tuple[int, Event]] = []
    for seq, (p, move) in enumerate(moves, start=1):
        events += [(seq, e) for e in engine.apply(state, p, move)]
        settled = any(d.kind == "turn" for d in engine.pending(state))
        truth = {i for i, flag in zip(_throne_plays(events), seen, strict=True) if flag}
        assert read_plays(events, settled=settled)[1] == truth, (seq, move)
        # A window that starts inside a turn may say less, never more.
        start = max(0, len(events) - 400)
        window = {start + i for i in read_plays(events[start:], settled=settled)[1]}
        assert window <= truth, (seq, move)
    return sum(seen)


@pytest.mark.parametrize("version", get_engine("dominion").versions)
def test_the_reading_matches_the_engine_at_every_position_of_bot_games(monkeypatch, version):
    """Random players in a kingdom of Throne Rooms, Villages and draws: idle Throne Rooms, nested ones,
    second plays that find nothing, Throne Rooms on attacks whose second play waits (version 3)."""
    seen = _traced(monkeypatch)
    engine = get_engine("dominion", version)
    kingdom = ["Throne Room", "Village", "Smithy", "Militia", "Witch", "Moat", "Library", "Council Room"]
    kingdom += ["Festival", "Cellar"]
    idle = 0
    for seed in range(6):
        seen.clear()
        players = 2 + seed % 3
        rng = random.Random(seed)
        state = engine.new_game(engine.normalize_options({"kingdom": kingdom}, players, seed), players, seed)
        moves = []
        probe = engine.new_game(engine.normalize_options({"kingdom": kingdom}, players, seed), players, seed)
        while not engine.is_over(probe) and len(moves) < 600:
            p = engine.pending(probe)[0].player
            view = engine.player_view(probe, p)
            legal = engine.legal_moves(probe, p)
            plays = [m for m in legal if m.get("act") == "play" and m.get("card") in ACTIONS]
            buys = [m for m in legal if m.get("act") == "buy" and m.get("card") in ("Throne Room", "Village")]
            if plays and rng.random() < 0.9:
                move = rng.choice(plays)
            elif buys and rng.random() < 0.7:
                move = rng.choice(buys)
            else:
                move = engine.bots["random"](view, rng)
            engine.apply(probe, p, move)
            moves.append((p, move))
        seen.clear()
        idle += _check_every_position(engine, state, moves, seen)
    assert idle >= 10, "the games should hold idle Throne Rooms"


def test_the_reading_matches_the_engine_over_the_golden_games(monkeypatch):
    seen = _traced(monkeypatch)
    for path in record_files(Path(__file__).parent.parent / "golden" / "dominion"):
        record = read_record(path)
        if any(m["act"] == "undo" for m in record["moves"]):
            continue  # an undo replays from a checkpoint: the trace would not follow the events
        seen.clear()
        engine = get_engine("dominion", record["engine_version"])
        state = engine.new_game(record["options"], record["players"], record["seed"])
        moves = [(m["player"], {k: v for k, v in m.items() if k != "player"}) for m in record["moves"]]
        events: list[tuple[int, Event]] = []
        for seq, (p, move) in enumerate(moves, start=1):
            events += [(seq, e) for e in engine.apply(state, p, move)]
        settled = any(d.kind == "turn" for d in engine.pending(state))
        truth = {i for i, flag in zip(_throne_plays(events), seen, strict=True) if flag}
        assert read_plays(events, settled=settled)[1] == truth, path.name
