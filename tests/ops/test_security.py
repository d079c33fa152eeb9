"""Security headers, cookies, CSRF, no inline scripts or styles, and `check --deploy` with production settings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from http import HTTPStatus
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

#: Environment of a production start: DEBUG off and a real secret.
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": "test-only-" + "k3y-" * 14,
    "ALLOWED_HOSTS": "herald.example",
    "DJANGO_SETTINGS_MODULE": "website.settings",
}


def test_pages_carry_the_security_headers(client):
    response = client.get("/")
    assert response.status_code == HTTPStatus.OK
    csp = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";"))
    assert csp["script-src"] == "'self'"
    assert csp["style-src"] == "'self'"
    assert csp["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_templates_have_no_inline_script_or_style():
    # Emails are not web pages: mail clients need inline styles and never see the CSP.
    roots = [Path(settings.BASE_DIR) / "templates", *Path(settings.BASE_DIR).glob("*/templates")]
    offenders = []
    for root in roots:
        for path in root.rglob("*.html"):
            if "email" in path.parts:
                continue
            text = path.read_text()
            if re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text) or re.search(r"\sstyle=", text) or "<style" in text:
                offenders.append(str(path.relative_to(settings.BASE_DIR)))
            if re.search(r"\son[a-z]+=|hx-on|javascript:", text):
                offenders.append(str(path.relative_to(settings.BASE_DIR)))
    assert offenders == []


def test_htmx_adds_no_inline_style_and_sends_the_csrf_token(client):
    html = client.get("/").content.decode()
    assert '"includeIndicatorStyles":false' in html
    assert re.search(r'<body hx-headers=\'\{"X-CSRFToken": "[^"]+"\}\'', html)


def test_posts_without_a_csrf_token_are_refused(player, opponent):
    from tests.conftest import make_game

    game = make_game(player, opponent)
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(f"/games/{game.pk}/move", {"act": "add", "seq": game.last_seq}, HTTP_HX_REQUEST="true")
    assert response.status_code == HTTPStatus.FORBIDDEN


def test_session_cookie_is_http_only_and_same_site(client, player):
    response = client.post("/accounts/login/", {"login": player.username, "password": PASSWORD})
    assert response.status_code == HTTPStatus.FOUND
    cookie = response.cookies["sessionid"]
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY_FILE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    full.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        env=full,
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        check=False,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings():
    proc = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


def test_production_settings_are_strict():
    code = (
        "from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_HSTS_SECONDS >= 31536000, "
        "s.STORAGES['staticfiles']['BACKEND'].startswith('whitenoise'), s.LOG_FORMAT)"
    )
    proc = run_manage("shell", "-v", "0", "-c", code, env=PRODUCTION_ENV)
    assert proc.stdout.split() == ["True", "True", "True", "True", "True", "json"], proc.stderr
