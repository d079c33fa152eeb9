"""Undo in a version-3 game while a victim still owes an attack's answer, and with standing answers in the log."""

from __future__ import annotations

import pytest

from games import services
from games.engine.dominion.standing import ASK_ALL, DEFAULTS
from games.engine.golden import check_record, record_game
from games.models import Action, UndoRequest
from games.replay_check import check_games
from stats.services import measure
from tests.web.test_standing import _game, _move, dealt  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db
E = "Estate"


def _undo(game, user):
    services.game_undo(game_id=game.pk, user=user, expected_seq=game.last_seq)
    game.refresh_from_db()
    return game


def test_the_attacker_takes_back_a_buy_until_the_victim_has_answered(dealt, settings, player, opponent):  # noqa: F811
    settings.HERALD_FORCED_MOVE_GRACE = 30
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="play", card="Market")
    game = _move(game, player, act="play_treasures")
    game = _move(game, player, act="buy", card="Gold")
    game = _move(game, player, act="buy", card="Copper")
    assert game.forced_due is not None and sorted(game.to_act) == [0, 1]
    game = _undo(game, player)  # nobody answered since the Buy: free
    state = services.state_at(game)
    assert state.buys == 1 and sorted(game.to_act) == [0, 1] and game.forced_due is None
    game = _move(game, opponent, act="no")
    game = _move(game, opponent, act="choose", cards=[E, E])
    with pytest.raises(services.IllegalMove) as refused:
        _undo(game, player)  # Bob answered the Militia since: his answers are final, the Gold with them
    assert refused.value.code == "undo_answer_final"
    with pytest.raises(services.IllegalMove) as refused:
        services.game_undo_ask(game_id=game.pk, user=player, expected_seq=game.last_seq)
    assert refused.value.code == "undo_answer_final", "not even by consent"
    assert not UndoRequest.objects.filter(game=game).exists()
    state = services.state_at(game)
    assert game.to_act == [0] and len(state.hands[1]) == 3, "Bob's discards stand"
    game = _move(game, player, act="buy", card="Silver")
    assert [r.ok for r in check_games([game.pk])] == [True]
    numbers = measure(game)
    assert numbers is not None and numbers.bought[0]["Gold"] == 1 and numbers.bought[0]["Silver"] == 1
    assert Action.objects.filter(game=game, move__act="undo").count() == 1


def test_a_finished_records_undo_and_standing_moves_feed_the_golden_tools(dealt, settings, client, player, opponent):  # noqa: F811
    settings.HERALD_FORCED_MOVE_GRACE = 30
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")  # Bob's Moat revealed for him (standing answer)
    game = _move(game, player, act="play", card="Market")
    game = _move(game, player, act="play_treasures")
    game = _move(game, player, act="buy", card="Gold")
    game = _undo(game, player)
    game = _move(game, player, act="buy", card="Silver")
    services.game_resign(game_id=game.pk, user=player)  # who moved: at move 0 it would abort
    game.refresh_from_db()
    record = services.game_record(game)
    assert any(m.get("standing") for m in record["moves"]) and record["retracted"]
    golden = record_game(
        record["kind"],
        record["engine_version"],
        record["options"],
        record["seed"],
        len(record["players"]),
        record["moves"],
    )
    assert check_record(golden) == []
    assert [r.ok for r in check_games([game.pk])] == [True]
    client.force_login(player)
    undo_seq = next(m["seq"] for m in record["moves"] if m.get("act") == "undo")
    page = client.get(f"/games/{game.pk}/replay?step={undo_seq - 1}").content.decode()
    assert f"This move was taken back at move {undo_seq}." in page
    assert client.get(f"/games/{game.pk}/record.json").status_code == 200


def test_answers_the_standing_answers_gave_are_final_like_any_other(dealt, settings, client, player, opponent):  # noqa: F811
    settings.HERALD_FORCED_MOVE_GRACE = 30
    opponent.standing_answers = ASK_ALL
    opponent.save()
    dealt["moat"] = False
    game = _move(_game(player, opponent), player, act="play", card="Village")
    game = _move(game, player, act="play", card="Militia")
    game = _move(game, player, act="play_treasures")
    game = _undo(game, player)  # Bob has not answered yet: the Treasures come back freely
    assert sorted(game.to_act) == [0, 1]
    game = _move(game, player, act="play_treasures")
    client.force_login(opponent)
    client.post(f"/games/{game.pk}/standing", dict(DEFAULTS))  # Bob's new answers settle both his questions
    game.refresh_from_db()
    assert game.to_act == [0]
    assert Action.objects.filter(game=game, standing=True).count() == 2
    with pytest.raises(services.IllegalMove) as refused:
        services.game_undo_ask(game_id=game.pk, user=player, expected_seq=game.last_seq)
    assert refused.value.code == "undo_answer_final", "answers made for Bob by his standing answers are his answers"
    assert [r.ok for r in check_games([game.pk])] == [True]
