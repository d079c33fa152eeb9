"""schemathesis against /api/v1/openapi.json: no 500, every response as the schema says (status, type, body).

Every operation is called with a token holding every scope, with bodies and
parameters schemathesis generates from the schema (valid and invalid ones);
half the generated game ids are replaced by a real running game's, so the
game operations are exercised beyond their 404. Bounded (``MAX_EXAMPLES``
per operation) to keep the run to about a minute.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from games import services
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.factories import UserFactory

MAX_EXAMPLES = 15
#: Not checked: that schema-violating requests are refused (unknown query parameters are ignored by design,
#: so a newer client may send more; and the token header this test sends undoes schemathesis' "no
#: Authorization" mutation, which its ``ignored_auth`` check covers instead), and that schema-valid
#: requests are accepted (a move the rules refuse, an unknown player to invite, are schema-valid and 422 by
#: design: a schema cannot state the rules of the games).
EXCLUDED = [negative_data_rejection, positive_data_acceptance]


@pytest.fixture
def caller(db: None) -> dict[str, Any]:
    """A token for a player in a running game and an open one, and that game's id."""
    me, other = UserFactory(username="schemer"), UserFactory(username="rival")
    # Real games (the schema describes the site's games, not the tests' fake one).
    running = make_game(me, other, kind="dominion", options={"kingdom": "First Game"})
    services.game_create(  # an open game to join
        creator=other,
        kind="domaine",
        options={},
        players=2,
        rated=False,
        private=False,
        time_per_move=timedelta(days=1),
    )
    client = api_client(me)
    return {"headers": client.headers, "game": running.pk}


@pytest.fixture
def connections_kept() -> Any:
    """Keep the database connection open between requests, as Django's test client does.

    schemathesis calls the WSGI application itself, whose ``request_finished``
    would close the connection (and with it the test's transaction) on PostgreSQL.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.usefixtures("connections_kept")
def test_the_api_keeps_its_schema(caller: dict[str, Any]) -> None:
    from website.wsgi import application  # the site itself, through WSGI: no server

    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 14
    failures: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(mode))
            @settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def check(case: Any) -> None:
                game_id = (case.path_parameters or {}).get("game_id")
                if isinstance(game_id, int) and game_id % 2 == 0:
                    case.path_parameters["game_id"] = caller["game"]  # a real game, beyond the 404
                case.call_and_validate(headers=caller["headers"], excluded_checks=EXCLUDED)

            try:
                check()
            except Exception as exc:  # collect them all: one report for every operation that fails
                failures.append(f"{operation.label} ({mode.value}): {exc}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.usefixtures("connections_kept")
def test_the_api_keeps_its_schema_across_calls(caller: dict[str, Any]) -> None:
    """Stateful: sequences of calls, each using what an earlier answer returned (a created game's id, ...).

    schemathesis infers the links between operations (a game's ``id`` feeds
    ``{game_id}``), so it creates games, then joins, reads, moves and chats in them.
    """
    from website.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)

    @schema.auth()
    class Token:
        """The caller's token on every generated call (schemathesis' ``ignored_auth`` still tries without)."""

        def get(self, case: Any, context: Any) -> str:
            return caller["headers"]["Authorization"]

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": data}

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, excluded_checks=EXCLUDED)

    Workflow.run(
        settings=settings(
            max_examples=MAX_EXAMPLES,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    )
