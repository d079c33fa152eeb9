"""English date formats for Herald: a 24-hour clock.

Django's default English formats end times with "p.m.", so a sentence that
ends with a time ("Move before Nov. 29, 2026, 9:38 p.m..") doubled its full
stop; players in every time zone also read 24-hour times without ambiguity.
"""

from __future__ import annotations

DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
TIME_FORMAT = "H:i"
