"""The log stores only canonical moves: each engine's ``canonical_move``, applied on the way in.

Issue 27 found junk stored as sent (``{"act": "end_turn", "card": 1e308}``,
a ``play_treasures`` with a ``cards`` list of lists). Now every move that
reaches the log is in its canonical form (only the parts its act uses,
with their types, each written one way), anything else is refused with a
reason, and a move the engine accepts means the same in its canonical form,
so stored games (the golden corpus among them) replay unchanged.
"""

from __future__ import annotations

import json
import pickle
import random
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games import services
from games.engine.core import IllegalMove
from games.engine.golden import read_record, record_files
from games.engine.registry import get_engine
from games.engine.undo import is_undo
from games.models import Action
from games.replay_check import check_games
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.factories import UserFactory

DOMINION = get_engine("dominion")
DOMAINE = get_engine("domaine")
GOLDEN = Path(__file__).parents[1] / "golden"

#: Values a client might put anywhere in a move.
JUNK: list[Any] = [1e308, 1, -1, True, None, "", "\u0007<b>x</b>", [[1, 2], {"x": 1}], {"x": 1}, ["Copper"], "C7"]


# ---------------------------------------------------------------------------
# The engines' canonical forms


@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_every_move_of_the_golden_corpus_is_already_canonical(kind):
    """Canonicalising never touches what the engines and their bots ever stored (36,903 moves)."""
    engine = get_engine(kind)
    moves = [
        {k: v for k, v in m.items() if k != "player"}
        for f in record_files(GOLDEN / kind)
        for m in read_record(f)["moves"]
        if not is_undo(m)
    ]
    assert len(moves) > 1000
    changed = [m for m in moves if engine.canonical_move(m) != m]
    assert changed == []


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"act": "play_treasures", "card": "\u0007<b>x</b>", "cards": [[1, 2], {"x": 1}]}, "bad_part"),
        ({"act": "end_turn", "card": 1e308}, "bad_part"),
        ({"act": "buy", "card": ["Gold"]}, "malformed"),
        ({"act": "buy"}, "malformed"),
        ({"act": "choose", "cards": [1]}, "malformed"),
        ({"act": "choose", "cards": "Copper"}, "malformed"),
        ({"act": "yes", "cards": []}, "bad_part"),
        ({"act": "dance"}, "malformed"),
        ({"card": "Gold"}, "malformed"),
        (["end_turn"], "malformed"),
    ],
)
def test_dominion_refuses_what_a_move_cannot_carry_with_a_reason(move, code):
    with pytest.raises(IllegalMove) as refused:
        DOMINION.canonical_move(move)
    assert refused.value.code == code and refused.value.reason


@pytest.mark.parametrize(
    ("move", "canonical"),
    [
        ({"act": "take", "card": "B3", "from": "display"}, {"act": "take", "card": "B3"}),
        (
            {"act": "play", "card": "A1", "borders": ["C8-C7"]},
            {"act": "play", "card": "A1", "option": 0, "borders": ["C7-C8"]},
        ),
        ({"act": "play", "card": "A1", "option": 0, "borders": []}, {"act": "play", "card": "A1", "option": 0}),
        ({"act": "play", "card": "A4", "option": 1, "borders": []}, {"act": "play", "card": "A4", "option": 1}),
        ({"act": "play", "card": "B4", "knights": []}, "bad_part"),
        (
            {"act": "play", "card": "B4", "domain": "C7"},
            {"act": "play", "card": "B4", "option": 0, "domain": "C7", "squares": []},
        ),
        ({"act": "play", "card": "B4", "squares": ["C8"]}, "bad_part"),
        ({"act": "play", "card": "B5", "remove": "C7"}, "bad_part"),
        (
            {"act": "play", "card": "B6", "domain": "C7", "with": "H8"},
            {"act": "play", "card": "B6", "option": 0, "domain": "C7", "with": "H8"},
        ),
        ({"act": "play", "card": "A1", "borders": ["C7-C9"]}, "bad_edge"),
        ({"act": "play", "card": "A3", "knights": "C7"}, "bad_part"),
    ],
)
def test_domaine_writes_each_move_one_way(move, canonical):
    if isinstance(canonical, str):
        with pytest.raises(IllegalMove) as refused:
            DOMAINE.canonical_move(move)
        assert refused.value.code == canonical
        return
    assert DOMAINE.canonical_move(move) == canonical
    assert DOMAINE.canonical_move(canonical) == canonical


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"act": "take", "from": "deck", "card": "B3"}, "bad_part"),
        ({"act": "take"}, "bad_part"),
        ({"act": "sell", "card": "Z9"}, "bad_card"),
        ({"act": "sell", "card": "B3", "note": 1}, "bad_part"),
        ({"act": "place_castle", "at": "C7"}, "bad_part"),
        ({"act": "place_neutral", "at": "M13"}, "bad_square"),
        # A square's name and a line end (``$`` in a pattern lets one through): refused, not a crash (a 500).
        ({"act": "place_neutral", "at": "C7\n"}, "bad_square"),
        ({"act": "play", "card": "B3", "option": 0, "knights": ["C7\n"]}, "bad_square"),
        ({"act": "play", "card": "B3", "option": "0"}, "bad_option"),
        ({"act": "play", "card": "B3", "option": True}, "bad_option"),
        ({"act": "cheat"}, "bad_move"),
        ("take", "bad_move"),
    ],
)
def test_domaine_refuses_what_a_move_cannot_carry_with_a_reason(move, code):
    with pytest.raises(IllegalMove) as refused:
        DOMAINE.canonical_move(move)
    assert refused.value.code == code and refused.value.reason


def _mutations(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``move`` with one thing a client might change: a part added, a part's value replaced, or one dropped."""
    out = dict(move)
    roll = rng.random()
    keys = [k for k in out if k != "act"]
    if roll < 0.4 or not keys:
        out[rng.choice(["card", "cards", "note", "option", "from", "borders", "squares", "x"])] = rng.choice(JUNK)
    elif roll < 0.8:
        out[rng.choice(keys)] = rng.choice(JUNK)
    else:
        del out[rng.choice(keys)]
    return out


def _outcome(engine: Any, state: Any, seat: int, move: Any) -> Any:
    """What applying ``move`` does to a copy of ``state``: its events and the position, or the refusal."""
    copy = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own state
    try:
        events = engine.apply(copy, seat, move)
    except IllegalMove as exc:
        return ("refused", exc.code)
    except (TypeError, KeyError, ValueError, AttributeError, IndexError):
        return ("crashed",)
    return ([e.to_dict() for e in events], engine.view(copy, None, reveal_all=True))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=hs.sampled_from(["dominion", "domaine"]), seed=hs.integers(0, 2**20), players=hs.integers(2, 4))
def test_a_move_the_engine_accepts_means_the_same_in_its_canonical_form(kind, seed, players):
    """Bots play; at each position their move and mutations of it are canonicalised: the canonical form of
    a legal move is itself, canonicalising twice changes nothing, and whatever canonicalising accepts the
    engine applies exactly as the move as sent (same events, same position), so refusing no more than shapes."""
    engine = get_engine(kind)
    rng = random.Random(seed)
    options = {"kingdom": "random"} if kind == "dominion" else {}
    state = engine.new_game(options, players, seed)
    bot = next(iter(engine.bots.values()))
    for _ in range(60):
        if engine.is_over(state):
            break
        seat = engine.pending(state)[0].player
        move = bot(engine.player_view(state, seat), rng)
        assert engine.canonical_move(move) == move, move
        for _variant in range(3):
            sent = _mutations(move, rng)
            try:
                canonical = engine.canonical_move(sent)
            except IllegalMove as exc:
                assert exc.reason and exc.code
                continue
            assert engine.canonical_move(canonical) == canonical
            if _outcome(engine, state, seat, sent) != ("crashed",):
                assert _outcome(engine, state, seat, canonical) == _outcome(engine, state, seat, sent), sent
        engine.apply(state, seat, move)


# ---------------------------------------------------------------------------
# Through the site: what the log holds


def _bot_move(engine: Any, state: Any, seat: int, rng: random.Random) -> dict[str, Any]:
    return next(iter(engine.bots.values()))(engine.player_view(state, seat), rng)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["dominion", "domaine"])
def test_fuzzed_games_store_only_canonical_moves_and_replay(site_test, kind):
    """People send the bots' moves, most of them changed first (a part added, retyped or dropped, an edge
    reversed): each is refused with a reason and then sent as it should be, or stored in canonical form."""
    engine = get_engine(kind)
    rng = random.Random(27)
    users = [UserFactory.create() for _ in range(3)]
    game = make_game(users[0], *users[1:], kind=kind, options={"kingdom": "random"} if kind == "dominion" else {})
    by_seat = {s.position: s.user for s in game.seats.all()}
    refused = stored_changed = 0
    for _ in range(150):
        game.refresh_from_db()
        if not game.is_active:
            break
        state = services.state_at(game)
        seat = engine.pending(state)[0].player
        move = _bot_move(engine, state, seat, rng)
        sent = _mutations(move, rng) if rng.random() < 0.7 else move
        if kind == "domaine" and sent is move and move.get("borders"):
            sent = {**move, "borders": ["-".join(reversed(e.split("-"))) for e in move["borders"]]}
        try:
            services.game_submit_move(game_id=game.pk, user=by_seat[seat], move=sent, expected_seq=game.last_seq)
        except IllegalMove as exc:
            refused += 1
            assert exc.code and exc.reason
            services.game_submit_move(game_id=game.pk, user=by_seat[seat], move=move, expected_seq=game.last_seq)
        else:
            stored_changed += sent != move
    moves = list(Action.objects.filter(game=game).order_by("seq").values_list("move", flat=True))
    assert len(moves) > 100 and refused > 20
    assert [m for m in moves if not is_undo(m) and engine.canonical_move(m) != m] == []
    assert not any(json.dumps(m).count("\\u0007") or "note" in m or "x" in m for m in moves)
    assert [r.ok for r in check_games([game.pk])] == [True]
    if kind == "domaine":
        assert stored_changed > 0, "some non-canonical moves were stored, rewritten"


@pytest.mark.django_db
def test_the_page_says_why_and_the_api_answers_422_with_the_reason(site_test, client):
    ann, bo = UserFactory.create(), UserFactory.create()
    game = make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"})
    mover = game.seats.get(position=game.to_act[0]).user
    client.force_login(mover)
    junk = {"act": "end_turn", "card": 1e308}
    page = client.post(reverse("games:move", args=[game.pk]), {"move": json.dumps(junk), "seq": game.last_seq})
    assert page.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "The move &#x27;end_turn&#x27; has no part &#x27;card&#x27;." in page.content.decode()
    client.cookies["django_language"] = "zh-hant"
    page = client.post(
        reverse("games:move", args=[game.pk]), {"move": json.dumps(junk), "seq": game.last_seq}, HTTP_HX_REQUEST="true"
    )
    assert page.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "這一步包含了這個行動沒有的部分" in page.content.decode()
    api = api_client(mover)
    answer = api.post(f"/games/{game.pk}/moves", {"move": junk, "expected_seq": game.last_seq})
    assert answer.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert answer.json()["reason"] == "bad_part" and "no part 'card'" in answer.json()["detail"]
    answer = api.post(f"/games/{game.pk}/moves", {"move": {"act": "buy", "card": 7}, "expected_seq": game.last_seq})
    assert answer.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and answer.json()["reason"] == "malformed"
    assert not Action.objects.filter(game=game).exists()
