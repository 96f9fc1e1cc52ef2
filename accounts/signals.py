"""The address of each login, kept as a digest (``accounts.addresses``).

When sockets must end with a session (see ``accounts.sockets``): a
logout, a password change, a deactivation. Each is acted on once the change
commits. A password change and a deactivation also revoke the user's
personal API token, in the same transaction."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from accounts import names, services, sockets
from accounts.addresses import address_digest, client_address
from accounts.models import Profile

User = get_user_model()


@receiver(user_logged_out)
def end_the_sessions_sockets(sender, request, user, **kwargs) -> None:
    # Sent before the session is flushed: its key is still the old one.
    session_key = request.session.session_key if request is not None else None
    if session_key:
        transaction.on_commit(lambda: sockets.end_session_sockets(session_key))


@receiver(user_logged_in)
def note_the_login_address(sender, request, user, **kwargs) -> None:
    """Keep the digest of the address of the latest login (``accounts.farming``
    compares the players of a ranked game by it)."""
    if request is None:
        return
    digest = address_digest(client_address(request))
    if digest:
        services.profile_get_or_create(user)
        Profile.objects.filter(user=user).exclude(login_address=digest).update(
            login_address=digest
        )


@receiver(pre_save, sender=User)
def notice_what_ends_sockets(sender, instance, update_fields=None, **kwargs):
    """Compare with the stored row, only when the save may change the
    password or the active flag (not on every last_login update)."""
    instance._ends_sockets = None
    if instance.pk is None:
        return
    if update_fields is not None and not {"password", "is_active"} & set(update_fields):
        return
    before = User.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if before is None:
        return
    if before["is_active"] and not instance.is_active:
        instance._ends_sockets = "banned"
    elif before["password"] != instance.password:
        instance._ends_sockets = "signed out"


@receiver(post_save, sender=User)
def end_the_users_sockets(sender, instance, **kwargs) -> None:
    why = getattr(instance, "_ends_sockets", None)
    if why is None:
        return
    # A token is a password of its own: one taken by whoever knew the old
    # password, or kept by a banned player, must not outlive the change
    # (whichever page or command made it: the admin's, a reset, a ban).
    services.api_token_revoke(instance)
    user_id, banned = instance.pk, why == "banned"
    transaction.on_commit(lambda: sockets.end_user_sockets(user_id, banned=banned))


@receiver(post_save, sender=User)
def claim_the_username(sender, instance, created, update_fields=None, **kwargs):
    """Every new player's username, and a changed one, is recorded as it
    looks (``accounts.names``): raises ``NameTaken`` for a look-alike, in
    whatever transaction made the player (the sign-up page's, the admin's)."""
    if created or update_fields is None or "username" in update_fields:
        names.names_claim(instance)
