"""The lobby: listing tables, creating them, seats, invitations, live updates."""

from __future__ import annotations

import itertools
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from config.asgi import application
from games import services
from games.models import Game, Seat, Table
from tests.factories import UserFactory
from tests.games.helpers import SITE_HEADERS

pytestmark = pytest.mark.django_db

LOBBY = reverse("games:lobby")
CREATE = reverse("games:table-create")


def take_url(table, number):
    return reverse("games:seat-take", args=[table.pk, number])


def bot_url(table, number):
    return reverse("games:seat-add-bot", args=[table.pk, number])


def remove_bot_url(table, number):
    return reverse("games:seat-remove-bot", args=[table.pk, number])


def leave_url(table):
    return reverse("games:seat-leave", args=[table.pk])


def table_url(table):
    return reverse("games:table", args=[table.pk])


def seats_of(table):
    return [(seat.user_id, seat.bot) for seat in Seat.objects.filter(table=table)]


def error_of(response) -> str | None:
    """The newest error message waiting for the user's next page."""
    found = [
        str(message)
        for message in get_messages(response.wsgi_request)
        if message.level_tag == "error"
    ]
    return found[-1] if found else None


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def other(db):
    return UserFactory()


@pytest.fixture
def other_client(other):
    client = Client()
    client.force_login(other)
    return client


# --- The page -------------------------------------------------------------


def test_anonymous_visitors_see_the_open_tables(client, user):
    account_services.profile_update(user=user, display_name="Nino", language="")
    services.table_create(user=user, profile="georgian-club")

    response = client.get(LOBBY)

    assert response.status_code == 200
    content = response.content.decode()
    assert "Joker, Georgian club rules" in content
    assert "Nino" in content
    assert "js/lobby.js" in content
    assert 'id="table-form"' not in content
    assert reverse("accounts:login") in content
    assert [row.table.profile for row in response.context["open_rows"]] == [
        "georgian-club"
    ]


def test_signed_in_users_get_the_form_and_their_tables(signed_in, user, other):
    mine = services.table_create(user=user, profile="japanese", is_private=True)
    theirs = services.table_create(user=other, profile="live-games")

    response = signed_in.get(LOBBY)

    assert response.status_code == 200
    assert 'id="table-form"' in response.content.decode()
    assert [row.table for row in response.context["your_rows"]] == [mine]
    assert [row.table for row in response.context["open_rows"]] == [theirs]


def test_the_lobby_lists_every_option_of_a_table(client, user):
    services.table_create(
        user=user,
        profile="georgian-club",
        options={"schedule": "nines", "hisht_penalty": "500", "pairs": True},
        turn_seconds=45,
    )

    content = client.get(LOBBY).content.decode()

    for words in ("Nines", "hisht 500", "deductions", "pairs", "45 s per move"):
        assert words in content
    assert "1 of 4 seats taken" in content


def test_the_table_list_fragment(client, user):
    services.table_create(user=user, profile="japanese")

    response = client.get(reverse("games:lobby-tables"))

    assert response.status_code == 200
    content = response.content.decode()
    assert "<html" not in content
    assert "Japanese Joker" in content
    assert response.headers["Cache-Control"].startswith("max-age=0")


def test_the_lobby_reads_a_constant_number_of_queries(
    client, user, django_assert_max_num_queries
):
    for _ in range(6):
        table = services.table_create(user=UserFactory(), profile="georgian-club")
        services.seat_add_bot(
            table_id=table.pk, user=table.created_by, number=1, bot="practice"
        )
    client.force_login(user)

    with django_assert_max_num_queries(12):
        response = client.get(reverse("games:lobby-tables"))
    assert len(response.context["open_rows"]) == 6


# --- Creating a table ------------------------------------------------------


CLUB = [
    {
        "schedule": schedule,
        "hisht_penalty": hisht,
        "deductions": deductions,
        "pairs": pairs,
    }
    for schedule, hisht, deductions, pairs in itertools.product(
        ["classic", "nines"],
        ["200", "500", "alternating", "dynamic"],
        [True, False],
        [True, False],
    )
]
CASES = (
    [("georgian-club", options) for options in CLUB]
    + [("georgian-tvaladze", {})]
    + [("live-games", {"scoring": s}) for s in ["online", "home-missing", "home-bid"]]
    + [("japanese", {"target": t}) for t in [11, 15, 21, 31]]
)


def form_data(profile, options, **extra):
    """What the browser posts: checkboxes only when ticked, everything text."""
    data = {"profile": profile, "turn_seconds": "30", **extra}
    for name, value in options.items():
        if value is True:
            data[name] = "on"
        elif value is not False:
            data[name] = str(value)
    return data


@pytest.mark.parametrize(("profile", "options"), CASES)
def test_creating_a_table_stores_the_profile_options(signed_in, user, profile, options):
    response = signed_in.post(CREATE, form_data(profile, options))

    table = Table.objects.get()
    assert response.status_code == 302
    assert response.headers["Location"] == table_url(table)
    assert table.profile == profile
    assert table.options == options
    assert table.created_by == user
    assert seats_of(table)[0] == (user.pk, "")


def test_club_nines_with_pairs_dynamic_hisht_and_no_deductions(signed_in):
    signed_in.post(
        CREATE,
        {
            "profile": "georgian-club",
            "schedule": "nines",
            "hisht_penalty": "dynamic",
            "pairs": "on",
            # deductions not ticked
            "turn_seconds": "60",
            "is_private": "on",
        },
    )

    table = Table.objects.get()
    assert table.options == {
        "schedule": "nines",
        "hisht_penalty": "dynamic",
        "deductions": False,
        "pairs": True,
    }
    assert table.turn_seconds == 60
    assert table.is_private


def test_options_of_other_profiles_are_ignored(signed_in):
    # As posted without JavaScript: every option field, most of them not used.
    response = signed_in.post(
        CREATE,
        {
            "profile": "japanese",
            "target": "15",
            "schedule": "weekly",
            "hisht_penalty": "300",
            "deductions": "on",
            "scoring": "elsewhere",
            "turn_seconds": "20",
        },
    )

    table = Table.objects.get()
    assert response.status_code == 302
    assert (table.profile, table.options, table.turn_seconds) == (
        "japanese",
        {"target": 15},
        20,
    )
    assert not table.is_private


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"profile": "poker"}, "profile"),
        ({"profile": "georgian-club", "schedule": "weekly"}, "schedule"),
        ({"profile": "georgian-club", "hisht_penalty": "300"}, "hisht_penalty"),
        ({"profile": "live-games", "scoring": "elsewhere"}, "scoring"),
        ({"profile": "japanese", "target": "12"}, "target"),
        ({"profile": "japanese", "target": ""}, "target"),
        ({"profile": "japanese", "target": "21", "turn_seconds": "7"}, "turn_seconds"),
        ({"profile": "japanese", "target": "21", "turn_seconds": "x"}, "turn_seconds"),
    ],
)
def test_bad_values_give_a_form_error_and_create_nothing(signed_in, data, field):
    club = {"schedule": "classic", "hisht_penalty": "200"}
    posted = {**club, "turn_seconds": "30", **data}

    response = signed_in.post(CREATE, posted)

    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not Table.objects.exists()
    assert 'id="table-form"' in response.content.decode()


def test_creating_needs_a_signed_in_user_and_a_post(client, signed_in):
    anonymous = Client()
    response = anonymous.post(CREATE, form_data("japanese", {"target": 21}))
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("accounts:login"))

    assert signed_in.get(CREATE).status_code == 405
    assert not Table.objects.exists()


# --- Seats -----------------------------------------------------------------


def test_joining_a_free_seat(user, other_client, other):
    table = services.table_create(user=user, profile="georgian-club")

    response = other_client.post(take_url(table, 2))

    assert response.status_code == 302
    assert response.headers["Location"] == table_url(table)
    assert seats_of(table) == [(user.pk, ""), (None, ""), (other.pk, ""), (None, "")]


def test_joining_a_taken_seat_shows_an_error_and_changes_nothing(
    user, other_client, other
):
    table = services.table_create(user=user, profile="georgian-club")
    services.seat_take(table_id=table.pk, user=other, number=1)
    before = seats_of(table)

    response = other_client.post(take_url(table, 0), {"next": LOBBY})

    assert response.status_code == 302
    assert response.headers["Location"] == LOBBY
    assert error_of(response) == "That did not work: seat 1 is taken."
    assert seats_of(table) == before
    assert "seat 1 is taken" in other_client.get(LOBBY).content.decode()
    # Shown once.
    assert "seat 1 is taken" not in other_client.get(LOBBY).content.decode()


def test_an_error_message_is_shown_on_the_next_page(user, other_client):
    table = services.table_create(user=user, profile="georgian-club")

    response = other_client.post(take_url(table, 0), follow=True)

    assert "seat 1 is taken" in response.content.decode()


def test_a_refused_action_never_redirects_to_another_site(user, other_client):
    table = services.table_create(user=user, profile="georgian-club")

    response = other_client.post(take_url(table, 0), {"next": "https://evil.example/"})

    assert response.headers["Location"] == LOBBY


def test_joining_a_table_that_does_not_exist(other_client):
    response = other_client.post(reverse("games:seat-take", args=[999, 0]))

    assert error_of(response) == "That did not work: there is no table 999."


def test_leaving_a_table(user, other_client, other):
    table = services.table_create(user=user, profile="georgian-club")
    services.seat_take(table_id=table.pk, user=other, number=3)

    response = other_client.post(leave_url(table))

    assert response.headers["Location"] == LOBBY
    assert seats_of(table)[3] == (None, "")
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_the_last_person_out_closes_the_table(signed_in, user):
    table = services.table_create(user=user, profile="georgian-club")

    signed_in.post(leave_url(table))

    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert not signed_in.get(LOBBY).context["open_rows"]


def test_leaving_a_table_you_are_not_at(user, other_client):
    table = services.table_create(user=user, profile="georgian-club")

    response = other_client.post(leave_url(table))

    assert error_of(response) == "That did not work: you have no seat at this table."


def test_the_lobby_offers_the_practice_bot_at_three_levels(signed_in, user):
    table = services.table_create(user=user, profile="georgian-club")
    page = signed_in.get("/lobby/").content.decode()
    assert bot_url(table, 1) in page
    offered = re.findall(r'<option value="(\w+)">([^<]+)</option>', page)
    bots = [value for value, _ in offered if value in Seat.Bot.values]
    assert bots[:4] == ["practice", "easy", "strong", "autopilot"]


@pytest.mark.parametrize("bot", ["practice", "easy", "strong", "autopilot"])
def test_adding_and_removing_a_bot(signed_in, user, bot):
    table = services.table_create(user=user, profile="georgian-club")

    response = signed_in.post(bot_url(table, 1), {"bot": bot})

    assert response.headers["Location"] == table_url(table)
    assert seats_of(table)[1] == (None, bot)

    response = signed_in.post(remove_bot_url(table, 1))

    assert response.headers["Location"] == table_url(table)
    assert seats_of(table)[1] == (None, "")


def test_only_players_at_the_table_manage_bots(user, other_client):
    table = services.table_create(user=user, profile="georgian-club")
    services.seat_add_bot(table_id=table.pk, user=user, number=2)
    before = seats_of(table)

    response = other_client.post(bot_url(table, 1), {"bot": "practice"})
    assert (
        error_of(response)
        == "That did not work: only a player at the table can seat a bot."
    )
    response = other_client.post(remove_bot_url(table, 2))
    assert (
        error_of(response)
        == "That did not work: only a player at the table can remove a bot."
    )
    assert seats_of(table) == before


def test_an_unknown_bot_is_refused(signed_in, user):
    table = services.table_create(user=user, profile="georgian-club")

    response = signed_in.post(bot_url(table, 1), {"bot": "genius"})

    assert error_of(response) == "That did not work: there is no bot 'genius'."
    assert seats_of(table)[1] == (None, "")


def test_seat_actions_need_a_signed_in_post(client, user):
    table = services.table_create(user=user, profile="georgian-club")

    for url in (
        take_url(table, 1),
        bot_url(table, 1),
        remove_bot_url(table, 1),
        leave_url(table),
    ):
        response = client.post(url)
        assert response.status_code == 302
        assert response.headers["Location"].startswith(reverse("accounts:login"))
    client.force_login(user)
    assert client.get(take_url(table, 1)).status_code == 405
    assert seats_of(table)[1] == (None, "")


def test_the_lobby_offers_the_seat_buttons(signed_in, user, other):
    table = services.table_create(user=user, profile="georgian-club")
    services.seat_add_bot(table_id=table.pk, user=user, number=1)
    theirs = services.table_create(user=other, profile="japanese")

    content = signed_in.get(LOBBY).content.decode()

    assert leave_url(table) in content
    assert remove_bot_url(table, 1) in content
    assert bot_url(table, 2) in content
    assert take_url(table, 2) in content
    assert take_url(theirs, 1) in content
    assert bot_url(theirs, 1) not in content
    assert take_url(theirs, 0) not in content


# --- Starting the game -----------------------------------------------------


def test_the_game_starts_when_the_last_seat_fills(user, other_client, other):
    table = services.table_create(user=user, profile="japanese")

    response = other_client.post(take_url(table, 1))

    assert response.headers["Location"] == table_url(table)
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.PLAYING
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_a_bot_in_the_last_seat_starts_the_game(signed_in, user, other):
    table = services.table_create(user=user, profile="georgian-club")
    services.seat_take(table_id=table.pk, user=other, number=1)
    services.seat_add_bot(table_id=table.pk, user=user, number=2)

    response = signed_in.post(bot_url(table, 3), {"bot": "autopilot"})

    assert response.headers["Location"] == table_url(table)
    assert Game.objects.filter(table=table).exists()


def test_games_in_progress_link_to_their_table(signed_in, user):
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1)

    response = signed_in.get(LOBBY)

    assert [row.table for row in response.context["your_rows"]] == [table]
    assert not response.context["open_rows"]
    content = response.content.decode()
    assert table_url(table) in content
    assert "Go to the game" in content


def test_a_started_table_refuses_seat_changes(signed_in, user):
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1)

    response = signed_in.post(remove_bot_url(table, 1))

    assert (
        error_of(response)
        == "That did not work: the game at this table has already begun."
    )


# --- Private tables --------------------------------------------------------


def test_a_private_table_is_not_listed_publicly(client, user, other_client):
    table = services.table_create(user=user, profile="japanese", is_private=True)

    assert not client.get(LOBBY).context["open_rows"]
    assert not other_client.get(LOBBY).context["open_rows"]
    assert table.invite_code not in other_client.get(LOBBY).content.decode()


def test_the_creator_sees_the_invite_link(signed_in, user):
    table = services.table_create(user=user, profile="japanese", is_private=True)

    response = signed_in.get(LOBBY)

    invite = "http://testserver" + reverse("games:invite", args=[table.invite_code])
    assert response.context["your_rows"][0].invite_url == invite
    assert invite in response.content.decode()


def test_a_private_table_is_joined_by_its_invite_link(user, other_client, other):
    table = services.table_create(user=user, profile="georgian-club", is_private=True)
    invite = reverse("games:invite", args=[table.invite_code])

    page = other_client.get(invite)
    assert page.status_code == 200
    content = page.content.decode()
    assert take_url(table, 1) in content
    assert f'name="invite" value="{table.invite_code}"' in content

    response = other_client.post(
        take_url(table, 1), {"invite": table.invite_code, "next": invite}
    )

    assert response.headers["Location"] == table_url(table)
    assert seats_of(table)[1] == (other.pk, "")


def test_a_private_table_is_not_joined_without_its_invite_code(user, other_client):
    table = services.table_create(user=user, profile="georgian-club", is_private=True)

    for code in ("", "wrong"):
        response = other_client.post(take_url(table, 1), {"invite": code})
        assert "join it with its invite link" in error_of(response)
    assert seats_of(table)[1] == (None, "")


def test_players_of_a_private_table_move_without_the_code(signed_in, user):
    table = services.table_create(user=user, profile="georgian-club", is_private=True)

    signed_in.post(take_url(table, 3))

    assert seats_of(table)[3] == (user.pk, "")


def test_anonymous_visitors_of_an_invite_link_are_asked_to_sign_in(client, user):
    table = services.table_create(user=user, profile="japanese", is_private=True)
    invite = reverse("games:invite", args=[table.invite_code])

    content = client.get(invite).content.decode()

    assert f"{reverse('accounts:login')}?next={invite}" in content
    assert take_url(table, 1) not in content


def test_an_unknown_invite_code_is_not_found(client):
    assert client.get(reverse("games:invite", args=["nope"])).status_code == 404


def test_the_invite_page_of_a_started_game(user, other_client):
    table = services.table_create(user=user, profile="japanese", is_private=True)
    services.seat_add_bot(table_id=table.pk, user=user, number=1)

    content = other_client.get(
        reverse("games:invite", args=[table.invite_code])
    ).content.decode()

    assert "already begun" in content
    assert take_url(table, 1) not in content


# --- Live updates ----------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_announces_a_new_table():
    user = await database_sync_to_async(UserFactory)()
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=SITE_HEADERS)
    connected, _ = await socket.connect()
    assert connected
    try:

        def create():
            client = Client()
            client.force_login(user)
            return client.post(CREATE, form_data("japanese", {"target": 11}))

        response = await database_sync_to_async(create)()
        assert response.status_code == 302

        assert await socket.receive_json_from(timeout=5) == {"type": "lobby"}
    finally:
        await socket.disconnect()
