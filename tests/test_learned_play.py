"""The learned playout policy (hearts_cli/bots/learned_play.py): the shipped weights, the folded
policy of the playouts held to the plain reading of the features, and Hard using it only under
the rules it was trained for. Nothing trains here."""

from __future__ import annotations

import random

from test_bots import hard_round_cards

from hearts_cli.bots import make_bot
from hearts_cli.bots.common import trick_winner
from hearts_cli.bots.hard import PLAYED, Tuning
from hearts_cli.bots.learned_play import SIZE, learned_card, learned_policy, shipped_play_weights, shipped_policy
from hearts_cli.bots.playout import make_policy, threat
from hearts_cli.model.rules import load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round

QUICK = load_preset("quick")


def test_the_shipped_weights_load_once_and_are_small():
    from importlib import resources

    w = shipped_play_weights()
    assert len(w) == SIZE
    assert shipped_play_weights() is w and shipped_policy() is shipped_policy()
    assert len(resources.files("hearts_cli.bots").joinpath("play_weights.json").read_bytes()) < 2_000_000


def _decisions(code: str, level: str = "normal"):
    """Every card of a round of four ``level`` seats: (round before the card, legal mask, the card)."""
    rnd = Round.deal(QUICK, code, 1)
    bots = [make_bot(level, s) for s in range(4)]
    for s in range(4):
        rnd.pass_cards(bots[s].choose_pass(rnd.view(s)), s)
    while rnd.phase is Phase.PLAY:
        card = bots[rnd.turn].choose_card(rnd.view(rnd.turn))
        yield rnd, rnd.legal_mask()
        rnd.play(card)


def test_the_playouts_policy_plays_the_card_the_features_score_best():
    """The folded tables of the playouts and :func:`learned_card` agree on every card of real
    rounds, and the card is legal: the fast path is the features read another way."""
    facts = QUICK.facts
    w = shipped_play_weights()
    maker = learned_policy(w)
    checked = 0
    for code in ("K7Q2MXA7", "WQA4PK0R", "TDEB3825"):
        for rnd, legal in _decisions(code):
            pos = fast.Position.from_round(rnd)
            seat = rnd.turn
            runner = threat(facts, pos.taken)
            trick = list(rnd.trick)
            wc, ws = trick_winner(trick, rnd.leader, 4) if trick else (-1, -1)
            win_card = int(wc) if trick else -1
            card = maker(facts, random.Random(0), 0.0, -1, runner)(legal, seat, win_card, ws, pos.copy())
            assert legal >> card & 1
            assert card == learned_card(facts, list(w), seat, pos.hands[seat], legal, [int(c) for c in trick],
                                        win_card, ws, list(pos.taken), pos.first_trick, pos.hearts_broken, runner)
            checked += 1
    assert checked == 3 * 52


def test_a_learned_playout_is_deterministic_and_differs_from_the_heuristics():
    rng = random.Random(5)
    hands = fast.deal(QUICK, rng)[0]
    start = fast.Position.start(QUICK, hands)
    learned = [fast.playout_steps(start.copy(), shipped_policy()(QUICK.facts, random.Random(s))) for s in range(30)]
    assert learned == [fast.playout_steps(start.copy(), shipped_policy()(QUICK.facts, random.Random(s)))
                       for s in range(30)]
    heuristic = [fast.playout_steps(start.copy(), make_policy(QUICK.facts, random.Random(s))) for s in range(30)]
    assert learned != heuristic


def test_hard_plays_out_the_learned_policy_only_under_the_rules_it_knows():
    """Under the quick rules Hard's cards change with the playout policy (every seat learned,
    half of them, none); under rules the weights were not trained for (the J♦ scores, in
    ``omnibus``) Hard plays out the heuristic."""
    assert PLAYED.learned_play == 0.5  # (the table's Hard: each seat learned half the time)
    off, on = Tuning(learned_play=0.0), Tuning(learned_play=1.0)
    rounds = [hard_round_cards(t) for t in (off, PLAYED, on)]
    assert len({tuple(r) for r in rounds}) == 3
    omnibus = load_preset("omnibus")
    assert hard_round_cards(on, rules=omnibus) == hard_round_cards(PLAYED, rules=omnibus) \
        == hard_round_cards(off, rules=omnibus)


def test_with_moon_heuristic_a_moon_on_leaves_the_card_to_the_heuristic():
    """`moon_heuristic` (a variant measured in docs/bots.md, off): seat 1 runs for the moon and
    wins the trick with the A♣, and void seat 2 keeps the Q♠ from it as the heuristic's defence
    does; with nobody running, the heuristic would dump her, so the runner is what decides."""
    from hearts_cli.model.cards import CARDS, Card, mask_of, parse_cards

    hands = [mask_of(parse_cards(h.split())) for h in ("2C 3C", "KC", "QS 5D 3H", "4C 5C")]
    pos = fast.Position(QUICK, hands, leader=1, trick=[int(Card("AC"))], hearts_broken=True, first_trick=False)

    def card(maker, runner: int) -> Card:
        return CARDS[maker(QUICK.facts, random.Random(0), 0.0, -1, runner)(hands[2], 2, int(Card("AC")), 1, pos)]

    deferring = learned_policy(shipped_play_weights(), moon_heuristic=True)
    assert card(deferring, 1) == card(make_policy, 1) == Card("5D")
    assert card(make_policy, -1) == Card("QS")
