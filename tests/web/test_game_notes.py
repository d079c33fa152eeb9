"""Private notes on a game: only their author ever sees them, kept after the game, saved with or without JS."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from games import services
from games.models import Game, GameNote
from tests.api.conftest import api_client
from tests.conftest import make_game, seated
from tests.factories import UserFactory

SECRET = "plan: Gardens rush, 7 Coppers left in deck"


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def save(client: Client, game: Game, text: str, *, htmx: bool = False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("games:notes", args=[game.pk]), {"text": text}, headers=headers)


def page(client: Client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def moderator(db):
    user = UserFactory.create(username="mod", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


def test_a_plain_post_saves_and_comes_back_to_the_notes_which_the_author_sees(game, player):
    client = client_for(player)
    response = save(client, game, SECRET)
    assert response.status_code == 302 and response.url.endswith(f"/games/{game.pk}/#notes")
    assert SECRET in page(client, game)
    # Saving again replaces the text (one note per player and game).
    save(client, game, "second thoughts")
    html = page(client, game)
    assert "second thoughts" in html and SECRET not in html
    assert GameNote.objects.filter(game=game, user=player).count() == 1


def test_htmx_saving_answers_only_the_saved_line(game, player):
    response = save(client_for(player), game, SECRET, htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="notes-saved"' in html and "Saved at" in html
    # Not the text itself, nor the page: the box the player types in is left alone.
    assert SECRET not in html and "<textarea" not in html
    assert GameNote.objects.get(game=game, user=player).text == SECRET


def test_a_page_with_notes_has_a_form_that_works_both_ways(game, player):
    html = page(client_for(player), game)
    notes = html.split('id="game-notes"', 1)[1].split("</section>", 1)[0]
    assert f'action="/games/{game.pk}/notes#notes"' in notes and 'method="post"' in notes
    assert "hx-post" in notes and 'name="csrfmiddlewaretoken"' in notes
    # Outside the polled live region, so a poll never replaces what is being typed.
    live = html.split('id="game-live"', 1)[1].split('id="game-notes"', 1)[0]
    assert "notes-text" not in live


def test_nobody_else_sees_a_note_anywhere(game, player, opponent, outsider, moderator):
    """The other seat, a spectator, a moderator, the poll, the record, the API, the admin."""
    save(client_for(player), game, SECRET)
    readers = {
        "other seat": client_for(opponent),
        "spectator": client_for(outsider),
        "moderator": client_for(moderator),
        "anonymous": Client(),
    }
    for who, client in readers.items():
        html = page(client, game)
        assert SECRET not in html, who
        poll = client.get(reverse("games:poll", args=[game.pk]), {"seq": -1})
        assert SECRET not in poll.content.decode(), who
    # The other seat has a notes box of their own, empty; a spectator has none.
    assert 'id="notes-text"' in page(readers["other seat"], game)
    assert 'id="notes-text"' not in page(readers["spectator"], game)
    # A moderator's ordinary views: the game in the admin, and no admin for notes at all.
    mod = readers["moderator"]
    admin_page = mod.get(reverse("admin:games_game_change", args=[game.pk]))
    assert admin_page.status_code == 200 and SECRET not in admin_page.content.decode()
    assert mod.get("/admin/games/gamenote/").status_code == 404
    # API readers, the author's own token included: the game, its chat, the event stream.
    for user in (opponent, outsider, player):
        api = api_client(user)
        for path, params in ((f"/games/{game.pk}", {}), (f"/games/{game.pk}/chat", {}), ("/events", {"after": 0})):
            response = api.get(path, **params)
            assert response.status_code == 200, (path, response.content)
            assert SECRET not in response.content.decode(), (user, path)


def test_notes_are_kept_after_the_game_and_stay_out_of_its_record_and_replay(player, opponent, outsider):
    game = make_game(player, opponent)
    save(client_for(player), game, SECRET)
    game = finished_counter_from(game)
    assert game.is_finished
    assert SECRET in page(client_for(player), game)
    for user in (player, opponent, outsider):
        client = client_for(user)
        record = client.get(reverse("games:record", args=[game.pk]))
        assert record.status_code == 200 and SECRET not in record.content.decode()
        assert SECRET not in json.dumps(api_client(user).get(f"/games/{game.pk}/record").json())
        for seat in ("1", "2"):
            replay = client.get(reverse("games:replay", args=[game.pk]), {"seat": seat, "step": 0})
            assert replay.status_code == 200 and SECRET not in replay.content.decode()
    assert SECRET not in page(client_for(opponent), game)


def finished_counter_from(game: Game) -> Game:
    """Play ``game`` (a counter game) to its end."""
    while game.status == Game.Status.ACTIVE:
        mover = seated(game.seats.get(position=game.to_act[0]))
        total = services.state_at(game).total
        services.game_submit_move(
            game_id=game.pk, user=mover, move={"act": "add", "n": min(3, 10 - total)}, expected_seq=game.last_seq
        )
        game.refresh_from_db()
    return game


def test_only_players_may_keep_notes(game, outsider):
    response = save(client_for(outsider), game, "mine")
    assert response.status_code == 403
    assert "Only the players of a game can keep notes on it." in response.content.decode()
    assert not GameNote.objects.exists()
    # Signed out: to the sign-in page, nothing saved.
    response = Client().post(reverse("games:notes", args=[game.pk]), {"text": "x"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not GameNote.objects.exists()


def test_a_private_game_hides_even_its_notes_address_from_outsiders(player, opponent, outsider):
    game = make_game(player, opponent, private=True)
    assert save(client_for(outsider), game, "x").status_code == 404
    assert not GameNote.objects.exists()


def test_too_long_notes_are_refused_and_kept_in_the_box(game, player):
    client = client_for(player)
    save(client, game, "kept")
    long = "x" * (GameNote.MAX_LENGTH + 1)
    response = save(client, game, long)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Notes can be at most 5000 characters" in html and long in html
    assert GameNote.objects.get(game=game, user=player).text == "kept"
    htmx = save(client, game, long, htmx=True)
    assert htmx.status_code == 400 and "Notes can be at most" in htmx.content.decode()
    # A browser's \r\n counts as one character, as the player sees it.
    assert save(client, game, "a\r\n" * 2500).status_code == 302
    assert GameNote.objects.get(game=game, user=player).text == "a\n" * 2500


def test_deleting_an_account_deletes_its_notes_only(game, player, opponent):
    save(client_for(player), game, SECRET)
    save(client_for(opponent), game, "theirs")
    account_services.user_delete(user=player)
    assert list(GameNote.objects.values_list("text", flat=True)) == ["theirs"]
