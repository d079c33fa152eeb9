"""English date formats for Herald: one date format and one date-and-time format, everywhere.

Django's defaults mixed three on one profile page ("Dec. 2, 2026",
"12/02/2026", "2026-12-02 13:12"); "12/02/2026" is also read as 12 February
outside the US. The short and long formats are the same on purpose. The
clock is 24-hour: Django's "p.m." doubled the full stop of a sentence
ending with a time, and players in every zone read 24-hour times without
ambiguity.
"""

from __future__ import annotations

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j M"
YEAR_MONTH_FORMAT = "M Y"
