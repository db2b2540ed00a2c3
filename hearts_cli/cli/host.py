"""``hearts host`` (:mod:`hearts_cli.cli.commands.host`): open a table, or bring one back
with ``--resume``, and serve it to the end of its game, telling the host's terminal
what happens in one line each (the banner, the invitations, who joins and leaves, what
was refused).

The table and its server are :mod:`hearts_cli.table.shared` and
:mod:`hearts_cli.table.server`; the save of the table is
:class:`~hearts_cli.store.hosted.HostStore`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..base.wrapping import for_terminal, holds
from ..play.game import Game
from ..records.record_parts import Seat
from ..store.hosted import HostStore
from ..store.saves import DamagedSave, SaveLocked, archived_file_line
from ..table.invitations import invitation
from ..table.limits import HELLO_TIMEOUT, PENDING_MAX, PENDING_PER_ADDRESS
from ..table.seats import TableSeat
from ..table.server import Server
from ..table.shared import SharedTable, make_seats
from ..text.catalog import os_problem, t

if TYPE_CHECKING:
    import ssl

    from ..base.jsonvalue import JsonObject
    from ..model.rules import Rules
    from ..table.game import Change

DEFAULT_PORT = 7441


async def host_table(game: Game, seats: list[TableSeat], *, bind: str, port: int, turn_timer: float | None,
                     delay: float, store: HostStore | None, ssl_context: ssl.SSLContext | None, lang: str, hints: bool,
                     say: Callable[..., None], meta: JsonObject, resumed: bool = False) -> int:
    """Serve one table until its game is over (and its clients have had the end); returns the
    exit status. Stopped before (Ctrl-C), its people are told the host closed it."""
    def notice(kind: str) -> None:  # the first refusal of each kind: one line
        say(t(f"net_host_refusing_{kind}", lang, per=PENDING_PER_ADDRESS, total=PENDING_MAX,
              seconds=int(HELLO_TIMEOUT), limit=server.admission.max_open))

    server = Server(lang, notice=notice)

    def on_change(what: str, data: Change) -> None:
        if what in ("joined", "left"):
            from ..model.seating import shown_name

            name = shown_name(data["name"], data["seat"], None, table.players, lang)
            mid = "net_host_joined" if what == "joined" else "net_host_left"
            say(t(mid, lang, seat=data["seat"], name=name))
        elif what == "over":
            say(t("net_host_over", lang, code=data["code"]))
            if data["archived"]:
                say(t("archived_at", lang, code=data["code"]))
                say(archived_file_line(data["archived"], lang), whole=True, optional=True)

    table = SharedTable(game, seats, turn_timer=turn_timer, delay=delay, store=store, on_change=on_change,
                        hints=hints)
    server.add(table)
    try:
        actual = await server.start(bind, port, ssl_context)
    except OSError as e:
        say(t("net_cannot_listen", lang, bind=bind, port=port, problem=os_problem(e, lang)), err=True)
        return 2
    if store is not None:
        store.write_meta(meta | {"port": actual, "bind": bind,
                                 "tokens": [s.token for s in seats], "names": [s.name for s in seats]})
    _announce(game, table.players, seats, bind, actual, ssl_context is not None, lang, say, resumed)
    await _serve(table, server, lang, say)
    return 0


def _announce(game: Game, players: int, seats: list[TableSeat], bind: str, port: int, tls: bool, lang: str,
              say: Callable[..., None], resumed: bool) -> None:
    """The table open, on the host's terminal: where a resumed game stands, where the table is
    served, and each person's invitation."""
    shown = bind if bind not in ("0.0.0.0", "::", "") else _hostname()
    if resumed:  # where the game stands, for the host to tell the people they invite again
        say(standing_line(game, players, [s.name for s in seats], lang))
    say(t("net_host_ready", lang, players=players, humans=sum(s.human for s in seats),
          host=shown, port=port))
    for s, st in enumerate(seats):
        if st.human:
            say(t("net_invitation", lang, seat=s,
                  invitation=invitation(shown, port, st.token or "", tls)), whole=True)


async def _serve(table: SharedTable, server: Server, lang: str, say: Callable[..., None]) -> None:
    """The table's game played to its end (or until it is stopped), then the table closed: each
    person told why when it is stopped, and what was refused said in one line."""
    runner = asyncio.get_running_loop().create_task(table.run())
    closing = asyncio.get_running_loop().create_task(table.closed.wait())
    try:
        await asyncio.wait([runner, closing], return_when=asyncio.FIRST_COMPLETED)
        await runner  # a failure in the game loop is not swallowed: the command line reports it
        # the last events go out; then the table closes
        for _ in range(50):
            if not table.clients():
                break
            await asyncio.sleep(0.1)
    finally:
        runner.cancel()
        if not table.game.over:  # stopped: each person told why their connection closes
            table.host_closing()
            for _ in range(20):
                if not table.clients():
                    break
                await asyncio.sleep(0.05)
        await server.close()
        if server.refused:  # what was refused, in one line (each kind was told once as it began)
            counts = "; ".join(t(f"net_count_{kind}", lang, n=n) for kind, n in sorted(server.refused.items()))
            say(t("net_host_summary", lang, counts=counts))


def standing_line(game: Game, players: int, names: list[str], lang: str) -> str:
    """Where a resumed table's game stands: its round and each seat's score."""
    from ..model.seating import shown_name

    scores = ", ".join(f"{shown_name(name, s, None, players, lang)} {total}"
                       for s, (name, total) in enumerate(zip(names, game.totals)))
    return t("net_host_standing", lang, code=game.code, round=len(game.rounds), scores=scores)


def _hostname() -> str:
    import socket

    try:
        return socket.gethostname()
    except OSError:
        return "localhost"


def _say(text: str, err: bool = False, whole: bool = False, optional: bool = False) -> None:
    """One line on the host's terminal (stdout, or stderr for what stops it), wrapped to its
    width unless it is a command line to copy (an invitation: ``whole``); an ``optional``
    line (an archived file, which ``hearts replay CODE`` makes unneeded) only where it fits."""
    import sys

    stream = sys.stderr if err else sys.stdout
    if optional and not holds(text, stream):
        return
    stream.write((text if whole else for_terminal(text, stream)) + "\n")
    stream.flush()


class _Refusal(Exception):
    """An option or a save that stops ``hearts host`` before it serves: one sentence, a status."""

    def __init__(self, text: str, status: int = 2):
        super().__init__(text)
        self.text = text
        self.status = status

    def told(self) -> int:
        _say(self.text, err=True)
        return self.status


def _tls_of(port: int, turn_timer: float | None, cert: str | None, key: str | None, lang: str) -> ssl.SSLContext | None:
    """The options checked; the TLS context when a certificate is given (else None)."""
    if not 0 <= port <= 65535:
        raise _Refusal(t("net_bad_port", lang))
    if turn_timer is not None and not 1 <= turn_timer <= 3600:
        raise _Refusal(t("net_bad_timer", lang))
    if (cert is None) != (key is None):
        raise _Refusal(t("net_cert_key", lang))
    if cert is None:
        return None
    import ssl

    try:
        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as e:
        raise _Refusal(t("net_bad_cert", lang, problem=getattr(e, "strerror", None) or str(e))) from None
    return ssl_context


class _Opening:
    """What ``hearts host`` serves: the game, its seats, and the settings a resumed table keeps."""

    def __init__(self, game: Game, seats: list[TableSeat], turn_timer: float | None, hints: bool, port: int):
        self.game, self.seats, self.turn_timer, self.hints, self.port = game, seats, turn_timer, hints, port


def _resumed(store: HostStore, lang: str, turn_timer: float | None, hints: bool, port: int) -> _Opening:
    """``--resume``: the saved game and its invitations, with the settings it was hosted with
    (those given again on the command line win)."""
    try:
        loaded = store.load()
    except DamagedSave as e:
        raise _Refusal(t("net_table_damaged", lang, problem=e.message(lang))) from None
    meta = store.read_meta()
    tokens = meta.get("tokens") if meta is not None else None
    if loaded is None or meta is None or not isinstance(tokens, list) or len(tokens) != loaded.game.rules.players:
        raise _Refusal(t("net_no_table", lang))
    seats = []
    for rec, token in zip(loaded.seats, tokens):
        invitation = token if isinstance(token, str) else None
        human = rec.kind == "human" and invitation is not None
        seats.append(TableSeat(Seat(rec.name, "human" if human else "cpu", rec.level), invitation if human else None))
    saved_timer, saved_port = meta.get("turn_timer"), meta.get("port")
    if turn_timer is None and isinstance(saved_timer, (int, float)):
        turn_timer = saved_timer
    if port == DEFAULT_PORT and isinstance(saved_port, int):
        port = saved_port
    return _Opening(loaded.game, seats, turn_timer, hints or meta.get("hints") is True, port)


def _fresh(store: HostStore, lang: str, rules: Rules, humans: int, level: str | None, code: str | None) -> Game:
    """A new game at the table; one left unfinished there is archived, never overwritten."""
    from ..model.codes import new_code

    try:
        previous = store.load()
    except DamagedSave:  # moved aside by load(): nothing to lose here
        previous = None
    if previous is not None:
        where = store.archive(previous.game, previous.seats, unfinished=not previous.game.over)
        _say(t("previous_archived", lang, code=previous.game.code))
        _say(archived_file_line(where, lang), whole=True, optional=True)
    if not 1 <= humans <= rules.players:
        raise _Refusal(t("net_bad_humans", lang, players=rules.players))
    return Game(rules, code or new_code())


def run_host(*, rules: Rules | None, humans: int, level: str | None, turn_timer: float | None, delay: float,
             port: int, bind: str, cert: str | None, key: str | None, resume: bool, lang: str,
             code: str | None = None, hints: bool = False) -> int:
    """``hearts host``: check the options, open (or resume) the table, serve it to the end."""
    try:
        ssl_context = _tls_of(port, turn_timer, cert, key, lang)
    except _Refusal as no:
        return no.told()
    store = HostStore()
    try:
        store.acquire()
    except SaveLocked:
        return _Refusal(t("net_table_open", lang), 1).told()
    try:
        if resume:
            opening = _resumed(store, lang, turn_timer, hints, port)
        else:
            if rules is None:  # (the command gives rules unless the table is resumed)
                raise ValueError("a new table needs its rules")
            game = _fresh(store, lang, rules, humans, level, code)
            opening = _Opening(game, make_seats(rules.players, humans, level), turn_timer, hints, port)
        meta: JsonObject = {"turn_timer": opening.turn_timer, "level": level, "hints": opening.hints}
        return asyncio.run(host_table(opening.game, opening.seats, bind=bind, port=opening.port,
                                      turn_timer=opening.turn_timer, delay=delay, store=store,
                                      ssl_context=ssl_context, lang=lang, hints=opening.hints, say=_say, meta=meta,
                                      resumed=resume))
    except _Refusal as no:
        return no.told()
    except KeyboardInterrupt:  # (Ctrl-C's status) the table as saved, and how to bring it back
        if store.save_path.exists() and store.meta_path.exists():
            _say(t("net_host_interrupted", lang), err=True)
        return 130
    finally:
        store.release()
