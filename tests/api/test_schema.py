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
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from schemathesis.generation.hypothesis.builder import HypothesisTestConfig, HypothesisTestMode, create_test
from schemathesis.specs.openapi.checks import negative_data_rejection, positive_data_acceptance

from games import services
from tests.api.conftest import api_client
from tests.conftest import make_game
from tests.factories import UserFactory

MAX_EXAMPLES = 15
#: Every check is on. Schema-valid requests may still be refused with 422: the rules (a move the rules refuse,
#: an unknown player to invite, a kingdom that is no set) are no part of a schema.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]


def _integral_float(value: Any) -> bool:
    """Whether ``value`` holds a float with an integral value (``2.0``) anywhere."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_integral_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_integral_float(v) for v in value)
    return False


def _exempt(case: Any) -> list[Any]:
    """The checks a case is exempt from, each for a documented reason.

    - A query parameter the operation does not have: ignored by design (a
      newer client may send more), so such a request need not be refused.
    - ``2.0`` where an integer goes: JSON Schema counts it an integer, the
      API (strict bodies, issue 27) does not, so it need not be accepted.
    - A path parameter a stateful link could not fill (the id in a 204's
      empty body comes as ``None``): not a valid request, so it need not be accepted.
    """
    exempt = []
    known = {p.name for p in case.operation.query}
    if set(case.query or {}) - known:
        exempt.append(negative_data_rejection)
    if (
        _integral_float(case.body)
        or _integral_float(case.query)
        or any(v is None for v in (case.path_parameters or {}).values())
    ):
        exempt.append(positive_data_acceptance)
    return exempt


def _configure(schema: Any) -> Any:
    """Every check on, with what a schema-valid request may be answered."""
    schema.config.checks.positive_data_acceptance.expected_statuses = ACCEPTED
    return schema


@pytest.fixture
def caller(db: None) -> dict[str, Any]:
    """A token for a player in a running game and an open one, and that game's id."""
    me, other = UserFactory.create(username="schemer"), UserFactory.create(username="rival")
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

    schema = _configure(schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application))
    results = list(schema.get_all_operations())
    assert all(isinstance(r, Ok) for r in results), [r for r in results if not isinstance(r, Ok)]
    operations = [r.ok() for r in results if isinstance(r, Ok)]
    assert len(operations) >= 14
    failures: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(mode))
            @settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
            def check(case: Any) -> None:
                game_id = (case.path_parameters or {}).get("game_id")
                if case.meta.generation.mode.is_positive and isinstance(game_id, int) and game_id % 2 == 0:
                    case.path_parameters["game_id"] = caller["game"]  # a real game, beyond the 404
                # The token, unless the case sends an Authorization of its own (a schema-violating one).
                own = {k.lower() for k in (case.headers or {})}
                case.call_and_validate(
                    headers={} if "authorization" in own else caller["headers"], excluded_checks=_exempt(case)
                )

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

    schema = _configure(schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application))

    @schema.auth()
    class Token:
        """The caller's token on every generated call (schemathesis' ``ignored_auth`` still tries without)."""

        def get(self, case: Any, context: Any) -> str:
            return caller["headers"]["Authorization"]

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": data}

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            # Each scenario starts from the same rows: hypothesis replays a scenario's draws, and draws that
            # depend on what earlier scenarios created make it stop with "Inconsistent data generation".
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            # Not "schema-valid request rejected": in a stateful run schemathesis sends bodies its own schema
            # forbids as valid ones (a NUL in a kingdom item, an empty chat line against the pattern that
            # needs a visible character; seen in CI and locally, positive mode only or not; its issue #2983 and
            # kin). The stateless test above keeps that check on, with every other.
            case.validate_response(response, excluded_checks=[*_exempt(case), positive_data_acceptance])

    Workflow.run(
        settings=settings(
            max_examples=MAX_EXAMPLES,
            stateful_step_count=6,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            database=None,
            # No shrinking: the calls change the database, so a replay of a failing run differs and hypothesis
            # reports only "Inconsistent data generation" (seen twice); unshrunk, the failing call itself is shown.
            phases=[Phase.explicit, Phase.generate],
        )
    )


@pytest.mark.usefixtures("connections_kept")
def test_schema_violating_requests_are_refused(caller: dict[str, Any]) -> None:
    """schemathesis' ST201 (``negative_data_rejection``) on every case of its coverage phase.

    The coverage phase derives its cases from the schema itself, each
    breaking one constraint (a string or a number where a boolean goes, a
    float for an integer, a field the body does not have, a missing one,
    a value out of range), so every field is tried, not just a sample.
    Issue 27: ``"private": "yes"`` (or ``1``, ``"on"``, ``1.0``) made a
    private game; the request bodies are strict now (``api.schemas.StrictIn``).
    Unknown query parameters stay ignored by design (a newer client may send
    more); the check itself lets those pass.
    """
    from website.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", application)
    failures: list[str] = []
    calls = 0
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operation = result.ok()

        def check(case: Any) -> None:
            nonlocal calls
            game_id = (case.path_parameters or {}).get("game_id")
            if isinstance(game_id, int) and game_id % 2 == 0:
                case.path_parameters["game_id"] = caller["game"]  # a real game, beyond the 404
            response = case.call(headers=caller["headers"])
            calls += 1
            try:
                case.validate_response(response, checks=[negative_data_rejection])
            except Exception as exc:  # collect them all: one report for every case accepted
                failures.append(f"{case.operation.label}: {exc} (body {case.body!r})")

        create_test(
            operation=operation,
            test_func=check,
            config=HypothesisTestConfig(
                project=schema.config,
                modes=[HypothesisTestMode.COVERAGE],
                seed=27,
                settings=settings(deadline=None, suppress_health_check=list(HealthCheck), database=None),
            ),
        )()
    assert calls > 300, calls
    assert not failures, "\n\n".join(failures)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["yes", 1, "on", 1.0, "true", None])
def test_a_boolean_is_true_or_false_and_nothing_else(value: Any) -> None:
    me = UserFactory.create(username="strict")
    client = api_client(me)
    for field in ("private", "rated"):
        response = client.post("/games", {"kind": "domaine", field: value})
        assert response.status_code == 400, (field, value, response.json())
        assert response.json()["code"] == "invalid_request"
        assert response.json()["errors"][0]["loc"][-1] == field
    assert client.post("/games", {"kind": "domaine", "privat": True}).status_code == 400, "a misspelt field"
    assert client.post("/games", {"kind": "domaine", "players": 2.0}).status_code == 400
    assert client.post("/games", {"kind": "domaine", "players": "2"}).status_code == 400
    made = client.post("/games", {"kind": "domaine", "private": False, "players": 2})
    assert made.status_code == 201 and made.json()["private"] is False
