"""Shared helpers for the rules tests: positions, snapshots, reference rules.

The reference functions here (``ref_legal``, ``ref_check_char``, ``ref_moon_scores``)
are written from the rule texts in ``/work/shared/seeds`` and RULES.md, not
from the engine, so that tests compare the engine against an independent reading.
"""

from __future__ import annotations

import functools
import json
import os
import pickle
import random
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from hearts_cli.model.cards import CARDS, Card, parse_card
from hearts_cli.model.rules import Rules, RulesError, preset_names
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round

if TYPE_CHECKING:
    from prompt_toolkit.input import PipeInput

# ---------------------------------------------------------------- hypothesis profiles

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
# `HYPOTHESIS_PROFILE=ci` gives the same examples on every run and machine.
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow],
)
# `HYPOTHESIS_PROFILE=mutation` (tests/mutation.py): the same examples every run, and a
# failure reported as found, without minutes of shrinking.
settings.register_profile(
    "mutation", deadline=None, derandomize=True, database=None,
    phases=[HypothesisPhase.explicit, HypothesisPhase.reuse, HypothesisPhase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

# ---------------------------------------------------------------- small builders


def R(preset: str = "quick", **over) -> Rules:
    """A rule set: a preset plus overrides, the way a record names it."""
    return Rules.from_spec({"preset": preset, **over})


def cards(text: str) -> list[Card]:
    """``"2C 3C QS"`` -> cards."""
    return [parse_card(t) for t in text.split()]


def suit_of(c: int) -> int:
    return c // 13


def position(rules: Rules, hands: Sequence[str], **kw) -> Round:
    """A hand-built round from hands written as text; no pass unless asked."""
    kw.setdefault("direction", "none")
    return Round(rules, [cards(h) for h in hands], **kw)


def run_of(suit: str, ranks: str) -> str:
    """``run_of("H", "23456789TJQK")`` -> ``"2H 3H ... KH"``."""
    return " ".join(r + suit for r in ranks)


ALL_RANKS = "23456789TJQKA"


def snapshot(r: Round, keep: bool = True) -> dict:
    """Every piece of a round's state (caches left out), deep-copied to be kept; ``keep=False``:
    the state as it is, to compare with a kept snapshot at once (``snapshot(r, keep=False) ==
    before``: the same comparison, without copying a state that is only looked at).

    The copy is pickle's round trip: the same independent, equal copy as ``copy.deepcopy``
    (cards, enums and tricks come back as themselves), made three times as fast."""
    state = {k: v for k, v in r.__dict__.items() if not k.startswith("_") and k != "rules"}
    if keep:
        state = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return state | {"views": [r.view(s) for s in range(r.players)],
                    "legal": r.legal_cards() if r.phase is Phase.PLAY else ()}


def play_script(r: Round, script: str) -> None:
    """Play the cards of ``script`` in turn order (whoever is to move)."""
    for c in cards(script):
        r.play(c)


def play_out(r: Round, choose: Callable[[Round, int, list[Card]], Card] | None = None,
             play: Callable[[Card], object] | None = None) -> None:
    """Play every card of the round; ``choose(round, seat, legal)`` picks (default: lowest).

    Under the shooter's choice a moon leaves the round waiting for it (``Phase.MOON``)."""
    play = play or r.play
    while r.phase is Phase.PLAY:
        legal = list(r.legal_cards())
        c = choose(r, r.turn, legal) if choose else legal[0]
        play(c)


def preferring(prefs: dict[int, str]) -> Callable[[Round, int, list[Card]], Card]:
    """A chooser: each seat plays the first of its preferred cards that is legal, else the lowest.

    A preference ``"-JD"`` means "play JD only when nothing else is legal".
    """
    def choose(r: Round, seat: int, legal: list[Card]) -> Card:
        avoid = set()
        for p in prefs.get(seat, "").split():
            if p.startswith("-"):
                avoid.add(parse_card(p[1:]))
            elif parse_card(p) in legal:
                return parse_card(p)
        return next((c for c in legal if c not in avoid), legal[0])
    return choose


# ---------------------------------------------------------------- reference readings of the rules


def ref_check_char(payload: str) -> str:
    """Luhn mod 32 over Crockford base 32, written from the algorithm's definition."""
    n = len(CROCKFORD)
    total = 0
    for i, ch in enumerate(reversed(payload)):
        v = CROCKFORD.index(ch) * (2 if i % 2 == 0 else 1)
        total += v // n + v % n
    return CROCKFORD[(n - total % n) % n]


def ref_code(payload: str) -> str:
    return payload + ref_check_char(payload)


codes = st.text(alphabet=CROCKFORD, min_size=7, max_size=7).map(ref_code)


def first_trick_forbidden(rules: Rules) -> set[int]:
    """Cards that may not go on the first trick while the hand holds others."""
    if rules.first_trick == "any":
        return set()
    hearts = set(range(26, 39))
    if rules.first_trick == "no_hearts":
        return hearts
    return {c for c in range(52) if rules.points[c] > 0} | (hearts - set(rules.removed))


def ref_legal(rules: Rules, hand: Iterable[int], trick: Sequence[int], first_trick: bool,
              hearts_broken: bool, held: Iterable[int]) -> set[int]:
    """The legal cards of the seat to move, read from the sources.

    ``held`` is every card still in a hand (to find the lowest club in play).
    """
    hand = set(hand)
    if trick:
        # follow suit if you can; on the first trick, no point card while another
        # card allowed so far remains (spades led to a free first lead: not the Q♠)
        legal = {c for c in hand if suit_of(c) == suit_of(trick[0])} or hand
        if first_trick:
            legal = (legal - first_trick_forbidden(rules)) or legal
        return legal
    if first_trick and rules.first_lead == "lowest_club":
        # the lowest club in play; with none, the lowest card in play (seeds/README.md)
        clubs = sorted(c for c in held if suit_of(c) == 0) or sorted(held)
        lead = clubs[0]
        return {lead} & hand
    legal = hand
    if first_trick:
        legal = (legal - first_trick_forbidden(rules)) or legal
    if not hearts_broken and rules.hearts_break != "free":
        legal = {c for c in legal if suit_of(c) != 2} or legal
    return legal


def ref_moon_scores(rules: Rules, taken_cards: Sequence[set[int]], mode: str) -> tuple[int, ...]:
    """Round scores when seat ``shooter`` shot the moon, for a fixed mode."""
    n = rules.players
    penalty = {c for c in range(52) if rules.points[c] > 0} - set(rules.removed)
    value = sum(rules.points[c] for c in penalty)
    shooter = next(s for s in range(n) if penalty <= taken_cards[s])
    jd = [rules.points[22] if 22 in taken_cards[s] else 0 for s in range(n)]
    if mode == "others":
        return tuple((0 if s == shooter else value) + jd[s] for s in range(n))
    return tuple((-value if s == shooter else 0) + jd[s] for s in range(n))


# ---------------------------------------------------------------- every preset and player count


def playable_rule_sets() -> list[Rules]:
    """Every one-deck preset at every player count it can be played with (the reference
    rules here read one deck; two decks: tests/test_cancellation.py, test_core_paths.py)."""
    out = []
    for name in preset_names():
        if R(name).decks > 1:
            continue
        for n in (3, 4, 5, 6):
            try:
                out.append(R(name, players=n))
            except RulesError:  # not playable at this count; any other error is a bug
                pass
    return out


PLAYABLE = playable_rule_sets()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240601)


# ---------------------------------------------------------------- a person's machine, one per test


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A save directory of our own (returned, not yet made), English, Unicode: whatever the
    machine running the tests has set, a test sees the table a new player sees."""
    monkeypatch.setenv("HEARTS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HEARTS_LANG", raising=False)
    monkeypatch.delenv("HEARTS_ASCII", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    return tmp_path / "home"


@pytest.fixture
def isolated(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """For command-line tests: ``home``, and no locale or colour setting of the machine's
    (returns the test's folder, which holds ``home``)."""
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.delenv("NO_COLOR", raising=False)
    return home.parent


@pytest.fixture
def terms() -> Iterator[list[Any]]:
    """The pseudo-terminals a test opens (``test_pty.spawn``), closed after it however it ends."""
    opened: list[Any] = []
    yield opened
    for term in opened:
        term.close()


# ---------------------------------------------------------------- a shared table, served in-process

HOST = "127.0.0.1"
_SERVED: list[tuple[threading.Thread, dict[str, Any]]] = []


def serve_table(tb: Any, ssl: Any = None, *, when_present: int | None = None) -> int:
    """Serve the shared table ``tb`` in a thread of its own (as `hearts host` does), over TLS
    with ``ssl``; its port. With ``when_present`` its clock starts once that seat is taken.

    The table is stopped when the test ends (:func:`_stop_served_tables`): left running, it
    played its game out on the CPU after the person left, slowing the tests that came next."""
    import asyncio

    from hearts_cli.table.server import Server

    box: dict[str, Any] = {}
    ready = threading.Event()

    async def go() -> None:
        server = Server("en")
        server.add(tb)
        box["port"] = await server.start(HOST, 0, ssl)
        box["loop"], box["task"] = asyncio.get_running_loop(), asyncio.current_task()
        ready.set()
        try:
            while when_present is not None and not tb.present(when_present):
                await asyncio.sleep(0.01)
            await tb.run()
            await asyncio.sleep(0.5)
        finally:
            await server.close()

    def serve() -> None:
        try:
            asyncio.run(go())
        except asyncio.CancelledError:  # stopped at the end of the test
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(10)
    _SERVED.append((thread, box))
    return int(box["port"])


@pytest.fixture(autouse=True)
def _stop_served_tables() -> Iterator[None]:
    """Stop the tables :func:`serve_table` started during the test."""
    yield
    while _SERVED:
        thread, box = _SERVED.pop()
        if thread.is_alive():
            box["loop"].call_soon_threadsafe(box["task"].cancel)
            thread.join(10)


# ---------------------------------------------------------------- the command line, in-process


def run(*args: str, input: str | None = None, **kw: Any) -> Result:
    """``hearts ARGS`` run in this process (stdout and stderr apart), for tests of what a
    command says and returns; a subprocess only where the process itself is tested."""
    from hearts_cli.cli.app import app

    return CliRunner().invoke(app, list(args), input=input, **kw)


def assert_user_error(result: Result, *words: str, status: int = 2) -> str:
    """An error a person caused: exit ``status`` (2, or 1 for the save directory), nothing
    on stdout, one sentence on stderr holding ``words``, no traceback. Returns the sentence."""
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr.strip()
    assert err and "\n" not in err, err
    assert "Traceback" not in result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    for w in words:
        assert w in err, (w, err)
    return err


# ---------------------------------------------------------------- a prompt-toolkit session, driven by keys

T = TypeVar("T")


def drive_session(inp: PipeInput, run: Callable[[], T], drive: Callable[[], object], *,
                  timeout: float = 90.0) -> T:
    """``run()`` (a prompt-toolkit session or app reading ``inp``) while ``drive()`` types its
    keys into ``inp`` from another thread; Ctrl-D once ``drive`` returns or raises. Returns what
    ``run`` returns.

    A failure in the driver is the test's: its exception is raised again here once the session
    has ended (pytest only warns of a thread's exception: the test would pass on what the
    session did before), and a driver still running then fails the test too. A watchdog closes
    ``inp`` after ``timeout`` seconds, so that keys the session never takes fail the test
    instead of hanging the suite; that fails here by name, since a closed input may end the
    session as Ctrl-D would. The caller opens ``inp`` (``create_pipe_input``) and the app
    session, so that what must be built inside them (a ``Loop``) can be built before the
    driver starts."""
    errors: list[BaseException] = []
    fired = threading.Event()

    def driver() -> None:
        try:
            drive()
        except BaseException as e:  # raised again below, in the test's thread
            errors.append(e)
        finally:
            if not fired.is_set():
                inp.send_text("\x04")

    def watch() -> None:
        fired.set()
        inp.close()

    thread = threading.Thread(target=driver, daemon=True)
    watchdog = threading.Timer(timeout, watch)
    thread.start()
    watchdog.start()
    try:
        return run()
    finally:
        watchdog.cancel()
        thread.join(10)
        if errors:
            raise errors[0]
        if fired.is_set():
            pytest.fail(f"the watchdog closed the input after {timeout:g} s: the session never took "
                        "the driver's keys, or the driver never ended")
        if thread.is_alive():
            pytest.fail("the session ended while its driver was still running")


def driven_session(table: Any, drive: Callable[[PipeInput], object], *, timeout: float = 60.0,
                   **options: Any) -> int:
    """``hearts play``'s interactive loop over ``table``, on a pipe and a screen that shows
    nothing, while ``drive(inp)`` types into the pipe from another thread, then Ctrl-D
    (:func:`drive_session`: keys the loop never takes fail the test by name, not as a session
    that ended). ``options`` go to ``run_interactive`` (``delay``, ``turn_timer``,
    ``key_within``...)."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from hearts_cli.repl.session import run_interactive

    given = {"plain": True, "delay": 0, "turn_timer": None, "resumed": False, "notes": []} | options
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        return drive_session(inp, lambda: run_interactive(table, **given), lambda: drive(inp),
                             timeout=timeout)


def typed_session(table: Any, keys: str, *, timeout: float = 60.0, **options: Any) -> int:
    """:func:`driven_session` with ``keys`` typed at once (they end in Ctrl-D)."""
    return driven_session(table, lambda inp: inp.send_text(keys), timeout=timeout, **options)


# ---------------------------------------------------------------- two decks (Cancellation Hearts)
#
# Read from seeds/README.md's account of the published rules, not from hearts_cli.play.core:
# identical cards in one trick cancel, the highest uncancelled card of the suit led wins,
# a trick whose every card of the led suit cancelled is set aside for the next winner,
# and the last trick falls back to its leader or to the second copy of its highest card.
# Legality is the one-deck reading (``ref_legal``) on the set of cards held.


def ref_trick_winner_two(rules: Rules, cards: Sequence[int], last: bool) -> int | None:
    """The index (play order) of the card that takes a two-deck trick; None: set aside."""
    led = suit_of(cards[0])
    lone = [c for c in cards if suit_of(c) == led and list(cards).count(c) == 1]
    if lone:
        return list(cards).index(max(lone))
    if not last:
        return None
    if rules.set_aside_last == "leader":
        return 0
    top = max(c for c in cards if suit_of(c) == led)
    return len(cards) - 1 - list(reversed(cards)).index(top)  # the second copy played


def ref_first_leader_two(rules: Rules, hands: Sequence[Sequence[int]], dealer: int) -> int:
    """Who leads a two-deck round: left of the dealer (first lead ``any``), else the
    first holder of the lowest club clockwise from the dealer's left."""
    n = rules.players
    order = [(dealer + k) % n for k in range(1, n + 1)]
    if rules.first_lead == "any":
        return order[0]
    low = min(c for h in hands for c in h if suit_of(c) == 0)
    return next(s for s in order if low in hands[s])


def ref_taken_two(rules: Rules, tricks: Sequence) -> list[list[int]]:
    """The cards each seat takes in a two-deck round (a list: a card may be there twice),
    from each trick's cards and kitty alone: set-aside tricks go to the next winner."""
    n = rules.players
    taken: list[list[int]] = [[] for _ in range(n)]
    aside: list[int] = []
    for k, t in enumerate(tricks):
        cards = [int(c) for c in t.cards] + [int(c) for c in t.kitty]
        w = ref_trick_winner_two(rules, [int(c) for c in t.cards], k == len(tricks) - 1)
        if w is None:
            aside += cards
            continue
        taken[(t.leader + w) % n] += cards + aside
        aside = []
    assert not aside, "a set-aside trick nobody took"
    return taken


def ref_moon_scores_two(rules: Rules, taken: Sequence[Sequence[int]], mode: str) -> tuple[int, ...] | None:
    """Round scores under a moon in a two-deck round (every copy of every penalty card in
    play taken by one seat), or None when nobody took them all."""
    n = rules.players
    copies = {c: 2 - [int(x) for x in rules.removed].count(c) for c in range(52)}
    penalty = {c: k for c, k in copies.items() if rules.points[c] > 0 and k}
    shooter = next((s for s in range(n) if all(taken[s].count(c) == k for c, k in penalty.items())), None)
    if shooter is None:
        return None
    value = sum(rules.points[c] * k for c, k in penalty.items())
    jd = [rules.points[22] * taken[s].count(22) for s in range(n)]  # the J♦ still counts
    if mode == "others":
        return tuple((0 if s == shooter else value) + jd[s] for s in range(n))
    return tuple((-value if s == shooter else 0) + jd[s] for s in range(n))


def two_deck_rule_sets() -> list[Rules]:
    """The cancellation preset at 6 to 11 players, with each two-deck setting changed."""
    variants = [{}, {"deck": "kitty"}, {"first_lead": "any"}, {"set_aside_last": "second"},
                {"passing": "none"}, {"jack_of_diamonds": True, "moon": "shooter_choice"},
                {"first_trick": "any", "hearts_break": "free"}, {"moon": "off", "spot_hearts": True}]
    out = []
    for n in range(6, 12):
        for v in variants:
            try:
                out.append(R("cancellation", players=n, **v))
            except RulesError:  # not playable so (a kitty with nothing left over...)
                pass
    return out


TWO_DECK = two_deck_rule_sets()


# ---------------------------------------------------------------- order


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first (in their order): with `-n`, a long test handed out last would
    keep one worker busy while the others wait at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


class JsonPlayer:
    """The person's seat through ``--json`` (batch mode), as stdin and stdout: keeps every
    event; on its turn (a ``view``) passes the first three cards in hand and plays the
    highest legal card. A test that needs more (stopping early, typing ``undo``) builds on
    :meth:`next_move`."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.turn: dict[str, Any] | None = None  # the view waiting for a move
        self.turns: list[dict[str, Any]] = []  # every view, in order
        self.lines: list[str] = []  # every line it typed

    def write(self, text: str) -> None:
        for line in text.splitlines():
            ev = json.loads(line)
            self.events.append(ev)
            if ev["event"] == "view":
                self.turn = ev
                self.turns.append(ev)

    def flush(self) -> None:
        pass

    def next_move(self) -> str | None:
        """The line for the turn waiting (which it takes), or None when there is none."""
        if self.turn is None:
            return None
        ev, self.turn = self.turn, None
        return "pass " + " ".join(ev["hand"][:3]) if ev["phase"] == "pass" else ev["legal"][-1]

    def readline(self, size: int = -1) -> str:  # the lines it makes are short
        move = self.next_move()
        if move is None:
            return ""
        self.lines.append(move)
        return move + "\n"


def archived(home: Path) -> list[Path]:
    """The games archived in save directory ``home``, oldest first."""
    return sorted((home / "archive").glob("*.yaml"))


class WholeGame(NamedTuple):
    events: list[dict[str, Any]]  # every event of ``--json``
    lines: list[str]  # what the person typed
    record: str  # the text of the archived record


def whole_game(code: str) -> WholeGame:
    """The game of ``code`` (the default preset and levels) played to its end through ``--json``
    batch mode by :class:`JsonPlayer`, in a save directory of its own: its events, the lines
    typed, the archived record. Played once per process (against Hard, two seconds of CPU, and
    several tests start from the same game); each call returns copies of its own."""
    events, lines, record = _whole_game(code)
    return WholeGame(json.loads(events), list(lines), record)


@functools.cache
def _whole_game(code: str) -> tuple[str, tuple[str, ...], str]:
    import tempfile

    from hearts_cli.repl.new_game import NewGame
    from hearts_cli.repl.start import start_new

    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.setenv("HEARTS_HOME", tmp)  # as the ``home`` fixture sets the machine up
        mp.delenv("HEARTS_LANG", raising=False)
        mp.delenv("HEARTS_ASCII", raising=False)
        mp.setenv("LANG", "C.UTF-8")
        player = JsonPlayer()
        assert start_new(NewGame.of(code=code), json_events=True, stdin=player, stdout=player) == 0
        (path,) = archived(Path(tmp))
        return json.dumps(player.events), tuple(player.lines), path.read_text()


def deal_fixed(rules: Rules, fixed: dict[int, str], seed: int = 1) -> list[list[Card]]:
    """Hands with the cards of ``fixed`` (seat -> ``"2C QS ..."``) given, the rest of the deck
    (both copies of a card with two decks) dealt at random by ``seed``; each hand sorted."""
    left = list(rules.copies)
    hands = {s: cards(text) for s, text in fixed.items()}
    for h in hands.values():
        for c in h:
            left[c] -= 1
    rest = [CARDS[c] for c in range(52) for _ in range(left[c])]
    random.Random(seed).shuffle(rest)
    out = []
    for s in range(rules.players):
        h = list(hands.get(s, []))
        while len(h) < rules.hand_size:
            h.append(rest.pop())
        out.append(sorted(h))
    return out


def self_signed(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by the openssl command
    (the test is skipped where there is none)."""
    import shutil
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl command to make a certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


# ---------------------------------------------------------------- the published JSON Schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "schema" / "hearts.schema.json"


@functools.cache
def _schema_validator(definition: str) -> Any:
    """A validator of one ``$defs`` entry of docs/schema/hearts.schema.json (made once per process)."""
    import jsonschema

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]},
                                           format_checker=None)


def check_schema(obj: dict | str | bytes, definition: str = "line") -> dict:
    """``obj`` (an object or one JSON line) checked against the published schema: ``line`` (an
    event or a reply, as every surface writes them), ``request``, ``event``, ``reply``, ``error``...
    Fails the test with the schema's own words (where, and what) when it is not valid; the object."""
    if not isinstance(obj, dict):
        if obj in _VALID_LINES:  # a table tells its seats the same line: checked once
            return json.loads(obj)
        line, obj = obj, json.loads(obj)
        _check_schema(obj, definition)
        if definition == "line":
            _VALID_LINES.add(line)
        return obj
    _check_schema(obj, definition)
    return obj


_VALID_LINES: set[str | bytes] = set()


def _check_schema(obj: dict, definition: str) -> None:
    errors = sorted(_schema_validator(definition).iter_errors(obj), key=lambda e: list(e.absolute_path))
    if errors:
        first = min(errors, key=lambda e: len(list(e.absolute_path)))
        where = "/".join(map(str, first.absolute_path))
        pytest.fail(f"not a valid {definition} (docs/schema): at {where or 'the top'}: {first.message}\n"
                    f"{json.dumps(obj)[:400]}")
