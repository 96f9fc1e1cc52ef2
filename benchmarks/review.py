"""What a deal review costs: CPU seconds to review one seat's decisions in
one 9-card deal of classic Joker (``georgian-club``) and in one deal of
Japanese Joker at the review's default depth, next to the practice bot's
thinking for the same decisions.

    python benchmarks/review.py [--samples N] [--deals N] [--seat S]
                                [--seed N] [--smoke]

Each sample is a seeded game played by the practice bot at about its
easy level (64 sampled deals a move) in every seat up to the deal
measured (the first 9-card deal of the classic schedule, the first deal
of Japanese Joker). ``review_game`` reviews that deal for ``--seat``
(every decision: trump, bid, cards, jokers' modes, with the hindsight of
the last tricks), and the normal practice bot
(``IsmctsBot(level="normal")`` on the thread's CPU clock) chooses each
of the same decisions from the same positions. Both are timed on the
thread's CPU clock. Target: at most 5 CPU seconds for a classic deal's
review. ``--smoke`` reviews one small sample quickly, to show it runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from joker import make_rules  # noqa: E402
from joker.actions import Bid, NameTrump, PlayCard  # noqa: E402
from joker.bots import IsmctsBot, play_game  # noqa: E402
from joker.record import replay  # noqa: E402
from joker.review import DEFAULT_DEALS, review_game, version  # noqa: E402
from joker.review.game import positions  # noqa: E402

CLOCK = time.thread_time
TARGET = 5.0
# The players' sampled deals a move: about the easy level's.
PLAYERS_DEALS = 64
# The game, and the deal of it measured: the first 9-card deal.
GAMES = {"classic": ("georgian-club", 8), "japanese": ("japanese", 0)}


def sample(
    game: str, seed: int, seat: int, deals: int
) -> tuple[int, int, float, float]:
    """(decisions, forced, review CPU s, bot CPU s) for one seeded deal."""
    profile, index = GAMES[game]
    rules = make_rules(profile, {})
    # Capped by sampled deals, not time, so that the games are the same
    # from one run to the next.
    players = [
        IsmctsBot(budget=1.0, max_iterations=PLAYERS_DEALS, rng=random.Random(seed))
        for _ in range(rules.players)
    ]
    played = play_game(rules, players, random.Random(seed), max_deals=index + 1)
    record = played.record()
    start = CLOCK()
    review = review_game(
        record, seat, deals=deals, seed=seed, only={index}, partial=True
    )
    reviewing = CLOCK() - start
    bot = IsmctsBot(level="normal", rng=random.Random(seed), timer=CLOCK)
    for state, before, action in positions(replay(record)):
        if state.deal_index != index or action.seat != seat:
            continue
        if isinstance(action, NameTrump | Bid | PlayCard):
            bot.choose(state, before)
    forced = sum(d.forced for d in review.decisions)
    return len(review.decisions), forced, reviewing, sum(bot.thinking)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5, help="deals a game")
    parser.add_argument("--deals", type=int, help="depth (the default by game)")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="one small sample")
    args = parser.parse_args()
    if args.smoke:
        args.samples, args.deals = 1, 200
    depth = args.deals or ", ".join(f"{g} {n:,}" for g, n in DEFAULT_DEALS.items())
    print(f"review {version()}, sampled deals a decision: {depth}; seat {args.seat}")
    print("CPU seconds on the thread's clock, one deal reviewed for one seat")
    verdict = 0
    for game in GAMES:
        rows = []
        print(f"{game}:")
        print("  seed  decisions  forced  review s  bot s  review/bot")
        for seed in range(args.seed, args.seed + args.samples):
            decisions, forced, reviewing, thinking = sample(
                game, seed, args.seat, args.deals
            )
            rows.append((reviewing, thinking))
            ratio = reviewing / thinking if thinking else float("inf")
            print(
                f"  {seed:>4}  {decisions:>9}  {forced:>6}  {reviewing:>8.2f}"
                f"  {thinking:>5.2f}  {ratio:>10.1f}x"
            )
        median = statistics.median(r for r, _ in rows)
        worst = max(r for r, _ in rows)
        bot = statistics.median(t for _, t in rows)
        line = (
            f"verdict {game}: review median {median:.2f} CPU s a deal (worst"
            f" {worst:.2f}), the normal bot's thinking {bot:.2f} s"
        )
        if game == "classic":
            met = worst <= TARGET
            verdict |= not met
            line += f" ({'meets' if met else 'misses'} the {TARGET:.0f} s target)"
        print(line)
    return 1 if verdict and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
