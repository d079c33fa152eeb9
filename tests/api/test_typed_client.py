"""A client generated from the served schema plays both games against the site's bots (issue 30).

``datamodel-code-generator`` turns ``/api/v1/openapi.json`` into pydantic
models, as an outside developer would. The client below knows nothing else:
every answer is parsed into its generated type (which refuses unknown keys
and values outside the schema's enumerations), and every move it sends is
one of the generated move types, chosen from the typed ``legal`` list or, in
Domaine, built part by part from ``plays`` and ``POST .../choices``. It
plays a Dominion game and a Domaine game to their end against the site's
bots (which move after each commit, so the database is transactional here).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from types import ModuleType
from typing import Any

import pytest
from django.test import Client

from tests.api.conftest import api_client
from tests.factories import UserFactory

#: Requests one game may take before the test gives up (a game that never ends is a failure).
MAX_REQUESTS = 3000


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any) -> ModuleType:
    """The models generated from the schema the site serves."""
    folder = tmp_path_factory.mktemp("client")
    with django_db_blocker.unblock():
        schema = Client().get("/api/v1/openapi.json")
    assert schema.status_code == 200
    (folder / "openapi.json").write_bytes(schema.content)
    out = folder / "herald_models.py"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "datamodel_code_generator",
            "--input",
            str(folder / "openapi.json"),
            "--input-file-type",
            "openapi",
            "--output-model-type",
            "pydantic_v2.BaseModel",
            "--target-python-version",
            "3.11",
            "--formatters",
            "black",
            "--output",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    spec = importlib.util.spec_from_file_location("herald_models", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["herald_models"] = module
    spec.loader.exec_module(module)
    return module


class TypedClient:
    """The API through the generated types: JSON in and out, parsed into models."""

    def __init__(self, models: ModuleType, raw: Any) -> None:
        self.m = models
        self.raw = raw

    def state(self, game_id: int) -> Any:
        """``GET /games/{id}`` as a ``GameState`` (a Dominion or a Domaine state)."""
        response = self.raw.get(f"/games/{game_id}")
        assert response.status_code == 200, response.content
        return self.m.GameState.model_validate(response.json()).root

    def move(self, game_id: int, move: Any, seq: int) -> Any:
        """``POST /games/{id}/moves`` with a generated move; the new state, or None when the game moved on."""
        body = self.m.MoveIn(move=self.m.Move(move), expected_seq=seq)
        response = self.raw.post(
            f"/games/{game_id}/moves", json.loads(body.model_dump_json(by_alias=True, exclude_unset=True))
        )
        if response.status_code == 409:
            return None
        assert response.status_code == 200, (move, response.content)
        return self.m.GameState.model_validate(response.json()).root

    def choices(self, game_id: int, draft: Any) -> Any:
        """``POST /games/{id}/choices`` with a ``DomaineDraft``: the next ``Choices``."""
        body = self.m.ChoicesIn(move=draft)
        response = self.raw.post(
            f"/games/{game_id}/choices", json.loads(body.model_dump_json(by_alias=True, exclude_unset=True))
        )
        assert response.status_code == 200, (draft, response.content)
        return self.m.Choices.model_validate(response.json())


PREFERRED = ("Province", "Gold", "Laboratory", "Market", "Smithy", "Silver")


def dominion_move(m: ModuleType, state: Any, *, buy: bool = True) -> Any:
    """Big Money from the typed legal moves: answers first, then treasures, then the best buy.

    With ``buy`` false it ends its turn without buying (after a buy the site ends the turn by itself,
    so a client that always buys might never send End turn)."""
    legal = [x.root for x in state.legal]  # each a union of the game's move types, wrapped
    assert isinstance(state.decision, m.DominionDecision) and isinstance(state.view, m.DominionView)
    if state.decision.kind.value != "turn":
        return legal[0]  # an answer (a discard, a gain, yes or no): the first legal one
    actions = [x for x in legal if isinstance(x, m.DominionPlay) and x.card.value in ("Smithy", "Market", "Laboratory")]
    if actions and state.view.turn.phase.value == "action":
        return actions[0]
    treasures = [x for x in legal if isinstance(x, m.DominionPlayTreasures)]
    if treasures:
        return treasures[0]
    buys = {x.card.value: x for x in legal if isinstance(x, m.DominionBuy)} if buy else {}
    for card in PREFERRED:
        if card in buys:
            return buys[card]
    return next(x for x in legal if isinstance(x, m.DominionEndTurn))


def domaine_move(m: ModuleType, client: TypedClient, game_id: int, state: Any) -> Any:
    """Plays with parts built from ``plays`` and ``choices``; else a sale; takes from the deck; first placement."""
    legal = [x.root for x in state.legal]
    if state.decision.kind.value == "play":
        useful = [p for p in state.plays if p.next.part is not None and p.next.choices]
        if useful:
            option = useful[0]
            draft = m.DomaineDraft(act="play", card=option.card.value, option=option.option)
            step = option.next
            while step.part is not None and step.choices:
                part, value = step.part.value, step.choices[0]
                values = draft.model_dump(by_alias=True, exclude_unset=True)
                if part in ("borders", "knights", "squares"):
                    values[part] = [*values.get(part, []), value]
                else:
                    values[part] = value
                draft = m.DomaineDraft.model_validate(values)
                step = client.choices(game_id, draft)
            if step.part is None or step.part.value not in ("knight", "with"):
                return m.DomainePlay.model_validate(draft.model_dump(by_alias=True, exclude_unset=True))
        return next(x for x in legal if isinstance(x, m.DomaineSell))
    if state.decision.kind.value == "take":
        return next(x for x in legal if isinstance(x, m.DomaineTake))
    return legal[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("kind", "bot"), [("dominion", "big_money"), ("domaine", "greedy")])
def test_a_generated_client_plays_a_game_to_its_end(generated: ModuleType, kind: str, bot: str) -> None:
    m = generated
    raw = api_client(UserFactory.create(username=f"typed_{kind}"))
    client = TypedClient(m, raw)
    body: dict[str, Any] = {"kind": kind, "players": 2, "bots": [bot]}
    if kind == "dominion":
        body["kingdom"] = "First Game"
    created = raw.post("/games", m.CreateGameIn.model_validate(body).model_dump(mode="json", exclude_unset=True))
    assert created.status_code == 201, created.content
    game = m.GameOut.model_validate(created.json())
    sent: set[type] = set()
    for _request in range(MAX_REQUESTS):
        state = client.state(game.id)
        assert type(state).__name__ == ("DominionState" if kind == "dominion" else "DomaineState")
        if state.game.status.value != "active":
            break
        assert state.game.my_move, "the bots move after each commit: it is the client's move again"
        if kind == "dominion":  # its first turn passes without a buy: every kind of move is sent
            move = dominion_move(m, state, buy=any(issubclass(t, m.DominionEndTurn) for t in sent))
        else:
            move = domaine_move(m, client, game.id, state)
        sent.add(type(move))
        client.move(game.id, move, state.game.last_seq)
    else:
        raise AssertionError(f"the {kind} game did not end in {MAX_REQUESTS} requests")
    assert state.game.status.value == "finished" and state.view.game_over
    names = {t.__name__ for t in sent}
    if kind == "dominion":
        assert {"DominionPlayTreasures", "DominionBuy", "DominionEndTurn"} <= names
    else:
        assert {"DomainePlaceCastle", "DomainePlay", "DomaineTake"} <= names
