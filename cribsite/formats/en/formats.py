"""Dates as the site writes them ("2 Dec 2026"), in the admin too (Django's en formats are US style)."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
# The first is what a date box shows and the admin's calendar writes; the others are read too.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d %b %Y", "%d %B %Y", "%d/%m/%Y"]
