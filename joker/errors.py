"""Typed errors. Each carries the record error code of RECORD.md."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: an input the engine refuses. The state is left unchanged."""

    code = "error"


class BadRecord(EngineError):
    """The shape of a record or action is wrong (keys, JSON types, options)."""

    code = "bad_record"


class BadDeal(EngineError):
    """The cards given are not a valid deal for this profile and deal number."""

    code = "bad_deal"


class WrongSeat(EngineError):
    """The action comes from a seat whose turn it is not."""

    code = "wrong_seat"


class WrongAction(EngineError):
    """The right seat, but not the kind of action that is due (or none is)."""

    code = "wrong_action"


class IllegalAction(EngineError):
    """The right seat and kind of action, but against the rules."""

    code = "illegal"
