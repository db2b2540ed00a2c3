"""The canonical text of a game record: strict and canonical (fixed key order, one hand,
pass or trick per line, never wrapped), so writing the same game twice gives the same
bytes and a one-card change is a one-line diff (docs/record-format.md).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import cast

from ..base.version import __version__
from ..model.cards import Card
from ..model.rules import Moon, Rules
from ..model.rules import Plain as PlainSetting
from ..play.dealt import RoundResult, cards_of_pair
from ..play.game import Game, RoundMoves
from ..play.round import Round
from .record_parts import (
    FORMAT,
    GLYPHS,
    HEADER,
    SEAT_KINDS,
    Annotation,
    MoveAddress,
    Notes,
    Seat,
    _annotation_map,
    default_seats,
)

__all__ = ["write_record"]


@functools.lru_cache(maxsize=4096)
def _plain_ok(text: str) -> bool:
    """Whether ``text`` can be written bare and read back as the same string."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 _.+\-]*", text) or text.endswith(" "):
        return False
    import yaml  # PyYAML is only imported by what writes or reads records

    # a method called on the class: PyYAML's own usage
    resolve = cast("Callable[[type, type, str, tuple[bool, bool]], str]", yaml.SafeLoader.resolve)
    tag = resolve(yaml.SafeLoader, yaml.ScalarNode, text, (True, False))
    return tag == "tag:yaml.org,2002:str"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _quote(text: str) -> str:
    """A double-quoted YAML scalar on one line: every break and unprintable escaped."""
    out = ['"']
    for ch in text:
        o = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif (o < 0x20 or 0x7F <= o <= 0x9F or 0xD800 <= o <= 0xDFFF
              or o in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF)):
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def yaml_scalar(value: object) -> str:
    """A value as one YAML scalar (the record reader echoes a bad value in this form too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if value is None:
        return "~"
    text = str(value)
    return text if _plain_ok(text) else _quote(text)


def yaml_flow(value: object) -> str:
    """One-line YAML for a value: lists and mappings in flow style."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{yaml_scalar(k)}: {yaml_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_flow(v) for v in value) + "]"
    return yaml_scalar(value)


def _cards(cards: Iterable[int]) -> str:
    return "[" + ", ".join(str(Card(c)) for c in cards) + "]"


def _rules_spec(rules: Rules) -> dict[str, PlainSetting]:
    """``{"preset": name, overrides...}`` that loads back to exactly ``rules``."""
    return rules.spec()





def write_record(game: Game, seats: Sequence[Seat] | None = None,
                 annotations: Notes | None = None,
                 program: str | None = None, undos: int = 0, lang: str | None = None) -> str:
    """The canonical record of ``game`` so far (finished or not), as text.

    ``seats`` default to ``Player 1``... (all human); ``annotations`` are keyed
    by :class:`MoveAddress` or its text (``"1.3.2"``); ``undos`` is how many
    moves the person took back (written only when there were any), ``lang`` the language
    it was played in (a save's, written when given). The output
    depends on nothing but these arguments: the same game always gives the
    same bytes.
    """
    rules = game.rules
    seats = _checked_seats(seats, rules.players)
    notes = _checked_notes(annotations)
    if undos and (not isinstance(undos, int) or isinstance(undos, bool) or undos < 0):
        raise ValueError(f"undos must be a whole number from 0, not {undos!r}")
    out = [
        HEADER,
        f"format: {FORMAT}",
        f"program: {yaml_scalar(program or f'hearts {__version__}')}",
        f"code: {_quote(game.code)}",
        "rules:",
    ]
    for key, value in _rules_spec(rules).items():
        out.append(f"  {key}: {yaml_flow(value)}")
    out.append("seats:")
    for i, seat in enumerate(seats):
        item: dict[str, object] = {"seat": i, "name": seat.name, "kind": seat.kind}
        if seat.level is not None:
            item["level"] = seat.level
        out.append(f"  - {yaml_flow(item)}")
    out.append("rounds:")
    for r, rnd in enumerate(game.rounds, 1):
        out.extend(_round_lines(r, rnd, game.round_moves(r), game.results[r - 1] if r <= len(game.results) else None))
    out.append(f"totals: {yaml_flow(game.totals)}")
    if game.over:
        out.append("result:")
        out.append(f"  winners: {yaml_flow(game.winners)}")
        out.append("  standings:")
        for place, seat_no, total in game.standings():
            out.append(f"    - {yaml_flow({'place': place, 'seat': seat_no, 'total': total})}")
    if undos:
        out.append(f"undos: {undos}")
    if lang is not None:
        out.append(f"lang: {yaml_scalar(lang)}")
    out.extend(_annotation_lines(notes))
    return "\n".join(out) + "\n"


def _checked_seats(seats: Sequence[Seat] | None, players: int) -> tuple[Seat, ...]:
    """The seats to write (``Player 1``... by default): a ValueError for a wrong count or a bad seat."""
    chosen = tuple(seats) if seats is not None else default_seats(players)
    if len(chosen) != players:
        raise ValueError(f"{players} seats expected, got {len(chosen)}")
    for i, seat in enumerate(chosen):
        if (not isinstance(seat.name, str) or seat.kind not in SEAT_KINDS
                or not (seat.level is None or isinstance(seat.level, str))):
            raise ValueError(f"seat {i}: {seat!r} is not a name, a kind ({'/'.join(SEAT_KINDS)}) and a level")
    return chosen


def _checked_notes(annotations: Notes | None) -> dict[MoveAddress, Annotation]:
    """The annotations to write, by position: a ValueError for a glyph PGN lacks or a comment not text."""
    notes = _annotation_map(annotations)
    for pos, note in notes.items():
        if note.glyph and note.glyph not in GLYPHS:
            raise ValueError(f"annotation {pos}: glyph {note.glyph!r} is not one of {' '.join(GLYPHS)}")
        if not isinstance(note.comment, str):
            raise ValueError(f"annotation {pos}: the comment must be text")
    return notes


def _annotation_lines(notes: dict[MoveAddress, Annotation]) -> list[str]:
    """The ``annotations:`` block, in the order of the moves (nothing without annotations)."""
    if not notes:
        return []
    out = ["annotations:"]
    for pos in sorted(notes, key=MoveAddress.sort_key):
        note = notes[pos]
        body: dict[str, str] = {}
        if note.glyph:
            body["glyph"] = note.glyph
        if note.comment or not note.glyph:
            body["comment"] = note.comment
        parts = ", ".join(f"{k}: {_quote(v)}" for k, v in body.items())
        out.append(f"  {_quote(str(pos))}: {{{parts}}}")
    return out


def _round_lines(r: int, rnd: Round, moves: RoundMoves, result: RoundResult | None) -> list[str]:
    """Round ``r``'s block: its passes and cards from the move stack (``moves``); the round
    gives what is not a move: the deal, each trick's winner and points, the score."""
    out = [f"  - round: {r}", f"    pass: {rnd.direction.value}", f"    dealer: {rnd.dealer}", "    hands:"]
    for seat, mask in enumerate(rnd.dealt):
        out.append(f"      {seat}: {_cards(cards_of_pair(mask, rnd.dealt_twice[seat]))}")
    if rnd.kitty_mask:
        out.append(f"    kitty: {_cards(cards_of_pair(rnd.kitty_mask, rnd.kitty_twice))}")
    if moves.passed:
        out.append("    passes:")
        for seat, cards in enumerate(moves.passes):
            if cards is not None:
                out.append(f"      {seat}: {_cards(cards)}")
    if moves.tricks:
        out.append("    tricks:")
        for i, (plays, cards) in enumerate(zip(moves.tricks, moves.cards)):
            head = f"      - {{lead: {plays[0].seat}, cards: {_cards(cards)}"
            if i < len(rnd.tricks):  # complete: the round took it
                tr = rnd.tricks[i]
                out.append(f"{head}, won: {'null' if tr.winner is None else tr.winner}, points: {tr.points}}}")
            else:
                out.append(f"{head}}}")
    if result is not None:
        out.append(f"    score: {yaml_flow(result.scores)}")
        if result.shooter is not None:
            out.append(f"    moon: {result.shooter}")
            if rnd.rules.moon is Moon.SHOOTER_CHOICE:
                out.append(f"    moon_choice: {result.moon}")
    return out
