"""The board's first-game hint strip: whether to show it, and what it says for the position.

Drawn outside the board's cached fragment (the hints depend on this
browser's cookie, the board's cache key does not), from the same view the
board reads; it decides no rule.
"""

from __future__ import annotations

#: The cookie that turns the hints off for a browser ("off"); absent: shown.
HINTS_COOKIE = "herald_hints"
#: How long the choice is kept, in seconds (a year).
HINTS_COOKIE_AGE = 365 * 24 * 3600
