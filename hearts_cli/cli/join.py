"""``hearts join``: sit at a shared table from a terminal, or bridge it to a script.

In a terminal, and line by line without one, the seat is played through the REPL of
``hearts play`` with :class:`~hearts_cli.table.remote.RemoteTable` as its table; with
``--json`` the table's JSON lines go to stdout and stdin's lines to the table.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sys

from ..base.jsonvalue import JsonObject
from ..base.wrapping import for_terminal
from ..table.invitations import parse_invitation
from ..table.limits import MAX_LINE
from ..table.remote import CLOSING, BadCafile, Connection, Link, Lost, RemoteTable, _clean, _connect
from ..text.catalog import os_problem, t


def run_join(invitation: str, *, name: str | None, lang: str, plain: bool, as_json: bool,
             cafile: str | None = None, screen_reader: bool = False) -> int:
    """``hearts join``: returns the exit status (0 the game ended or you left, 1 lost, 2 refused)."""
    if parse_invitation(invitation) is None:
        _tell(t("net_bad_invitation", lang, text=invitation[:80]), "bad_invitation" if as_json else None)
        return 2
    if as_json:
        try:
            return asyncio.run(_bridge_main(invitation, name, lang, cafile))
        except KeyboardInterrupt:
            return 130
    host, port, _, _ = parse_invitation(invitation)  # type: ignore[misc]
    link = Link()
    try:
        first = link.connect(invitation, name, lang, cafile)
    except BadCafile as e:
        _tell(cafile_problem(e, cafile, lang))
        return 2
    except (TimeoutError, OSError, concurrent.futures.TimeoutError, ValueError) as e:
        _tell(t("net_cannot_connect", lang, host=host, port=port, problem=connect_problem(e, lang, cafile)))
        return 1
    if first.get("event") != "welcome":
        _tell(_refused(first, host, port, lang))
        link.close()
        return 2
    try:
        return _seat(link, first, lang, plain, screen_reader)
    except Lost:  # one sentence: why the host closed the connection when it said so, else that it is lost
        _tell(t(CLOSING.get(link.closing or "", "net_lost"), lang))
        return 1
    except KeyboardInterrupt:
        link.send({"cmd": "quit"})
        return 130
    finally:
        link.close()


def _refused(first: JsonObject, host: str, port: int, lang: str) -> str:
    """Why the table did not seat us, in one sentence: the host's own (``busy``, ``refused``...),
    or, when it closed the connection without a word (a plain connection to a TLS table, a
    host gone during the hello), that it did."""
    err = first.get("error")
    said = _clean(err.get("message", "")) if isinstance(err, dict) else ""
    return said or t("net_no_answer", lang, host=host, port=port)


def _tell(text: str, code: str | None = None) -> None:
    """One sentence of ``hearts join`` on stderr (a refusal, a lost connection), wrapped to the
    terminal as every line of the table is (whole for a script reading a pipe); under ``--json``
    (a ``code`` given) the one error object, ``{"code", "message"}``, on one line."""
    if code is not None:
        sys.stderr.write(json.dumps({"code": code, "message": text}, ensure_ascii=False) + "\n")
        return
    sys.stderr.write(for_terminal(text, sys.stderr) + "\n")


def _seat(link: Link, welcome: JsonObject, lang: str, plain: bool, screen_reader: bool = False) -> int:
    """The REPL of ``hearts play`` at this seat: the session in a terminal, else line by line;
    the screen-reader mode in either (``--screen-reader``, ``ACCESSIBLE``)."""
    import os

    from ..repl.start import run_batch, screen_reader_asked, wants_ascii
    from ..repl.table import Table
    from ..store.saves import read_settings

    remote = RemoteTable(link, welcome)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    from ..model.cards import hand_order

    settings = read_settings()[0]
    reader = screen_reader_asked(screen_reader, interactive)
    # the seat's table is the remote one: no game here, only what the seat is told (the
    # screen-reader mode says cards in words: from their symbols, never letters to spell)
    table = Table(None, (), lang=lang, ascii=not reader and (plain or wants_ascii(sys.stdout)),
                  confirm=sys.stdin.isatty() if reader else interactive, core=remote,
                  count=settings.get("count", False), hand_order=hand_order(settings.get("sort")))
    if reader:
        from ..repl.pacing import auto_play_pause
        from ..repl.reader import run_reader

        remote.blocking = not sys.stdin.isatty()  # (at a terminal the news interrupts the line awaited)
        return run_reader(table, inp=sys.stdin, out=sys.stdout, delay=0, turn_timer=None, resumed=False,
                          notes=[], auto_play=auto_play_pause(settings.get("auto_play")))
    if interactive:
        from ..repl.pacing import auto_play_pause, bell_wait
        from ..repl.session import run_interactive

        no_color = plain or bool(os.environ.get("NO_COLOR"))
        # the host paces the CPUs (hearts host --delay): no pause of our own; the only legal
        # card's pause (auto_play) is the person's own, before their move is sent
        return run_interactive(table, plain=no_color, delay=0, turn_timer=None, resumed=False, notes=[],
                               auto_play=auto_play_pause(settings.get("auto_play")),
                               bell=bell_wait(settings.get("bell")), deck_colors=settings.get("deck_colors", "two"))
    remote.blocking = True
    return run_batch(table, sys.stdin, sys.stdout, json_events=False, resumed=False)


async def _bridge_main(invitation: str, name: str | None, lang: str, cafile: str | None) -> int:
    host, port, _, _ = parse_invitation(invitation)  # type: ignore[misc]
    try:
        conn, first = await _connect(invitation, name, lang, cafile)
    except BadCafile as e:
        _tell(cafile_problem(e, cafile, lang), "bad_cafile")
        return 2
    except (TimeoutError, OSError, ValueError) as e:
        _tell(t("net_cannot_connect", lang, host=host, port=port, problem=connect_problem(e, lang, cafile)),
              "cannot_connect")
        return 1
    if first.get("ok") is False or first.get("event") != "welcome":
        err = first.get("error")
        code = err.get("code") if isinstance(err, dict) else None
        _tell(_refused(first, host, port, lang), code if isinstance(code, str) else "no_answer")
        return 2
    return await _bridge(conn, first)


async def _bridge(conn: Connection, first: JsonObject) -> int:
    """--json: the table's lines to stdout as they come; stdin's lines to the table."""
    out = sys.stdout
    out.write(json.dumps(first, ensure_ascii=False) + "\n")
    out.flush()
    loop = asyncio.get_running_loop()

    async def pump_in() -> None:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.buffer.readline)
            if not line:
                return
            if len(line) <= MAX_LINE and line.strip():
                conn.writer.write(line if line.endswith(b"\n") else line + b"\n")

    feeder = loop.create_task(pump_in())
    try:
        while True:
            line = await conn.reader.readline()
            if not line:
                return 0
            out.write(line.decode("utf-8", "replace"))
            out.flush()
    except (ConnectionError, OSError):
        return 1
    finally:
        feeder.cancel()


def cafile_problem(error: BadCafile, cafile: str | None, lang: str) -> str:
    """Why the ``--cafile`` file cannot be used, in one sentence: missing or unreadable (the
    system's reason, in the person's language), or holding no certificate."""
    import ssl

    problem = (t("net_cafile_no_certificate", lang) if isinstance(error.error, ssl.SSLError)
               else os_problem(error.error, lang))
    return t("net_bad_cafile", lang, path=cafile or "", problem=problem)


# the certificate checks that fail on the name, not on who signed it (OpenSSL's X509_V_ERR_*)
_NAME_MISMATCH = {62, 64}  # HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH


def tls_problem(error: BaseException, lang: str, cafile: str | None) -> str | None:
    """What failed in setting up TLS, in words (None: not a TLS failure). An ``SSLError``'s
    errno is OpenSSL's code, not the system's: read as an errno it said "Permission denied"."""
    import ssl

    if isinstance(error, ssl.SSLCertVerificationError):
        if error.verify_code in _NAME_MISMATCH:
            return t("net_problem_certificate_name", lang)
        return t("net_problem_certificate_cafile" if cafile else "net_problem_certificate", lang)
    if isinstance(error, (ssl.SSLEOFError, ssl.SSLZeroReturnError)):
        return t("net_problem_tls_closed", lang)
    if isinstance(error, ssl.SSLError):  # a handshake answered with something else than TLS
        return t("net_problem_no_tls", lang)
    return None


def connect_problem(error: BaseException, lang: str, cafile: str | None = None) -> str:
    """Why a connection failed, in the person's language: the system's own words (asyncio's
    "Connect call failed (...)") are English whatever the language."""
    import socket

    if isinstance(error, (TimeoutError, concurrent.futures.TimeoutError)):
        return t("net_problem_timeout", lang)
    if isinstance(error, socket.gaierror):
        return t("net_problem_unknown_host", lang)
    said = tls_problem(error, lang, cafile)
    if said is not None:
        return said
    if isinstance(error, OSError) and error.errno:  # refused, unreachable...: the catalog's words
        return os_problem(error, lang)
    return t("net_problem_other", lang, name=type(error).__name__)
