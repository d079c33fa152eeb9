"""Rules and card reference URLs (namespace ``guide``): one rules page and card reference per game with a guide."""

from __future__ import annotations

from django.urls import path, register_converter

from guide import views
from guide.plugin import guide_of


class GuideKindConverter:
    """A game's kind in a guide URL ("/rules/<kind>/"): only an installed game with a guide part matches.

    Any other name does not match the pattern (so it is a 404, never a 500);
    the registry is asked at each request, not when the URLs are loaded.
    """

    regex = "[a-z][a-z0-9_]*"

    def to_python(self, value: str) -> str:
        """Return ``value`` if an installed game of that name has a guide.

        Raises:
            ValueError: it has none (Django then tries the next pattern, and answers 404).
        """
        if guide_of(value) is None:
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        """The kind as it stands in the URL."""
        return str(value)


register_converter(GuideKindConverter, "guide_kind")

app_name = "guide"
urlpatterns = [
    path("rules/", views.rules_index, name="index"),
    path("rules/hints/", views.hints_toggle, name="hints"),
    path("rules/<guide_kind:kind>/", views.rules, name="rules"),
    path("rules/<guide_kind:kind>/cards/", views.cards, name="cards"),
]
