"""The browser's time zone becomes the new account's at sign-up."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("zone", "javascript"), [("Asia/Taipei", True), ("America/New_York", True), ("Asia/Taipei", False)]
)
def test_sign_up_takes_the_browsers_time_zone(browser, live_server, zone, javascript):
    context = browser.new_context(timezone_id=zone, java_script_enabled=javascript)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.fill("input[name=email]", "zoned@example.com")
    page.fill("input[name=username]", "zoned")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_load_state()
    # without JavaScript nothing reports the zone: UTC, changeable in the settings
    assert User.objects.get(username="zoned").time_zone == (zone if javascript else "UTC")
    context.close()
