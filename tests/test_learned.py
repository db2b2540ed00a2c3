"""The learned pass (hearts_cli/bots/learned.py): the shipped weights, a deterministic
evaluation, and a choice that no hidden card can change. Nothing trains here."""

from __future__ import annotations

import random
from itertools import combinations

from hearts_cli.bots import make_bot
from hearts_cli.bots.hard import HardBot, Tuning
from hearts_cli.bots.learned import (
    DIRECTIONS,
    SIZE,
    best_pass,
    cards_of,
    features,
    learned_pass,
    shipped_weights,
    trained_for,
    value,
)
from hearts_cli.bots.normal import normal_pass
from hearts_cli.model.cards import mask_of
from hearts_cli.model.rules import load_preset
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round

QUICK = load_preset("quick")


def test_the_shipped_weights_load_and_are_small():
    from importlib import resources

    w = shipped_weights()
    assert len(w) == SIZE
    assert shipped_weights() is w  # read once
    size = len(resources.files("hearts_cli.bots").joinpath("pass_weights.json").read_bytes())
    assert size < 2_000_000


def test_an_evaluation_is_deterministic_and_the_fast_pass_is_its_minimum():
    w = shipped_weights()
    rng = random.Random(7)
    for i in range(6):
        cards = rng.sample(range(52), 13)
        hand = sum(1 << c for c in cards)
        d = i % 3
        g = best_pass(w, hand, d)
        assert g.bit_count() == 3 and g & hand == g
        assert best_pass(w, hand, d) == g
        v = value(w, hand & ~g, g, d)
        assert v == value(w, hand & ~g, g, d)
        assert features(hand & ~g, g, d) == features(hand & ~g, g, d)
        for combo in combinations(cards_of(hand), 3):
            other = sum(1 << c for c in combo)
            assert value(w, hand & ~other, other, d) >= v - 1e-9


def _shuffled_others(rnd: Round, seat: int, rng: random.Random) -> Round:
    """The same round with the other seats' cards dealt among them again (hand sizes kept)."""
    new = rnd.copy()
    others = [s for s in range(rnd.players) if s != seat]
    pool = [c for s in others for c in cards_of(rnd.hands[s])]
    rng.shuffle(pool)
    at = 0
    for s in others:
        k = rnd.hands[s].bit_count()
        new.hands[s] = sum(1 << c for c in pool[at:at + k])
        at += k
    new._legal = None
    return new


def test_hidden_cards_do_not_change_the_learned_pass():
    rng = random.Random(3)
    hard = HardBot(1, 6, tuning=Tuning(learned_pass=True))
    searched = HardBot(1, 6, tuning=Tuning(pass_deals=3, pass_top=3))  # the pass searched by playouts
    checked = 0
    for r in range(3):  # left, right, across
        for code in ("WQA4PK0R", "TDEB3825"):
            rnd = Round.deal(QUICK, code, r)
            assert rnd.phase is Phase.PASS and rnd.direction in DIRECTIONS
            for seat in range(4):
                other = _shuffled_others(rnd, seat, rng)
                assert other.hands != rnd.hands and other.view(seat) == rnd.view(seat)
                a = learned_pass(rnd.view(seat))
                assert a == learned_pass(other.view(seat)) == hard.choose_pass(other.view(seat))
                assert len(a) == 3 and mask_of(a) & mask_of(rnd.view(seat).hand) == mask_of(a)
                assert searched.choose_pass(rnd.view(seat)) == searched.choose_pass(other.view(seat))
                checked += 1
    assert checked == 24


def test_other_rules_pass_as_normal_does():
    rules = load_preset("omnibus")
    assert not trained_for(rules)
    assert trained_for(QUICK)
    view = Round.deal(rules, "WQA4PK0R", 0).view(0)
    assert learned_pass(view) == normal_pass(view)


def test_hard_passes_by_the_learned_evaluation_and_normal_by_its_rule():
    views = [Round.deal(QUICK, code, r).view(s) for code in ("WQA4PK0R", "TDEB3825") for r in range(3)
             for s in range(4)]
    for view in views:
        assert HardBot(1, 6).choose_pass(view) == learned_pass(view)
        assert HardBot(1, 6, tuning=Tuning(learned_pass=False)).choose_pass(view) == normal_pass(view)
        assert make_bot("normal", 1).choose_pass(view) == normal_pass(view)  # Normal stays the level it was
    assert sum(learned_pass(v) != normal_pass(v) for v in views) >= 6  # the two passes do differ
