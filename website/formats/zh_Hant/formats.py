"""Chinese date formats for Herald: one date format and one date-and-time format, everywhere.

Django's defaults mix "2026年12月2日" with "2026/12/02" on one page; the
short and long formats are the same on purpose.
"""

from __future__ import annotations

DATE_FORMAT = "Y年n月j日"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "Y年n月j日 H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "n月j日"
YEAR_MONTH_FORMAT = "Y年n月"
