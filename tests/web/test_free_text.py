"""Users' free text (display names, chat, reports, moderators' reasons) holds no line breaks or bidi tricks.

Refused at input with a form error; removed on output for rows saved
before the rule (``website.text``), so another player's email cannot gain
an injected line.
"""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from correspondence import services as outbox
from correspondence.models import Notification
from games.models import ChatMessage
from moderation.forms import GameActionForm, ReasonForm, ReportCloseForm, ReportForm
from moderation.models import Report
from tests.conftest import make_game
from tests.factories import PASSWORD, UserFactory
from website.text import one_line, unsafe_characters, validate_multiline, validate_one_line

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
#: What the attack run typed, and its cousins: CR LF, NEL, LINE SEPARATOR, RLO, a bidi isolate, ZWSP.
INJECTIONS = ["Eve\r\nSubject: injected", "Eve\nx", "Eve\x85x", "Eve\u2028x", "Eve\u202ex", "Eve\u2066x", "Eve\u200bx"]
#: Must stay as typed: CJK, emoji with variation selector and ZWJ sequences, Persian with ZWNJ, accents.
KEPT = ["王小明", "Zoë 🎲", "❤️", "👨‍👩‍👧 family", "می‌خواهم", "ｆｕｌｌ　ｗｉｄｔｈ"]


# ---------------------------------------------------------------------------
# The rule


@pytest.mark.parametrize("text", INJECTIONS)
def test_the_rule_refuses_line_breaks_and_invisible_controls(text):
    with pytest.raises(Exception, match="not allowed here"):
        validate_one_line(text)
    assert "\n" not in one_line(text) and "\u202e" not in one_line(text) and "\u2028" not in one_line(text)


@pytest.mark.parametrize("text", KEPT)
def test_the_rule_keeps_every_script_and_emoji(text):
    validate_one_line(text)
    validate_multiline(text)
    assert one_line(text) == text


def test_multi_line_text_keeps_its_lines_and_tabs_but_not_the_rest():
    validate_multiline("First line\r\nsecond\n\tindented")
    assert unsafe_characters("a\rb", multiline=True) == ["\r"]  # a lone CR is not a line break we keep
    with pytest.raises(Exception, match=r"U\+202E"):
        validate_multiline("ok\n\u202eevil")


def test_a_line_break_shows_as_a_space():
    assert one_line("Eve\r\nSubject: injected") == "Eve Subject: injected"


# ---------------------------------------------------------------------------
# Display names


@pytest.mark.parametrize("name", INJECTIONS)
def test_the_settings_page_refuses_a_display_name_with_control_characters(client, player, name):
    client.force_login(player)
    response = client.post(reverse("accounts:settings"), {"display_name": name, "language": "", "time_zone": "UTC"})
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert "Line breaks and invisible control characters are not allowed here" in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == ""


def test_the_settings_page_keeps_a_name_in_any_script(client, player):
    client.force_login(player)
    response = client.post(
        reverse("accounts:settings"), {"display_name": "👨‍👩‍👧 王小明", "language": "", "time_zone": "UTC"}
    )
    assert response.status_code == HTTPStatus.FOUND
    player.refresh_from_db()
    assert player.shown_name == "👨‍👩‍👧 王小明"


def test_a_name_saved_before_the_rule_shows_without_its_control_characters(player):
    User.objects.filter(pk=player.pk).update(display_name="Eve\r\nSubject: injected\u202e")
    player.refresh_from_db()
    assert player.shown_name == "Eve Subject: injected"
    User.objects.filter(pk=player.pk).update(display_name="\r\n\u202e")
    player.refresh_from_db()
    assert player.shown_name == player.username  # nothing visible left: the username


def test_another_players_email_gains_no_line_from_an_old_display_name(settings):
    """The attack run's case: a name with CR LF made a new line in the plain-text part of the email."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    ann, eve = UserFactory.create(), UserFactory.create()
    game = make_game(ann, eve)
    User.objects.filter(pk=eve.pk).update(display_name="Eve\r\nSubject: injected")
    n = Notification(user=ann, game=game, kind=Notification.Kind.YOUR_MOVE, seq=game.last_seq, data={})
    message = outbox.message_for(ann, outbox.content_for(n), Notification.Kind.YOUR_MOVE)
    assert not any(line.startswith("Subject:") for line in message.body.splitlines())
    assert "(with Eve Subject: injected)" in message.body
    mail.outbox.clear()


def test_sign_up_refuses_a_username_with_control_characters(client):
    """Usernames go through Django's username validator (letters, digits and @.+-_ only): checked, not assumed."""
    for username in ["eve\u202e", "eve\r\nx", "eve\u200b"]:
        response = client.post(
            reverse("account_signup"),
            {"username": username, "email": "eve@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == HTTPStatus.OK  # the form again, with its error
        assert response.context["form"].errors.get("username")
    assert not User.objects.filter(email="eve@example.com").exists()


# ---------------------------------------------------------------------------
# Chat, reports, moderators' reasons


@pytest.mark.parametrize("text", INJECTIONS)
def test_a_chat_line_with_control_characters_is_refused(client, game, player, text):
    client.force_login(player)
    response = client.post(reverse("games:chat", kwargs={"game_id": game.pk}), {"text": text}, **HX)
    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert "Line breaks and invisible control characters are not allowed here" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_an_old_chat_line_shows_without_its_bidi_override(client, game, player, opponent):
    ChatMessage.objects.create(game=game, user=opponent, text="gg\u202e lol\r\nspoof")
    client.force_login(player)
    html = client.get(reverse("games:detail", kwargs={"game_id": game.pk})).content.decode()
    assert "gg lol spoof" in html
    assert "\u202e" not in html


def test_an_old_chat_line_adds_no_line_to_the_chat_email(player, opponent):
    game = make_game(player, opponent)
    n = Notification(
        user=player, game=game, kind=Notification.Kind.CHAT, seq=1, data={"from": opponent.pk, "text": "hi\nSubject: x"}
    )
    assert "Subject: x" not in outbox.content_for(n)["lines"][-1].splitlines()


def test_a_report_comment_keeps_its_lines_but_not_a_bidi_override():
    assert ReportForm({"reason": Report.Reason.choices[0][0], "comment": "He said:\r\n  rude"}).is_valid()
    form = ReportForm({"reason": Report.Reason.choices[0][0], "comment": "rude \u202e"})
    assert not form.is_valid()
    assert "Invisible control characters are not allowed here (found U+202E)." in form.errors["comment"]


@pytest.mark.parametrize(
    "form",
    [
        lambda reason: ReasonForm({"reason": reason}),
        lambda reason: ReportCloseForm({"status": Report.Status.RESOLVED, "note": reason}),
        lambda reason: GameActionForm({"action": "abort", "reason": reason}),
    ],
)
def test_a_moderators_reason_that_reaches_an_email_refuses_control_characters(form):
    assert form("Spam in chat.\nSecond warning.").is_valid()
    bad = form("Spam\x1b[2J")
    assert not bad.is_valid()
    assert "found U+001B" in str(bad.errors)
