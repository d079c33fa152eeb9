"""The moderators' tools, on Django's admin.

Staff who are not in the Moderators group (nor superusers) cannot reach
any of it: the views check the ``moderation.*`` permissions, and the
services check them again. Every action goes through ``moderation.services``,
which writes the audit row; the audit trail itself is read-only for
everyone, superusers included.

The games', chat's and users' admin classes are extended here (and
registered again in their place) rather than edited, so the moderation
tools stay in one app.
"""

from __future__ import annotations

from moderation.admin import games, reports, users

__all__ = ["games", "reports", "users"]  # imported for their admin.register calls
