"""Farming: accounts made to lose to another, for its coins and its rating.

Four rules hold it back (docs/security.md, "Farming"): an account made by
the sign-up page stakes nothing in a category before its rating there is
established (``stakes_need_established_rating``, asked by
``games.stakes.check_may_sit``); every ranked game between accounts seen at
one address is listed for operators (``shared_addresses_flag``, when the
game starts); a game that one of those players left is not rated
(``left_from_a_shared_address``, asked by ``ratings.services``); and nor is
a game left by an account the sign-up page made while its rating is
provisional (``signed_up_among``, the ratings asking about the rating).

"Seen at one address" compares the keyed digests kept on the profiles
(``accounts.addresses``): the address each account signed up from and the
one it last logged in from.
"""

from __future__ import annotations

from itertools import combinations

from django.db.models import Q

from accounts.models import Profile, SharedAddress


def stakes_need_established_rating(user) -> bool:
    """Whether ``user``'s stakes wait for an established rating, whatever
    their size: an account made by the sign-up page."""
    return Profile.objects.filter(user=user, signed_up=True).exists()


def signed_up_among(user_ids: list[int]) -> list[int]:
    """Those of ``user_ids`` whose accounts the sign-up page made (the ones
    anyone can make for free; an operator may clear the flag)."""
    return list(
        Profile.objects.filter(user_id__in=user_ids, signed_up=True).values_list(
            "user_id", flat=True
        )
    )


def shared_addresses_flag(*, game, user_ids: list[int], now) -> list[SharedAddress]:
    """Record each pair of ``user_ids`` (the people at ``game``) whose
    accounts were seen at one address. Call it in the transaction that
    starts the game; returns the pairs recorded."""
    seen = {
        user_id: (signup, login)
        for user_id, signup, login in Profile.objects.filter(
            user_id__in=user_ids
        ).values_list("user_id", "signup_address", "login_address")
    }
    flags = []
    for player, other in combinations(sorted(set(user_ids)), 2):
        if player not in seen or other not in seen:
            continue
        same_signup, same_login = _seen_together(seen[player], seen[other])
        if same_signup or same_login:
            flags.append(
                SharedAddress(
                    game=game,
                    player_id=player,
                    other_id=other,
                    same_signup_address=same_signup,
                    same_login_address=same_login,
                    created_at=now,
                )
            )
    return SharedAddress.objects.bulk_create(flags, ignore_conflicts=True)


def _seen_together(a: tuple[str, str], b: tuple[str, str]) -> tuple[bool, bool]:
    """For two accounts' (sign-up, last login) address digests: whether they
    signed up from one address, and whether one last logged in from where
    the other signed up or last logged in."""
    (signup_a, login_a), (signup_b, login_b) = a, b
    same_signup = bool(signup_a) and signup_a == signup_b
    same_login = (bool(login_a) and login_a in (signup_b, login_b)) or (
        bool(login_b) and login_b in (signup_a, login_a)
    )
    return same_signup, same_login


def left_from_a_shared_address(game_id: int, left_user_ids: list[int]) -> bool:
    """Whether a player who left the game ``game_id`` shares an address with
    another player of it."""
    if not left_user_ids:
        return False
    return SharedAddress.objects.filter(
        Q(player_id__in=left_user_ids) | Q(other_id__in=left_user_ids), game_id=game_id
    ).exists()
