"""App configuration for accounts."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Herald's user accounts."""

    name = "accounts"
    # Not "Accounts": allauth's app (email addresses) already heads an admin section so.
    verbose_name = _("Players")
