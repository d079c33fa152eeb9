"""Statistics URLs (namespace ``stats``): ``/stats/<kind>/`` per installed game, built from the registry.

``<stats_kind:kind>`` matches only the name of an installed game (``games.kinds``),
so a game's page and its cards' pages keep their addresses while no
game is named here; whether that game has such a page is its part's to say.
"""

from __future__ import annotations

from django.urls import path, register_converter

from games import kinds
from stats import views


class KindConverter:
    """A path segment that is an installed game's name (``games.kinds``); anything else does not match."""

    regex = r"[a-z][a-z0-9_]*"

    def to_python(self, value: str) -> str:
        """Return ``value`` if it names an installed game; ValueError (no match: a 404) if not."""
        if kinds.find(value) is None:
            raise ValueError(value)
        return value

    def to_url(self, value: str) -> str:
        """A kind's name is its own URL segment."""
        return value


register_converter(KindConverter, "stats_kind")

app_name = "stats"
urlpatterns = [
    # The README and links in the wild point at /stats/: send them to the first statistics page.
    path("stats/", views.index, name="index"),
    path("stats/<stats_kind:kind>/", views.kind_page, name="kind"),
    path("stats/<stats_kind:kind>/<str:item>/", views.item_page, name="item"),
]
