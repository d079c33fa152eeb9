"""Sign-up, sign-in and sign-out through django-allauth, and the language switcher."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_needs_email_verification(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == HTTPStatus.FOUND
    assert User.objects.filter(username="dora").exists()
    assert len(mail.outbox) == 1
    assert "dora@example.com" in mail.outbox[0].to
    # Not signed in until the address is confirmed.
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("login", ["erin", "erin@example.com"])
def test_sign_in_by_username_or_email(client, login):
    UserFactory.create(username="erin")
    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})
    assert response.status_code == HTTPStatus.FOUND
    assert client.session["_auth_user_id"]


def test_the_sign_in_field_says_it_takes_a_username_or_an_email(client):
    page = client.get(reverse("account_login")).content.decode()
    assert "Username or email" in page and ">Login" not in page


def test_allauth_pages_use_the_site_layout(client):
    response = client.get(reverse("account_login"))
    assert response.status_code == HTTPStatus.OK
    assert b'class="site-header"' in response.content
    assert b"htmx-2" in response.content


def test_sign_out_is_a_post(client):
    client.force_login(UserFactory.create())
    response = client.post(reverse("account_logout"))
    assert response.status_code == HTTPStatus.FOUND
    assert "_auth_user_id" not in client.session


def test_language_switcher(client):
    response = client.post(reverse("set_language"), {"language": "zh-hant", "next": "/"})
    assert response.status_code == HTTPStatus.FOUND
    response = client.get("/")
    assert response.headers["Content-Language"] == "zh-hant"


@pytest.mark.parametrize(
    ("name", "title"),
    [("account_signup", "Sign up"), ("account_login", "Sign in"), ("account_reset_password", "Password reset")],
)
def test_allauth_pages_are_titled_in_sentence_case_like_the_site(client, name, title):
    page = client.get(reverse(name)).content.decode()
    assert re.search(rf"<title>\s*{title}\s*·", page), re.search(r"<title>.*?</title>", page, re.S)
    assert re.search(rf"<h1>\s*{title}\s*</h1>", page)


@pytest.mark.parametrize("name", ["account_reset_password", "account_email_verification_sent", "account_login"])
def test_account_pages_that_say_contact_us_say_where(client, settings, name):
    """allauth's pages tell people to "contact us" when an email does not come: each says at which address."""
    settings.CONTACT_EMAIL = "help@herald.example"
    page = client.get(reverse(name)).content.decode()
    assert '<a href="mailto:help@herald.example">help@herald.example</a>' in page


def test_the_contact_address_in_chinese(client, settings):
    settings.CONTACT_EMAIL = "help@herald.example"
    page = client.get(reverse("account_reset_password"), HTTP_ACCEPT_LANGUAGE="zh-TW").content.decode()
    assert "請寫信到" in page and "mailto:help@herald.example" in page


def test_a_contact_address_given_with_a_name_is_shown_and_signed_as_the_bare_address():
    """HERALD_CONTACT_EMAIL written like DEFAULT_FROM_EMAIL ("Name <address>"): the pages' mailto link and
    Web Push's contact (VAPID's subject, which push services check) take the address alone."""
    probe = "from django.conf import settings\nprint(settings.CONTACT_EMAIL, settings.VAPID_SUBJECT)\n"
    env = {
        **os.environ,
        "HERALD_CONTACT_EMAIL": "Herald help <help@herald.example>",
        "DJANGO_SETTINGS_MODULE": "website.settings",
    }
    env.pop("VAPID_SUBJECT", None)
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], env=env, cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["help@herald.example", "mailto:help@herald.example"], out.stdout + out.stderr
