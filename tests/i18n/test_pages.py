"""Every page, email and game log reads in Traditional and Simplified Chinese.

Each test renders the real page (or email) for a user whose saved language
is Chinese and looks for labels only the translation has, and for English
labels that must be gone. The catalogues must be compiled (``make test``
does it; the first test says so when they are not).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import translation

from correspondence import services as outbox
from correspondence.models import Notification
from games.engine.dominion.cards import CARDS
from games.i18n import all_refusals, refusal_text
from tests.conftest import make_game
from tests.factories import UserFactory
from tests.web.test_dominion_pages import play_with_bots

pytestmark = pytest.mark.django_db

#: language -> labels that must appear on the named page (a translation of ours,
#: a card name from the rules table, a log line).
EXPECTED = {
    "zh-hant": {
        "header": ["大廳", "排行榜", "設定", "登出"],
        "lobby": ["開始新遊戲", "開放中的遊戲", "最近結束"],
        "dominion": ["皇輿爭霸 #", "補充牌堆", "移出遊戲區", "銅幣", "莊園", "地窖", "紀錄", "的第 1 回合。"],
        "domaine": ["領域 #", "草地", "王城", "目標分數", "紀錄"],
        "profile": ["積分與戰績", "進行中的遊戲", "已結束的遊戲"],
        "ladder": ["皇輿爭霸 排行榜", "排行榜上還沒有人。"],
    },
    "zh-hans": {
        "header": ["大厅", "排行榜", "设置", "退出登录"],
        "lobby": ["开始新游戏", "开放中的游戏", "最近结束"],
        "dominion": ["皇舆争霸 #", "补充牌堆", "移出游戏区", "铜币", "庄园", "地窖", "记录", "的第 1 回合。"],
        "domaine": ["领域 #", "草地", "王城", "目标分数", "记录"],
        "profile": ["积分与战绩", "进行中的游戏", "已结束的游戏"],
        "ladder": ["皇舆争霸 排行榜", "排行榜上还没有人。"],
    },
}
#: English labels that must not survive on a Chinese page.
ENGLISH = ["Lobby", "Sign out", "Ladders", "Your hand", "Supply", "Log", "Players", "Settings"]
LANGUAGES = ["zh-hant", "zh-hans"]


def _text(response) -> str:
    """The page's visible text, roughly: tags dropped, so attribute values and markup never count."""
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def _check(text: str, language: str, *pages: str) -> None:
    for page in pages:
        for label in EXPECTED[language][page]:
            assert label in text, f"{label!r} missing from the {page} in {language}"
    for word in ENGLISH:
        assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), f"English {word!r} left in {language}"


def _user(language: str, name: str = "ann"):
    return UserFactory.create(username=f"{name}-{language}", language=language)


def test_the_catalogues_are_compiled():
    for folder in ("zh_Hant", "zh_Hans"):
        mo = Path(settings.BASE_DIR) / "locale" / folder / "LC_MESSAGES" / "django.mo"
        assert mo.exists(), f"{mo} is missing: run `make messages` (manage.py compilemessages)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_lobby(client, language):
    user = _user(language)
    client.force_login(user)
    _check(_text(client.get(reverse("games:lobby"))), language, "header", "lobby")


@pytest.mark.parametrize("language", LANGUAGES)
def test_dominion_game_page(client, language):
    ann, bo = _user(language), _user("en", "bo")
    game = play_with_bots(make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"}), 12)
    client.force_login(ann)
    _check(_text(client.get(game.get_absolute_url())), language, "header", "dominion")


@pytest.mark.parametrize("language", LANGUAGES)
def test_domaine_game_page(client, language):
    ann, bo = _user(language), _user("en", "bo")
    game = make_game(ann, bo, kind="domaine")
    client.force_login(ann)
    text = _text(client.get(game.get_absolute_url()))
    _check(text, language, "header", "domaine")


DOMAINE_PLAY = {
    "zh-hant": {
        "name": "2 名騎士（B）",
        "choice": "1 名騎士 或 2 道邊界（A）",
        "empty": "打出但不使用",
        "tick": "是的，打出這張牌但不使用它",
    },
    "zh-hans": {
        "name": "2 名骑士（B）",
        "choice": "1 名骑士 或 2 道边界（A）",
        "empty": "打出但不使用",
        "tick": "是的，打出这张牌但不使用它",
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_domaine_cards_and_the_empty_play_in_chinese(client, language):
    import json

    from games.domaine.eventtext import card_name
    from games.domaine.eventtext import describe as describe_domaine
    from tests.web.test_domaine_views import at_step, bot_moves, view_of

    labels = DOMAINE_PLAY[language]
    with translation.override(language):
        assert card_name("B3") == labels["name"] and card_name("A4") == labels["choice"]
        assert labels["name"] in describe_domaine({"kind": "sell", "card": "B3", "gold": 2}, "Ann")
    ann, bo = _user(language), _user(language, "bo")
    game = bot_moves(make_game(ann, bo, kind="domaine"), until=at_step("play"))
    seat = game.to_act[0]
    client.force_login(game.seats.get(position=seat).user)
    card = view_of(game, seat)["pending"][0]["params"]["playable"][0]
    draft = {"act": "play", "card": card, "option": 0}
    response = client.get(
        reverse("games:domaine_draft", args=[game.pk]), {"seq": game.last_seq, "draft": json.dumps(draft)}
    )
    text = _text(response)
    with translation.override(language):
        assert card_name(card) in text
    assert labels["empty"] in text and labels["tick"] in text
    assert "Play without using it" not in text and "Nothing is placed yet" not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_profile(client, language):
    ann, bo = _user(language), _user("en", "bo")
    make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"})
    client.force_login(ann)
    _check(_text(client.get(reverse("accounts:profile", args=[ann.username]))), language, "header", "profile")


@pytest.mark.parametrize("language", LANGUAGES)
def test_ladder(client, language):
    client.force_login(_user(language))
    _check(_text(client.get(reverse("ratings:ladder", args=["dominion"]))), language, "header", "ladder")


def test_two_readers_see_one_game_log_each_in_their_language(client):
    """The log is stored as moves and events: each reader gets it in their own language."""
    ann, bo = _user("zh-hant"), _user("zh-hans", "bo")
    game = play_with_bots(make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"}), 12)
    client.force_login(ann)
    hant = _text(client.get(game.get_absolute_url()))
    client.force_login(bo)
    hans = _text(client.get(game.get_absolute_url()))
    # Both read the same purchases, in different scripts.
    # (Card names are links to their reference entries: the tags dropped leave spaces around them.)
    bought_hant = re.findall(r"購買\s+(\S+)\s*。", hant)
    bought_hans = re.findall(r"购买\s+(\S+)\s*。", hans)
    assert bought_hant and len(bought_hant) == len(bought_hans)
    assert "購買" not in hans and "购买" not in hant
    with translation.override("en"):
        english = _text(client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en"))
    assert "購買" not in english


def test_the_saved_language_wins_over_the_browser_and_the_switch_saves_it(client):
    ann = _user("zh-hans")
    client.force_login(ann)
    text = _text(client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="zh-Hant,en"))
    assert "大厅" in text and "大廳" not in text
    response = client.post(reverse("accounts:language"), {"language": "zh-hant", "next": "/"})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.language == "zh-hant"
    assert "大廳" in _text(client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="en"))


def test_a_visitor_gets_the_browsers_language(client):
    assert "大廳" in _text(client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="zh-TW,zh;q=0.9"))
    assert "大厅" in _text(client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9"))


# Emails ------------------------------------------------------------------------------

EMAIL_LABELS = {
    "zh-hant": {
        Notification.Kind.YOUR_MOVE: "輪到你了",
        Notification.Kind.GAME_STARTED: "已開始",
        Notification.Kind.GAME_OVER: "已結束",
        Notification.Kind.TIME_LOW: "你的時間快用完了",
        Notification.Kind.TIMED_OUT: "超時",
        Notification.Kind.CANCELLED: "已取消",
        Notification.Kind.CHAT: ("留言", "寫道"),
        Notification.Kind.UNDO_ASKED: "收回",
        Notification.Kind.INVITED: "邀請你",
        "footer": "停止這類郵件",
        "game": "皇輿爭霸 #",
    },
    "zh-hans": {
        Notification.Kind.YOUR_MOVE: "轮到你了",
        Notification.Kind.GAME_STARTED: "已开始",
        Notification.Kind.GAME_OVER: "已结束",
        Notification.Kind.TIME_LOW: "你的时间快用完了",
        Notification.Kind.TIMED_OUT: "超时",
        Notification.Kind.CANCELLED: "已取消",
        Notification.Kind.CHAT: ("留言", "写道"),
        Notification.Kind.UNDO_ASKED: "收回",
        Notification.Kind.INVITED: "邀请你",
        "footer": "停止这类邮件",
        "game": "皇舆争霸 #",
    },
}


# Tournament emails need a tournament: tests/tournaments/test_emails.py checks them in both Chineses;
# matchmaking's (an expired seek, a rematch offer): tests/matchmaking/test_notices.py.
MATCHMAKING_KINDS = (Notification.Kind.SEEK_EXPIRED, Notification.Kind.REMATCH)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "kind", [k for k in Notification.Kind if k != Notification.Kind.TOURNAMENT and k not in MATCHMAKING_KINDS]
)
def test_each_email_kind(language, kind):
    ann, bo = _user(language), _user("en", "bo")
    game = make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"})
    data = {"position": 1, "game_over": False, "from": bo.pk, "text": "hi", "seat": 1, "request": 1, "by": bo.pk}
    n = Notification(user=ann, game=game, kind=kind, seq=game.last_seq, data=data)
    message = outbox.message_for(ann, outbox.content_for(n), kind)
    html = message.alternatives[0][0]
    labels = EMAIL_LABELS[language]
    for part in (message.subject, message.body, html):
        wanted = labels[kind] if isinstance(labels[kind], tuple) else (labels[kind],)
        assert any(label in part for label in wanted), (kind, part)
        assert labels["game"] in part
    for part in (message.body, html):
        assert labels["footer"] in part
        assert "Stop these emails" not in part and "You get this email" not in part
    assert f'lang="{language}"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_digest_email(language, monkeypatch):
    ann, bo = _user(language), _user("en", "bo")
    games = [make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"}) for _ in range(2)]
    Notification.objects.all().delete()  # the starts queued their own rows; keep only the digest's
    mail.outbox.clear()
    for g in games:
        Notification.objects.create(
            user=ann, game=g, kind=Notification.Kind.YOUR_MOVE, seq=g.last_seq, status=Notification.Status.DIGEST
        )
    monkeypatch.setattr("correspondence.outbox._still_your_move", lambda n: True)
    assert outbox.digest_send(user_id=ann.pk)
    (message,) = mail.outbox
    assert ("2 場遊戲在等你行動" if language == "zh-hant" else "2 场游戏在等你行动") in message.subject
    assert EMAIL_LABELS[language]["game"] in message.body


# Engine refusals ---------------------------------------------------------------------


def test_engine_refusals_are_translated_by_code_with_their_details():
    with translation.override("zh-hant"):
        assert refusal_text("You have no Smithy in your hand.", "not_in_hand") == "你的手牌中沒有 鐵匠。"
        assert refusal_text("Gold costs $6; you have $3.", "too_expensive") == "金幣 要價 $6；你只有 $3。"
        assert refusal_text("C7-C8 already has a border.", "border_taken") == "C7-C8 已經有邊界了。"
        # An unknown wording of a known code: the code's general sentence.
        assert refusal_text("It is not your turn: it is player 2's turn.", "not_your_turn") == "現在不是你的回合。"
        assert refusal_text("Something new.", "new_code") == "規則不允許這一步。"
        # Domaine's desertion refusal, as versions 1 and 2 word it (each names its own condition).
        v1 = "The domain of the castle on C3 shares no edge with a domain of yours that holds one of your knights."
        assert refusal_text(v1, "no_receiving_domain") == "C3 城堡的領域沒有與你任何一個有你騎士的領域相鄰。"
        v2 = "No domain of yours shares an edge with the domain of the castle on C3."
        assert refusal_text(v2, "no_receiving_domain") == "你沒有任何領域與 C3 城堡的領域相鄰。"
    with translation.override("zh-hans"):
        assert refusal_text("The Gold pile is empty.", "empty_pile") == "金币 这一叠已经空了。"
    with translation.override("en"):
        assert refusal_text("The Gold pile is empty.", "empty_pile") == "The Gold pile is empty."


def test_a_refused_move_shows_the_reason_in_the_readers_language(client):
    ann, bo = _user("zh-hant"), _user("en", "bo")
    game = make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"})
    mover = ann if game.to_act == [game.seats.get(user=ann).position] else bo
    client.force_login(mover)
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"act": "buy", "card": "Province", "seq": game.last_seq},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 422
    text = response.content.decode()
    if mover is ann:
        assert "領地 要價 $8" in text
    else:
        assert "Province costs $8" in text


def test_every_refusal_code_of_the_engines_has_a_translation():
    """A code added to an engine without a sentence in games.i18n would show Chinese readers the fallback."""
    source = "".join(p.read_text() for p in Path(settings.BASE_DIR, "games", "engine").glob("*/*.py"))
    # The engines raise IllegalMove(sentence, code) and return (sentence, code) refusals.
    codes = set(re.findall(r'[.:)}]"\s*,\s*"([a-z_]+)"', source))
    assert {"not_in_hand", "too_expensive", "border_taken", "wrong_count"} <= codes
    assert codes - {code for code, _pattern, _message in all_refusals()} == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_domaine_log_sentences_built_from_parts_end_with_the_chinese_full_stop(language):
    """A castle bought for gold and a play with a forest bonus are sentences put together from parts:
    in Chinese they end in 。 and their note in brackets follows without a space."""
    from games.domaine.eventtext import describe as describe_domaine

    with translation.override(language):
        castle = describe_domaine({"kind": "place_castle", "at": "J1", "knight": "J2", "paid": 1}, "Ann")
        play = describe_domaine(
            {"kind": "play", "card": "A4", "choice": "borders", "borders": ["F10-G10"], "extra": 2}, "Ann"
        )
    for text in (castle, play):
        assert text.endswith("。") and not re.search(r"[.]$| （", text), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_account_email_pages_say_email_in_chinese_as_the_rest_of_the_site(client, language):
    # allauth's own zh catalogues say "Email地址" where the site says 电子邮件 / 電子郵件.
    client.force_login(_user(language))
    text = _text(client.get(reverse("account_email")))
    assert "Email" not in text.replace("email", ""), re.findall(r".{0,12}Email.{0,12}", text)
    assert {"zh-hans": "电子邮件地址", "zh-hant": "電子郵件地址"}[language] in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", ["games:new", "matchmaking:bans"])
def test_the_kingdom_card_pickers_name_the_cards_in_the_readers_language(client, language, page):
    """The new-game form's 10-card pick and the kingdom bans list the cards as the board and log name them."""
    client.force_login(_user(language))
    text = _text(client.get(reverse(page)))
    throne = CARDS["Throne Room"]
    assert (throne.zh_hant if language == "zh-hant" else throne.zh_hans) in text
    assert "Throne Room" not in text and "Cellar" not in text
