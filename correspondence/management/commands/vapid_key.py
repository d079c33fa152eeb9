"""``manage.py vapid_key``: print a new VAPID private key (PEM) for ``VAPID_PRIVATE_KEY``, and its public key."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from py_vapid import Vapid


class Command(BaseCommand):
    """Make the key pair that signs the site's Web Push messages (RFC 8292)."""

    help = "Print a new VAPID private key (PEM) to set as VAPID_PRIVATE_KEY (or VAPID_PRIVATE_KEY_FILE)."

    def handle(self, *args: Any, **options: Any) -> None:
        """Write the PEM to stdout; keep it secret: whoever has it can push as the site."""
        key = Vapid()
        key.generate_keys()
        self.stdout.write(key.private_pem().decode())
