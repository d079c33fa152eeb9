"""A bot account (the API) and rated tournaments: tournament games must follow the site's rule for rated games."""

from __future__ import annotations

import pytest

from accounts.services import user_make_bot
from tests.factories import UserFactory
from tests.tournaments.conftest import make_tournament, moderator  # noqa: F401 - the fixture
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_bot_account_cannot_enter_a_rated_tournament_with_people(moderator, player, settings):  # noqa: F811
    settings.HERALD_RATE_BOT_ACCOUNTS = False
    robo = user_make_bot(user=UserFactory.create(username="robo"))
    tournament = make_tournament(moderator, rated=True)
    services.tournament_signup(tournament_id=tournament.pk, user=player)
    assert services.signup_refusal(tournament, robo), "a rated tournament would pair the bot with people, rated"
    settings.HERALD_RATE_BOT_ACCOUNTS = True
    assert services.signup_refusal(tournament, robo) == ""
