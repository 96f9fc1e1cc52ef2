"""Writes of the chat: saying something, muting for oneself, reporting, and
the operators' mutes. Each says a message's fan-out happens after commit
(``chat.fanout``), so a refused or rolled-back message is never sent."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from chat import fanout, selectors
from chat.errors import (
    Blocked,
    ChatEmpty,
    ChatFlood,
    ChatTooLong,
    Muted,
    UnknownPhrase,
    YouBlocked,
)
from chat.models import ChatMute, Message, PersonalMute, Report
from chat.phrases import PHRASES
from chat.selectors import Room
from chat.text import clean
from chat.wordfilter import mask
from common.errors import NotAllowed, NotFound


def _said(text, phrase) -> tuple[str, str]:
    """The (text, phrase) a message stores; raises before anything is read."""
    if phrase is not None:
        if text is not None or phrase not in PHRASES:
            raise UnknownPhrase(f"no quick phrase {phrase!r}")
        return "", phrase
    text = clean(text or "")
    if not text:
        raise ChatEmpty("the message is empty")
    if len(text) > settings.PULKA_CHAT_MAX_LENGTH:
        raise ChatTooLong(
            f"a message has at most {settings.PULKA_CHAT_MAX_LENGTH} characters"
        )
    return text, ""


def message_post(
    *,
    author_id: int,
    room: Room,
    text: str | None = None,
    phrase: str | None = None,
    now,
) -> Message:
    """``author_id`` says ``text`` (or the quick phrase ``phrase``) in
    ``room``, and every socket in the room hears it once this commits,
    except those of readers who hide the author. A table's message is
    stored with the table's game, if it has begun.

    Locks the author's user row for the transaction: one author's messages
    are written one at a time, on every server, so the rate and the count
    of offences are exact. Raises (nothing stored): ``ChatEmpty``,
    ``ChatTooLong``, ``UnknownPhrase``, ``NotAllowed`` (not in this room),
    ``Muted``, ``ChatFlood`` and, in a players' room, ``YouBlocked`` when
    the author blocked a seated player, else ``Blocked`` when a seated
    player blocked the author.
    """
    text, phrase = _said(text, phrase)
    seated = selectors.seated_user_ids(room.table_id) if room.table_id else set()
    with transaction.atomic():
        author = (
            get_user_model()
            .objects.select_for_update()
            .filter(pk=author_id, is_active=True)
            .first()
        )
        if author is None:
            raise NotAllowed("this account may not chat")
        if room.kind != Message.Room.LOBBY:
            if (author_id in seated) != (room.kind == Message.Room.PLAYERS):
                raise NotAllowed("not your room")
        mute = selectors.active_mute(author_id, now)
        if mute is not None:
            raise Muted(mute.until)
        window = now - timedelta(seconds=settings.PULKA_CHAT_SECONDS)
        recent = Message.objects.filter(author_id=author_id, created_at__gt=window)
        if recent.count() >= settings.PULKA_CHAT_MESSAGES:
            raise ChatFlood("too many messages: wait a few seconds")
        if room.kind == Message.Room.PLAYERS:
            _check_blocks(author_id, seated - {author_id})
        text, filtered = mask(text) if text else (text, False)
        message = Message.objects.create(
            room=room.kind,
            table_id=room.table_id,
            game_id=selectors.game_of_table(room.table_id) if room.table_id else None,
            author=author,
            text=text,
            phrase=phrase,
            filtered=filtered,
            created_at=now,
        )
        if filtered:
            _count_offences(author_id, now)
        shown = selectors.payload(message)
        transaction.on_commit(lambda: fanout.said(room.group, shown))
    return message


def _check_blocks(author_id: int, others: set[int]) -> None:
    """Blocks hold both ways in a players' room. The author's own blocks
    come first: those they can undo, and naming whom tells them nothing new;
    a block by another player stays anonymous."""
    names = selectors.names_blocked_by(author_id, others)
    if names:
        raise YouBlocked(names)
    if selectors.blocked_by_any(author_id, others):
        raise Blocked("a player at this table does not take your messages")


def _count_offences(author_id: int, now) -> None:
    """The word filter caught the author again: past the limit within a day,
    a mute by itself (no operator), for ``PULKA_CHAT_AUTO_MUTE_MINUTES``."""
    day = now - timedelta(days=1)
    offences = Message.objects.filter(
        author_id=author_id, filtered=True, created_at__gt=day
    ).count()
    if offences >= settings.PULKA_CHAT_OFFENCES:
        ChatMute.objects.create(
            user_id=author_id,
            until=now + timedelta(minutes=settings.PULKA_CHAT_AUTO_MUTE_MINUTES),
            reason="word filter",
            by=None,
            created_at=now,
        )


def personal_mute_set(*, user_id: int, muted_id: int, muted: bool, now) -> None:
    """``user_id`` stops (``muted``) or starts again reading ``muted_id``,
    everywhere; the user's other sockets hear of it after commit. Muting
    twice keeps the first. Raises ``NotAllowed`` for oneself, ``NotFound``
    for no such player."""
    if user_id == muted_id:
        raise NotAllowed("you cannot mute yourself")
    if not get_user_model().objects.filter(pk=muted_id).exists():
        raise NotFound("no such player")
    with transaction.atomic():
        if muted:
            PersonalMute.objects.get_or_create(
                user_id=user_id, muted_id=muted_id, defaults={"created_at": now}
            )
        else:
            PersonalMute.objects.filter(user_id=user_id, muted_id=muted_id).delete()
        transaction.on_commit(lambda: fanout.hidden_changed(user_id))


def report_create(*, reporter_id: int, message_id: int, reason: str, now) -> Report:
    """``reporter_id`` reports a message they could read, with the
    conversation around it as it stands. Reporting a message twice keeps
    the first report. Raises ``NotFound`` for a message the reporter could
    not have read, ``NotAllowed`` for one's own."""
    message = Message.objects.filter(pk=message_id).first()
    if message is None or not selectors.may_read(reporter_id, message):
        raise NotFound("no such message")
    if message.author_id == reporter_id:
        raise NotAllowed("you cannot report your own message")
    conversation = selectors.conversation_around(message)
    try:
        with transaction.atomic():
            return Report.objects.create(
                reporter_id=reporter_id,
                message=message,
                reason=clean(reason or "")[:200],
                conversation=conversation,
                created_at=now,
            )
    except IntegrityError:
        return Report.objects.get(reporter_id=reporter_id, message=message)


def chat_mute_create(*, user_id: int, minutes: int, by, reason: str, now) -> ChatMute:
    """An operator mutes ``user_id`` for ``minutes``: their messages are
    refused with ``muted`` until then."""
    return ChatMute.objects.create(
        user_id=user_id,
        until=now + timedelta(minutes=minutes),
        reason=reason,
        by=by,
        created_at=now,
    )


def report_handle(*, report_id: int, by, now) -> None:
    """An operator has dealt with the report (whatever they decided)."""
    Report.objects.filter(pk=report_id, handled_at__isnull=True).update(
        handled_at=now, handled_by=by
    )
