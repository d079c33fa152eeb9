"""App configuration for accounts."""

from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Herald's user accounts."""

    name = "accounts"
    verbose_name = "Accounts"
