"""Property tests over random rounds and games of every preset and player count.

Each random round is checked, move by move, against ``conftest.ref_legal`` (the
rules read from the sources), and its score against the moon arithmetic.
"""

from __future__ import annotations

import random

import pytest
from conftest import PLAYABLE, TWO_DECK, R, codes, ref_legal, ref_moon_scores, snapshot, suit_of
from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_rules import assert_no_other_hand

from hearts_cli.model.cards import CARDS
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import MOON_CHOICES, IllegalMove, Phase, better_moon_choice
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round
from hearts_cli.play.verdicts import REASON_ORDER

rule_sets = st.sampled_from(PLAYABLE)


def _held(r: Round) -> set[int]:
    out: set[int] = set()
    for s in range(r.players):
        out |= set(r.hand(s))
    return out


def _check_conservation(r: Round) -> None:
    rules = r.rules
    seen: list[int] = []
    for s in range(r.players):
        seen += r.hand(s)
    seen += r.trick
    for t in r.tricks:
        seen += t.cards
    seen += [c for c in range(52) if r.kitty_mask >> c & 1]
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert set(seen) == {c for c in range(52) if rules.in_play_mask >> c & 1}


def _try_illegal(r: Round, rng: random.Random) -> None:
    legal = set(r.legal_cards())
    illegal = [c for c in CARDS if c not in legal]
    c = rng.choice(illegal)
    before = snapshot(r)
    with pytest.raises(IllegalMove) as e:
        r.play(c)
    assert e.value.reason.code in REASON_ORDER
    assert snapshot(r, keep=False) == before


def play_random_round(rules: Rules, code: str, rnd: int, rng: random.Random,
                      illegal_rate: float = 0.25) -> Round:
    r = Round.deal(rules, code, rnd)
    n = rules.players
    _check_conservation(r)
    if r.phase is Phase.PASS:
        order = list(range(n))
        rng.shuffle(order)
        for s in order:
            if rng.random() < illegal_rate:
                _try_illegal(r, rng)
            r.pass_cards(rng.sample(r.hand(s), rules.pass_count), s)
            _check_conservation(r)
    assert r.phase is Phase.PLAY
    shown_void: list[set[int]] = [set() for _ in range(n)]
    broken = False
    queen_breaks = rules.hearts_break == "heart_or_queen"
    while r.phase is Phase.PLAY:
        seat = r.turn
        hand = r.hand(seat)
        legal = set(r.legal_cards())
        # the legal set is never empty, and is what the sources allow
        assert legal
        assert legal <= set(hand)
        first = not r.tricks
        assert legal == ref_legal(rules, hand, r.trick, first, broken, _held(r))
        if first and not r.trick and rules.first_lead == "lowest_club":
            lowest = min(c for c in _held(r) if suit_of(c) == 0)
            assert legal == {lowest}
        # a seat that showed a void never holds (so never follows) that suit later
        assert not {suit_of(c) for c in hand} & shown_void[seat]
        if rng.random() < illegal_rate:
            _try_illegal(r, rng)
        c = rng.choice(sorted(legal))
        if r.trick and suit_of(c) != suit_of(r.trick[0]):
            shown_void[seat].add(suit_of(r.trick[0]))
        if suit_of(c) == 2 or (queen_breaks and c == 49):
            broken = True
        r.play(c)
        assert r.hearts_broken == broken
        _check_conservation(r)
        assert_no_other_hand(r)  # a seat's view never holds another seat's unplayed cards
        for s in range(n):
            assert {int(x) for x in r.view(s).voids[s]} == shown_void[s]
    if r.phase is Phase.MOON:  # the shooter's choice: either one, at random
        assert r.rules.moon == "shooter_choice" and r.result is None
        r.choose_moon(rng.choice(MOON_CHOICES))
    return r


def check_score(r: Round) -> None:
    rules = r.rules
    n = rules.players
    taken: list[set[int]] = [set() for _ in range(n)]
    for t in r.tricks:
        taken[t.winner] |= set(t.cards) | set(t.kitty)
    pts = tuple(sum(rules.points[c] for c in taken[s]) for s in range(n))
    res = r.result
    assert res.taken == pts
    assert sum(pts) == rules.round_total
    penalty = {c for c in range(52) if rules.points[c] > 0 and rules.in_play_mask >> c & 1}
    shooter = next((s for s in range(n) if penalty <= taken[s]), None)
    if rules.moon == "off" or shooter is None:
        # a round hands out the preset's total
        assert res.shooter is None
        assert res.scores == pts
        assert sum(res.scores) == rules.round_total
        return
    assert res.shooter == shooter
    if rules.moon == "shooter_choice":
        # the shooter chose; the better choice for the match is "+26 to the others" when that
        # leaves the shooter alone in the lowest place, otherwise "minus 26 for the shooter"
        assert res.moon in MOON_CHOICES
        masks = [sum(1 << c for c in taken[s]) for s in range(n)]
        after = [b + s for b, s in zip(r.scores_before, ref_moon_scores(rules, taken, "others"))]
        alone_lowest = after.count(min(after)) == 1 and after[shooter] == min(after)
        assert better_moon_choice(rules, shooter, masks, r.scores_before) == (
            "others" if alone_lowest else "shooter_minus")
    else:
        assert res.moon == rules.moon
    assert res.scores == ref_moon_scores(rules, taken, res.moon)


@pytest.mark.slow
@settings(max_examples=150)
@given(rule_sets, codes, st.integers(0, 7), st.randoms(use_true_random=False))
def test_random_rounds_follow_the_rules(rules, code, rnd, rng):
    r = play_random_round(rules, code, rnd, rng)
    check_score(r)
    # a finished round holds nothing more
    assert all(not r.hand(s) for s in range(rules.players))
    assert len(r.tricks) == rules.hand_size


MOON_SETS = [rs for rs in PLAYABLE if rs.players == 4 and rs.deck == "remove"]


@pytest.mark.parametrize("rules", MOON_SETS, ids=lambda rs: f"{rs.preset}")
@pytest.mark.parametrize("jack_to_shooter", [True, False])
def test_a_moon_scores_exactly_under_every_preset(rules, jack_to_shooter):
    """The moon layout of test_engine_rules (seat 0 takes every penalty card) under every preset."""
    from conftest import play_out, position, preferring
    from test_engine_rules import SHOOTER, D
    prefs = {**SHOOTER, 3: "3H QS KS AS"}
    if not jack_to_shooter:
        prefs[2] = "-JD"
    for before in ((0, 0, 0, 0), (40, 10, 70, 90)):
        for choice in MOON_CHOICES:
            r = position(rules, D, dealer=3, scores=before)
            play_out(r, preferring(prefs))
            if r.phase is Phase.MOON:
                assert r.turn == 0 and rules.moon == "shooter_choice"
                r.choose_moon(choice)
                assert r.result.moon == choice
            assert (r.result.shooter == 0) == (rules.moon != "off")
            check_score(r)


def _game_should_end(rules: Rules, history: list[list[int]]) -> bool:
    """After the last entry of ``history`` (totals after each round), is the game over?"""
    reached = [max(t) >= rules.target for t in history]
    if True not in reached:
        return False
    k = reached.index(True)
    last = history[-1]
    single = last.count(min(last)) == 1
    if rules.ties == "share":
        return True
    if rules.ties == "one_more_round":
        return single or len(history) - 1 >= k + 1
    return single


@pytest.mark.slow
@settings(max_examples=25)
@given(rule_sets, codes, st.sampled_from([None, 26, 40]), st.randoms(use_true_random=False))
def test_random_games_end_by_the_rules(rules, code, target, rng):
    if target is not None:
        rules = rules.replace(target=target)
    g = Game(rules, code)
    n = rules.players
    history: list[list[int]] = []
    totals = [0] * n
    while not g.over:
        assert len(history) < 60
        k = len(g.rounds) - 1
        r = g.round
        # the pass cycle never restarts, and a deal never depends on earlier play
        assert r.round_index == k
        assert r.direction == rules.pass_direction(k)
        assert r.dealt == Round.deal(rules, code, k).dealt
        assert r.scores_before == tuple(totals)
        if r.phase is Phase.PASS:
            for s in range(n):
                g.push_pass(rng.sample(r.hand(s), rules.pass_count), s)
        while r.phase is Phase.PLAY:
            g.push(rng.choice(r.legal_cards()))
        if r.phase is Phase.MOON:
            g.push_moon(rng.choice(MOON_CHOICES))
        check_score(r)
        totals = [a + b for a, b in zip(totals, r.result.scores)]
        history.append(list(totals))
        assert g.totals == tuple(totals)
        assert g.over == _game_should_end(rules, history)
    lowest = min(g.totals)
    assert g.winners == tuple(s for s in range(n) if g.totals[s] == lowest)
    if rules.ties != "share" and rules.ties != "one_more_round":
        assert len(g.winners) == 1


# ---------------------------------------------------------------- two decks, 6 to 11 players


def _check_conservation_two(r: Round) -> None:
    """Every card is where it is as often as it is in play: two copies, less the removed."""
    from collections import Counter

    seen: Counter = Counter()
    for s in range(r.players):
        seen.update(int(c) for c in r.hand(s))
    seen.update(int(c) for c in r.trick)
    for t in r.tricks:
        seen.update(int(c) for c in t.cards)
        seen.update(int(c) for c in t.kitty)
    if not r.kitty_taken:
        seen.update(c for c in range(52) for _ in range((r.kitty_mask >> c & 1) + (r.kitty_twice >> c & 1)))
    expected = Counter({c: k for c, k in enumerate(r.rules.copies) if k})
    assert seen == expected


def play_random_two_deck_round(rules: Rules, code: str, rnd: int, rng: random.Random,
                               illegal_rate: float = 0.1, twin_rate: float = 0.9) -> Round:
    """A random two-deck round, every move checked against the reference reading: the legal
    set, the first leader, each trick's winner (cancellation, set-aside tricks, the last-trick
    fallback) and what the winner carries off."""
    from conftest import ref_first_leader_two, ref_trick_winner_two

    r = Round.deal(rules, code, rnd)
    n = rules.players
    assert len(r.hand(0)) == rules.hand_size
    _check_conservation_two(r)
    if r.phase is Phase.PASS:
        for s in rng.sample(range(n), n):
            r.pass_cards(rng.sample(r.hand(s), rules.pass_count), s)  # a card held twice may go twice
            _check_conservation_two(r)
    assert r.phase is Phase.PLAY
    assert r.turn == ref_first_leader_two(rules, [list(map(int, r.hand(s))) for s in range(n)], r.dealer)
    broken = False
    aside: list[int] = []
    while r.phase is Phase.PLAY:
        seat = r.turn
        hand = [int(c) for c in r.hand(seat)]
        legal = set(r.legal_cards())
        held = [int(c) for s in range(n) for c in r.hand(s)]
        first = not r.tricks
        assert legal and legal <= set(hand)
        assert legal == ref_legal(rules, hand, [int(c) for c in r.trick], first, broken, held)
        if rng.random() < illegal_rate:
            _try_illegal(r, rng)
        # cancellations come up often: play a twin of a card in the trick when legal
        twins = sorted(c for c in legal if c in r.trick)
        c = twins[0] if twins and rng.random() < twin_rate else rng.choice(sorted(legal))
        if suit_of(c) == 2 or (rules.hearts_break == "heart_or_queen" and c == 49):
            broken = True
        leader, cards = r.leader, [int(x) for x in r.trick] + [int(c)]
        last = len(hand) == 1
        done = r.play(c)
        assert r.hearts_broken == broken
        _check_conservation_two(r)
        if done is None:
            continue
        w = ref_trick_winner_two(rules, cards, last)
        assert done.winner == (None if w is None else (leader + w) % n), cards
        if w is None:
            aside += cards + [int(x) for x in done.kitty]
            assert r.leader == leader  # the same player leads again
        else:
            assert sorted(int(x) for x in done.carried) == sorted(aside)
            assert done.points == sum(rules.points[x] for x in cards + aside + [int(k) for k in done.kitty])
            aside = []
            assert r.phase is not Phase.PLAY or r.leader == done.winner
    if r.phase is Phase.MOON:
        r.choose_moon(rng.choice(MOON_CHOICES))
    return r


def check_score_two(r: Round) -> None:
    from conftest import ref_moon_scores_two, ref_taken_two

    rules = r.rules
    taken = ref_taken_two(rules, r.tricks)
    pts = tuple(sum(rules.points[c] for c in t) for t in taken)
    res = r.result
    assert res.taken == pts
    assert sum(pts) == rules.round_total
    moon = ref_moon_scores_two(rules, taken, str(res.moon)) if res.moon else None
    if rules.moon == "off" or ref_moon_scores_two(rules, taken, "others") is None:
        assert res.shooter is None and res.scores == pts
        return
    assert res.shooter is not None and res.scores == moon


@pytest.mark.slow
@settings(max_examples=60)
@given(st.sampled_from(TWO_DECK), codes, st.integers(0, 7), st.randoms(use_true_random=False))
def test_random_two_deck_rounds_follow_the_rules(rules, code, rnd, rng):
    r = play_random_two_deck_round(rules, code, rnd, rng)
    check_score_two(r)
    assert all(not r.hand(s) for s in range(rules.players))
    assert len(r.tricks) == rules.hand_size


@pytest.mark.slow
def test_the_two_deck_reference_sees_set_asides_and_both_fallbacks():
    """The random rounds above reach what they check: set-aside tricks, a cancelled last trick
    under each fallback, and a moon (hand-built: all 28 penalty cards to one seat)."""
    from conftest import ref_moon_scores_two, ref_trick_winner_two

    from hearts_cli.model.codes import code_from_number

    seen = {"aside": 0, "last": 0}
    for k in range(30):
        rules = TWO_DECK[k % len(TWO_DECK)]
        r = play_random_two_deck_round(rules, code_from_number(k), k % 4, random.Random(k))
        check_score_two(r)
        seen["aside"] += any(t.winner is None for t in r.tricks)
    for fallback in ("leader", "second"):  # a whole round whose last trick is all cancelled
        rules = R("cancellation", players=11, passing="none", set_aside_last=fallback)
        for k in range(300):
            r = play_random_two_deck_round(rules, code_from_number(k), 0, random.Random(k), 0, 1.0)
            last = [int(c) for c in r.tricks[-1].cards]
            led = suit_of(last[0])
            if all(last.count(c) == 2 for c in last if suit_of(c) == led):
                check_score_two(r)
                top = max(c for c in last if suit_of(c) == led)
                if fallback == "second" and last[0] == top:
                    continue  # the leader played the highest: both fallbacks agree, look further
                break
        else:
            raise AssertionError(f"no round ends in a cancelled last trick ({fallback})")
    for fallback, index in (("leader", 0), ("second", 2)):
        rules = R("cancellation", set_aside_last=fallback)
        assert ref_trick_winner_two(rules, cards_i("AH 2C AH 5H 5H 3S 4S 6S"), last=True) == index
        assert ref_trick_winner_two(rules, cards_i("AH 2C AH 5H 5H 3S 4S 6S"), last=False) is None
        assert ref_trick_winner_two(rules, cards_i("5H 2C AH 5H 3S 4S 6S 7S"), last=True) == 2
        seen["last"] += 1
    rules = R("cancellation")
    taken = [[] for _ in range(8)]
    taken[2] = [c for c in range(52) if rules.points[c] for _ in range(2)]
    assert ref_moon_scores_two(rules, taken, "others") == tuple(0 if s == 2 else 52 for s in range(8))
    assert seen["aside"] >= 3, seen


def cards_i(text: str) -> list[int]:
    from conftest import cards

    return [int(c) for c in cards(text)]


@pytest.mark.slow  # 200 two-deck rounds: seconds
@settings(max_examples=200)
@given(st.sampled_from(TWO_DECK), st.randoms(use_true_random=False), st.sampled_from(["all", "one_short", "random"]))
def test_two_deck_round_scores_follow_the_reference(rules, rng, layout):
    """Scoring (core.score_round, which the engine scores with) against the reference on
    rounds where one seat takes every penalty card, all but one copy of one, or anything."""
    from conftest import ref_moon_scores_two

    from hearts_cli.play import core

    n = rules.players
    cards = [c for c in range(52) for _ in range(rules.copies[c])]
    taken: list[list[int]] = [[] for _ in range(n)]
    shooter = rng.randrange(n)
    short = rng.choice([c for c in cards if rules.points[c] > 0]) if layout == "one_short" else None
    for c in cards:
        if layout != "random" and rules.points[c] > 0 and not (c == short and short in taken[shooter]):
            taken[shooter].append(c)
        else:
            taken[rng.randrange(n)].append(c)
    if short is not None and taken[shooter].count(short) == 2:  # the other copy went to the shooter by chance
        taken[shooter].remove(short)
        taken[(shooter + 1) % n].append(short)
    masks = [sum(1 << c for c in set(t)) for t in taken]
    twice = [sum(1 << c for c in set(t) if t.count(c) == 2) for t in taken]
    points = [sum(rules.points[c] for c in t) for t in taken]
    scores_before = [rng.randrange(60) for _ in range(n)]
    res = core.score_round(rules, masks, points, scores_before, twice=twice)
    moon = ref_moon_scores_two(rules, taken, "others")
    if rules.moon == "off" or moon is None:
        assert res.shooter is None and res.scores == tuple(points)
        assert layout != "all" or rules.moon == "off" or not any(rules.points)
        return
    # the seat that took every copy of every penalty card (random layouts may make one too)
    took_all = [s for s in range(n) if all(taken[s].count(c) == k for c, k in enumerate(rules.copies)
                                           if k and rules.points[c] > 0)]
    assert res.shooter in took_all and (layout != "all" or res.shooter == shooter)
    assert res.scores == ref_moon_scores_two(rules, taken, str(res.moon))
    if rules.moon != "shooter_choice":
        assert str(res.moon) == str(rules.moon)
