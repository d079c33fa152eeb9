"""``{% contact_email %}``: where the account pages tell people to write."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def contact_email() -> str:
    """Return the site's contact address (``settings.CONTACT_EMAIL``: ``HERALD_CONTACT_EMAIL``, else the
    address mail is sent from), a bare ``name@host``."""
    return str(settings.CONTACT_EMAIL)
