"""Every email has an HTML alternative beside its plain text: a heading, the text, a button-like link,
and (where the text has one) the unsubscribe link; in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from correspondence import services as outbox
from correspondence.models import Notification
from moderation import trail as moderation
from tests.conftest import make_game
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://herald.example"
    mail.outbox.clear()


def html_of(message) -> str:
    [(html, mime)] = message.alternatives
    assert mime == "text/html"
    return html


def heading(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found is not None, "the email has no heading"
    return found.group(1).strip()


def button_links(html: str) -> list[str]:
    """The hrefs of the links drawn as buttons."""
    return re.findall(r'<a href="([^"]+)" style="display: inline-block;', html)


def sign_up(client, **extra):
    return client.post(
        reverse("account_signup"),
        {"username": "dora", "email": "dora@example.com", "password1": PASSWORD, "password2": PASSWORD},
        **extra,
    )


def test_the_verification_email_has_a_button_to_confirm(client):
    sign_up(client)
    [message] = mail.outbox
    url = re.search(r"https?://\S+/accounts/confirm-email/\S+", message.body).group(0)
    html = html_of(message)
    assert heading(html) == "Confirm your email address"
    assert button_links(html) == [url]
    assert "Confirm my email address" in html and "dora" in html
    assert "Thank you for playing on Herald." in html
    assert '<html lang="en">' in html
    # The plain text says the same as the HTML, not allauth's stock wording.
    assert "Confirm that this address is yours" in message.body and "You're receiving this email" not in message.body


def test_the_verification_email_in_chinese(client):
    sign_up(client, HTTP_ACCEPT_LANGUAGE="zh-TW,zh;q=0.9")
    html = html_of(mail.outbox[0])
    assert "確認我的電子郵件地址" in mail.outbox[0].body
    assert heading(html) == "確認你的電子郵件地址"
    assert "確認我的電子郵件地址" in html and "Confirm my email address" not in html


def test_password_reset_and_unknown_address_emails(client):
    UserFactory.create(username="erin", email="erin@example.com")
    client.post(reverse("account_reset_password"), {"email": "erin@example.com"})
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    reset, unknown = mail.outbox
    url = re.search(r"https?://\S+/accounts/password/reset/key/\S+", reset.body).group(0)
    html = html_of(reset)
    assert heading(html) == "Reset your password"
    assert button_links(html) == [url] and "Choose a new password" in html
    assert "your username is erin" in html
    html = html_of(unknown)
    assert heading(html) == "No account with this address" and "nobody@example.com" in html


def test_a_turn_email_has_a_heading_a_button_and_the_unsubscribe_link():
    ann, bo = UserFactory.create(), UserFactory.create()
    game = make_game(ann, bo, kind="dominion", options={"kingdom": "First Game"})
    n = Notification(user=ann, game=game, kind=Notification.Kind.YOUR_MOVE, seq=game.last_seq, data={})
    content = outbox.content_for(n)
    message = outbox.message_for(ann, content, Notification.Kind.YOUR_MOVE)
    html = html_of(message)
    assert heading(html) == content["subject"]
    assert button_links(html) == [f"https://herald.example/games/{game.pk}/"]
    assert "Open the game" in html
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe in message.body and f'href="{unsubscribe}"' in html


def test_a_moderation_notice_is_sent_with_html_too(django_capture_on_commit_callbacks):
    user = UserFactory.create(language="zh-hans")
    with django_capture_on_commit_callbacks(execute=True):
        moderation.tell([user], lambda: "Mind your language.")
    [message] = mail.outbox
    assert message.body == "Mind your language."
    html = html_of(message)
    assert heading(html) == message.subject.removeprefix("[Herald] ")
    assert "Mind your language." in html and '<html lang="zh-hans">' in html
    assert button_links(html) == ["https://herald.example/"] and "打开 Herald" in html


def test_the_verification_email_subject_is_in_sentence_case_as_the_site_writes(client):
    """allauth's "Please Confirm Your Email Address" reads as the rest of the site does (the site's en
    catalogue of allauth's headings, scripts/allauth_terms.py)."""
    sign_up(client)
    assert mail.outbox[0].subject == "[Herald] Please confirm your email address"
