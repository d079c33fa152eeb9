"""Playing tournament games to the end through the move service, as bots would."""

from __future__ import annotations

from games import services
from games.autoplay import game_bot_moves
from games.bots import bot_move
from games.models import Game
from games.replay import engine_for, state_at
from tests.conftest import seated
from tournaments.models import Table, Tournament


def play_out(game_id: int, bot: str) -> Game:
    """Play a game to its end, every seat's move chosen by ``bot`` and sent through ``game_submit_move``.

    With the counter game's ``first`` bot (always add 1, target 10) the second seat wins.
    The next move is chosen on the position the last one returned (``MoveResult.snapshot``),
    not read back from the cache, as long as nothing moved in the game since (its ``last_seq``).
    """
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.select_related("user"))
    users = {s.position: seated(s) for s in seats}
    state = state_at(game) if game.is_active else None
    while game.is_active:
        engine = engine_for(game)
        position = game.to_act[0]
        if next(s for s in seats if s.position == position).bot_played:
            # Forfeited: the site's bot plays the seat, as its task would.
            game_bot_moves(game_id=game_id)
            game = Game.objects.get(pk=game_id)
            seats = list(game.seats.all())
            state = state_at(game) if game.is_active else None
            continue
        move = bot_move(game, engine, state, position, bot)
        result = services.game_submit_move(game_id=game_id, user=users[position], move=move, expected_seq=game.last_seq)
        game = Game.objects.get(pk=game_id)
        if game.last_seq == result.seq and result.snapshot is not None and result.seats is not None:
            state, seats = result.snapshot.state, result.seats
        else:  # something else moved after commit (a bot's seat): read it all again
            seats = list(game.seats.all())
            state = state_at(game) if game.is_active else None
    return game


def play_round(tournament: Tournament, number: int, bot: str = "first") -> None:
    """Play every game of round ``number`` to its end."""
    for table in Table.objects.filter(round__tournament=tournament, round__number=number, game__isnull=False):
        assert table.game_id is not None  # filtered above
        play_out(table.game_id, bot)
