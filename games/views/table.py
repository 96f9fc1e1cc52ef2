"""The live table page, and replays and records of finished games."""

from django.http import HttpResponse


def table(request, table_id: int):
    return HttpResponse("table")
