"""The site's URLs plus ``/bench/bare/``: a bare Django view, the baseline of the load run."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    """Answer a fixed text through the full middleware stack: the floor of any page's cost."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), path("", include("website.urls"))]
