"""Two decks (Cancellation Hearts): Hard's worlds, its playout policy and its choices.

The fairness test over two-deck positions is in test_bots.py, beside the one-deck
cases (``test_fairness_hidden_cards_do_not_change_decisions``).
"""

from __future__ import annotations

import random
from collections import Counter

from conftest import deal_fixed

from hearts_cli.bots import make_bot, multi
from hearts_cli.model.cards import CARDS, parse_card
from hearts_cli.model.rules import load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.knowledge import knowledge
from hearts_cli.play.round import Round

CANCEL = load_preset("cancellation")  # 8 players, 13 cards each, no kitty


deal_two = deal_fixed  # the fixed cards, the rest at random


def normal_game_positions(rules, rnd: Round, seat: int):
    """Play ``rnd`` with Normal everywhere; yield each position where ``seat`` is to move."""
    bot = make_bot("normal")
    if rnd.phase is Phase.PASS:
        for s in range(rules.players):
            rnd.pass_cards(bot.choose_pass(rnd.view(s)), s)
    while rnd.phase is Phase.PLAY:
        s = rnd.turn
        if s == seat:
            yield rnd
        rnd.play(bot.choose_card(rnd.view(s)))


def check_world(view, hands, kitty) -> None:
    """One sampled world against the view: the unseen multiset placed exactly, hand sizes,
    voids, and every card this seat passed still with the receiver unless it played it."""
    n = view.rules.players
    assert hands[view.seat] == [] and kitty == []
    assert Counter(c for h in hands for c in h) == Counter(int(c) for c in view.unseen())
    counts = knowledge(view).counts
    for s in range(n):
        if s == view.seat:
            continue
        assert len(hands[s]) == counts[s]
        assert max(Counter(hands[s]).values(), default=0) <= 2
        for suit in view.voids[s]:
            assert not any(c // 13 == suit for c in hands[s])
    to = view.passed_to
    if view.passed and to is not None:
        played = Counter(int(c) for tr in view.tricks for t, c in tr.plays() if t == to)
        played += Counter(int(c) for i, c in enumerate(view.trick) if (view.leader + i) % n == to)
        held = Counter(hands[to])
        for c, k in Counter(int(c) for c in view.passed).items():
            assert held[c] >= k - played[c], (CARDS[c], k, played[c])


def test_two_deck_worlds_keep_both_copies_passed_with_the_receiver():
    """Seat 0 holds the Q♠ and the A♥ twice and passes both Q♠ and an A♥ to its left: in
    every world seat 1 holds them (less what it has played), and the A♥ seat 0 kept is in
    no other hand."""
    hands = deal_two(CANCEL, {0: "QS QS AH AH 2C 3C 4C 5C 6C 7C 8C 9C TC"})
    rnd = Round(CANCEL, hands, direction="left")
    assert rnd.phase is Phase.PASS
    bot = make_bot("normal")
    for s in range(CANCEL.players):
        cards = [parse_card(c) for c in ("QS", "QS", "AH")] if s == 0 else bot.choose_pass(rnd.view(s))
        rnd.pass_cards(cards, s)
    rng = random.Random(7)
    checked = with_both = 0
    for pos in normal_game_positions(CANCEL, rnd, 0):
        view = pos.view(0)
        for _ in range(6):
            worlds, kitty = multi.sample_world(view, rng)
            check_world(view, worlds, kitty)
            qs_played = sum(1 for c in view.played() if c == parse_card("QS"))
            assert Counter(worlds[1])[parse_card("QS")] >= 2 - qs_played
            ah = parse_card("AH")
            if ah not in view.played():  # one A♥ in seat 0's hand, the other with seat 1
                assert worlds[1].count(ah) == 1 and sum(h.count(ah) for h in worlds) == 1
            with_both += Counter(worlds[1])[parse_card("QS")] == 2
        checked += 1
    assert checked >= 10 and with_both > 0


def test_two_deck_worlds_put_a_card_twice_in_one_hand():
    """The unseen cards are a multiset: both copies of a card can land in one hand, about as
    often as a uniform deal does it, and never three copies."""
    rnd = Round.deal(CANCEL, "TDEB3825", 3)  # no pass in round 3 of the cycle
    if rnd.phase is Phase.PASS:
        rnd = Round.deal(CANCEL, "TDEB3825", 2)
    assert rnd.phase is Phase.PLAY
    seat = (rnd.turn + 1) % CANCEL.players
    while rnd.turn != seat:
        rnd.play(make_bot("normal").choose_card(rnd.view(rnd.turn)))
    view = rnd.view(seat)
    rng = random.Random(2)
    pool = Counter(int(c) for c in view.unseen())
    pairs = [c for c, k in pool.items() if k == 2]
    assert len(pairs) > 20
    together = 0
    tries = 300
    for _ in range(tries):
        hands, kitty = multi.sample_world(view, rng)
        check_world(view, hands, kitty)
        c = pairs[0]
        together += any(Counter(h)[c] == 2 for h in hands)
    # a uniform deal of 12-13 cards from ~90 to 7 hands: both copies together ~13% of the time
    assert 0.05 * tries < together < 0.25 * tries


def test_two_deck_worlds_respect_voids_in_real_games():
    """Positions of Normal games at 6, 8 and 11 players: every world fits the view."""
    rng = random.Random(3)
    for players in (6, 8, 11):
        rules = CANCEL.replace(players=players)
        checked = 0
        for k in range(2):
            for pos in normal_game_positions(rules, Round.deal(rules, "WQA4PK0R", k), k):
                view = pos.view(k)
                for _ in range(3):
                    check_world(view, *multi.sample_world(view, rng))
                checked += 1
        assert checked >= 15
        assert any(v for v in view.voids)


def test_two_deck_playouts_follow_the_engine():
    """Hard's playouts (fast.MultiPosition and multi.choose, cancellation ducks included) from
    mid-round positions make only legal plays, in the engine's order, with its scores."""
    rng = random.Random(4)
    for k in range(6):
        rules = CANCEL.replace(players=(8, 6, 11)[k % 3])
        rnd = Round.deal(rules, "TDEB3825", k)
        if rnd.phase is Phase.PASS:
            for s in range(rules.players):
                rnd.pass_cards(rnd.hand(s)[:rules.pass_count], s)
        for _ in range(rng.randrange(0, 30)):
            rnd.play(rng.choice(rnd.legal_cards()))
        me = rnd.turn
        pos = fast.MultiPosition.from_round(rnd)
        left = list(rules.copies)
        for tr in rnd.tricks:
            for c in tr.cards:
                left[c] -= 1
        for c in rnd.trick:
            left[c] -= 1
        played = sum(1 << c for c in range(52) if left[c] < rules.copies[c])
        copy, left2, played2 = pos.copy(), list(left), played
        while rnd.phase is Phase.PLAY:
            legal = pos.legal_mask()
            assert legal == rnd.legal_mask() and pos.turn == rnd.turn
            c = multi.choose(legal, pos, left, rules.facts, pos.turn == me, played)
            assert legal >> c & 1
            left[c] -= 1
            played |= 1 << c
            pos.play(c)
            rnd.play(CARDS[c])  # checked by the engine
        assert pos.result() == rnd.result.scores
        assert multi.playout(copy, left2, rules.facts, me, played2) == rnd.result.scores


def _position(hands: list[list[int]], plays: str, lead: int = 0) -> fast.MultiPosition:
    once, twice = zip(*(fast.pair_of_cards(h) for h in hands))
    pos = fast.MultiPosition(CANCEL, once, twice, leader=lead, first_trick=False, hearts_broken=True)
    for t in plays.split():
        pos.play(parse_card(t))
    return pos


def test_policy_ducks_by_cancelling_the_winning_card():
    """The K♥ wins so far and this seat holds the other K♥: played, it cancels, and the trick
    goes to the 9♥; Normal's model (``cancel=False``) keeps the K♥ and plays the J♥."""
    hands = deal_two(CANCEL, {2: "KH JH 3C"})
    pos = _position(hands, "9H KH")
    assert pos.turn == 2
    legal = pos.legal_mask()
    left = list(CANCEL.copies)
    assert multi.choose(legal, pos, left, CANCEL.facts) == parse_card("KH")
    assert multi.choose(legal, pos, left, CANCEL.facts, cancel=False) == parse_card("JH")


def test_policy_dumps_the_queen_on_another_seats_trick():
    hands = deal_two(CANCEL, {3: "QS 2C 3C", 0: "4S"}, seed=3)
    hands = [[c for c in h if c // 13 != 3] if s in (1, 2) else h for s, h in enumerate(hands)]
    pos = _position(hands, "4S 9D 8D")  # seats 1 and 2 void in spades in this world
    assert pos.turn == 3
    assert multi.choose(pos.legal_mask(), pos, list(CANCEL.copies), CANCEL.facts) == parse_card("QS")


def test_candidates_collapse_only_cards_that_play_alike():
    """Two cards of a suit play alike when no copy of either (or of a card between them) is
    unseen or in the trick: 5♥ 6♥ held twice each are one candidate; with a 6♥ still out they
    are two, and so is every spade of which the other copy is out."""
    from types import SimpleNamespace

    for text, hearts in (("5H 6H 5H 6H 2S 3S 4S 5S 6S 7S 8S 9S TS", 1),
                         ("5H 6H 5H 2S 3S 4S 5S 6S 7S 8S 9S TS JS", 2)):
        view = Round(CANCEL, deal_two(CANCEL, {0: text}), direction="none").view(0)
        every = SimpleNamespace(hand=view.hand, trick=view.trick, rules=view.rules,
                                legal=tuple(sorted(set(view.hand))), unseen=view.unseen)
        cands = multi.candidates(every)  # type: ignore[arg-type]
        assert len([c for c in cands if c // 13 == 2]) == hearts
        spades = {c for c in view.hand if c.suit == 3}
        assert len([c for c in cands if c // 13 == 3]) == len(spades)  # each has a copy out


def test_playout_model_of_the_others_plays_as_normal_does():
    """In the playouts the other seats play :func:`multi.choose` with ``cancel=False``: it is
    Normal's play on masks (lead, discard, ducks), and must stay so, or the search plans
    against players that do not exist. Positions of Normal games: the same card in at least
    98% of the decisions with a choice (the rest: Normal's moon defence and one rare rule)."""
    normal = make_bot("normal")
    agree = total = 0
    for d in range(6):
        rnd = Round.deal(CANCEL, "TDEB3825", d)
        if rnd.phase is Phase.PASS:
            for s in range(CANCEL.players):
                rnd.pass_cards(normal.choose_pass(rnd.view(s)), s)
        while rnd.phase is Phase.PLAY:
            view = rnd.view(rnd.turn)
            card = normal.choose_card(view)
            if len(set(view.legal)) > 1:
                left = multi.unplayed(view)
                played = sum(1 << c for c in range(52) if left[c] < CANCEL.copies[c])
                pos = fast.MultiPosition.from_round(rnd)
                total += 1
                agree += multi.choose(rnd.legal_mask(), pos, left, CANCEL.facts, False, played) == card
            rnd.play(card)
    assert total > 300 and agree >= 0.98 * total
