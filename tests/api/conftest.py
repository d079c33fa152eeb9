"""Fixtures for the API's tests: tokens for the personas, and a client that sends them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from api.tokens import token_create


@pytest.fixture(autouse=True)
def _site_test(site_test: None) -> None:
    """The fake engine and a clean cache for every test here."""


class ApiClient:
    """Django's test client with a bearer token on every request; JSON in, parsed JSON out."""

    def __init__(self, raw: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {raw}"} if raw else {}

    def get(self, path: str, **params: Any) -> Any:
        """GET ``/api/v1`` + ``path``."""
        return self.client.get(f"/api/v1{path}", params, headers=self.headers)

    def post(self, path: str, body: Any = None) -> Any:
        """POST JSON to ``/api/v1`` + ``path``."""
        return self.client.post(
            f"/api/v1{path}", body if body is not None else {}, content_type="application/json", headers=self.headers
        )


def api_client(user: User, scopes: tuple[str, ...] = ("read", "play", "chat")) -> ApiClient:
    """A client acting as ``user`` through a new token with ``scopes``."""
    _token, raw = token_create(user=user, name="test", scopes=scopes)
    return ApiClient(raw)
