"""`hearts join` is the REPL of `hearts play` for one seat of a shared table (real sockets).

The same Table, session and renderer as `hearts play`, with the seat's network client
(join.RemoteTable) where a local game has its in-process table: the drawn table, the toolbar's
reason for an illegal card, tab completion, `why`, `hint` where the table allows it, the
confirmation step, Spanish; `undo` refused with a sentence. The seat's round, rebuilt from its
view alone (Round.seen_by), answers as the engine does.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time

import pytest
from conftest import HOST, check_schema, driven_session, serve_table

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round
from hearts_cli.table.invitations import invitation
from hearts_cli.table.shared import SharedTable, make_seats


@pytest.mark.parametrize("preset, players", [("quick", 4), ("kitty", 3), ("reference", 5), ("cancellation", 6)])
def test_a_seat_s_round_rebuilt_from_its_view_answers_as_the_engine(preset, players):
    """What join knows (the seat view) is enough for `why`, the toolbar and the completion."""
    from hearts_cli.bots import suggest
    from hearts_cli.model.codes import seed_for

    try:
        rules = Rules.from_spec({"preset": preset, "players": players})
    except Exception:
        pytest.skip(f"no preset {preset}")
    rng = random.Random(7)
    checked = 0
    for code in ("JYR35SWD", "K7Q2MXA7"):
        game = Game(rules, code)
        while not game.over and len(game.rounds) <= 2:
            rd = game.round
            if rd.phase is Phase.PASS:
                s = next(s for s in range(players) if rd.passes[s] is None)
                game.push_pass(suggest(rd.view(s), "easy", seed_for(code, "cpu", s)), s)
                continue
            if rd.phase is Phase.MOON:
                game.push_moon("others", rd.turn)
                continue
            for s in range(players):
                seen = Round.seen_by(rd.view(s))
                for c in set(rd.hand(s)) | {Card(rng.randrange(52))}:
                    assert seen.why(c, s) == rd.why(c, s), (code, s, c)
                # what every seat took, and what waits set aside, is public: the same
                assert (seen.taken, seen.taken_twice, seen.set_aside) == (rd.taken, rd.taken_twice, rd.set_aside)
                if s == rd.turn:
                    assert seen.legal_cards() == rd.legal_cards()
                    checked += 1
            game.push(rng.choice(rd.legal_cards()))
    assert checked > 40


def _seated(tb: SharedTable, lang: str, name: str | None = None):
    from hearts_cli.repl.table import Table
    from hearts_cli.table.remote import Link, RemoteTable

    port = serve_table(tb)
    link = Link()
    welcome = link.connect(invitation(HOST, port, tb.seats[0].token), name, lang, None)
    assert welcome["event"] == "welcome"
    remote = RemoteTable(link, welcome)
    return Table(None, (), lang=lang, confirm=True, core=remote), link


def _events(tb, kind: str, **match) -> list:
    while True:
        try:
            evs = list(tb.events)
            break
        except RuntimeError:  # changed while read (the session's thread): read again
            time.sleep(0.01)
    return [ev for ev in evs if ev.kind == kind and all(ev.data.get(k) == v for k, v in match.items())]


def _wait(test, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.02)


@pytest.mark.parametrize("hints", [True, False])
def test_join_is_the_table_of_hearts_play_for_one_seat(hints):
    """In Spanish, through the prompt-toolkit session of `hearts play` over a real socket: the
    seats named from yours, the hint (only where the host allows it), `undo` refused in a
    sentence, a pass, an illegal card refused with the engine's reason, a card confirmed."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from hearts_cli.repl.completer import CardCompleter
    from hearts_cli.repl.render import Renderer, plain
    from hearts_cli.repl.toolbar import Status, bottom_toolbar

    shared = SharedTable(Game(Rules.from_spec("quick"), "JYR35SWD"), make_seats(4, 1, None), bot_threads=False,
                         hints=hints)
    tb, link = _seated(shared, "es")
    result: dict = {}

    def drive(inp) -> None:
        _wait(lambda: tb.core.decision())
        inp.send_text("pista\r")
        _wait(lambda: _events(tb, "hint") or _events(tb, "error"))
        inp.send_text("deshacer\r")
        _wait(lambda: _events(tb, "error", code="net_undo"))
        hand = [str(c) for c in tb.core.round.hand(0)]
        inp.send_text("pasar " + " ".join(hand[-3:]) + "\r")
        _wait(lambda: _events(tb, "pass", seat=0, by="you"))
        _wait(lambda: tb.core.round.phase is Phase.PLAY and tb.core.decision())
        rd = tb.core.round
        result["completions"] = [(c.text, c.display_meta_text) for c in
                                 CardCompleter(tb, ascii=True).get_completions(Document(""), CompleteEvent())]
        bad = [c for c in rd.hand(0) if c not in rd.legal_cards()]
        if bad:
            result["bad"] = bad[0]
            inp.send_text(str(bad[0]) + "\r")
            _wait(lambda: len(_events(tb, "error")) >= 1 + (not hints) + 0)
        while len(rd.legal_cards()) == 1:  # the only legal card: played at its first entry
            played = len(_events(tb, "play", seat=0, by="you"))
            inp.send_text(str(rd.legal_cards()[0]) + "\r")
            _wait(lambda: len(_events(tb, "play", seat=0, by="you")) > played)
            _wait(lambda: tb.core.decision())
            rd = tb.core.round
        assert not _events(tb, "confirm")
        card = rd.legal_cards()[0]
        result["card"] = card
        inp.send_text(str(card) + "\r")
        _wait(lambda: _events(tb, "confirm"))
        inp.send_text(str(card) + "\r")
        _wait(lambda: _events(tb, "play", seat=0, by="you"))
        result["table"] = [plain(x) for x in Renderer(tb, plain=True).table()]
        # Ctrl-C with nothing to cancel: how to leave a shared table, where nothing is saved
        # here and the game goes on; the toolbar says the same of Ctrl-D
        inp.send_text("\x03")
        _wait(lambda: _events(tb, "info", topic="leave"))
        result["toolbar"] = bottom_toolbar(tb, Status(), lambda: 80)()[0][1]

    try:
        result["status"] = driven_session(tb, drive, timeout=90)
    finally:
        link.close()
    assert result["status"] == 0
    start = _events(tb, "start")[0]
    line = plain(Renderer(tb, plain=True).event(start)[0])
    assert line.startswith("Una mesa compartida")  # no code: it would reveal the deal
    said = " ".join(plain(x) for x in Renderer(tb, plain=True).event(start))
    assert "Oeste (Fácil)" in said and "Norte (Normal)" in said and "Este (Difícil)" in said
    # the hint: the host's Normal CPU, from this seat's view, or a sentence saying there is none
    if hints:
        (hint,) = _events(tb, "hint")
        assert len(hint.data["cards"]) == 3 and hint.data["text"].startswith("Pista")
        assert hint.data["text"].startswith("Pista del jugador Normal: pasa ")  # the level it comes from
    else:
        assert not _events(tb, "hint")
        assert "pistas" in _events(tb, "error", code="no_hints")[0].data["message"]
    assert "hearts play" in _events(tb, "error", code="net_undo")[0].data["message"]
    told = _events(tb, "info", topic="leave")[0]  # (then the leaving itself, at Ctrl-D)
    assert "Ctrl-C solo anula" in told.data["text"] and "la CPU juega por ti" in told.data["text"]
    assert "guarda" not in told.data["text"]
    assert "Ctrl-D: salir" in result["toolbar"] and "guardar" not in result["toolbar"]
    # the completion: the hand, playable cards first, the others with the rule that stops them
    metas = [m for _, m in result["completions"]]
    assert (metas and metas[0] == "jugable") or metas[0].startswith("se puede")
    if "bad" in result:
        refused = next(ev for ev in _events(tb, "error") if ev.data["code"] not in ("net_undo", "no_hints"))
        # the toolbar's line is the engine's own reason, as `hearts play` says it
        assert refused.data["message"] and Renderer(tb, plain=True).status(refused) == refused.data["message"]
    # the card was played only once entered twice, and the drawn table shows the seats around
    assert _events(tb, "confirm")[0].data["card"] == result["card"]
    assert any("Tu mano:" in x for x in result["table"])
    assert _events(tb, "info", topic="leave")  # Ctrl-D: the seat is left to the CPU, said so


def test_join_draws_what_changed_only_and_says_a_person_is_away_once():
    """Two people: a view sent again with nothing new in it (Bea sits down; Bea passes while Ana
    chooses) drew the same table again, and each move the CPU made for Bea once she had gone
    said "West is away: the CPU plays for them." again. Now the table is drawn when what Ana
    sees changed, and Bea's absence is said once, when she goes."""
    from hearts_cli.repl.render import Renderer, plain
    from hearts_cli.repl.table import Table
    from hearts_cli.table.remote import Link, RemoteTable

    shared = SharedTable(Game(Rules.from_spec("quick"), "JYR35SWD"), make_seats(4, 2, "easy"), bot_threads=False)
    port = serve_table(shared)
    ana = Link()
    remote = RemoteTable(ana, ana.connect(invitation(HOST, port, shared.seats[0].token), "Ana", "en", None))
    tb = Table(None, (), lang="en", confirm=False, core=remote)
    taken: list[dict] = []
    draws: list[int] = []
    take, decide = remote._take, tb.decide
    remote._take = lambda msg: (taken.append(msg), take(msg))[1]  # type: ignore[method-assign]
    tb.decide = lambda: (draws.append(len(taken)), decide())[1]  # type: ignore[method-assign]

    def pump(test) -> None:
        end = time.monotonic() + 30
        while not test():
            assert time.monotonic() < end, "never happened"
            if not remote.cpu_step():
                time.sleep(0.01)

    def after(kind: str, **match) -> bool:  # a view has come since the first such event
        at = next((i for i, m in enumerate(taken) if m.get("event") == kind
                   and all(m.get(k) == v for k, v in match.items())), None)
        return at is not None and any(m.get("event") == "view" for m in taken[at:])

    bea = Link()
    try:
        assert bea.connect(invitation(HOST, port, shared.seats[1].token), None, "en", None)["event"] == "welcome"
        pump(lambda: after("seat", seat=1, status="joined"))  # everybody sat down: the view again
        assert len(draws) == 1
        hand = shared.game.round.hand(1)
        assert bea.request({"cmd": "pass", "cards": [str(c) for c in hand[:3]]})["ok"]
        pump(lambda: after("pass", seat=1))  # Ana still chooses: her view again, unchanged
        assert len(draws) == 1
        bea.send({"cmd": "quit"})
        pump(lambda: any(m.get("event") == "seat" and m.get("status") == "left" for m in taken))
        tb.handle("pass " + " ".join(str(c) for c in remote.round.hand(0)[-3:]))

        def away() -> int:
            return sum(m.get("event") == "play" and m.get("seat") == 1 and m.get("by") == "away" for m in taken)

        while away() < 3:
            pump(lambda: away() >= 3 or (remote.decision() and remote.round.phase is Phase.PLAY))
            if away() < 3:
                tb.handle(str(remote.round.legal_cards()[0]))
        back = Link()  # Bea again, with her invitation: said once too
        try:
            assert back.connect(invitation(HOST, port, shared.seats[1].token), None, "en", None)["event"] == "welcome"
            pump(lambda: any(m.get("event") == "seat" and m.get("status") == "back" for m in taken))
        finally:
            back.close()
    finally:
        bea.close()
        ana.close()
    assert len(draws) > 1  # what changed is drawn (the play's first decision, each trick)
    lines = [plain(x) for ev in list(tb.events) for x in Renderer(tb, plain=True).event(ev)]
    told = [x for x in lines if x.startswith("West ") and ("CPU" in x or "back" in x)]
    assert told == ["West has gone; the CPU plays for them until they come back.", "West is back."]


class _Lines:
    """A person typing line by line: the next line made from the table's own position."""

    def __init__(self, shared: SharedTable, plays: int):
        self.shared, self.plays = shared, plays

    def readline(self, limit: int = -1) -> str:
        rd = self.shared.game.round
        if rd.phase is Phase.PASS and rd.passes[0] is None:
            return "pass " + " ".join(str(c) for c in rd.hand(0)[-3:]) + "\n"
        if self.plays and rd.phase is Phase.PLAY and rd.turn == 0:
            self.plays -= 1
            return str(rd.legal_cards()[0]) + "\n"
        return ""  # the end of the input: the seat is left to the CPU

    read = readline


@pytest.mark.slow
def test_line_by_line_and_back_mid_round_the_seat_knows_what_the_engine_knows():
    """`hearts join` without a terminal is the line-by-line mode of `hearts play`; a person who
    leaves and joins again mid-round gets a seat whose legal cards and reasons are the engine's."""
    import io

    from hearts_cli.repl.start import run_batch
    from hearts_cli.repl.table import Table
    from hearts_cli.table.remote import Link, RemoteTable

    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, None), bot_threads=False,
                         delay=0.05)
    port = serve_table(shared)
    inv = invitation(HOST, port, shared.seats[0].token)
    link = Link()
    remote = RemoteTable(link, link.connect(inv, "Ana", "en", None))
    remote.blocking = True
    out = io.StringIO()
    tb = Table(None, (), lang="en", confirm=False, core=remote)
    assert run_batch(tb, _Lines(shared, 2), out, json_events=False, resumed=False) == 0
    link.close()
    text = out.getvalue()
    assert "You sit at seat 0 of 4" in text and "Your hand:" in text and "You pass" in text
    plays = [line for line in text.splitlines() if line.startswith("You play ") and " with " not in line]
    assert len(plays) == 2 and "You have left the table" in text
    # back, with the same invitation, a few tricks later
    _wait(lambda: (shared.game.round.phase is Phase.PLAY and len(shared.game.round.tricks) >= 3) or
          shared.game.over)
    link = Link()
    remote = RemoteTable(link, link.connect(inv, None, "es", None))
    remote.blocking = True
    tb = Table(None, (), lang="es", confirm=False, core=remote)
    tb.announce_start()
    try:
        while not remote.decision():
            remote.cpu_step()
        real = shared.game.round
        assert not shared.game.over  # (a whole game takes the CPU far longer than this)
        if not shared.game.over:
            seen = tb.core.round
            assert real.turn == 0 or real.phase is Phase.PASS
            for c in real.hand(0):
                assert seen.why(c, 0) == real.why(c, 0)
            if real.phase is Phase.PLAY:
                assert seen.legal_cards() == real.legal_cards()
            assert tb.name(0) == "Tú" and tb.core.totals == tuple(real.scores_before)
            # the tricks played while away, as they were (`tricks` lists them, the toolbar's
            # reasons and `why` count on them)
            assert [(t.leader, t.cards, t.winner, t.points) for t in seen.tricks] == \
                [(t.leader, t.cards, t.winner, t.points) for t in real.tricks]
            assert len(seen.tricks) >= 3 and all(t.cards for t in seen.tricks)
    finally:
        link.close()


# ---------------------------------------------------------------- the end of a connection: one sentence


class _TakenWhileTyping:
    """stdin of `hearts join`, line by line: when the seat's first decision comes, another
    connection takes the seat with the same invitation; once this one has been closed by the
    host, the person's line (``line``: a command answered here, or a move sent to the host)."""

    def __init__(self, shared: SharedTable, port: int, links: list, line: str):
        self.shared, self.port, self.links, self.line = shared, port, links, line
        self.other = None

    def readline(self, limit: int = -1) -> str:
        import json
        import socket

        if self.other is not None:
            return ""  # (never reached once the seat is gone: the end of the input)
        self.other = socket.create_connection((HOST, self.port), timeout=10)
        self.other.sendall(json.dumps({"cmd": "hello", "token": self.shared.seats[0].token}).encode() + b"\n")
        assert json.loads(self.other.makefile("rb").readline())["event"] == "welcome"  # the seat is taken
        _wait(lambda: self.links[0].lost)  # this connection: told why, then closed by the host
        if self.line == "pass":
            return "pass " + " ".join(str(c) for c in self.shared.game.round.hand(0)[-3:]) + "\n"
        return self.line + "\n"

    read = readline

    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("line, lang", [("score", "en"), ("pass", "es")])
def test_a_seat_taken_by_its_own_invitation_says_so_in_one_sentence(monkeypatch, capsys, line, lang):
    """The `hearts join` whose seat another connection takes with the same invitation says why it
    ends, in one sentence on stderr, and nothing more; status 1. Whether the person's next line is
    a command (answered from the seat's view) or a move (sent to a host that has closed).
    (Before: the host's sentence, then "The connection to the table was lost..." as well; with a
    move, only the second.)"""
    from hearts_cli.cli import join
    from hearts_cli.text.catalog import t

    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, None), bot_threads=False)
    port = serve_table(shared)
    links: list = []

    class Kept(join.Link):
        def __init__(self) -> None:
            super().__init__()
            links.append(self)

    monkeypatch.setattr(join, "Link", Kept)
    stdin = _TakenWhileTyping(shared, port, links, line)
    monkeypatch.setattr("sys.stdin", stdin)
    try:
        status = join.run_join(invitation(HOST, port, shared.seats[0].token), name="Ana", lang=lang,
                               plain=True, as_json=False)
    finally:
        if stdin.other is not None:
            stdin.other.close()
    err = capsys.readouterr().err
    assert err == t("net_seat_taken", lang) + "\n" and status == 1


def _said(err: str, as_json: bool, code: str) -> str:
    """What ``hearts join`` said on stderr: the sentence; under --json (issue 34 §9) the one error
    object on one line, whose ``code`` is ``code``, and its message is the sentence."""
    if not as_json:
        return err
    obj = check_schema(json.loads(err), "error")
    assert obj["code"] == code and err.endswith("}\n") and err.count("\n") == 1
    return obj["message"] + "\n"


@pytest.mark.parametrize("as_json, lang", [(False, "en"), (True, "es")])
def test_a_table_that_closes_without_answering_is_said_in_one_sentence(tmp_path, capsys, as_json, lang):
    """An invitation without its ``tls://`` to a table opened with a certificate: the table
    closes the connection without a word, and `hearts join` says so in one sentence (status 2),
    in a terminal or as a bridge. (Before: an empty line.)"""
    import ssl

    from conftest import self_signed

    from hearts_cli.cli.join import run_join
    from hearts_cli.text.catalog import t

    cert, key = self_signed(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(str(cert), str(key))
    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, None), bot_threads=False)
    port = serve_table(shared, ctx)
    status = run_join(invitation(HOST, port, shared.seats[0].token), name=None, lang=lang, plain=True,
                      as_json=as_json)
    err = _said(capsys.readouterr().err, as_json, "no_answer")
    assert err == t("net_no_answer", lang, host=HOST, port=port) + "\n" and status == 2


@pytest.mark.parametrize(("case", "lang", "as_json"), [("self_signed", "en", False), ("plain_host", "es", True),
                                                      ("cafile_no_certificate", "en", False)])
def test_a_tls_failure_says_what_failed(tmp_path, capsys, case, lang, as_json):
    """A self-signed table joined without --cafile, and a tls:// invitation to a table that
    speaks plain TCP, were both "Permission denied" (an SSLError's errno is OpenSSL's code, read
    as the system's): now the certificate that could not be verified (and --cafile), or a host
    that does not speak TLS. A --cafile with no certificate in it is the person's to fix (2)."""
    import ssl

    from conftest import self_signed

    from hearts_cli.cli.join import run_join
    from hearts_cli.text.catalog import t

    cert, key = self_signed(tmp_path)
    ctx = None
    if case != "plain_host":
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(str(cert), str(key))
    shared = SharedTable(Game(Rules.from_spec("quick"), "K7Q2MXA7"), make_seats(4, 1, None), bot_threads=False)
    port = serve_table(shared, ctx)
    cafile = str(key) if case == "cafile_no_certificate" else None
    status = run_join(invitation(HOST, port, shared.seats[0].token, tls=True), name=None, lang=lang, plain=True,
                      as_json=as_json, cafile=cafile)
    err = _said(capsys.readouterr().err, as_json, "cannot_connect" if case != "cafile_no_certificate" else "bad_cafile")
    if case == "cafile_no_certificate":
        said = t("net_bad_cafile", lang, path=cafile, problem=t("net_cafile_no_certificate", lang))
        assert (err, status) == (said + "\n", 2)
        return
    problem = t("net_problem_certificate" if case == "self_signed" else "net_problem_no_tls", lang)
    assert err == t("net_cannot_connect", lang, host=HOST, port=port, problem=problem) + "\n" and status == 1
    assert "Permission" not in err and "Permiso" not in err


@pytest.mark.parametrize(("lang", "said"), [("en", "nobody is listening there"), ("es", "nadie escucha ahí")])
def test_a_table_nobody_listens_at_is_said_in_the_persons_language(lang, said):
    """The reason came in the system's English ("Connect call failed ('127.0.0.1', 9)") even
    in Spanish; each reason is one of ours now."""
    with socket.socket() as s:  # a port just freed: nobody listens there
        s.bind((HOST, 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "hearts_cli", "join", invitation(HOST, port, "x" * 22), "--lang", lang]
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 1
    [line] = [x for x in proc.stderr.splitlines() if x.strip()]
    assert line.rstrip(".").endswith(said), line
    assert "Connect call" not in proc.stderr and "Errno" not in proc.stderr
