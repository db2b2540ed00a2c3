"""``hearts replay``: what the command prints for a game record or a move log, as lines.

The command line parses the options and prints; everything between is here:
:func:`read_input` reads the file, stdin or ``--moves`` (size-limited before
reading), :func:`open_game` tells a record from a move log and re-plays it,
:func:`check` refuses options that do not fit the game, and :func:`output` gives
the lines to print: the story (:mod:`~hearts_cli.records.story`, worded by
:mod:`~hearts_cli.records.sentences`), the table at a position
(:mod:`~hearts_cli.records.positions`) or the analysis
(:mod:`~hearts_cli.records.analysis`), as text or JSON. A problem a person can
cause is a :class:`~hearts_cli.model.errors.HeartsError` (one sentence, exit status 2).

The names of the modules it joins are importable from here too (``narrate``,
``game_at``...), as they were before the split, but for the analysis's
(``analyze``, ``summary``...), the weighing's (``evaluate_play``...) and the
wording's (``describe``...): :mod:`~hearts_cli.records.analysis` (with
:mod:`~hearts_cli.records.evaluate` and ``random``) is imported only when
``--analyze`` asks for it, and :mod:`~hearts_cli.records.sentences` only for
text, a millisecond or so of every replay's start each.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.untrusted import LIMITS, TooBig, read_text
from ..base.values import Plain
from ..model.codes import normalize_code
from ..model.errors import HeartsError
from ..model.rules import Rules
from ..play.events import Decision as DecisionEvent
from ..play.events import Event, Stop, Summary
from ..text.catalog import os_problem, t
from .pbn import is_pbn, read_pbn, write_pbn
from .positions import NoPositionError, game_at, table_at, view_event
from .record import GameRecord, save_record
from .record_parts import DEFAULT_SIMULATIONS
from .record_reader import looks_like_record, read_record
from .story import narrate

if TYPE_CHECKING:  # the analysis only for --analyze (start-up); Mapper is the type checker's only
    from .analysis import Decision, Mapper

__all__ = [
    "DEFAULT_SIMULATIONS",
    "Event",
    "NoPositionError",
    "Options",
    "Styled",
    "check",
    "game_at",
    "narrate",
    "open_game",
    "output",
    "read_input",
    "table_at",
    "view_event",
]

Styled = tuple[str, str | None]  # a line to print, and its style on a colour terminal (rich's)
Progress = Callable[[int, int], None]

# how the story's events stand out on a colour terminal (the round header is the deal)
STYLES = {"deal": "bold", "game_end": "bold", "moon": "bold magenta", "queen": "red",
          "moon_attempt": "magenta", "moon_stopped": "magenta", "hearts_broken": "red"}
GLYPH_STYLES = {"??": "bold red", "?": "yellow", "!": "green"}


class Options(Plain):
    """The options of ``hearts replay`` that shape what it prints (see ``hearts replay --help``)."""

    __match_args__ = ("seat", "at", "all_hands", "analyze", "simulations", "seed", "annotate_to",
                      "as_json", "lang", "ascii")

    def __init__(self, *, seat: int | None = None, at: str | None = None, all_hands: bool = False,
                 analyze: bool = False, simulations: int | None = None, seed: int = 0,
                 annotate_to: str | None = None, as_json: bool = False, lang: str | None = None,
                 ascii: bool = False):
        self.seat = seat
        self.at = at
        self.all_hands = all_hands
        self.analyze = analyze
        self.simulations = DEFAULT_SIMULATIONS if simulations is None else simulations
        self.seed = seed
        self.annotate_to = annotate_to
        self.as_json = as_json
        self.lang = lang
        self.ascii = ascii

    def seats(self) -> list[int] | None:
        """The seats weighed and summed up: the one of ``--seat``, or every one (None)."""
        return None if self.seat is None else [self.seat]


def read_input(source: str | None, moves: str | None, lang: str | None,
               ascii: bool = False) -> tuple[str, str | None]:
    """The text to replay and its path (None for stdin or ``--moves``): ``source`` a file
    or ``-`` (stdin), or ``moves`` a move log given as a string; exactly one of them.
    The size is checked before reading: a huge file or an endless stream costs nothing."""

    if source is not None and moves is not None:
        raise HeartsError("rp_cli_two_logs")
    if source is None:
        if moves is None:
            raise HeartsError("rp_cli_no_source")
        return moves, None
    limit = max(LIMITS["record"], LIMITS["move_log"])  # a record or a move log: read first, then told apart
    try:
        text = read_text(sys.stdin if source == "-" else source, limit)
    except TooBig:
        if source == "-":
            raise HeartsError("cli_stdin_too_big", limit=limit) from None
        problem = t("input_too_big", lang, ascii=ascii, limit=limit)
        raise HeartsError("cli_bad_file", path=source, problem=problem) from None
    except OSError as e:
        raise HeartsError("cli_bad_file", path=source, problem=os_problem(e, lang)) from None
    except UnicodeDecodeError:
        problem = t("record_not_utf8", lang, ascii=ascii)
        raise HeartsError("cli_bad_file", path=source, problem=problem) from None
    return text, source if source != "-" else None


def open_game(text: str, path: str | None, code: str | None = None,
              rules: Callable[[], Rules] | None = None, game: int | None = None) -> GameRecord:
    """The game in ``text``: a record (it has a ``format:`` line) read and checked, or a
    move log played through the engine with ``code`` and the rules ``rules`` makes
    (None: no rules were given on the command line). A record names its own code and
    rules: giving either with one is refused."""

    if is_pbn(text):  # a PBN-style record (docs/pbn.md)
        if code is not None or rules is not None:
            raise HeartsError("rp_cli_code_with_record", path=path or "-")

        return read_pbn(text, path, game)
    if game is not None:
        raise HeartsError("rp_game_pbn_only")
    if looks_like_record(text):  # a game record (its `format:` line, or the line hearts writes first)
        if code is not None or rules is not None:
            raise HeartsError("rp_cli_code_with_record", path=path or "-")
        return read_record(Path(path) if path else text)
    from .movelog import replay_log  # only when asked for: start-up of the commands that do not

    rule_set = rules() if rules is not None else None
    logged = replay_log(text, normalize_code(code) if code is not None else None, rule_set)
    return GameRecord.from_game(logged.game)


def exported(record: GameRecord, fmt: str) -> str:
    """``record``'s game as another program reads it: ``pbn`` (docs/pbn.md) or ``openspiel``
    (one JSON line of OpenSpiel's actions a round; refused for rules OpenSpiel cannot play)."""
    if fmt == "pbn":
        return write_pbn(record)
    from .openspiel import write_openspiel  # only when asked for: start-up of the commands that do not

    return write_openspiel(record.replay())


def check(record: GameRecord, options: Options) -> None:
    """Refuse options that do not fit the game (a seat it does not have...) before any work."""
    n = record.rules.players
    seat = options.seat
    if seat is not None and not 0 <= seat < n:
        raise HeartsError("cli_bad_seat", seat=seat, players=n)
    if options.all_hands and seat is not None:
        raise HeartsError("rp_cli_seat_needs")
    target = options.annotate_to
    if target is not None:
        if not target.strip():
            raise HeartsError("cli_no_file_name", option="--annotate-to")
        if os.path.isdir(target):
            problem = t("os_is_directory", options.lang, ascii=options.ascii)
            raise HeartsError("cli_cannot_write", path=target, problem=problem)


def output(record: GameRecord, options: Options, progress: Progress | None = None,
           mapper: Mapper | None = None) -> list[Styled]:
    """Everything ``hearts replay`` prints on stdout for ``record``, in order: the table at
    ``--at``, or the story (with the analysis and its summary under ``--analyze``, and
    the table where a partial log stops). ``--annotate-to`` is written before anything is
    returned; ``progress(done, total)`` is told of the analysis as it goes, whose decisions
    ``mapper`` (an ordered map: worker processes) may weigh side by side, to the same result."""
    if options.at is not None:
        return _position(record, options)
    decisions: list[Decision] = []
    rows: list[Summary] = []
    if options.analyze:
        from .analysis import METHOD_TWO, analyze, summary  # weighing every decision: for --analyze only

        if options.simulations < 1:
            raise HeartsError("sim_at_least_one", option="--simulations", value=options.simulations)
        decisions = analyze(record, options.seats(), seed=options.seed, simulations=options.simulations,
                            progress=progress, mapper=mapper)
        two = METHOD_TWO if record.rules.decks > 1 else None  # how it was weighed
        rows = summary(decisions, record.rules.players, options.seats(), two)
    events = narrate(record, options.seat, decisions)
    if options.annotate_to is not None:
        _annotate(record, decisions, options)
    if options.as_json:
        return _json_story(record, options, events, rows)
    return _text_story(record, options, events, rows)


def _position(record: GameRecord, options: Options) -> list[Styled]:
    """``--at``: the table before that move, as lines or as one ``view`` event."""
    game, made = game_at(record, options.at)
    if options.as_json:
        view = view_event(game, options.seat, options.all_hands, made)
        return [(json.dumps(view, ensure_ascii=False), None)]
    from .sentences import describe_table  # only when asked for: start-up of the commands that do not

    table = table_at(game, options.seat, options.all_hands, made)
    return [(line, None) for line in describe_table(table, record, options.lang, options.ascii)]


def _annotate(record: GameRecord, decisions: list[Decision], options: Options) -> None:
    """``--annotate-to``: the record with the marked decisions as annotations, written atomically."""
    from .analysis import annotations_of  # only when asked for: start-up of the commands that do not

    target = options.annotate_to
    assert target is not None
    notes = annotations_of(decisions, options.lang, False, keep=record.annotations)
    try:
        save_record(target, record.replay(), seats=record.seats, annotations=notes)
    except OSError as e:
        raise HeartsError("cli_cannot_write", path=target, problem=os_problem(e, options.lang)) from None


def _json_story(record: GameRecord, options: Options, events: list[Event],
                rows: list[Summary]) -> list[Styled]:
    """``--json``: one object per event, the summary rows, and the view where a partial log stops."""

    encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False)
    lines = [encode(ev.to_json()) for ev in events]
    lines += [encode(row.to_json()) for row in rows]
    if isinstance(events[-1], Stop):
        lines.append(encode(view_event(record.replay(), options.seat, options.all_hands, len(record.moves))))
    return [(line, None) for line in lines]


def _text_story(record: GameRecord, options: Options, events: list[Event],
                rows: list[Summary]) -> list[Styled]:
    """The story in words, each event in its style; the summary; the table where a partial log stops."""
    from .sentences import StoryTeller, describe_table  # the wording: --json needs none

    teller = StoryTeller(record, options.lang, options.ascii)
    out: list[Styled] = []
    for ev in events:
        style = STYLES.get(ev.kind)
        if isinstance(ev, DecisionEvent):
            style = GLYPH_STYLES.get(ev.glyph, "dim")
        out += [(line, style) for line in teller.tell(ev)]
    if rows:
        head = t("rp_summary_head", options.lang, ascii=options.ascii, simulations=options.simulations,
                 seed=options.seed)
        out += [("", "bold"), (head, "bold")]
        if record.rules.decks > 1:
            out.append((t("rp_analysis_two", options.lang, ascii=options.ascii), None))
        for row in rows:
            out += [(line, None) for line in teller.tell(row)]
    if isinstance(events[-1], Stop):
        table = table_at(record.replay(), options.seat, options.all_hands, len(record.moves))
        out += [("", None)] + [(line, None) for line in describe_table(table, record, options.lang,
                                                                          options.ascii)]
    return out
