"""Time zones from the browser at sign-up, zones named in emails, one date format per language (issue 23, item 6)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from accounts.models import User
from correspondence import outbox
from correspondence.models import Notification
from tests.accounts.conftest import finished_game
from tests.conftest import make_game, user_to_move
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def sign_up(client, username: str, **extra: str):
    data = {
        "email": f"{username}@example.com",
        "username": username,
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }
    return client.post(reverse("account_signup"), data)


@pytest.mark.parametrize(
    ("posted", "kept"),
    [("Asia/Taipei", "Asia/Taipei"), ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires")],
)
def test_sign_up_keeps_the_time_zone_the_browser_sent(client, posted, kept):
    sign_up(client, "zoned", time_zone=posted)
    assert User.objects.get(username="zoned").time_zone == kept


@pytest.mark.parametrize("posted", [None, "", "Mars/Olympus", "x" * 200])
def test_sign_up_without_a_known_zone_keeps_utc(client, posted):
    sign_up(client, "plain", **({} if posted is None else {"time_zone": posted}))
    assert User.objects.get(username="plain").time_zone == "UTC"


def test_the_sign_up_form_carries_the_hidden_zone_field(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert re.search(r'<input type="hidden" name="time_zone"[^>]*data-browser-time-zone', page), page


def test_an_emails_deadline_names_its_zone(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = make_game(UserFactory.create(time_zone="Asia/Taipei"), UserFactory.create(time_zone="Asia/Taipei"))
    user = user_to_move(game)
    seat = game.seats.get(user=user)
    n = Notification(user=user, game=game, kind=Notification.Kind.YOUR_MOVE, seq=seat.clock_seq)
    lines = " ".join(outbox.content_for(n)["lines"])
    local = seat.deadline.astimezone(ZoneInfo("Asia/Taipei"))
    assert f"{local:%H:%M} (Asia/Taipei)" in lines, lines
    mail.outbox.clear()


@pytest.mark.parametrize("language", ["en", "zh-hans", "zh-hant"])
def test_each_language_has_one_date_format_and_one_date_and_time_format(language):
    moment = datetime(2026, 12, 2, 13, 12, tzinfo=UTC)
    with translation.override(language):
        day = {date_format(moment, f) for f in ("DATE_FORMAT", "SHORT_DATE_FORMAT")}
        stamp = {date_format(moment, f) for f in ("DATETIME_FORMAT", "SHORT_DATETIME_FORMAT")}
    assert len(day) == 1 and len(stamp) == 1, (day, stamp)
    assert stamp.pop().startswith(day.pop())


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_profile_shows_its_dates_in_one_format(client, language):
    owner = UserFactory.create(language=language, date_joined=datetime(2026, 3, 4, 9, 0, tzinfo=UTC))
    other = UserFactory.create()
    for days in range(3):
        finished_game([owner, other], [1, 2], finished=datetime(2026, 11, 20, 8, 30, tzinfo=UTC) + timedelta(days))
    client.force_login(owner)
    html = client.get(reverse("accounts:profile", args=[owner.username])).content.decode()
    text = re.sub(r"<[^>]+>", " ", html)
    # none of Django's other formats: 12/02/2026, 2026-12-02, "Dec. 2"
    assert not re.search(r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b[A-Z][a-z]{2}\. \d", text), text
    with translation.override(language):
        assert date_format(owner.date_joined, "DATE_FORMAT") in text
        assert date_format(datetime(2026, 11, 22, 8, 30, tzinfo=UTC), "DATETIME_FORMAT") in text
