"""Cancellation Hearts (two decks, 6-11 players): the rules of core.winner and scoring,
and the engine playing them (set-aside tricks, the last-trick fallback, hand pairs)."""

from __future__ import annotations

import json
import random
import re
from typing import NamedTuple

import pytest

from hearts_cli.model.cards import cards_of, parse_card
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import Rules, RulesError, load_preset
from hearts_cli.play import core
from hearts_cli.play.dealt import PassError, cards_of_pair
from hearts_cli.play.round import Round


def cs(text: str) -> list[int]:
    return [int(parse_card(x)) for x in text.split()]


def cancellation(**changes) -> Rules:
    return load_preset("cancellation").replace(**changes)


# ---------------------------------------------------------------- the trick winner


def test_identical_cards_cancel_and_the_highest_uncancelled_card_wins():
    rules = cancellation()
    trick = cs("5H AH KH AH 2C 9H QS 3H")
    assert core.cancelled(trick) == (parse_card("AH"),)
    assert core.winner(rules, trick) == 2  # K♥: the two A♥ cancel
    # one deck keeps the plain rule: the highest of the led suit
    assert core.winner(Rules(), cs("5H AH KH 2C")) == 1


def test_a_lone_card_of_the_led_suit_wins_even_when_low():
    trick = cs("2D 2D 3D KS KS AC AC 9H")
    assert core.cancelling_winner(trick) == 2  # the 3♦: both 2♦ cancel, discards never win


def test_every_card_of_the_led_suit_cancelled_sets_the_trick_aside():
    rules = cancellation()
    trick = cs("5H 9C 5H AH QS AH 2C 3S")
    assert core.winner(rules, trick) is None
    # on the last trick the fallback decides: the leader, or the second copy of the highest
    assert core.winner(rules, trick, last=True) == 0
    assert core.winner(cancellation(set_aside_last="second"), trick, last=True) == 5


# ---------------------------------------------------------------- the rules' facts


def test_two_decks_seat_six_to_eleven_and_hand_out_52_points():
    for n in range(6, 12):
        r = cancellation(players=n)
        assert r.hand_size * n + r.kitty_size == sum(r.copies)
        assert r.penalty_total == r.round_total == 52 and r.penalty_count == 28
    for n in (5, 12):
        with pytest.raises(RulesError) as e:
            cancellation(players=n)
        assert "6 to 11" in e.value.message("en")
    with pytest.raises(RulesError):
        Rules(players=7)  # one deck: 3 to 6
    with pytest.raises(RulesError):
        cancellation(decks=3)
    assert cancellation(players=6).removed == tuple(parse_card(x) for x in ("2C", "2D"))
    assert cancellation(players=6).copies[0] == 1  # one 2♣ left: it leads


def test_the_moon_takes_both_copies_of_every_penalty_card():
    rules = cancellation()
    pm = rules.penalty_mask
    taken = [0] * 8
    twice = [0] * 8
    taken[3], twice[3] = pm, pm
    points = [0] * 8
    points[3] = 52
    res = core.score_round(rules, taken, points, [0] * 8, twice=twice)
    assert res.shooter == 3 and res.scores == tuple(0 if s == 3 else 52 for s in range(8))
    # one copy of the 2♥ elsewhere: no moon
    twice[3] &= ~(1 << parse_card("2H"))
    points[3], points[5] = 51, 1
    assert core.score_round(rules, taken, points, [0] * 8, twice=twice).shooter is None
    # the J♦ -10 composes: a shooter who took both copies keeps -20
    jd = cancellation(jack_of_diamonds=True)
    bit = 1 << parse_card("JD")
    taken[3] |= bit
    twice[3] = pm | bit
    points[3], points[5] = 52 - 20, 0
    res = core.score_round(jd, taken, points, [0] * 8, twice=twice)
    assert res.shooter == 3 and res.scores[3] == -20 and res.scores[0] == 52


# ---------------------------------------------------------------- the engine


def seek_cancel(r: Round, rng: random.Random) -> int:
    """Play a twin of a card in the trick when legal (cancellations come up often)."""
    legal = cards_of(r.legal_mask())
    twins = [c for c in legal if c in r.trick]
    return twins[0] if twins else rng.choice(legal)


def played(players: int, number: int, **changes) -> Round:
    r = Round.deal(cancellation(players=players, passing="none", **changes), code_from_number(number), 0)
    rng = random.Random(number)
    while not r.over:
        r.play(seek_cancel(r, rng))
    return r


def test_a_set_aside_trick_goes_with_its_points_to_the_next_winner():
    r = played(6, 1)
    i = next(i for i, tr in enumerate(r.tricks) if tr.winner is None)
    aside, after = r.tricks[i], r.tricks[i + 1]
    assert after.leader == aside.leader  # the same player leads again
    if after.winner is not None:
        assert sorted(after.carried) == sorted(aside.cards)
        pts = r.rules.points
        assert after.points == sum(pts[c] for c in after.cards + after.carried)
    assert sum(r.result.taken) == 52 and sum(tr.points for tr in r.tricks if tr.winner is not None) == 52


@pytest.mark.parametrize("fallback", ["leader", "second"])
def test_the_last_trick_all_cancelled_goes_by_the_fallback(fallback):
    r = played(11, 1, set_aside_last=fallback)
    last = r.tricks[-1]
    assert core.cancelling_winner(last.cards) is None  # every card of its led suit cancelled
    index = core.set_aside_winner(r.rules, last.cards)
    assert last.winner == (last.leader + index) % 11
    if fallback == "leader":
        assert last.winner == last.leader
    else:
        led = last.cards[0] // 13
        top = max(c for c in last.cards if c // 13 == led)
        assert last.cards[index] == top and list(last.cards).count(top) == 2
    assert sum(r.result.taken) == 52


def test_a_hand_holds_a_card_twice_and_passes_both():
    rules = cancellation()
    for number in range(200):
        r = Round.deal(rules, code_from_number(number), 0)
        seat = next((s for s in range(8) if r.twice[s]), None)
        if seat is not None:
            break
    c = cards_of(r.twice[seat])[0]
    hand = r.hand(seat)
    assert list(hand).count(c) == 2 and len(hand) == 13
    assert r.view(seat).hand == hand
    others = [x for x in hand if x != c]
    r.pass_cards([c, c, others[0]], seat)  # both copies: the same card named twice
    assert r.passes[seat] == tuple(sorted([c, c, others[0]]))
    with pytest.raises(PassError):
        r.pass_cards([others[0]] * 3, (seat + 1) % 8)  # not held three times (nor by that seat)


def test_why_says_which_cards_cancel_and_what_would_win():
    found = 0
    for number in range(60):
        r = Round.deal(cancellation(passing="none"), code_from_number(number), 0)
        rng = random.Random(number)
        while not r.over:
            if len(r.trick) == 7:
                for c in cards_of(r.legal_mask()):
                    if c in r.trick and c // 13 == r.trick[0] // 13:
                        trick = r.trick + [c]
                        best = core.winner(r.rules, trick)
                        text = r.why(c).message("en")
                        # "the two 4♣, the two A♣ cancel: K♣ would win. A♣ does not win the trick."
                        assert text.startswith("The two ")
                        assert text.lower().count("the two ") == len(core.cancelled(trick))
                        effect = r.why(c).effect
                        assert effect.cancelled == core.cancelled(trick) and effect.wins is False
                        if best is not None:
                            assert effect.by == trick[best] and " cancel: " in text and "would win" in text
                        else:
                            assert effect.by is None and "set aside" in text
                        assert "se anulan" in r.why(c).message("es")
                        found += 1
            r.play(seek_cancel(r, rng))
        if found >= 3:
            break
    assert found


def test_with_both_two_of_clubs_out_the_first_holder_clockwise_from_the_dealer_leads():
    rules = cancellation(passing="none")
    two = parse_card("2C")
    differs = 0
    for number in range(40):
        r = Round.deal(rules, code_from_number(number), 0)
        holders = [s for s in range(8) if r.count(s, two)]
        order = [(r.dealer + k) % 8 for k in range(1, 9)]
        assert r.leader == next(s for s in order if s in holders)
        assert r.legal_cards() == (two,)  # it leads a 2♣
        differs += r.leader != min(holders)
    assert differs  # clockwise from the dealer, not the lowest seat number


def test_the_engine_scores_two_deck_rounds_as_the_core_does():
    """The engine's scoring of a real round equals core.score_round on what was taken,
    and a round's points are 52 unless somebody took all 28 penalty cards."""
    for number in range(30):
        r = played(8, number)
        res = core.score_round(r.rules, r.taken, r.points, r.scores_before, twice=r.taken_twice)
        assert r.result.scores == res.scores
        assert sum(r.result.taken) == 52


# ---------------------------------------------------------------- records, replay, protocol


def _game_with_a_set_aside_trick():
    from hearts_cli.play.game import Game

    rules = cancellation(players=6, passing="none")
    game = Game(rules, code_from_number(1))
    rng = random.Random(1)
    rnd = game.round
    while not rnd.over:
        game.push(seek_cancel(rnd, rng))
    assert any(tr.winner is None for tr in rnd.tricks)
    return game


def test_a_record_keeps_cards_held_twice_and_set_aside_tricks(tmp_path):
    import io

    from hearts_cli.records.record_reader import read_record
    from hearts_cli.records.record_writer import write_record

    game = _game_with_a_set_aside_trick()
    text = write_record(game)
    assert "won: null" in text
    doubled = next(c for s in range(6) for c in cards_of(game.rounds[0].dealt_twice[s]))
    assert any(line.count(str(doubled)) == 2 for line in text.splitlines() if line.strip()[:2].rstrip(":").isdigit())
    rec = read_record(io.StringIO(text))  # strict: every trick's winner and points checked
    assert [m.card for m in rec.moves if m.kind == "play"] == [
        c for tr in game.rounds[0].tricks for c in tr.cards]


def test_replay_tells_each_cancellation_and_the_set_aside_trick(tmp_path):
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.records.record import save_record

    game = _game_with_a_set_aside_trick()
    path = tmp_path / "game.yaml"
    save_record(path, game)
    out = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"])
    assert out.exit_code == 0, out.stderr
    text = out.stdout
    assert re.search(r"Nobody takes trick \d+, with (?:no points|1 point|\d+ points): it is set aside", text)
    assert "cancel: every card of the led suit is cancelled" in text
    assert "also takes the set-aside trick" in text and " cards, " in text
    assert " cancel: " in text and " wins." in text  # "The two A♥ cancel: K♥ wins."
    es = CliRunner().invoke(app, ["replay", str(path), "--lang", "es"]).stdout
    assert "se anulan" in es and "se aparta" in es


def test_the_engine_protocol_takes_a_hand_holding_a_card_twice():
    import json
    import subprocess
    import sys

    r = Round.deal(cancellation(), code_from_number(7), 0)
    seat = next(s for s in range(8) if r.twice[s])
    c = str(cards_of(r.twice[seat])[0])
    lines = [{"cmd": "position", "rules": {"preset": "cancellation"}, "direction": "left",
              "hands": [[str(x) for x in r.hand(s)] for s in range(8)]},
             {"cmd": "pass", "seat": seat, "cards": [c, c, str(next(x for x in r.hand(seat) if str(x) != c))]},
             {"cmd": "state", "reveal": True}]
    lines.insert(1, {"cmd": "state", "reveal": True})
    out = subprocess.run([sys.executable, "-m", "hearts_cli", "engine"], capture_output=True, text=True,
                         input="\n".join(json.dumps(x) for x in lines) + "\n", timeout=60)
    replies = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["ok"] for x in replies] == [True, True, True, True], replies
    assert replies[1]["hands"][str(seat)].count(c) == 2  # written twice
    assert replies[3]["passes_made"][seat]  # both copies passed (exchanged once everyone has)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_on_after_a_set_aside_trick(level):
    """Once a trick is set aside (its winner unknown yet), every CPU level still reads its
    view and plays legal cards to the end of the round."""
    from hearts_cli.bots import make_bot

    r = Round.deal(cancellation(players=6, passing="none"), code_from_number(1), 0)
    rng = random.Random(1)
    while not any(tr.winner is None for tr in r.tricks):
        r.play(seek_cancel(r, rng))
    bot = make_bot(level, 3, 4)
    while not r.over:
        r.play(bot.choose_card(r.view(r.turn)))  # raises IllegalMove if illegal
    assert sum(r.result.taken) == 52


def _whole_game():
    """A whole two-deck game (6 players, to 40), played end to end by CPU players: it has a
    trick set aside in round 1 and taken by the next winner, and a cancelled last trick."""
    from hearts_cli.bots import make_bot
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game

    game = Game(cancellation(players=6, target=40), "V0000009")
    bots = [make_bot("normal" if s % 2 else "easy", s) for s in range(6)]
    while not game.over:
        rd = game.round
        if rd.phase is Phase.PASS:
            s = rd.passes.index(None)
            game.push_pass(bots[s].choose_pass(rd.view(s)), s)
        else:
            game.push(bots[rd.turn].choose_card(rd.view(rd.turn)))
    return game


def test_replay_tells_who_takes_each_set_aside_trick_and_the_last_trick(tmp_path):
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.records.record import save_record

    game = _whole_game()
    first = game.rounds[0]
    aside = [k for k, tr in enumerate(first.tricks, 1) if tr.winner is None]
    assert aside == [11]
    taker = first.tricks[11]  # trick 12 takes trick 11 with it
    last = first.tricks[-1]
    assert last.winner == last.leader and core.cancelling_winner(last.cards) is None  # the fallback
    path = tmp_path / "game.yaml"
    save_record(path, game)
    text = CliRunner().invoke(app, ["replay", str(path), "--lang", "en"]).stdout
    seats = ["South", "West", "North-West", "North", "North-East", "East"]
    pts = sum(game.rules.points[c] for c in taker.carried)
    assert (f"{seats[taker.winner]} also takes the set-aside trick 11: {len(taker.carried)} cards, "
            f"{pts} pts") in text
    assert (f"cancel: every card of the led suit is cancelled, and on the last trick the player who led "
            f"it takes it: {seats[last.leader]}.") in text
    es = CliRunner().invoke(app, ["replay", str(path), "--lang", "es"]).stdout
    assert "se lleva también la baza apartada 11" in es and "en la última baza se la lleva quien salió" in es
    events = [json.loads(x) for x in CliRunner().invoke(app, ["replay", str(path), "--json"]).stdout.splitlines()]
    tricks = [e for e in events if e["event"] == "trick" and e["round"] == 1]
    assert tricks[10]["winner"] is None and len(tricks[11]["carried"]) == 6  # trick 11's six cards


@pytest.mark.slow
def test_analyze_weighs_a_whole_two_deck_game(tmp_path):
    """`--analyze` on a real two-deck record: every decision of the seat with a choice is
    weighed (a choice: two cards Hard does not hold equivalent), each distinct legal card (or
    candidate pass) gets a value, and the output says how a two-deck game was weighed."""
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.play.game import Game
    from hearts_cli.records import analysis
    from hearts_cli.records.record import save_record
    from hearts_cli.records.record_parts import MoveAddress
    from hearts_cli.records.record_reader import read_record

    game = _whole_game()
    path = tmp_path / "game.yaml"
    save_record(path, game)
    args = ["replay", str(path), "--analyze", "--seat", "0", "--simulations", "4"]
    out = CliRunner().invoke(app, args + ["--json"])
    assert out.exit_code == 0, out.stderr
    events = [json.loads(x) for x in out.stdout.splitlines()]
    decisions = {e["position"]: e for e in events if e["event"] == "decision"}
    (summary,) = [e for e in events if e["event"] == "summary"]
    assert summary["method"] == "two_deck_playout" and summary["decisions"] == len(decisions)
    # replay the record: each card decision of seat 0 with two distinct legal cards is there,
    # valued on exactly those cards; forced ones are not
    record = read_record(path)
    g = Game(record.rules, record.code)
    plays = 0
    for move in record.moves:
        rd = g.round
        if move.seat == 0 and move.kind == "play":
            legal = sorted({str(c) for c in rd.legal_cards()})
            d = decisions.get(str(MoveAddress.of(move)))
            classes = analysis._classes_of(rd.view(0))  # Hard's classes of equivalent cards
            assert sorted(str(c) for c in classes) == legal
            if len(set(classes.values())) > 1:
                assert d is not None, MoveAddress.of(move)
                assert sorted(d["values"]) == legal
                assert d["expected"] == d["values"][str(move.card)]
                assert all(0 <= v <= 52 for v in d["values"].values())
                plays += 1
            else:
                assert d is None
        if move.seat == 0 and move.kind == "pass":
            d = decisions[str(MoveAddress.of(move))]
            assert sorted(d["played"]) == sorted(str(c) for c in move.cards) and len(d["values"]) > 1
            assert all(len(k.split()) == 3 for k in d["values"])
        g.push(move)
    assert plays > 20
    assert sum(1 for d in decisions.values() if d["glyph"]) >= 1
    # the text says how a two-deck game was weighed, in both languages; the same seed, the same analysis
    text = CliRunner().invoke(app, args + ["--lang", "en"]).stdout
    assert "Two decks: each decision was weighed as the two-deck Hard weighs it" in text
    assert "no endgame search" in text
    assert "South: " + str(summary["decisions"]) + " decisions" in text
    assert CliRunner().invoke(app, args + ["--lang", "en"]).stdout == text
    es = CliRunner().invoke(app, args + ["--lang", "es"]).stdout
    assert "Dos barajas: cada decisión se evaluó como la evalúa el Difícil" in es
    # and --annotate-to writes a record that replays
    notes = tmp_path / "study.yaml"
    assert CliRunner().invoke(app, args + ["--annotate-to", str(notes)]).exit_code == 0
    again = CliRunner().invoke(app, ["replay", str(notes), "--lang", "en"])
    assert again.exit_code == 0 and "Winner" in again.stdout


def test_two_deck_analysis_prices_a_trick_full_of_points():
    """On a seat's last card of a trick with points in it, a card that wins it (cancellation
    counted) is valued at no fewer points than a card that ducks it."""
    from hearts_cli.records.evaluate import evaluate_play

    game = _whole_game()
    rules = game.rules
    found = 0
    for rd in game.rounds:
        r = Round(rules, [cards_of_pair(rd.dealt[s], rd.dealt_twice[s]) for s in range(6)],
                  direction=rd.direction, round_index=rd.round_index, dealer=rd.dealer)
        moves = [(s, list(p)) for s, p in enumerate(rd.passes)] if rd.passes[0] is not None else []
        for s, p in moves:
            r.pass_cards(p, s)
        for tr in rd.tricks:
            for i, c in enumerate(tr.cards):
                if i == 5 and sum(rules.points[x] for x in r.trick) >= 2:
                    legal = sorted(set(r.legal_cards()))
                    wins = [x for x in legal if core.winner(rules, list(r.trick) + [x]) == 5]
                    ducks = [x for x in legal if core.winner(rules, list(r.trick) + [x]) != 5
                             and rules.points[x] == 0]
                    if wins and ducks:
                        values = evaluate_play(r.view(r.turn), 1, 8)
                        assert set(values) == set(legal)
                        assert min(values[x] for x in wins) >= min(values[x] for x in ducks)
                        found += 1
                r.play(c)
    assert found


def test_sim_plays_cancellation_at_eight_players():
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app

    out = CliRunner().invoke(app, ["sim", "--preset", "cancellation", "--players", "8", "--seats",
                                   "normal,easy,normal,easy,normal,easy,normal,easy", "--deals", "1",
                                   "--workers", "1", "--lang", "en"])
    assert out.exit_code == 0, out.stderr
    assert "8 players" in out.stdout and "normal" in out.stdout and "easy" in out.stdout
    bad = CliRunner().invoke(app, ["sim", "--preset", "cancellation", "--seats", "easy,easy,easy",
                                   "--lang", "en"])
    assert bad.exit_code == 2 and "6 to 11" in bad.stderr


# ---------------------------------------------------------------- `why` before the trick's last card


def _outcomes(r: Round, card, rng: random.Random, tries: int = 6):
    """The end of the trick after ``card`` in a few random continuations (the other hands as
    dealt): the trick's cards and the index of its winner (None: set aside). Each is played
    on ``Round.copy`` (a ``copy.deepcopy`` of the round took nine tenths of this test's time)."""
    before = (list(r.trick), list(r.hands), list(r.twice), r.turn)
    out = []
    for _ in range(tries):
        x = r.copy()
        x.play(card)
        while len(x.trick):
            x.play(rng.choice(list(x.legal_cards())))
        tr = x.tricks[-1]
        out.append((list(tr.cards), None if tr.winner is None else (tr.winner - tr.leader) % x.players))
    assert (list(r.trick), list(r.hands), list(r.twice), r.turn) == before  # the round itself: untouched
    return out


@pytest.mark.slow
def test_why_before_the_last_card_says_what_is_known_so_far_and_what_could_change_it():
    """Two decks, cards still to come: `why` says whether the card would win the trick so far,
    which card wins if it cancels one, whether a copy still out could cancel it, and says
    `wins` True/False only when no card still to come can change it — checked against
    how the trick really ends in random continuations."""
    rules = cancellation(passing="none")
    seen = {"so_far_twin": 0, "so_far_safe": 0, "behind_hope": 0, "stuck": 0, "sure": 0, "cancels": 0}
    for number in range(12):
        r = Round.deal(rules, code_from_number(number), 0)
        rng = random.Random(number)
        while not r.over:
            k = len(r.trick)
            if k < 7:
                for c in sorted(set(r.legal_cards())):
                    eff = r.why(c).effect
                    trick = list(r.trick) + [c]
                    en, es = r.why(c).message("en"), r.why(c).message("es")
                    if c // 13 != trick[0] // 13:  # a discard never wins
                        assert eff.wins is False and not eff.pending
                        continue
                    best = core.cancelling_winner(trick)
                    ends = _outcomes(r, c, rng)
                    won = [w == k for _, w in ends]
                    if eff.wins is True:
                        assert all(won), (trick, ends)
                        seen["sure"] += 1
                        continue
                    assert eff.pending
                    if eff.wins is False:
                        assert not any(won)
                    if c in r.trick:  # it cancels a card played: what wins so far instead
                        assert eff.cancelled == core.cancelled(trick) and eff.wins is False
                        assert eff.by == (trick[best] if best is not None else None)
                        assert ("would win so far" in en) == (best is not None)
                        assert "se anulan" in es
                        seen["cancels"] += 1
                        continue
                    assert eff.so_far == (best == k)
                    # a copy still out could cancel it: if it ever was cancelled, one was out
                    if any(cards.count(c) > 1 for cards, _ in ends):
                        assert eff.twin_out
                    if eff.so_far:
                        assert en.startswith(f"{c.symbol} would win the trick so far.")
                        assert es.startswith(f"Por ahora {c.symbol} ganaría la baza.")
                        assert ("could cancel it" in en) == eff.twin_out
                        assert ("Nobody can cancel it" in en) == (not eff.twin_out)
                        seen["so_far_twin" if eff.twin_out else "so_far_safe"] += 1
                    elif eff.wins is False:  # a card ahead that no copy still out can cancel
                        assert eff.stuck in eff.ahead and trick.count(eff.stuck) == 1 and eff.stuck > c
                        assert eff.ahead[0] == trick[best]  # and the card winning so far is named
                        assert en.startswith(f"{c.symbol} does not win the trick: {trick[best].symbol} ")
                        assert es.startswith(f"{c.symbol} no gana la baza: ")
                        seen["stuck"] += 1
                    else:
                        assert f"{c.symbol} would not win the trick so far: {trick[best].symbol} is higher." in en
                        assert "It can still win only if" in en and "Solo puede ganar aún si" in es
                        seen["behind_hope"] += 1
                    if eff.so_far and not eff.twin_out and not eff.higher_out:
                        raise AssertionError("certain: should have said wins")
                    # it lost to a higher card that came later: that card was said to be out
                    for cards, w in ends:
                        if w is not None and w > k and cards[w] > c and cards.count(c) == 1:
                            assert eff.higher_out or eff.ahead
            r.play(seek_cancel(r, rng))
    assert all(seen.values()), seen


def test_the_game_loop_and_explain_answer_why_mid_trick_in_words(tmp_path):
    """`why CARD` in the game loop and `hearts explain` (same position, from a move log) say
    the two-deck answer before the trick's last card, in English and Spanish, never "may or
    may not win"."""
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.play.game import Game
    from hearts_cli.repl.table import Table, make_seats

    rules = cancellation()
    for number in range(40):
        game = Game(rules, code_from_number(number))
        tb = Table(game, make_seats(8, 0, None), lang="en", confirm=False)
        while tb.cpu_step():
            pass
        rd = game.round
        if rd.phase.value == "pass":
            tb.handle("pass " + " ".join(str(c) for c in rd.hand(0)[:3]))
            while tb.cpu_step():
                pass
        rd = game.round
        follow = [c for c in sorted(set(rd.legal_cards())) if rd.trick and c // 13 == rd.trick[0] // 13
                  and c not in rd.trick]
        if rd.turn == 0 and 0 < len(rd.trick) < 7 and follow:
            break
    else:
        raise AssertionError("no position with seat 0 following mid-trick")
    card = follow[-1]
    tb.handle(f"why {card}")
    ev = tb.events[-1]
    assert ev.kind == "why" and ev.data["legal"]
    text = ev.data["text"]
    assert "may or may not" not in text
    assert "would win the trick so far" in text or "would not win the trick so far" in text, text
    assert text == rd.why(card, 0).message("en")
    es = Table(game, make_seats(8, 0, None), lang="es", confirm=False)
    es.handle(f"why {card}")
    assert es.events[-1].data["text"] == rd.why(card, 0).message("es")
    # hearts explain, the same position from the code and the moves made
    record_moves = [str(c) for s in range(8) for c in (rd.passes[s] or ())] if rd.passes[0] else []
    record_moves += [str(c) for tr in rd.tricks for c in tr.cards] + [str(c) for c in rd.trick]
    out = CliRunner().invoke(app, ["explain", str(card), "--preset", "cancellation", "--code", game.code,
                                   "--moves", " ".join(record_moves), "--lang", "en", "--json"])
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    eff = data["effect"]
    assert eff["message"] == rd.why(card, 0).message("en")
    if eff["wins"] is None:
        assert eff["so_far"] is not None and isinstance(eff["twin_out"], bool)
    es = CliRunner().invoke(app, ["explain", str(card), "--preset", "cancellation", "--code", game.code,
                                  "--moves", " ".join(record_moves), "--lang", "es"])
    assert es.exit_code == 0 and "puede ganar la baza o no" not in es.stdout


@pytest.mark.slow
def test_two_deck_analysis_reasons_say_what_the_trick_shows():
    """A two-deck decision said to "take N pts" is the trick's last card, wins it with
    cancellation counted, and N is its points with any set-aside trick's."""
    import io

    from hearts_cli.play.game import Game
    from hearts_cli.records.analysis import analyze
    from hearts_cli.records.record_parts import MoveAddress
    from hearts_cli.records.record_reader import read_record
    from hearts_cli.records.record_writer import write_record

    record = read_record(io.StringIO(write_record(_whole_game())))
    decisions = {d.position: d for d in analyze(record, simulations=4)}
    g = Game(record.rules, record.code)
    takes = 0
    for move in record.moves:
        d = decisions.get(MoveAddress.of(move))
        rd = g.round
        if d is not None and d.reason is not None and d.reason[0] == "an_takes_points":
            trick = [int(c) for c in rd.trick] + [int(move.card)]
            assert len(trick) == rd.players
            assert core.winner(rd.rules, trick, len(rd.hand(rd.turn)) == 1) == rd.players - 1
            aside = [int(c) for c in rd.set_aside]
            assert d.reason[1]["points"] == sum(rd.rules.points[c] for c in trick + aside)
            assert d.glyph in ("?", "??") and d.reason[1]["card"] == move.card
            takes += 1
        if d is not None and d.glyph == "!":
            assert d.reason[0] in ("an_only_good", "an_only_good_pass")
        g.push(move)
    assert takes


@pytest.mark.parametrize("fallback", ["leader", "second"])
def test_why_on_the_last_trick_tells_the_fallback_not_a_set_aside(fallback):
    """On the last trick nothing is set aside: a card that cancels every card of the suit
    led so far is answered with who takes the trick by the fallback (`second`: the second
    copy of the highest card, which may be this one), never "will be set aside", and
    `wins` False only when no continuation gives it the trick."""
    seen = 0
    for number in range(1, 9):
        r = Round.deal(cancellation(players=11, passing="none", set_aside_last=fallback),
                       code_from_number(number), 0)
        rng = random.Random(number)
        while not r.over:
            k = len(r.trick)
            if len(r.tricks) == r.rules.hand_size - 1 and 0 < k < r.players - 1:
                for c in sorted(set(r.legal_cards())):
                    trick = list(r.trick) + [c]
                    if c not in r.trick or core.cancelling_winner(trick) is not None:
                        continue
                    eff = r.why(c).effect
                    en, es = r.why(c).message("en"), r.why(c).message("es")
                    assert "set aside" not in en and "apart" not in es, en
                    won = [w == k for _, w in _outcomes(r, c, rng)]
                    if eff.wins is False:
                        assert not any(won), (trick, en)
                    so_far = core.winner(r.rules, trick, last=True)
                    assert eff.by == trick[so_far]
                    if so_far == k:
                        assert eff.wins is None and "you take it" in en, en
                    seen += 1
            r.play(seek_cancel(r, rng))
    assert seen


@pytest.mark.parametrize("lang, said", [("en", "The two 9♠ and the two 10♠ cancel: J♠ would win."),
                                        ("es", "Los dos 9♠ y los dos 10♠ se anulan")])
def test_two_pairs_cancelling_are_named_as_a_sentence_says_them(lang, said):
    # issue 18 §6: "The two 9♠, the two 10♠ cancel" read as a list cut short
    from hearts_cli.play.verdicts import Effect

    nine, ten, jack = parse_card("9S"), parse_card("TS"), parse_card("JS")
    effect = Effect(parse_card("2S"), False, None, False, False, (nine, ten), jack)
    assert effect.message(lang).startswith(said)
    three = Effect(parse_card("2S"), False, None, False, False, (nine, ten, jack), parse_card("QS"))
    assert three.message(lang).startswith("The two 9♠, the two 10♠ and the two J♠ cancel" if lang == "en"
                                          else "Los dos 9♠, los dos 10♠ y los dos J♠ se anulan")


@pytest.mark.parametrize("lang, said", [
    ("en", "6♣ does not win the trick: K♣ wins it so far, and 9♣ is higher too, with no copy "
           "still out to cancel it."),
    ("es", "6♣ no gana la baza: por ahora gana K♣, y 9♣ también es más alta, sin ninguna copia "
           "por salir que pueda anularla.")])
def test_a_card_that_cannot_win_names_the_card_winning_the_trick(lang, said):
    """Issue 18 §6: "6♣ does not win the trick: 9♣ is higher" while the K♣ wins. JYR35SWD, six
    players, 2♣ 9♣ 5♣ K♣ played: the other K♣ is still out (it could cancel the K♣), the other
    9♣ is not, so the 6♣ cannot win; the K♣ is what wins the trick now, and is named first."""
    r = Round.deal(load_preset("cancellation").replace(players=6), "JYR35SWD", 0, direction="none")
    for c in ["2C", "9C", "5C", "KC"]:
        r.play(c)
    effect = r.why("6C").effect
    assert effect is not None and effect.wins is False
    assert effect.ahead[0] == parse_card("KC") and effect.stuck == parse_card("9C")
    assert effect.message(lang) == said
    assert effect.to_json()["ahead"] == ["KC", "9C"] and effect.to_json()["stuck"] == "9C"


def _table_round_one(lang: str):
    """QSPADE7B, six players, round 1 at the table of `hearts play` (you at seat 0 playing your
    first legal card): in trick 17 the A♥ is led and the two 3♦ are discarded."""
    from hearts_cli.play.dealt import Phase
    from hearts_cli.play.game import Game
    from hearts_cli.repl.table import Table, make_seats

    tb = Table(Game(cancellation(players=6), "QSPADE7B"), make_seats(6, 0, None), lang=lang)
    tb.handle("pass " + " ".join(str(c) for c in tb.game.round.hand(0)[-3:]))
    while not tb.game.results:
        while tb.cpu_step():
            pass
        rd = tb.game.round
        if rd.phase is not Phase.PLAY or rd.turn != 0:
            break
        tb.core.play(0, rd.legal_cards()[0], "person")
    return tb


@pytest.mark.slow  # a two-deck game against Hard: two seconds
@pytest.mark.parametrize("lang, told, untold", [
    ("en", ["The two 10♣ cancel: Q♣ wins.", "The two Q♥ and the two 4♥ cancel: 9♥ wins."], "3♦ cancel"),
    ("es", ["Los dos 10♣ se anulan: gana Q♣.", "Los dos Q♥ y los dos 4♥ se anulan: gana 9♥."], "3♦ se anulan")])
def test_twins_of_another_suit_cancelling_change_nothing_and_are_not_told(tmp_path, lang, told, untold):
    """Issue 18 §6: two 3♦ discarded on the A♥'s trick cancel, but a discard never wins, so that
    changes neither the winner nor the points: the game's lines and the replay story leave it out
    and still tell the pairs of the suit led; `--json` keeps every card played twice (the `trick`
    event of docs/events.md)."""
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.records.record import save_record
    from hearts_cli.repl.render import Renderer, plain

    tb = _table_round_one(lang)
    tricks = [ev for ev in tb.events if ev.kind == "trick"]
    off = next(ev for ev in tricks if [str(p["card"]) for p in ev.data["plays"]][:3] == ["AH", "5S", "3D"])
    assert off.data["cancelled"] == [parse_card("3D")]
    r = Renderer(tb, plain=True)
    lines = [plain(x) for ev in tricks for x in r.event(ev)]
    assert all(any(said in x for x in lines) for said in told), lines
    assert not any(untold in x for x in lines), lines
    path = tmp_path / "game.yaml"
    save_record(path, tb.game)
    story = CliRunner().invoke(app, ["replay", str(path), "--lang", lang]).stdout
    assert all(f"  {said}" in story for said in told) and untold not in story
    events = [json.loads(x) for x in CliRunner().invoke(app, ["replay", str(path), "--json"]).stdout.splitlines()]
    assert any(e["event"] == "trick" and e.get("cancelled") == ["3D"] for e in events)


# ---------------------------------------------------------------- `why` on the last trick, the fallback's hope

_LAST_TRICK_REPRO = "why-last-trick-cancelled.jsonl"  # issue 26, defect 17: the position, then the `why`
_REPRO_HANDS = ["3C 4C TC QC KC 5D 9D QD TH 2S 3S 4S JS", "6C 7C JC AC 4D 7D 8D KD 2H 4H JH KH 8S",
                "5C 9C TD JD AD 5H 6H 7H QH 5S 7S 9S TS"]
_REPRO_PLAYS = (
    "2C 5C 4C JC 5C 4C 2C JC 6S 7S JS 8S 7S JS 6S 8S 8C 9C TC 6C 9C TC 8C 6C 6D TD QD 4D TD QD 6D 4D "
    "3D AD 9D 7D AD 9D 3D 7D 2D JD 5D 8D JD 5D 2D 8D QS TS 4S KD TS 4S QS KD AS 5S 3S 4H 5S 3S AS 4H "
    "8H 6H TH KH 6H TH 8H KH KS 9S 2S AC 9S 2S KS AC AH 7H QC JH 7H QC AH JH 9H 5H KC 2H 5H KC 9H 2H "
    "3H QH 3C 7C")


def _repro_position() -> dict:
    """Eight seats, `set_aside_last: second`, the last trick: 3♥ led, Q♥, two clubs; the seat to
    move holds the other Q♥, and the other 3♥ is still to come (seat 4)."""
    east = "2C 8C 2D 3D 6D 3H 8H 9H AH 6S QS KS AS"
    hands = [*_REPRO_HANDS, _REPRO_HANDS[0], east, _REPRO_HANDS[1], east, _REPRO_HANDS[2]]
    return {"cmd": "position", "rules": {
        "preset": "cancellation", "players": 8, "deck": "remove", "removal": {"8": []}, "passing": "standard",
        "first_lead": "lowest_club", "hearts_break": "heart", "set_aside_last": "second",
        "moon": "shooter_choice", "jack_of_diamonds": True},
        "round": 6, "direction": "none", "hands": [h.split() for h in hands],
        "plays": _REPRO_PLAYS.split(), "reveal": True}


def test_why_on_the_last_trick_says_a_twin_still_out_can_hand_the_trick_to_the_second_copy():
    """Issue 26, defect 17: `why QH` after its twin was played, with the other 3♥ still to come,
    said "QH does not win the trick" (`wins` False); that 3♥ cancels the 3♥ led, every heart is
    cancelled, and the second Q♥ takes the last trick. `wins` is None, and the sentence says why."""
    from hearts_cli.cli.protocol import Session

    session = Session("en")
    assert session.handle(_repro_position())["ok"]
    reply = session.handle({"cmd": "why", "card": "QH"})
    eff = reply["effect"]
    assert eff["wins"] is None and eff["exact"] is False and eff["points"] is None
    assert eff["cancelled"] == ["QH"] and eff["by"] == "3H" and eff["ahead"] == ["3H"]
    assert eff["message"] == (
        "The two QH cancel: 3H would win so far. But QH can still take it: if 3H is cancelled by a twin "
        "still out, every card of the led suit is cancelled, and on the last trick you take it with the "
        "second QH, unless another card of that suit comes.")
    es = session.handle({"cmd": "why", "card": "QH", "lang": "es"})["effect"]["message"]
    assert es.startswith("Los dos QH se anulan: por ahora ganaría 3H. Pero QH aún puede llevársela: "
                         "si 3H queda anulada por una gemela")
    # the same verdict from the round itself, and the trick as it really ends: the Q♥'s seat takes it
    r = session.round
    seat = r.mover
    verdict = r.why("QH")
    assert verdict.effect.wins is None and verdict.effect.ahead == tuple(cs("3H"))
    for _ in range(r.players - len(r.trick)):
        r.play(r.legal_cards()[0])
    assert r.tricks[-1].winner == seat
    # with `leader` the fallback gives the trick to the leader: the Q♥ cannot take it
    leader = _repro_position()
    leader["rules"]["set_aside_last"] = "leader"
    assert session.handle(leader)["ok"]
    eff = session.handle({"cmd": "why", "card": "QH"})["effect"]
    assert eff["wins"] is False and eff["message"].endswith("QH does not win the trick.")


class _LastTrick:
    """The :class:`~hearts_cli.play.verdicts.RoundState` a verdict reads on a two-deck last trick:
    the seat to move holds one card, every card not in the trick was taken in earlier tricks
    (one ``_Taken``), so the cards still unseen are exactly those still to come."""

    two = True
    hearts_broken = True
    kitty_mask = kitty_twice = 0
    kitty_taken = True

    def __init__(self, rules: Rules, trick: list, card, taken: list, aside: list) -> None:
        self.rules, self.players, self.trick, self.set_aside = rules, rules.players, trick, aside
        self.mover = len(trick)
        self.hands = [0] * rules.players
        self.hands[self.mover] = 1 << card
        self.twice = [0] * rules.players
        self.tricks = [_Taken(tuple(taken))]

    def legal_mask(self) -> int:
        return self.hands[self.mover]

    def count(self, seat: int, card: int) -> int:
        return self.hands[seat] >> card & 1


class _Taken(NamedTuple):
    cards: tuple


def test_why_on_a_two_deck_last_trick_claims_only_what_every_completion_agrees_on():
    """Random two-deck last tricks (few ranks, so twins and cancellations are common): when `why`
    says `wins` True or False, the trick completed by the cards still unseen, in any order, ends
    so; when it says `exact`, the points are those the trick (and the tricks set aside) gives."""
    from hearts_cli.model.cards import CARDS
    from hearts_cli.play.verdicts import judge

    rng = random.Random(26)
    claims = {True: 0, False: 0, "hope": 0}
    for _ in range(300):
        rules = cancellation(players=rng.randint(6, 11), set_aside_last=rng.choice(["leader", "second"]),
                             passing="none")
        every = [CARDS[c] for c in range(52) for _ in range(rules.copies[c])]
        led = rng.randrange(4)
        pairs = [CARDS[c] for c in range(52) if rules.copies[c] == 2]
        ranks = rng.sample([c for c in pairs if c // 13 == led], rng.randint(2, 5))
        other = rng.sample([c for c in pairs if c // 13 != led], 2)
        pool = [c for c in ranks + other for _ in range(2)]
        full = rng.sample(pool, min(rules.players, len(pool)))
        if len(full) < rules.players:
            continue
        full.sort(key=lambda c: c // 13 != led)  # the trick's first card leads the suit
        full = full[:1] + rng.sample(full[1:], len(full) - 1)
        k = rng.randrange(rules.players - 1)
        taken = list(every)
        for c in full:
            taken.remove(c)
        aside = rng.choice([[], taken[:3]])
        eff = judge(_LastTrick(rules, full[:k], full[k], taken, aside), full[k]).effect
        assert eff is not None
        to_come = full[k + 1:]
        for _ in range(4):  # completions: the cards still to come in another order
            cards = full[:k + 1] + rng.sample(to_come, len(to_come))
            best = core.winner(rules, cards, last=True)
            if eff.wins is not None:
                assert (best == k) == eff.wins, (rules.set_aside_last, cards, k, eff)
            if eff.exact:
                assert eff.points == sum(rules.points[c] for c in cards + aside)
        if eff.wins is not None:
            claims[eff.wins] += 1
        elif eff.cancelled and eff.ahead:
            claims["hope"] += 1
    assert all(claims.values()), claims
