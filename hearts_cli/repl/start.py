"""A game of one's own opened and played: ``hearts new`` and ``hearts play``.

Two entry points, called by the command line:

* :func:`start_new` deals the new game the command line checked (``hearts new``);
* :func:`resume` continues the saved game exactly where it stopped, or starts
  one with the defaults when there is none (``hearts play``).

With a terminal on stdin and stdout the game runs in a prompt-toolkit session
(:mod:`hearts_cli.repl.session`); otherwise the same commands are read line by
line with plain, deterministic output, or one JSON object per event with
``json_events``. Exit status: 0 when the game finished or was saved, 2 when a move
was refused, 1 when the save is open in another process. A bad option (the new game's
rules, code, level or seat, checked by :meth:`~.new_game.NewGame.of`; the pace) is a
``HeartsError``, raised for the command line's one catch.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from ..text.catalog import LANGUAGES, default_language, os_problem, t

if TYPE_CHECKING:
    from ..play.game import Game
    from ..records.record_parts import Seat
    from ..store.saves import Loaded, Settings, Store
    from .new_game import NewGame
    from .table import Table

Note = str | tuple[str, str]  # said before the game: a sentence, or one that names a file (and the file)

DEFAULT_DELAY = 0.5  # seconds between CPU moves at an interactive table


def start_new(new: NewGame, *, confirm: bool = True, play: bool = True, lang: str | None = None,
              plain: bool = False, json_events: bool = False, delay: float | None = None,
              turn_timer: int | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None,
              screen_reader: bool = False) -> int:
    """Deal the new game ``new`` (checked where it was made: :meth:`NewGame.of`) and play it
    (``play=False``: deal and save it only). Returns the exit status. An unfinished saved game
    is archived first, never lost. A bad pace is a :class:`~hearts_cli.model.errors.HeartsError`,
    raised before anything is touched."""
    lang = _lang(lang)
    _check_options(delay, turn_timer)
    rules, code, seat, level = new.rules, new.code, new.seat, new.level
    from ..play.game import Game
    from .table import make_seats

    def deal(store: Store, previous: Loaded | None) -> int:
        notes: list[Note] = []
        if previous is not None:
            if previous.game.over:
                store.archive(previous.game, previous.seats, undos=previous.undos)
            else:
                where = store.archive(previous.game, previous.seats, unfinished=True, undos=previous.undos)
                notes.append((t("previous_archived", lang, code=previous.game.code), str(where)))
        game = Game(rules, code)
        seats = make_seats(rules.players, seat, level)
        store.save(game, seats, lang=lang)
        return _run(game, seats, store, resumed=False, lang=lang, plain=plain, json_events=json_events,
                    delay=delay, turn_timer=turn_timer, confirm=confirm, play=play,
                    stdin=stdin, stdout=stdout, notes=notes, screen_reader=screen_reader)

    return _with_save(lang, deal)


def resume(*, lang: str | None = None, plain: bool = False, json_events: bool = False,
           delay: float | None = None, turn_timer: int | None = None, confirm: bool | None = None,
           stdin: TextIO | None = None, stdout: TextIO | None = None, screen_reader: bool = False,
           archived: str | None = None, own_language: bool = False) -> int:
    """Continue the saved game where it stopped, without asking; with none, start one with the
    defaults. ``archived``: the code of an unfinished game in the archive, taken back first.
    ``own_language``: a game is played on in the language it was played in (no --lang given)."""
    chosen = _lang(lang)
    _check_options(delay, turn_timer)
    from ..model.codes import new_code
    from ..model.rules import Rules
    from ..play.game import Game
    from .table import make_seats

    def carry_on(store: Store, loaded: Loaded | None) -> int:
        nonlocal confirm
        notes: list[Note] = []
        lang = chosen
        if archived is not None:
            loaded = _take_back(store, archived, loaded, lang, notes)
        if own_language and loaded is not None and not loaded.game.over and loaded.lang is not None:
            lang = _lang(loaded.lang)
        if loaded is not None and loaded.game.over:
            store.archive(loaded.game, loaded.seats, undos=loaded.undos)
            loaded = None
        undos = 0
        if loaded is None:
            from ..store.saves import unfinished_games

            waiting = len(unfinished_games(store.root))
            if waiting:  # no game to go on with: say where the games set aside wait
                notes.append(t("unfinished_waiting", lang, count=waiting))
            rules = Rules.from_spec(None)
            game = Game(rules, new_code())
            seats = make_seats(rules.players, 0, None)
            store.save(game, seats, lang=lang)
            resumed = False
        else:
            game, seats, resumed, undos = loaded.game, loaded.seats, True, loaded.undos
        if confirm is None:
            confirm = bool(store.settings().get("confirm", True))
        return _run(game, seats, store, resumed=resumed, lang=lang, plain=plain,
                    json_events=json_events, delay=delay, turn_timer=turn_timer, confirm=confirm,
                    play=True, stdin=stdin, stdout=stdout, notes=notes, undos=undos, screen_reader=screen_reader)

    return _with_save(chosen, carry_on)


def _take_back(store: Store, code: str, current: Loaded | None, lang: str, notes: list[Note]) -> Loaded:
    """The unfinished game ``code`` of the archive made the saved game (``hearts play --resume``);
    the game saved until then is archived, and a note says where."""
    from ..model.errors import HeartsError
    from ..store.saves import unfinished_games

    found = [path for _, c, path in unfinished_games(store.root) if c == code]
    if not found:
        codes = ", ".join(dict.fromkeys(c for _, c, _ in unfinished_games(store.root)))
        raise HeartsError("resume_not_archived" if codes else "resume_none_archived", code=code, codes=codes)
    loaded, previous = store.take_back(found[0])  # (a record that cannot be read says so, as a record)
    if previous is not None and current is not None and not current.game.over:
        notes.append((t("previous_archived", lang, code=current.game.code), str(previous)))
    return loaded


# ---------------------------------------------------------------- helpers


def _with_save(lang: str, body: Callable[[Store, Loaded | None], int]) -> int:
    """Hold the save's lock while ``body(store, loaded)`` runs.

    ``loaded`` is the saved game, or None when there is none or it was damaged
    (a damaged save is moved aside with a warning, never overwritten). Another
    process holding the lock: one sentence and status 1, nothing touched.
    """
    from ..store.saves import DamagedSave, SaveLocked, Store

    store = Store()
    try:
        store.acquire()
    except SaveLocked:
        return _save_problem(t("open_elsewhere", lang))
    except OSError as e:
        return _save_problem(t("save_dir_problem", lang, path=str(store.root), problem=os_problem(e, lang)))
    try:
        try:
            loaded = store.load()
        except DamagedSave as e:
            _warn(t("damaged_save", lang, path=str(e.moved_to), problem=e.message(lang)))
            loaded = None
        return body(store, loaded)
    except OSError as e:
        # a file in the save directory cannot be written (archive/ or damaged/ is a file, the
        # disk is full...): the save written last is still there, so nothing is lost. Errors
        # with no file name (stdout, a closed pipe) are not the save's: cli.main deals with them.
        if getattr(e, "filename", None) is None or isinstance(e, BrokenPipeError):
            raise
        return _save_problem(t("save_dir_problem", lang, path=str(e.filename), problem=os_problem(e, lang)))
    finally:
        store.release()


def _lang(lang: str | None) -> str:
    from ..store.saves import settings_language

    return lang if lang in LANGUAGES else default_language(settings_language)


def _save_problem(message: str) -> int:
    """The save cannot be used (open in another process, a directory that cannot be written):
    one sentence, status 1. Not a person's mistake: what they give is a HeartsError, said by
    the command line's one catch."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()
    return 1


def _warn(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def _check_options(delay: float | None, turn_timer: int | None) -> None:
    """The pace asked for: a HeartsError (the command line's one catch says it) when out of range."""
    from ..model.errors import HeartsError

    if delay is not None and not (isinstance(delay, (int, float)) and 0 <= delay <= 10):
        raise HeartsError("bad_delay")
    if turn_timer is not None and not (isinstance(turn_timer, int) and 5 <= turn_timer <= 600):
        raise HeartsError("bad_turn_timer")


def wants_ascii(stream: object) -> bool:
    """An ASCII fallback for the suit symbols: asked for, or the terminal cannot show them."""
    if os.environ.get("HEARTS_ASCII", "").strip() not in ("", "0"):
        return True
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        "♣♦♥♠←↑→▶█·…".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return True
    return False


def screen_reader_asked(flag: bool, terminal: bool) -> bool:
    """The screen-reader mode: ``--screen-reader`` (wherever the game is read from), or
    ``ACCESSIBLE`` set (and not ``0``) in the environment, as other terminal programs read it,
    for a game at a ``terminal``: a script's lines keep the batch mode's bytes, whatever the
    environment of the person who runs it."""
    return flag or (terminal and os.environ.get("ACCESSIBLE", "").strip() not in ("", "0"))


def _run(game: Game, seats: Sequence[Seat], store: Store, *, resumed: bool, lang: str, plain: bool,
         json_events: bool, delay: float | None, turn_timer: int | None, confirm: bool, play: bool,
         stdin: TextIO | None, stdout: TextIO | None, notes: list[Note], undos: int = 0,
         screen_reader: bool = False) -> int:
    from .table import Table

    settings = store.settings()
    interactive = (stdin is None and stdout is None and not json_events
                   and sys.stdin.isatty() and sys.stdout.isatty())
    if screen_reader_asked(screen_reader, interactive) and not json_events:
        return _run_reader(game, seats, store, settings, resumed=resumed, lang=lang, delay=delay,
                           turn_timer=turn_timer, confirm=confirm, play=play, inp=stdin or sys.stdin,
                           out=stdout or sys.stdout, notes=notes, undos=undos)
    from ..model.cards import hand_order

    out = stdout or sys.stdout
    table = Table(game, seats, lang=lang, ascii=plain or wants_ascii(out), confirm=confirm and interactive,
                  store=store, undo=settings.get("undo", True), undos=undos,
                  count=settings.get("count", False), hand_order=hand_order(settings.get("sort")))
    _finishes_itself(table, interactive)  # a person at a terminal: a decided round goes at once
    if interactive and play:
        from .pacing import auto_play_pause, bell_wait
        from .session import run_interactive

        if delay is None:
            delay = _number(settings.get("delay"), _number(os.environ.get("HEARTS_DELAY"), DEFAULT_DELAY))
        if turn_timer is None and isinstance(settings.get("turn_timer"), int):
            turn_timer = settings["turn_timer"]
        no_color = plain or bool(os.environ.get("NO_COLOR"))
        return run_interactive(table, plain=no_color, delay=delay, turn_timer=turn_timer,
                               resumed=resumed, notes=notes, auto_play=auto_play_pause(settings.get("auto_play")),
                               bell=bell_wait(settings.get("bell")), deck_colors=settings.get("deck_colors", "two"))
    return run_batch(table, stdin or sys.stdin, out, json_events=json_events, resumed=resumed,
                     play=play, notes=notes)


def _run_reader(game: Game, seats: Sequence[Seat], store: Store, settings: Settings, *, resumed: bool,
                lang: str, delay: float | None, turn_timer: int | None, confirm: bool, play: bool,
                inp: TextIO, out: TextIO, notes: list[Note], undos: int) -> int:
    """The game in the screen-reader mode (:mod:`.reader`), at a terminal or not: a person's
    game (confirmation when they type at a terminal), paced when it is said on one."""
    from ..model.cards import hand_order
    from .pacing import auto_play_pause
    from .reader import run_reader
    from .table import Table

    # (cards written with their symbols, which the mode says in words: never letters to spell)
    table = Table(game, seats, lang=lang, ascii=False, confirm=confirm and inp.isatty(), store=store,
                  undo=settings.get("undo", True), undos=undos, count=settings.get("count", False),
                  hand_order=hand_order(settings.get("sort")))
    _finishes_itself(table, inp.isatty())
    if delay is None:
        delay = _number(settings.get("delay"), _number(os.environ.get("HEARTS_DELAY"), DEFAULT_DELAY))
    if turn_timer is None and isinstance(settings.get("turn_timer"), int):
        turn_timer = settings["turn_timer"]
    return run_reader(table, inp=inp, out=out, delay=delay if out.isatty() else 0, turn_timer=turn_timer,
                      resumed=resumed, notes=notes, auto_play=auto_play_pause(settings.get("auto_play")),
                      play=play)


def _finishes_itself(table: Table, person: bool) -> None:
    """A round with nothing left to decide goes at once for a ``person`` (at a terminal); a
    script plays its own cards."""
    if table.own is not None:  # (a game of one's own: the only kind these loops open)
        table.own.finishes_itself = person


def _number(value: object, default: float) -> float:
    if not isinstance(value, (int, float, str)):
        return default
    try:
        v = float(value)
    except (TypeError, ValueError):
        return default
    return v if 0 <= v <= 10 else default


def run_batch(table: Table, inp: TextIO, out: TextIO, *, json_events: bool, resumed: bool,
              play: bool = True, notes: Sequence[Note] | None = None) -> int:
    """Commands line by line; plain text (or JSON lines) out; the first refused move stops with
    2, a refused command goes on (and the exit status is 2 at the end)."""
    from ..base.wrapping import screen_columns
    from .batch import Lines, step

    columns = None if json_events else screen_columns(out)  # a terminal: laid out for its width
    front = Lines(table, out, json_events=json_events, width=columns - 1 if columns else None)
    table.attach(front)
    for note in notes or ():  # (where an unfinished game went: said, as at a terminal, and its file)
        if isinstance(note, tuple):
            from ..store.saves import archived_file_line

            shown = archived_file_line(note[1], table.lang, table.ascii)
            # the file where the screen holds it whole: the command before it opens the game
            note = note[0] + ("\n" + shown if front.width is None or len(shown) <= front.width else "")
        table.info("archived", note)
    table.announce_start(resumed=resumed)
    if not play:
        front.show_table()
        out.flush()
        return 0
    status = step(table, front, inp)
    while status is None:
        status = step(table, front, inp)
    out.flush()
    return 2 if status == 0 and front.refused else status
