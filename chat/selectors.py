"""Reads of the chat: which room a socket is in, what a reader may see of a
room, and who a reader does not want to hear from."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from accounts.selectors import display_name
from chat.models import ChatMute, Message, PersonalMute
from games.models import Game, Seat, Table
from social.models import Block
from social.selectors import blocked_ids

# What a socket is sent on connecting, and what a report keeps around the
# reported message.
HISTORY = 50
BEFORE_REPORTED, AFTER_REPORTED = 10, 5


@dataclass(frozen=True)
class Room:
    """A room: the lobby, or one of a table's two. A table's rooms are the
    same before its game starts (the waiting page's socket) and while it is
    played (the game's socket): the chat goes on from one page to the
    other."""

    kind: str
    table_id: int | None = None

    @property
    def group(self) -> str:
        """The channel-layer group of the room's sockets."""
        if self.table_id is None:
            return "chat-lobby"
        return f"chat-table-{self.table_id}-{self.kind}"

    def messages(self):
        return Message.objects.filter(room=self.kind, table_id=self.table_id)


LOBBY = Room(Message.Room.LOBBY)


def table_room(table_id: int, seat: int | None) -> Room:
    """The room of a socket at the table: the players' for a seat, the
    spectators' for anyone else, while the table waits for its players,
    during the game and after its end alike."""
    kind = Message.Room.SPECTATORS if seat is None else Message.Room.PLAYERS
    return Room(kind, table_id)


def seated_user_ids(table_id: int) -> set[int]:
    return set(
        Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def game_of_table(table_id: int) -> int | None:
    """The id of the table's game; None while the table waits for players."""
    return Game.objects.filter(table_id=table_id).values_list("pk", flat=True).first()


def hidden_authors(user_id: int | None) -> set[int]:
    """Whose messages ``user_id`` is not sent: those they muted, those they
    blocked and those who blocked them (``social``). None: an anonymous
    reader, who hides nobody."""
    if user_id is None:
        return set()
    muted = set(
        PersonalMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True)
    )
    # Blocks work both ways in the chat; social.selectors reads one way.
    blocked_me = set(
        Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True)
    )
    return muted | blocked_ids(user_id) | blocked_me


def has_muted(user_id: int, other_id: int) -> bool:
    """Whether ``user_id`` muted ``other_id`` (their personal mute)."""
    return PersonalMute.objects.filter(user_id=user_id, muted_id=other_id).exists()


def muted_players(user_id: int | None) -> list[dict]:
    """The players ``user_id`` muted, as ``{"id", "name"}``, by name."""
    if user_id is None:
        return []
    mutes = PersonalMute.objects.filter(user_id=user_id).select_related(
        "muted__profile"
    )
    return sorted(
        ({"id": m.muted_id, "name": display_name(m.muted)} for m in mutes),
        key=lambda row: row["name"].casefold(),
    )


def names_blocked_by(author_id: int, others: set[int]) -> list[str]:
    """The names of those of ``others`` whom ``author_id`` blocked."""
    blocks = (
        Block.objects.filter(blocker_id=author_id, blocked_id__in=others)
        .select_related("blocked__profile")
        .order_by("blocked_id")
    )
    return [display_name(block.blocked) for block in blocks]


def blocked_by_any(author_id: int, others: set[int]) -> bool:
    """Whether any of ``others`` blocked ``author_id``."""
    return Block.objects.filter(blocker_id__in=others, blocked_id=author_id).exists()


def active_mute(user_id: int, now) -> ChatMute | None:
    """The mute on ``user_id`` that lasts longest, if one holds at ``now``."""
    return (
        ChatMute.objects.filter(user_id=user_id, until__gt=now)
        .order_by("-until")
        .first()
    )


def payload(message: Message) -> dict:
    """A message as the sockets, the API and the replay carry it."""
    return {
        "id": message.pk,
        "room": message.room,
        "table": message.table_id,
        "game": message.game_id,
        "author": {"id": message.author_id, "name": display_name(message.author)},
        "text": message.text,
        "phrase": message.phrase,
        "at": message.created_at.isoformat(),
    }


def readable(messages, reader_id: int | None):
    """``messages`` without those of authors ``reader_id`` hides, with what
    ``payload`` reads."""
    return messages.exclude(author_id__in=hidden_authors(reader_id)).select_related(
        "author__profile"
    )


def room_messages(room: Room, reader_id: int | None, *, limit: int = HISTORY):
    """The room's latest ``limit`` messages ``reader_id`` may read, oldest
    first."""
    latest = readable(room.messages(), reader_id).order_by("-created_at", "-id")
    return [payload(message) for message in reversed(latest[:limit])]


def lobby_messages(reader_id: int | None):
    """The lobby's messages ``reader_id`` may read, newest first."""
    return readable(LOBBY.messages(), reader_id).order_by("-created_at", "-id")


def game_rooms_readable(game: Game, user) -> list[str]:
    """The rooms of ``game`` that ``user`` (or an anonymous reader) may read
    outside a socket (the API, the replay): during the game only the one
    their socket is in; once it is over, both, to whoever may see the game.
    Empty for a private table's outsider."""
    user_id = _reader(user)
    seated = user_id is not None and user_id in seated_user_ids(game.table_id)
    if game.table.is_private and not seated:
        return []
    if game.status != Game.Status.PLAYING:
        return [Message.Room.PLAYERS, Message.Room.SPECTATORS]
    if user_id is None:
        return []
    return [Message.Room.PLAYERS if seated else Message.Room.SPECTATORS]


def game_messages(game: Game, user, rooms: list[str]):
    """The messages of ``rooms`` of ``game``'s table that ``user`` may
    read, in the order they were said: those said while the table waited
    for its players come first."""
    messages = Message.objects.filter(table_id=game.table_id, room__in=rooms)
    return readable(messages, _reader(user)).order_by("created_at", "id")


def game_chat(game: Game, user) -> list[dict]:
    """Everything of ``game``'s chat ``user`` may read (the replay)."""
    rooms = game_rooms_readable(game, user)
    return [payload(m) for m in game_messages(game, user, rooms)] if rooms else []


def _reader(user) -> int | None:
    return user.pk if user is not None and user.is_authenticated else None


def may_read(user_id: int, message: Message) -> bool:
    """Whether ``user_id`` could have been shown ``message`` (on a socket
    or a page), so may report it."""
    if message.room == Message.Room.LOBBY or message.table_id is None:
        return True  # the lobby's message, which alone has no table
    table = Table.objects.get(pk=message.table_id)
    seated = user_id in seated_user_ids(table.pk)
    if table.is_private and not seated:
        return False
    over = Game.objects.filter(table=table).exclude(status=Game.Status.PLAYING)
    if over.exists():
        return True
    return seated == (message.room == Message.Room.PLAYERS)


def conversation_around(message: Message) -> list[dict]:
    """The messages of ``message``'s room just before and after it, itself
    included, oldest first: what a report keeps."""
    room = Message.objects.filter(room=message.room, table=message.table_id)
    key = Q(created_at__lt=message.created_at) | Q(
        created_at=message.created_at, id__lt=message.pk
    )
    before = room.filter(key).order_by("-created_at", "-id")[:BEFORE_REPORTED]
    after = room.exclude(key).select_related("author__profile")
    after = after.order_by("created_at", "id")[: AFTER_REPORTED + 1]
    rows = [*reversed(before.select_related("author__profile")), *after]
    return [payload(row) for row in rows]
