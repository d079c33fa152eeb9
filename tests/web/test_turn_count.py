"""The Dominion page counts turns one way: turn 1 is a player's first turn (rules §10 counts each player's turns).

The status says "Turn N" for the turn being played; the players' table's
"Turns" column must say the same N for the player whose turn it is (the
turn in progress is one they have had), and the log's "Turn N of X" agrees.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from tests.conftest import make_game
from tests.web.test_dominion_pages import play_with_bots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_test")]


def turns_column(page: str) -> dict[str, int]:
    """The players' table: shown name -> the "Turns" cell (the row's last)."""
    table = page.split('id="h-players"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<th scope="row">([^<(]+?)(?: \(you\))?</th>.*?<td>(\d+)</td>\s*</tr>', table, re.S)
    return {name.strip(): int(n) for name, n in rows}


@pytest.mark.parametrize("moves", [0, 1, 4, 9, 14])
def test_the_turn_heading_and_the_turns_column_agree_for_the_player_to_move(client, player, opponent, moves):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    game = play_with_bots(game, moves)
    client.force_login(player)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    heading = int(re.search(r"<p>Turn (\d+)</p>", page).group(1))
    state = services.state_at(game)
    mover = game.seats.get(position=state.current).user.shown_name
    other = (player if mover != player.shown_name else opponent).shown_name
    column = turns_column(page)
    assert column[mover] == heading, (column, heading)
    # The other player has finished each of theirs: as many as the mover, or one more if they moved first.
    assert column[other] in (heading - 1, heading)
    if heading > 1:  # the deal starts the first turn without a "Turn 1" line
        assert f"Turn {heading} of {mover}." in page
