"""Responses every app's views share."""

from __future__ import annotations

from http import HTTPStatus

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def bad_request(request: HttpRequest, message: str) -> HttpResponse:
    """A 400 page in the site's layout that says what was wrong with the address.

    For pages a person may reach with a typed or mangled query string (a
    replay's step, a statistics sort): a bare text answer outside the site
    leaves them nowhere to go. ``message`` is already translated.
    """
    return render(request, "400.html", {"message": message}, status=HTTPStatus.BAD_REQUEST)
