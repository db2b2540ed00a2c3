"""What good online tables show (issue 18 §7): `tricks` with who played each card, `last`
(and the last trick left on the table until the next card), `count` (the cards still out and
the voids shown, from the seat's view only, and its toolbar line), `exchange` (what you passed
and received this round): in both languages, at 40 columns, in --json, and at a shared table."""

from __future__ import annotations

import io
import json
import random

import pytest

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import Rules
from hearts_cli.play.counting import count
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round
from hearts_cli.repl.layout import wrap
from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.render import Renderer, plain
from hearts_cli.repl.start import start_new
from hearts_cli.repl.table import Table, make_seats

CODE = "JYR35SWD"  # South holds the 2♣ after the first pass

pytestmark = pytest.mark.usefixtures("home")


def _table(lang: str = "en", **kwargs) -> Table:
    tb = Table(Game(Rules.from_spec(None), CODE), make_seats(4, 0, None), lang=lang, **kwargs)
    tb.confirm = False
    return tb


def _play_tricks(tb: Table, tricks: int) -> None:
    """Pass the three highest cards, then play the highest legal card until ``tricks`` are done
    and the person is to play again."""
    rd = tb.game.round
    if rd.phase is Phase.PASS:
        tb.handle("pass " + " ".join(str(c) for c in rd.hand(tb.me)[-3:]))
    while True:
        while tb.cpu_step():
            pass
        rd = tb.game.round
        if len(rd.tricks) >= tricks and rd.turn == tb.me:
            return
        tb.handle(str(rd.legal_cards()[-1]))


def _said(tb: Table, line: str, width: int | None = None) -> list[str]:
    tb.handle(line)
    return [plain(x) for x in Renderer(tb, plain=True, width=width).event(tb.events[-1])]


def test_tricks_says_who_played_each_card_and_who_took_it():
    """§6: `tricks` listed the cards without who played them."""
    tb = _table()
    _play_tricks(tb, 3)
    rd = tb.game.round
    tb.handle("tricks")
    ev = tb.events[-1]
    for shown, real in zip(ev.data["tricks"], rd.tricks, strict=True):
        assert list(zip(shown["seats"], shown["cards"], strict=True)) == real.plays()
    rows = _said(tb, "tricks")
    assert len(rows) == len(rd.tricks) + bool(rd.trick)
    for row, real in zip(rows, rd.tricks, strict=False):
        for k, (seat, card) in enumerate(real.plays()):
            assert f"{tb.name(seat)}{' led' if k == 0 else ''} {card.face()}" in row, row
        taker = "You take" if real.winner == tb.me else f"{tb.name(real.winner)} takes"
        assert row.endswith(f". {taker} trick {real_number(rd, real)}, with "
                            + (f"{real.points} point{'s' * (real.points != 1)}." if real.points else "no points."))
    lead_seat, lead_card = rd.tricks[0].plays()[0]
    assert rows[0].startswith(f" 1. {tb.name(lead_seat)} led {lead_card.face()}, ")


def real_number(rd, trick) -> int:
    return [id(x) for x in rd.tricks].index(id(trick)) + 1


def test_last_shows_the_last_trick_and_the_table_keeps_it_until_the_next_card():
    tb = _table()
    assert _said(tb, "last") == ["No trick has been played yet this round."]
    assert tb.events[-1].data["trick"] is None
    _play_tricks(tb, 2)
    rd = tb.game.round
    last = rd.tricks[-1]
    ev = tb.events[-1] if tb.handle("last") is None else None
    assert ev is not None and ev.kind == "last" and ev.data["number"] == len(rd.tricks)
    assert list(zip(ev.data["trick"]["seats"], ev.data["trick"]["cards"], strict=True)) == last.plays()
    assert ev.data["trick"]["winner"] == last.winner
    [row] = _said(tb, "last")
    taker = "You take" if last.winner == tb.me else f"{tb.name(last.winner)} takes"
    assert row.startswith("Last trick: ") and f". {taker} trick {len(rd.tricks)}, with " in row
    # on the drawn table while no card of the next trick is down; gone once one is
    drawn = [plain(x) for x in Renderer(tb, plain=True).table()]
    if not rd.trick:
        assert row in drawn
    tb.handle(str(rd.legal_cards()[-1]))
    drawn = [plain(x) for x in Renderer(tb, plain=True).table()]
    assert not any(x.startswith("Last trick") for x in drawn)


@pytest.mark.parametrize(("lang", "led", "follows"), [("en", "{name} led {card}", "On the table: "),
                                                      ("es", "{name} {card} (sale)", "En la mesa: ")])
def test_the_table_says_who_led_the_trick_in_progress(lang, led, follows):
    """Issue 26 §10: the drawn table showed the trick's cards by their seats but never who led
    it; in words, without colour, at 40 columns as at 80, in the `last` line's wording."""
    tb = _table(lang)
    _play_tricks(tb, 1)
    rd = tb.game.round
    if not rd.trick:  # the person leads this one: their card, then the next seat's
        tb.handle(str(rd.legal_cards()[0]))
    else:
        while tb.game.round.turn != tb.me:
            tb.cpu_step()
    plays = tb.game.round.trick_plays()
    assert len(plays) >= 1
    leader, card = plays[0]
    for width in (None, 40):
        drawn = [plain(x) for x in Renderer(tb, plain=True, width=width).table()]
        lines = [row for line in drawn for row in wrap([("", line)], width or 80)]
        text = " ".join(plain(row) for row in lines)
        assert follows + led.format(name=tb.name(leader), card=card.face()) in text
        assert all(len(plain(row)) <= (width or 80) for row in lines)


def _random_positions(spec: dict, seed: int):
    """Positions of real games (every seat's real hand known), a few per trick."""
    rules = Rules.from_spec(spec)
    rng = random.Random(seed)
    for code in ("JYR35SWD", "K7Q2MXA7"):
        game = Game(rules, code)
        while not game.over and len(game.rounds) <= 2:
            rd = game.round
            if rd.phase is Phase.PASS:
                s = next(s for s in range(rules.players) if rd.passes[s] is None)
                game.push_pass(rng.sample(list(rd.hand(s)), rules.pass_count), s)
                continue
            if rd.phase is Phase.MOON:
                game.push_moon("others", rd.turn)
                continue
            yield rd
            game.push(rng.choice(rd.legal_cards()))


@pytest.mark.parametrize("spec", [{"preset": "quick"}, {"preset": "kitty", "players": 3},
                                  {"preset": "reference", "players": 5},
                                  {"preset": "cancellation", "players": 6}])
def test_the_count_is_what_the_seat_can_know_and_true_of_the_real_hands(spec):
    checked = placed_seen = 0
    for rd in _random_positions(spec, 3):
        for seat in range(rd.players):
            view = rd.view(seat)
            counted = count(view)
            # a pure function of the view: the round rebuilt from the view alone counts the same
            assert count(Round.seen_by(view).view(seat)) == counted
            # the cards out are exactly those in the other hands and a kitty not yet seen
            elsewhere = [c for s in range(rd.players) if s != seat for c in rd.hand(s)]
            if not view.kitty:
                elsewhere += [Card(c) for c in range(52) if rd.kitty_mask >> c & 1] if rd.rules.kitty_size else []
            out = [c for cards in counted.out for c in cards]
            assert sorted(out) == sorted(elsewhere), (seat, rd.round_index, len(rd.tricks))
            assert all(c.suit == suit for suit, cards in enumerate(counted.out) for c in cards)
            assert not set(out) & set(view.hand) or rd.rules.decks > 1
            # every void shown is true of the real hand
            for s, suits in enumerate(counted.voids):
                assert not any(c.suit in suits for c in rd.hand(s))
            # the cards placed are those of the seat's own pass its receiver still holds
            to = view.passed_to
            for s, cards in enumerate(counted.placed):
                if s != to or view.received is None:
                    assert cards == ()
                    continue
                assert all(cards.count(c) <= rd.hand(s).count(c) for c in cards)
                assert all(c in out for c in cards)
                if rd.rules.decks == 1:
                    assert sorted(cards) == sorted(set(view.passed) & set(rd.hand(s)))
                placed_seen += bool(cards)
            checked += 1
    assert checked > 100
    assert placed_seen > 10


def test_count_in_words_and_the_voids_a_seat_showed():
    tb = _table()
    _play_tricks(tb, 6)
    view = tb.game.round.view(tb.me)
    lines = _said(tb, "count")
    assert lines[0] == "Still out (neither in your hand nor played):"
    counted = count(view)
    for suit, cards in enumerate(counted.out):
        symbol = "♣♦♥♠"[suit]
        [line] = [x for x in lines if x.strip().startswith(symbol)]
        assert line.strip() == (f"{symbol} " + " ".join(c.face()[:-1] for c in cards) + f" ({len(cards)})"
                                if cards else f"{symbol} none")
    assert tb.events[-1].data["out"] == [list(c) for c in counted.out]
    # the cards of the person's pass that the receiver still holds are out, and placed
    to = view.passed_to
    kept = [c for c in view.passed if c in tb.game.round.hand(to)]
    assert kept and tb.events[-1].data["placed"][to] == sorted(kept, reverse=True)
    assert f"Of these, {tb.name(to)} holds " in "\n".join(lines)
    # a void is named once a seat shows it
    round_ = tb.game.round
    round_.voids[(tb.me + 1) % 4] |= 1 << 2  # West, as if it had not followed a heart
    lines = _said(tb, "count")
    assert lines[-1] == f"Voids shown: {tb.name((tb.me + 1) % 4)} ♥."
    assert _said(_table("es"), "cuenta")[-1] == "Nadie ha mostrado un fallo todavía."


def test_exchange_says_what_you_passed_and_received_this_round():
    tb = _table()
    assert _said(tb, "exchange") == ["You have not passed yet this round."]
    hand = tb.game.round.hand(tb.me)
    tb.handle("pass " + " ".join(str(c) for c in hand[-3:]))
    lines = _said(tb, "exchange")
    faces = ", ".join(c.face() for c in hand[-3:])
    assert lines[0] == f"You passed {faces} to West."
    while tb.cpu_step():
        pass
    lines = _said(tb, "exchange")
    received = tb.game.round.received[tb.me]
    assert lines == [f"You passed {faces} to West.",
                     f"You received {', '.join(c.face() for c in received)} from East."]
    assert tb.events[-1].data["passed"] == list(hand[-3:]) and tb.events[-1].data["source"] == 3
    es = _said(_table("es"), "intercambio")
    assert es == ["Aún no has pasado en esta ronda."]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_view_holds_at_40_columns(lang):
    """Through the same wrapping as the rest of the table: no word cut, no line over 40."""
    tb = _table(lang)
    _play_tricks(tb, 4)
    words = {"en": ("tricks", "last", "count", "exchange"), "es": ("bazas", "ultima", "cuenta", "intercambio")}[lang]
    for word in words:
        lines = _said(tb, word, width=40)
        assert lines and tb.events[-1].kind in ("tricks", "last", "count", "exchange")
        for line in lines:
            for row in wrap([("", line)], 40):
                assert len(plain(row)) <= 40, (word, row)


def test_the_views_in_json_batch_mode():
    out = io.StringIO()
    lines = "exchange\npass TS JS KS\nlast\n2C\ntricks\nlast\ncount\nexchange\n"
    assert start_new(NewGame.of(code=CODE), json_events=True, stdin=io.StringIO(lines), stdout=out) == 0
    events = [json.loads(x) for x in out.getvalue().splitlines()]
    by_kind = {}
    for ev in events:
        by_kind.setdefault(ev["event"], []).append(ev)
    assert by_kind["exchange"][0]["passed"] is None
    assert by_kind["exchange"][1]["passed"] == ["TS", "JS", "KS"] and by_kind["exchange"][1]["to"] == 1
    assert by_kind["last"][0]["trick"] is None
    first = by_kind["last"][1]["trick"]
    assert first["cards"][0] == "2C" and first["seats"][0] == 0 and len(first["seats"]) == 4
    assert by_kind["tricks"][0]["tricks"][0] == first
    assert len(by_kind["count"][0]["out"]) == 4 and len(by_kind["count"][0]["voids"]) == 4


def test_the_count_line_in_the_toolbar_is_off_unless_a_setting_turns_it_on(home):
    from hearts_cli.repl.toolbar import Status, bottom_toolbar
    from hearts_cli.store.saves import read_settings

    status = Status()
    off = bottom_toolbar(_table(), status, lambda: 40)()
    assert "Out:" not in off[0][1]
    tb = _table(count=True)
    _play_tricks(tb, 1)
    on = bottom_toolbar(tb, status, lambda: 40)()[0][1]
    rows = on.split("\n")
    assert len(rows) == 2 and rows[1].startswith(" Out: ♣") and all(len(r) <= 40 for r in rows)
    # settings.yaml: `count: true` is a setting; a wrong value is named and left out
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("count: true\n")
    assert read_settings(home)[0] == {"count": True}
    (home / "settings.yaml").write_text("count: 3\n")
    settings, problems = read_settings(home)
    assert settings == {} and problems[0][0] == "settings_bad_count"


@pytest.mark.slow
def test_the_views_at_a_shared_table_come_from_the_seat_s_view_alone():
    """`hearts join`: the same commands, answered from what the host told the seat, equal to
    what the real round says of that seat (and nothing of another hand)."""
    from conftest import HOST, serve_table

    from hearts_cli.table.invitations import invitation
    from hearts_cli.table.remote import Link, RemoteTable
    from hearts_cli.table.shared import SharedTable
    from hearts_cli.table.shared import make_seats as shared_seats

    shared = SharedTable(Game(Rules.from_spec("quick"), CODE), shared_seats(4, 1, None), bot_threads=False,
                         delay=0.01)
    port = serve_table(shared)
    link = Link()
    remote = RemoteTable(link, link.connect(invitation(HOST, port, shared.seats[0].token), "Ana", "en", None))
    remote.blocking = True
    tb = Table(None, (), lang="en", confirm=False, core=remote)
    tb.announce_start()
    try:
        while True:
            while not remote.decision():
                remote.cpu_step()
            real = shared.game.round
            if real.phase is Phase.PASS:
                tb.handle("exchange")
                assert tb.events[-1].data["passed"] is None
                tb.handle("pass " + " ".join(str(c) for c in real.hand(0)[-3:]))
                continue
            if len(real.tricks) >= 3:
                break
            tb.handle(str(real.legal_cards()[-1]))
        view = real.view(0)
        tb.handle("tricks")
        assert [list(zip(t["seats"], t["cards"], strict=True)) for t in tb.events[-1].data["tricks"]] == \
            [tr.plays() for tr in real.tricks]
        tb.handle("last")
        assert tb.events[-1].data["trick"]["winner"] == real.tricks[-1].winner
        tb.handle("count")
        counted = count(view)
        assert tb.events[-1].data["out"] == [list(c) for c in counted.out]
        assert tb.events[-1].data["placed"] == [list(c) for c in counted.placed]
        tb.handle("exchange")
        data = tb.events[-1].data
        assert (data["passed"], data["received"], data["to"], data["source"]) == \
            (list(view.passed or ()), list(view.received or ()), view.passed_to, view.received_from)
    finally:
        link.close()


@pytest.mark.parametrize(("lang", "yours", "theirs"), [
    ("en", r"You take trick \d+, with (?:no points|1 point|\d+ points)\.",
     r"(?:West|North|East|South) takes trick \d+, with (?:no points|1 point|\d+ points)\."),
    ("es", r"Te llevas la baza \d+, (?:sin puntos|con 1 punto|con \d+ puntos)\.",
     r"(?:Oeste|Norte|Este|Sur) se lleva la baza \d+, (?:sin puntos|con 1 punto|con \d+ puntos)\."),
])
def test_a_trick_s_result_is_said_in_one_form_everywhere(lang, yours, theirs, tmp_path):
    """Issue 33 §2: who takes a trick was said four ways ("North takes trick 1, with no
    points.", "(points: 2)", "North took it (points: 0)", "West takes it (0 pts)"): the
    table's line, `tricks`, `last`, the table drawn, the screen reader and hearts replay
    say it alike, in both languages."""
    import re

    from hearts_cli.records.record_writer import write_record
    from hearts_cli.repl.reader import SpokenRenderer

    form = re.compile(f"(?:{yours}|{theirs})$")
    tb = _table(lang)
    for n in range(4, 13):  # on lead: the last trick stays on the table
        _play_tricks(tb, n)
        rd = tb.game.round
        if not rd.trick:
            break
    results, spoken = [], []
    for ev in tb.events:
        if ev.kind == "trick":
            [line] = Renderer(tb, plain=True).event(ev)
            results.append(plain(line))
            spoken += [plain(x) for x in SpokenRenderer(tb).event(ev)]
    assert len(results) >= 4 and any(re.match(yours, r) for r in results), results
    assert any(re.match(theirs, r) for r in results), results
    rows = _said(tb, "tricks" if lang == "en" else "bazas")
    [last] = _said(tb, "last" if lang == "en" else "ultima")
    drawn = [plain(x) for x in Renderer(tb, plain=True).table() if plain(x).startswith(last.split(":")[0])]
    spoken += [plain(x) for x in SpokenRenderer(tb).table() if plain(x).startswith(last.split(":")[0])]
    for k, row in enumerate(rows[:len(rd.tricks)], 1):
        assert row.endswith(results[k - 1]), (row, results[k - 1])
    for said in (last, *drawn):
        assert said.endswith(results[len(rd.tricks) - 1]), said
    assert drawn and len(spoken) == len(results) + 1 and all(form.search(x) for x in spoken), (drawn, spoken)
    path = tmp_path / "game.yaml"
    path.write_text(write_record(tb.game, seats=tb.seats), encoding="utf-8")
    from conftest import run

    story = run("replay", str(path), "--plain", "--lang", lang).stdout
    told = [line for line in story.splitlines() if re.match(r"(?:Trick|Baza) \d+:", line)]
    assert len(told) == len(rd.tricks) and all(form.search(line) for line in told), told
