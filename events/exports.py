"""An event's standings as a CSV download, for every event app (its page, its admin)."""

from django.http import HttpResponse

from .standings import csv_text


def standings_csv_response(slug, columns, rows, suffix=""):
    """The rows (mappings) under `columns` ([(key, label)]) as "<slug><suffix>-standings.csv"."""
    response = HttpResponse(csv_text(columns, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}{suffix}-standings.csv"'
    return response
