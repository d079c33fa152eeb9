"""The rules pages and card references: reachable, complete, in every language, drawn by the engine's data."""

from __future__ import annotations

import re
from http import HTTPStatus

import pytest
from django.urls import reverse

from games import services
from games.engine.domaine.cards import CARDS as DOMAINE_CARDS
from games.engine.domaine.rules import TARGET_SCORE
from games.engine.dominion.cards import CARDS
from games.models import Game
from tests.conftest import make_game

pytestmark = pytest.mark.django_db

PAGES = [("guide:index", []), ("guide:rules", ["dominion"]), ("guide:rules", ["domaine"])]
PAGES += [("guide:cards", ["dominion"]), ("guide:cards", ["domaine"])]


def get(client, name, args, language="en"):
    client.cookies["django_language"] = language
    return client.get(reverse(name, args=args))


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
@pytest.mark.parametrize(("name", "args"), PAGES)
def test_every_rules_page_answers_in_every_language_to_anyone(client, name, args, language):
    response = get(client, name, args, language)
    assert response.status_code == HTTPStatus.OK
    assert f'<html lang="{language}">' in response.content.decode()


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/chess/").status_code == HTTPStatus.NOT_FOUND
    assert client.get("/rules/chess/cards/").status_code == HTTPStatus.NOT_FOUND


def test_the_site_menu_links_the_rules(client):
    page = client.get(reverse("games:lobby")).content.decode()
    assert f'href="{reverse("guide:index")}"' in page


def test_the_dominion_reference_gives_every_card_its_text_cost_and_type(client):
    page = get(client, "guide:cards", ["dominion"]).content.decode()
    entries = dict(re.findall(r'<li id="(card-[a-z-]+)" class="guide-ref-card"(.*?)</li>', page, re.S))
    assert len(entries) == len(CARDS) == 32
    throne = entries["card-throne-room"]
    assert "Choose an Action card in your hand. Play it twice." in throne
    assert "costs $4" in throne and "Action" in throne
    assert "Action – Attack" in entries["card-witch"]
    assert "Curse" in entries["card-curse"] and "-1 VP" in entries["card-curse"]


def test_the_dominion_reference_in_chinese_uses_the_taiwanese_names_and_texts(client):
    page = get(client, "guide:cards", ["dominion"], "zh-hant").content.decode()
    assert "王座" in page and "從手牌中選擇一張行動牌，打出它兩次。" in page
    page = get(client, "guide:cards", ["dominion"], "zh-hans").content.decode()
    assert "从手牌中选择一张行动牌，打出它两次。" in page


def test_the_domaine_reference_lists_each_card_and_says_it_is_a_reconstruction(client):
    page = get(client, "guide:cards", ["domaine"]).content.decode()
    entries = {e.split('"', 1)[0]: e for e in page.split('<li class="dm-card" id="card-')[1:]}
    assert len(entries) == len(DOMAINE_CARDS) == 24
    for card in DOMAINE_CARDS.values():
        text = entries[card.id.lower()].split("</ul>\n  <p", 1)[-1] + entries[card.id.lower()]
        assert f"cost {card.cost}" in text and f"sells for {card.sale}" in text and f"id {card.id}" in text
    assert "this site's" in page and "reconstruction" in page
    assert "Choose one:" in page  # cards with two actions say that one is played


def test_the_domaine_rules_explain_the_target_the_letters_the_display_and_the_distance(client):
    page = get(client, "guide:rules", ["domaine"]).content.decode()
    for players, target in TARGET_SCORE.items():
        assert f"{players} players: {target} points" in page
    assert "2 Knights (B)" in page and "A to D" in page  # what (A)/(B) on a card means
    assert 'id="display"' in page
    assert "at least 6 squares apart" in page
    # the drawn domain's score is the engine's
    assert "it scores 10" in page
    assert page.count('class="guide-zone"') == 60  # squares closer than 6 to the drawn castle


def test_a_game_page_log_links_each_card_to_its_reference_entry(client, player, opponent):
    game = make_game(player, opponent, kind="dominion", options={"kingdom": "First Game"})
    mover = game.seats.get(position=services.state_at(game).current).user
    client.force_login(mover)
    client.post(reverse("games:move", args=[game.pk]), {"act": "play_treasures", "seq": game.last_seq})
    game = Game.objects.get(pk=game.pk)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    log = page[page.index('id="game-log"') :]
    href = reverse("guide:cards", args=["dominion"]) + "#card-copper"
    assert f'<a class="card-link" href="{href}">Copper</a>' in log
    assert "\ue000" not in page and "\ue001" not in page


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
@pytest.mark.parametrize(("name", "args"), PAGES)
def test_the_chinese_pages_have_no_english_sentence_left(client, name, args, language):
    html = get(client, name, args, language).content.decode()
    html = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<span class="meta" lang="en">[^<]*</span>', " ", html)  # the English name beside a card's
    text = re.sub(r"<[^>]+>", " ", html)
    english = re.findall(r"[A-Za-z]+(?:[ ,'’-]+[A-Za-z]+){3,}", text)
    assert english == []


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_the_dominion_rules_page_describes_every_standing_answer_as_the_settings_page_does(client, language):
    from django.utils import translation

    from games.dominion.standing import descriptions

    html = get(client, "guide:rules", ["dominion"], language).content.decode()
    with translation.override(language):
        questions = [
            (str(q["label"]), [(str(s["label"]), str(s["text"])) for s in q["settings"]]) for q in descriptions()
        ]
    assert len(questions) >= 5
    for label, settings in questions:
        assert label in html, label
        for name, text in settings:
            assert name in html and text in html, (label, name)
