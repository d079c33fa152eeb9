"""The API, version 1: ``/api/v1/``, its OpenAPI schema at ``/api/v1/openapi.json`` and docs at ``/api/v1/docs``.

Built on django-ninja: the schema is generated from the typed operations in
``api.endpoints`` and the shapes in ``api.schemas``; every error is problem
details (``api.problems``), documented as ``application/problem+json``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver
from django.utils import translation
from ninja import NinjaAPI

from api import gameshapes, problems
from api.bots import router as bots_router
from api.endpoints import router
from api.seeks import router as seeks_router
from games import kinds


class HeraldAPI(NinjaAPI):
    """NinjaAPI whose schema documents errors as problem details and types the games' shapes, and whose answers
    no cache keeps."""

    def create_response(self, request: HttpRequest, data: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        """Ninja's response, marked ``private, no-store``: it is about the token's user."""
        response = super().create_response(request, data, *args, **kwargs)
        response["Cache-Control"] = problems.NO_STORE
        return response

    def _get_urls(self) -> list[URLResolver | URLPattern]:
        """Ninja's URLs, each answering a method it does not take as problem details (``methods_as_problems``)."""
        urls = super()._get_urls()
        for url in urls:
            if isinstance(url, URLPattern):
                url.callback = problems.methods_as_problems(url.callback)
        return urls

    def get_openapi_schema(self, *args: Any, **kwargs: Any) -> Any:
        """The generated schema, with the games' shapes (``api.gameshapes``) among its components, and every 4xx
        response's body as ``application/problem+json``."""
        schema = super().get_openapi_schema(*args, **kwargs)
        # The games' shapes (moves, views, decisions, states), which the operations refer to by name.
        schema.setdefault("components", {}).setdefault("schemas", {}).update(gameshapes.components())
        gameshapes.link(schema)
        for item in schema.get("paths", {}).values():
            for operation in item.values():
                for status, response in operation.get("responses", {}).items():
                    content = response.get("content")
                    if str(status).startswith("4") and content and "application/json" in content:
                        response["content"] = {problems.CONTENT_TYPE: content.pop("application/json")}
                    if str(status) == "429":
                        response["headers"] = {
                            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
                        }
        return schema


def _games() -> str:
    """The installed games' names in English, as a list in a sentence ("A, B and C")."""
    with translation.override("en"):
        names = [str(kind.label) for kind in kinds.all_kinds()]
    return " and ".join(", ".join(names).rsplit(", ", 1))


api = HeraldAPI(
    title="Herald API",
    version="1.0.0",
    description=(
        f"Play {_games()} by correspondence from your own client or bot. "
        "Authenticate with a personal access token (Settings → API tokens): `Authorization: Bearer <token>`. "
        "Errors are RFC 9457 problem details. The guide (/api/v1/guide/) explains the API, "
        "and each game's moves, views and decisions."
    ),
    urls_namespace="api",
    docs_url="/docs",
    openapi_url="/openapi.json",
)
problems.install(api)
api.add_router("/", router)
api.add_router("/", seeks_router)
api.add_router("/", bots_router)
