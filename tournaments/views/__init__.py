"""The tournament pages (list and detail) and the registration forms."""

from tournaments.views.pages import tournament_detail, tournament_list
from tournaments.views.registration import register, withdraw

__all__ = ["register", "tournament_detail", "tournament_list", "withdraw"]
