"""The live-play services: tables and seats, moves, timers, leaving, fairness."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings

from common import redis_roles
from common.errors import ApplicationError, NotAllowed, NotFound
from games import services
from games.errors import NotPlaying, StaleVersion
from games.fairness import digest
from games.live import leases, outside
from games.models import DealRecord, Game, GameEvent, Seat, Table
from joker.cards import JOKERS
from tests.factories import UserFactory
from tests.games.helpers import (
    abort,
    advance_overdue,
    assert_replays,
    frozen,
    is_over,
    play_out,
    play_until,
    resign,
    seat_user,
    snapshot,
    start_game,
    start_table,
    time_out_to_the_end,
)
from tests.games.helpers import act as send_action

pytestmark = pytest.mark.django_db

SECOND = timedelta(seconds=1)


def turn_user(game):
    return seat_user(game, game.engine_state().turn)


def other_user(game):
    state = game.engine_state()
    return seat_user(game, (state.turn + 1) % state.players)


def act(game, user, action, *, version=None, client_id="c1"):
    return send_action(
        game_id=game.pk,
        user=user,
        action=action,
        expected_version=game.version if version is None else version,
        client_id=client_id,
    )


def assert_refused(game, user, action, code, **kwargs):
    before = frozen(game)
    with pytest.raises(ApplicationError) as refusal:
        act(game, user, action, **kwargs)
    assert refusal.value.code == code
    assert frozen(game) == before


def event_versions(game):
    return list(game.events.values_list("version", flat=True))


# Tables and seats


@pytest.mark.parametrize(
    "profile, options, turn_seconds, code",
    [
        ("chess", {}, 30, "bad_options"),
        ("japanese", {"target": 12}, 30, "bad_options"),
        ("japanese", "target=11", 30, "bad_options"),
        ("georgian-club", {"schedule": "tens"}, 30, "bad_options"),
        ("georgian-club", {"pairs": "yes"}, 30, "bad_options"),
        ("georgian-tvaladze", {"pairs": True}, 30, "bad_options"),
        ("live-games", {"scoring": "home"}, 30, "bad_options"),
        ("japanese", {}, 7, "refused"),
        ("japanese", {}, "30", "refused"),
        ("japanese", {}, True, "refused"),
        ("japanese", {}, 0, "refused"),
    ],
)
def test_table_create_refuses_bad_options(user, profile, options, turn_seconds, code):
    with pytest.raises(ApplicationError) as refusal:
        services.table_create(
            user=user, profile=profile, options=options, turn_seconds=turn_seconds
        )
    assert refusal.value.code == code
    assert not Table.objects.exists()
    assert not Seat.objects.exists()


def test_table_create_seats_the_creator_and_fills_in_default_options(user):
    table = services.table_create(user=user, profile="georgian-club")
    assert table.status == Table.Status.OPEN
    assert table.options == {
        "schedule": "classic",
        "hisht_penalty": "200",
        "deductions": True,
        "pairs": False,
    }
    seats = list(table.seats.values_list("number", "user"))
    assert seats == [(0, user.pk), (1, None), (2, None), (3, None)]

    watcher = services.table_create(user=user, profile="japanese", take_seat=False)
    assert not watcher.seats.filter(user__isnull=False).exists()


def test_seats_are_taken_moved_and_left(user):
    table = services.table_create(user=user, profile="georgian-club")
    other = UserFactory()
    with pytest.raises(NotAllowed):
        services.seat_take(table_id=table.pk, user=other, number=0)
    with pytest.raises(NotFound):
        services.seat_take(table_id=table.pk, user=other, number=4)
    services.seat_take(table_id=table.pk, user=other, number=1)
    services.seat_take(table_id=table.pk, user=other, number=2)
    assert dict(table.seats.values_list("number", "user")) == {
        0: user.pk,
        1: None,
        2: other.pk,
        3: None,
    }
    stranger = UserFactory()
    with pytest.raises(NotAllowed):
        services.seat_add_bot(table_id=table.pk, user=stranger, number=1)
    with pytest.raises(ApplicationError):
        services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="genius")
    services.seat_add_bot(table_id=table.pk, user=other, number=1)
    services.seat_remove_bot(table_id=table.pk, user=user, number=1)
    assert table.seats.get(number=1).is_empty

    services.seat_leave(table_id=table.pk, user=other)
    with pytest.raises(NotAllowed):
        services.seat_leave(table_id=table.pk, user=other)
    services.seat_leave(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert not Game.objects.exists()


def test_the_game_starts_when_the_last_seat_is_filled():
    table, (first, second) = start_table("japanese", people=2, turn_seconds=45)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.PLAYING
    assert game.version == 1
    assert list(game.events.values_list("version", "kind")) == [(1, "deal")]
    deal = DealRecord.objects.get(game=game)
    assert deal.index == 0 and [len(hand) for hand in deal.hands] == [8, 8]
    assert game.engine_state().phase == "trump"
    assert game.deadline - game.started_at == pytest.approx(
        timedelta(seconds=45), abs=SECOND
    )
    with pytest.raises(NotAllowed):
        services.seat_leave(table_id=table.pk, user=second)


def test_a_table_with_bots_starts_at_once(user):
    table = services.table_create(user=user, profile="georgian-club")
    for number in (1, 2, 3):
        assert not Game.objects.exists()
        services.seat_add_bot(table_id=table.pk, user=user, number=number)
    assert Game.objects.get(table=table).version == 1


# Moves


def test_a_legal_action_bumps_the_version_and_appends_an_event(japanese):
    state = japanese.engine_state()
    answer = act(japanese, turn_user(japanese), {"trump": "H"})
    japanese.refresh_from_db()
    assert answer == {"version": 2}
    assert japanese.version == 2
    event = japanese.events.get(version=2)
    assert (event.kind, event.seat, event.cause) == ("action", state.turn, "player")
    assert event.action == {"seat": state.turn, "trump": "H"}
    assert event.public == [{"type": "trump", "seat": state.turn, "trump": "H"}]
    assert japanese.engine_state().trump == "H"


def test_events_have_consecutive_versions_across_deals(club):
    game = play_until(club, lambda g: g.engine_state().deal_index == 1)
    assert event_versions(game) == list(range(1, game.version + 1))
    kinds = list(game.events.values_list("kind", flat=True))
    # A deal, trump, four bids, 36 cards, and the next deal in the same step
    # as the last card.
    assert kinds == ["deal"] + ["action"] * (1 + 4 + 36) + ["deal"]
    assert game.cards_played == 36
    assert DealRecord.objects.filter(game=game).count() == 2


def test_a_card_not_held_is_illegal(japanese):
    game = play_until(japanese, lambda g: g.engine_state().phase == "card")
    state = game.engine_state()
    opponents_card = next(c for c in state.hands[1 - state.turn] if c not in JOKERS)
    assert_refused(game, turn_user(game), {"card": opponents_card}, "illegal")


def test_a_face_down_card_is_not_playable(japanese):
    game = play_until(japanese, lambda g: g.engine_state().phase == "card")
    state = game.engine_state()
    face_down = next(d for d, _ in state.columns[state.turn] if d not in JOKERS)
    assert_refused(game, turn_user(game), {"card": face_down}, "illegal")


def holds_a_card_it_may_not_play(game):
    state = game.engine_state()
    if state.phase != "card" or not state.trick:
        return False
    legal = {choice["card"] for choice in snapshot(game, state.turn)["view"]["legal"]}
    return any(card not in legal for card in state.hands[state.turn])


def test_not_following_suit_is_illegal(club):
    game = play_until(club, holds_a_card_it_may_not_play)
    state = game.engine_state()
    legal = {choice["card"] for choice in snapshot(game, state.turn)["view"]["legal"]}
    wrong = next(card for card in state.hands[state.turn] if card not in legal)
    assert wrong not in JOKERS
    assert_refused(game, turn_user(game), {"card": wrong}, "illegal")


def test_the_dealers_forbidden_bid_is_illegal(club):
    def dealer_bids(game):
        state = game.engine_state()
        return state.phase == "bid" and state.turn == state.dealer

    game = play_until(club, dealer_bids)
    state = game.engine_state()
    forbidden = state.cards_each - sum(bid for bid in state.bids if bid is not None)
    legal = snapshot(game, state.turn)["view"]["legal"]
    assert {"bid": forbidden} not in legal
    assert all(set(choice) == {"bid"} for choice in legal)
    assert_refused(game, turn_user(game), {"bid": forbidden}, "illegal")


@pytest.mark.parametrize(
    "action, code",
    [
        ({"bid": 1}, "wrong_action"),
        ({"card": "AS"}, "wrong_action"),
        ({"trump": "purple"}, "illegal"),
        ({"trump": "H", "seat": 1}, "bad_action"),
        (["trump", "H"], "bad_action"),
        ({"card": "X1"}, "bad_record"),
        ({"bid": "2"}, "bad_record"),
        ({"resign": True}, "bad_action"),
    ],
)
def test_a_wrong_action_changes_nothing(japanese, action, code):
    assert_refused(japanese, turn_user(japanese), action, code)


def test_an_action_out_of_turn_is_refused(japanese):
    assert_refused(japanese, other_user(japanese), {"trump": "H"}, "wrong_seat")


def test_a_stranger_cannot_act(japanese):
    assert_refused(japanese, UserFactory(), {"trump": "H"}, "not_allowed")


@pytest.mark.parametrize("offset", [-1, 1])
def test_a_stale_version_is_refused(japanese, offset):
    before = frozen(japanese)
    with pytest.raises(StaleVersion):
        act(
            japanese,
            turn_user(japanese),
            {"trump": "H"},
            version=japanese.version + offset,
        )
    assert frozen(japanese) == before


def test_a_repeated_action_id_gets_the_first_answer(japanese):
    user = turn_user(japanese)
    first = act(japanese, user, {"trump": "H"}, client_id="a17")
    after = frozen(japanese)
    again = act(japanese, user, {"trump": "S"}, version=1, client_id="a17")
    assert again == first == {"version": 2}
    assert frozen(japanese) == after
    assert GameEvent.objects.filter(game=japanese, client_id="a17").count() == 1


# Timers


def test_advance_overdue_waits_for_the_deadline(japanese):
    before = frozen(japanese)
    early = japanese.deadline - SECOND
    assert not advance_overdue(game_id=japanese.pk, version=1, now=early)
    assert frozen(japanese) == before


def test_advance_overdue_ignores_an_old_version(japanese):
    act(japanese, turn_user(japanese), {"trump": "H"})
    before = frozen(japanese)
    late = japanese.deadline + timedelta(hours=1)
    assert not advance_overdue(game_id=japanese.pk, version=1, now=late)
    assert frozen(japanese) == before


def test_advance_overdue_moves_once_for_a_timed_out_player(japanese):
    deadline, turn = japanese.deadline, japanese.engine_state().turn
    for _ in range(2):
        advance_overdue(game_id=japanese.pk, version=1, now=deadline)
    japanese.refresh_from_db()
    assert event_versions(japanese) == [1, 2]
    event = japanese.events.get(version=2)
    assert (event.seat, event.cause) == (turn, "timeout")
    # The next move gets a fresh timer from the moment of this one.
    assert japanese.deadline == deadline + timedelta(seconds=30)


def test_a_bot_moves_after_a_short_wait(user):
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot="autopilot")
    game = play_until(
        Game.objects.get(table=table), lambda g: g.engine_state().turn == 1
    )
    before = game.version
    assert game.deadline - game.events.last().created_at < timedelta(
        seconds=settings.PULKA_BOT_MOVE_SECONDS + 1
    )
    assert advance_overdue(game_id=game.pk, version=before, now=game.deadline)
    assert game.events.get(version=before + 1).cause == "bot"


@pytest.mark.parametrize("level", ["easy", "practice", "strong"])
def test_a_practice_bots_move_keeps_its_thinking_time(user, level):
    table = services.table_create(user=user, profile="japanese")
    services.seat_add_bot(table_id=table.pk, user=user, number=1, bot=level)
    game = play_until(
        Game.objects.get(table=table), lambda g: g.engine_state().turn == 1
    )
    before = game.version
    assert advance_overdue(game_id=game.pk, version=before, now=game.deadline)
    move = game.events.get(version=before + 1)
    assert (move.seat, move.cause) == (1, "bot")
    assert move.thinking_ms is not None
    # The autopilot's and a person's moves are not thought about.
    assert not game.events.exclude(version=before + 1).exclude(thinking_ms=None)


@pytest.mark.parametrize("bot", ["", "expert", "person"])
def test_only_the_known_bots_may_be_seated(user, bot):
    table = services.table_create(user=user, profile="japanese")
    with pytest.raises(ApplicationError, match="there is no bot"):
        services.seat_add_bot(table_id=table.pk, user=user, number=1, bot=bot)
    assert not Seat.objects.filter(table=table, number=1).exclude(bot="").exists()


def test_the_sweep_hands_over_the_games_no_server_owns(japanese):
    owned = start_game("japanese", people=2)
    lease = redis_roles.client("live")
    lease.set(leases.owner_key(owned.pk), "hall.elsewhere", px=60_000)
    try:
        assert outside.unowned([japanese.pk, owned.pk]) == [japanese.pk]
        assert outside.hand_over_unowned() == 1
    finally:
        lease.delete(leases.owner_key(owned.pk))
        lease.close()


# Leaving and aborting


def test_resigning_a_japanese_match_loses_it(japanese):
    seat = japanese.engine_state().turn
    loser, winner = seat_user(japanese, seat), seat_user(japanese, 1 - seat)
    assert resign(game_id=japanese.pk, user=loser) == {"version": 2}
    japanese.refresh_from_db()
    assert japanese.status == Game.Status.FINISHED
    assert japanese.result["winners"] == [1 - seat]
    assert japanese.result["left"] == [seat]
    assert japanese.table.status == Table.Status.FINISHED
    assert japanese.deadline is None
    assert_replays(japanese)
    with pytest.raises(NotPlaying):
        resign(game_id=japanese.pk, user=loser)
    assert_refused(japanese, winner, {"trump": "H"}, "not_playing")


def test_a_leaver_is_played_by_a_bot_and_placed_last():
    game = start_game("georgian-club", {"schedule": "nines"}, people=2)
    leaver = seat_user(game, 1)
    resign(game_id=game.pk, user=leaver)
    assert Seat.objects.get(table_id=game.table_id, number=1).left
    assert_refused(game, leaver, {"bid": 0}, "not_allowed")
    with pytest.raises(NotAllowed):
        resign(game_id=game.pk, user=leaver)

    game = play_until(game, lambda g: g.engine_state().turn == 1)
    version = game.version
    assert advance_overdue(game_id=game.pk, version=version, now=game.deadline)
    assert game.events.get(version=version + 1).seat == 1
    assert game.events.get(version=version + 1).cause == "bot"

    play_out(game.pk)
    game.refresh_from_db()
    assert game.result["places"][1] == 4
    assert game.result["left"] == [1]
    assert_replays(game)


def test_a_game_can_be_aborted_before_the_first_card(japanese):
    game = play_until(japanese, lambda g: g.engine_state().phase == "card")
    with pytest.raises(NotAllowed):
        abort(game_id=game.pk, user=UserFactory())
    abort(game_id=game.pk, user=other_user(game))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.table.status == Table.Status.ABORTED
    assert game.deadline is None
    assert game.events.last().kind == "abort"
    assert game.events.last().version == game.version
    assert_refused(game, turn_user(game), {"card": "AS"}, "not_playing")


def test_a_game_cannot_be_aborted_after_the_first_card(japanese):
    game = play_until(japanese, lambda g: g.cards_played == 1)
    before = frozen(game)
    with pytest.raises(NotAllowed):
        abort(game_id=game.pk, user=turn_user(game))
    assert frozen(game) == before


# Whole games: records and fairness


@pytest.mark.slow
@pytest.mark.parametrize(
    "profile, options, people",
    [
        ("japanese", {"target": 11}, 2),
        ("georgian-club", {"schedule": "nines", "pairs": True}, 1),
    ],
)
def test_a_finished_game_replays_and_its_deals_were_committed(profile, options, people):
    game = play_until(start_game(profile, options, people=people), is_over)
    assert_replays(game)
    assert event_versions(game) == list(range(1, game.version + 1))

    announced = [
        event.public[0]["commitment"] for event in game.events.filter(kind="deal")
    ]
    shown = snapshot(game, None)
    assert shown["commitments"] == announced
    assert len(shown["reveal"]) == len(announced) == game.deal_records.count()
    for reveal, record in zip(shown["reveal"], game.deal_records.all(), strict=True):
        assert digest(reveal["preimage"]) == reveal["commitment"]
        cards = json.loads(reveal["preimage"])
        assert cards["deal"] == record.index
        assert cards["hands"] == record.hands
        assert cards["columns"] == record.columns
        assert cards["turned"] == (record.turned or None)
        assert cards["salt"] == record.salt


def test_a_game_played_out_in_process_is_written_as_its_owner_writes_it():
    game = start_game("georgian-club", {"schedule": "nines"}, people=2)
    time_out_to_the_end(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert_replays(game)
    assert event_versions(game) == list(range(1, game.version + 1))
    assert game.deal_records.count() == len(game.engine_state().deals)
    # Every move was the timer's: nobody's client sent one.
    assert not game.events.filter(kind="action", cause=GameEvent.Cause.PLAYER)


def test_nothing_is_revealed_while_playing(japanese):
    assert "reveal" not in snapshot(japanese, 0)
    assert GameEvent.objects.filter(game=japanese).count() == 1
