"""The lobby: open tables, creating a table, seats, private invitations."""

from django.http import HttpResponse


def lobby(request):
    return HttpResponse("lobby")
