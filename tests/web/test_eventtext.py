"""Card names and texts in the reader's language, and events in words."""

from __future__ import annotations

from datetime import UTC

from django.utils import translation

from games.dominion.eventtext import card_list, card_name, card_text
from games.engine.core import Event
from games.eventtext import describe


def test_card_names_follow_the_rules_table_in_each_language():
    assert card_name("Cellar", "zh-hant") == "地窖"
    assert card_name("Village", "zh-hant") == "村莊"
    assert card_name("Village", "zh-hans") == "村庄"
    assert card_name("Duchy", "zh-hant") == "公國" and card_name("Duchy", "zh-hans") == "公国"
    assert card_name("Throne Room", "en") == "Throne Room"


def test_card_texts_are_translated():
    assert "移出遊戲" in card_text("Chapel", "zh-hant")
    assert "移出游戏" in card_text("Chapel", "zh-hans")
    assert card_text("Chapel", "en") == "Trash up to 4 cards from your hand."


def test_the_active_language_decides_when_none_is_given():
    with translation.override("zh-hant"):
        text = card_list(["Copper", "Copper", "Silver"])
        assert text.startswith("2 × 銅幣") and text.endswith("銀幣")
    with translation.override("en"):
        assert card_list(["Copper", "Copper", "Silver"]) == "2 × Copper, Silver"


def test_a_private_draw_reads_as_a_count_to_others_and_as_cards_to_the_drawer():
    event = Event("draw", 0, {"cards": ["Gold", "Estate"]}, private_to=0, redacted={"count": 2})
    names = ["Ann", "Bo"]
    with translation.override("en"):
        assert describe("dominion", event.for_viewer(0), names) == "Ann draws Gold, Estate."
        assert describe("dominion", event.for_viewer(1), names) == "Ann draws 2 cards."
        assert describe("dominion", event.for_viewer(None), names) == "Ann draws 2 cards."


def test_english_times_use_a_24_hour_clock_so_sentences_keep_one_full_stop():
    from datetime import datetime

    from django.utils.formats import date_format

    with translation.override("en"):
        text = date_format(datetime(2026, 11, 29, 21, 38, tzinfo=UTC), "DATETIME_FORMAT")
    assert text.endswith("21:38") and "p.m." not in text
