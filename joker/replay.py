"""Replay a game record and print its result: ``python -m joker.replay``.

Exit 0 with the result JSON for a valid record, 1 with an error JSON for a
record that breaks a rule, 2 (nothing on stdout) when the input is not a
record at all. ``-h`` or ``--help`` prints the usage and exits 0.
"""

from __future__ import annotations

import json
import sys

from .record import RecordError, replay, result_json

USAGE = (
    "usage: python -m joker.replay [RECORD.json | -]\n"
    "Replays a game record (from the file, or standard input) and prints its\n"
    "result as JSON. Exit 0: a valid record; 1: a rule broken (the error as\n"
    "JSON); 2: not a game record."
)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(args) > 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        if args and args[0] != "-":
            with open(args[0], encoding="utf-8") as source:
                text = source.read()
        else:
            text = sys.stdin.read()
        record = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"not a game record: {error}", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print("not a game record: the JSON is not an object", file=sys.stderr)
        return 2
    try:
        output = result_json(replay(record).state)
        code = 0
    except RecordError as error:
        output = error.to_json()
        code = 1
    json.dump(output, sys.stdout)
    sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
