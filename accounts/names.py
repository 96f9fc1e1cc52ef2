"""Names that cannot pass for another player's (docs/security.md, "Names").

A username or display name may hold no hidden character (zero-width, bidi
controls such as LRM or RLO: ``common.lookalikes.HIDDEN``), and may not
look like another player's username or display name: names are compared
by their skeleton (NFKC, case folded, Unicode's confusables), so "nіno"
with a Cyrillic "і", "ｎｉｎｏ" or "NINO" are all "nino". A name wholly in
another script (Georgian, Cyrillic, Turkish letters) is a name of its own.
Each player's looks are kept in ``NameKey``, unique, which settles two
look-alikes asked for at once.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import NameKey, Profile
from common.errors import NotAllowed
from common.lookalikes import hidden_characters, skeleton


class NameTaken(NotAllowed):
    code = "name_taken"


class NameHidden(NotAllowed):
    code = "name_hidden"


def check_name(name: str, *, user=None) -> None:
    """Refuse ``name`` for ``user`` (None: a new player): ``NameHidden``
    for a hidden character, ``NameTaken`` when it looks like another
    player's name."""
    hidden = hidden_characters(name)
    if hidden:
        raise NameHidden(f"a name may not hold {', '.join(hidden)}")
    others = NameKey.objects.filter(key=skeleton(name))
    if user is not None and user.pk is not None:
        others = others.exclude(user=user)
    if others.exists():
        raise NameTaken("another player already goes by a name that looks like it")


def names_claim(user) -> None:
    """Record how ``user``'s username and display name look, in the caller's
    transaction; ``NameTaken`` (nothing written) when another player's name
    looks the same."""
    profile = Profile.objects.filter(user=user).first()
    names = [user.get_username(), profile.display_name if profile else ""]
    keys = {skeleton(name) for name in names if name}
    try:
        with transaction.atomic():
            NameKey.objects.filter(user=user).exclude(key__in=keys).delete()
            mine = set(NameKey.objects.filter(user=user).values_list("key", flat=True))
            NameKey.objects.bulk_create(
                NameKey(user=user, key=key) for key in keys - mine
            )
    except IntegrityError as error:
        raise NameTaken(
            "another player already goes by a name that looks like it"
        ) from error
