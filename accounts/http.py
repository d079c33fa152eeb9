"""The signed-in user of a request, typed.

Django types ``request.user`` as ``User | AnonymousUser``, since a request
may come from anyone; a view behind ``login_required`` (or the admin) knows
better, and these say so in a way mypy can check.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (every request of the site): it has ``htmx``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request whose user is signed in: the type of a view's ``request`` behind ``login_required``.

    Only an annotation (django-stubs' recipe): nothing constructs it, and
    ``login_required`` is what makes it true.
    """

    user: User


def signed_in_user(request: HttpRequest) -> User:
    """Return the request's signed-in user.

    Args:
        request: a request that passed ``login_required``, the admin's
            staff check, or an API authenticator.

    Raises:
        PermissionDenied: nobody is signed in (a 403, not a 500, should a
            view ever be reached without its guard).
    """
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise PermissionDenied
    return user
