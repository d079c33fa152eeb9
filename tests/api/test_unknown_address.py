"""An address under /api/ that no endpoint answers is a problem+json 404, as every other API refusal."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/games/1/nothing", "/api/v2/games", "/api/"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_api_address_answers_problem_details(client, path, method):
    response = getattr(client, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == 404 and body["code"] == "not_found" and body["detail"]


def test_the_unknown_address_problem_is_translated(client):
    response = client.get("/api/v1/nothing-here", HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert response.json()["title"] != "Not Found"


def test_the_documented_addresses_still_answer(client):
    assert client.get("/api/v1/").status_code == 302
    assert client.get("/api/v1/docs").status_code == 200
    assert client.get("/api/v1/me").status_code == 401


@pytest.mark.parametrize(
    ("method", "path"), [("put", "/api/v1/games/1"), ("delete", "/api/v1/me"), ("patch", "/api/v1/games")]
)
def test_a_method_an_address_does_not_take_answers_problem_details_with_allow(client, method, path):
    """Ninja answered these with a plain-text page: a program reading the API meets only problem details."""
    response = getattr(client, method)(path)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
    assert response["Allow"]
    body = response.json()
    assert body["status"] == 405 and body["code"] == "method_not_allowed" and method.upper() in body["detail"]
    translated = getattr(client, method)(path, HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    assert translated["title"] != "Method Not Allowed" and translated["detail"] != body["detail"]
