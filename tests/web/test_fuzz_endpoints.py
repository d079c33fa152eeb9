"""Random client input at the endpoints that read JSON or numbers from the request: never a 500.

Hypothesis throws arbitrary JSON (and JSON shaped like a real move, with
values of every type in its parts) at the Domaine draft endpoint and at the
move endpoint of each game, and odd numbers at the poll and the replay.
A refusal (400, 409, 422) is the right answer; a 500 is the bug this
guards against (the attack run found one: a ``"borders": true`` draft).
"""

from __future__ import annotations

import json
from http import HTTPStatus

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from games.domaine.views import DRAFT_ACTS, LIST_PARTS, SCALAR_PARTS
from games.models import Action, Game
from tests.conftest import dominion_available, make_game, user_to_move

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
#: Function-scoped fixtures (the client, the game) are shared by every example on purpose:
#: the draft is read-only, and a move that happens to be legal only moves the game on.
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)

#: Any JSON value: scalars of every type (including the strings a square or edge is named by), nested.
names = hs.sampled_from(["A1", "C7", "L12", "C7-C8", "Z9", "A1-A1", "", "-", "a1", "A0", "A13", "B2-C3", "D1"])
scalars = (
    hs.none()
    | hs.booleans()
    | hs.integers(min_value=-(2**70), max_value=2**70)
    | hs.floats(allow_nan=False, allow_infinity=False)
    | names
    | hs.text(max_size=12)
)
json_values = hs.recursive(
    scalars,
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
#: A part's value: a scalar of any type, a list of names or of anything, or any JSON at all.
part_values = scalars | hs.lists(names | scalars, max_size=4) | json_values
part_keys = hs.sampled_from(["card", "option", "cards", "from", "player", "n", *LIST_PARTS, *SCALAR_PARTS])


def shaped(acts: list[str]) -> hs.SearchStrategy:
    """Moves shaped like the real thing: a known act, and parts given values of any type."""
    return hs.builds(
        lambda act, parts: {"act": act, **parts},
        hs.sampled_from(acts),
        hs.dictionaries(part_keys, part_values, min_size=1, max_size=4),
    )


#: Mostly move-like, sometimes anything at all.
drafts = shaped(list(DRAFT_ACTS)) | json_values
moves = shaped([*DRAFT_ACTS, "sell", "take", "buy", "end", "choose", "add", "play_treasures"]) | json_values


def url(name: str, game: Game) -> str:
    return reverse(f"games:{name}", kwargs={"game_id": game.pk})


@pytest.fixture
def domaine(player, opponent) -> Game:
    return make_game(player, opponent, kind="domaine")


def _no_500(response) -> None:
    assert response.status_code < HTTPStatus.INTERNAL_SERVER_ERROR, response.content.decode()[:2000]


@FUZZ
@given(draft=drafts, pick=hs.none() | names | hs.text(max_size=10))
def test_random_drafts_never_answer_500(client, domaine, draft, pick):
    client.force_login(user_to_move(domaine))
    query = {"seq": domaine.last_seq, "draft": json.dumps(draft)}
    if pick is not None:
        query["pick"] = pick
    _no_500(client.get(url("domaine_draft", domaine), query, **HX))


@FUZZ
@given(
    fields=hs.dictionaries(hs.sampled_from(["act", "card", "option", *LIST_PARTS, *SCALAR_PARTS]), hs.text(max_size=30))
)
def test_random_text_form_drafts_never_answer_500(client, domaine, fields):
    client.force_login(user_to_move(domaine))
    _no_500(client.get(url("domaine_draft", domaine), {"seq": domaine.last_seq, **fields}))


@pytest.fixture(params=["counter", "domaine", "dominion"])
def any_game(request, player, opponent) -> Game:
    if request.param == "dominion" and not dominion_available():
        pytest.skip("no Dominion engine")
    return make_game(player, opponent, kind=request.param)


@FUZZ
@given(move=moves, htmx=hs.booleans(), empty=hs.booleans())
def test_random_moves_never_answer_500(client, any_game, move, htmx, empty):
    any_game.refresh_from_db()
    if not any_game.is_active:
        return  # a random move won the game: nothing left to post to
    client.force_login(user_to_move(any_game))
    data = {"move": json.dumps(move), "seq": any_game.last_seq}
    if empty:
        data["play_empty"] = "1"
    _no_500(client.post(url("move", any_game), data, **(HX if htmx else {})))


@FUZZ
@given(
    fields=hs.dictionaries(
        hs.sampled_from(["seq", "act", "card", "move"]), hs.text(max_size=20) | hs.integers().map(str), max_size=4
    ),
    cards=hs.lists(hs.text(max_size=10), max_size=5),
)
def test_random_move_forms_never_answer_500(client, game, fields, cards):
    client.force_login(user_to_move(game))
    _no_500(client.post(url("move", game), {**fields, "cards": cards}, **HX))


numbers = hs.integers().map(str) | hs.text(max_size=25) | hs.sampled_from(["1e9", "-0", "٣", "9" * 5000, " 1 ", "0x10"])


@FUZZ
@given(seq=numbers, chat=numbers, v=hs.text(max_size=40))
def test_random_poll_parameters_never_answer_500(client, game, seq, chat, v):
    client.force_login(user_to_move(game))
    _no_500(client.get(url("poll", game), {"seq": seq, "chat": chat, "v": v}, **HX))


# ---------------------------------------------------------------------------
# Parts a move never has


def test_a_dominion_move_with_a_part_it_never_has_is_refused_and_never_stored(client, player, opponent):
    """Only a move's canonical form reaches the engine and the log (``engine.canonical_move``, in the move
    service): a client's extra keys are refused with the reason, and never kept in a game's record."""
    if not dominion_available():
        pytest.skip("no Dominion engine")
    game = make_game(player, opponent, kind="dominion")
    client.force_login(user_to_move(game))
    move = {"act": "end_turn", "note": "Subject: injected " * 100}
    response = client.post(url("move", game), {"move": json.dumps(move), "seq": game.last_seq}, **HX)
    assert response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert "The move &#x27;end_turn&#x27; has no part &#x27;note&#x27;." in response.content.decode()
    assert not Action.objects.filter(game=game).exists()
