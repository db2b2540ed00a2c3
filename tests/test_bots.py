"""CPU players: rules of thumb, fairness, determinism, legality everywhere."""

from __future__ import annotations

import random

import pytest
from conftest import deal_fixed, play_script

from hearts_cli.bots import LEVELS, make_bot, suggest
from hearts_cli.bots.common import public
from hearts_cli.bots.hard import distinct_candidates
from hearts_cli.bots.playout import make_policy, solve, threat, top_rank_card
from hearts_cli.model.cards import CARDS, SUIT_MASKS, Card, mask_of, parse_cards
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import Rules, RulesError, load_preset, preset_names
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.knowledge import knowledge
from hearts_cli.play.round import Round
from hearts_cli.play.sampling import Sampler, constraints, sample

QUICK = load_preset("quick")
HARD_SIMS = 6  # cheap budget for tests
SIMS = {"hard": HARD_SIMS}
# the bench's yardsticks (bench/bots), through the level hook: they must play legally and fairly too
HIGH, SHOOT, HARD0 = "bench.bots.exploit:HighBot", "bench.bots.exploit:ShootBot", "bench.bots.hard0:Hard0Bot"
LEARNED = "bench.bots.learned:LearnedHard"  # Hard with the learned pass (bench/train.py)
SIM_LEVELS = (*LEVELS, HIGH, SHOOT, HARD0, LEARNED)


deal_rest = deal_fixed  # the fixed cards, the rest at random


# ------------------------------------------------------------------ rules of thumb


def test_easy_ducks_under_the_winner():
    hands = [
        parse_cards(["2C", "AD", "QD", "3D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]),
        parse_cards(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D", "4D"]),
        parse_cards(["AC", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "2H", "3H", "4H", "5H", "6H"]),
        parse_cards(["KD", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "JS", "QS", "KS", "AS"]),
    ]
    rnd = Round(QUICK, hands, direction="none")
    play_script(rnd, "2C 3C AC")  # seat 2 wins with the A♣... seat 3 is void in clubs
    play_script(rnd, "JS")  # seat 3 discards (no points on the first trick)
    assert rnd.turn == 2
    play_script(rnd, "5D")  # seat 2 leads
    rnd.play("KD")  # seat 3 takes the lead for now
    # seat 0 holds A♦ Q♦ 3♦: Easy plays the Q♦, the highest card under the K♦
    assert suggest(rnd.view(0), "easy", 1) == Card("QD")


def test_easy_passes_its_highest_cards():
    hands = deal_rest(QUICK, {0: "AS KH QD JC 2C 3C 4C 5C 6C 7D 8D 9D 2H"})
    rnd = Round(QUICK, hands, direction="left")
    assert set(suggest(rnd.view(0), "easy", 1)) == set(parse_cards(["AS", "KH", "QD"]))


def test_normal_passes_an_unprotected_queen_but_keeps_a_protected_one():
    hands = deal_rest(QUICK, {0: "QS 3S 2C 5C 9C 2D 6D 8D 2H 4H 5H 7H 9H"})
    rnd = Round(QUICK, hands, direction="left")
    assert Card("QS") in suggest(rnd.view(0), "normal", 1)
    hands = deal_rest(QUICK, {0: "QS 2S 3S 4S 5S 2C 5C 9C 2D 6D 8D 2H 4H"})
    rnd = Round(QUICK, hands, direction="left")
    chosen = suggest(rnd.view(0), "normal", 1)
    assert Card("QS") not in chosen
    # the slots go to voiding a short side suit (clubs 2♣ 5♣ 9♣ or diamonds 2♦ 6♦ 8♦: both are three)
    assert set(chosen) == set(parse_cards(["2C", "5C", "9C"])) or set(chosen) == set(
        parse_cards(["2D", "6D", "8D"]))


def test_normal_passes_unprotected_high_spades_and_high_hearts():
    hands = deal_rest(QUICK, {0: "AS KS 3S 2C 5C 9C JC 2D 6D 8D AH 4H 5H"})
    rnd = Round(QUICK, hands, direction="right")
    chosen = set(suggest(rnd.view(0), "normal", 1))
    # A♠ K♠ with only the 3♠ below the queen, and the A♥ (the other hearts are low)
    assert chosen == {Card("AS"), Card("KS"), Card("AH")}


def test_normal_dumps_the_queen_on_the_trick_winner_when_void():
    hands = [
        parse_cards(["2C", "QS", "2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]),
        parse_cards(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D", "4D"]),
        parse_cards(["AC", "3D", "6D", "7D", "8D", "9D", "TD", "JD", "9H", "TH", "JH", "QH", "KH"]),
        parse_cards(["KD", "AD", "5D", "QD", "AH", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"]),
    ]
    rnd = Round(QUICK, hands, direction="none")
    play_script(rnd, "2C 3C AC 6S")  # seat 2 wins, seat 3 discards
    play_script(rnd, "3D AD")  # seat 3 is winning the diamond trick
    view = rnd.view(0)
    assert not view.hand or all(c.suit != 1 for c in view.hand)
    assert suggest(view, "normal", 1) == Card("QS")


def test_normal_never_drops_the_queen_on_its_own_trick():
    hands = [
        parse_cards(["2C", "QS", "AS", "3S", "4S", "5S", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]),
        parse_cards(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D", "4D"]),
        parse_cards(["AC", "3D", "6D", "7D", "8D", "9D", "TD", "JD", "9H", "TH", "JH", "QH", "KH"]),
        parse_cards(["KD", "AD", "5D", "QD", "AH", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "2S"]),
    ]
    rnd = Round(QUICK, hands, direction="none")
    play_script(rnd, "2C 3C AC 6S")
    play_script(rnd, "3D 5D")  # diamonds again: seat 0 void
    assert suggest(rnd.view(0), "normal", 1) == Card("QS")
    # now a spade trick where seat 0 would win with the queen: it plays under
    hands2 = [
        parse_cards(["2C", "QS", "3S", "4S", "5S", "2D", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]),
        parse_cards(["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AS", "4D"]),
        parse_cards(["AC", "3D", "6D", "7D", "8D", "9D", "TD", "JD", "9H", "TH", "JH", "QH", "KH"]),
        parse_cards(["KD", "AD", "5D", "QD", "AH", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "2S"]),
    ]
    rnd = Round(QUICK, hands2, direction="none")
    play_script(rnd, "2C 3C AC 6S")
    play_script(rnd, "3D 5D 2D 4D")  # seat 3 wins with the 5♦
    play_script(rnd, "JS")  # seat 3 leads the J♠
    assert suggest(rnd.view(0), "normal", 1) != Card("QS")


def _greedy(rnd: Round) -> Card:
    return CARDS[top_rank_card(rnd.legal_mask())]


@pytest.mark.parametrize("code", ["03DN100C", "4XR9B00B"])
def test_hard_stops_an_obvious_moon(code):
    """Seat 2 grabs every trick it can; late in the round it holds every point taken.

    Easy at seat 0 (and at seats 1 and 3) lets the moon through (26 points each);
    Hard spends a heart to stop it.
    """
    shooter = 2
    easy = make_bot("easy")

    def until_decision() -> Round:
        rnd = Round.deal(QUICK, code, 3)  # the no-pass round
        while True:
            s = rnd.turn
            if s == 0 and len(rnd.tricks) >= 6 and not rnd.trick:
                pts = rnd.points
                if pts[shooter] >= 18 and sum(pts) == pts[shooter]:
                    return rnd
            rnd.play(_greedy(rnd) if s == shooter else easy.choose_card(rnd.view(s)))

    def finish(rnd: Round, bot0) -> tuple:
        while rnd.phase is Phase.PLAY:
            s = rnd.turn
            bot = bot0 if s == 0 else easy
            rnd.play(_greedy(rnd) if s == shooter else bot.choose_card(rnd.view(s)))
        return rnd.result

    start = until_decision()
    view = start.view(0)
    assert any(c.suit == 2 for c in view.hand)
    assert finish(start.copy(), easy).shooter == shooter
    result = finish(start.copy(), make_bot("hard", 7, 40))
    assert result.shooter is None
    assert result.scores[0] <= 5


# Positions from real games to 100 (`bench/exploit.py`, three Hard seats against the `high` seat,
# which passes low and plays high): hands after the pass, the cards played since, and the
# scores before the round. The `high` seat holds every penalty card taken so far (16-18 of 26
# points) and Hard, last to play, holds a card that surely stops the moon now; the Hard of
# 2026-11-30 ducked instead (3♥, 5♦, 6♥), counting on the others to stop the moon later.
RUNNER_POSITIONS = [
    (["5C TC 4D 8D AD 6H QH AH 2S 4S 5S 6S 8S", "3C 4C 9C JC 2D 3D 6D JD QD KD 2H 8H 9H",
      "2C 7C 8C KC AC 3H 4H 5H KH 3S 7S 9S TS", "6C QC 5D 7D 9D TD 7H TH JH JS QS KS AS"],
     [0, 1, 0, 25], "2C QC TC 9C AS 8S 8H 9S KS 4S 9H 7S QS 5S 2H TS JS 6S JC 3S JH 6H 3C",
     {"KH"}),
    (["2C 4C 8C KC 2D 7D 8D KD 2H 3H 4H 9H 5S", "3C 5C 6C TC JC AC TH AH 3S 7S TS JS KS",
      "3D 5D 6D JD QD AD 5H 6H 8H QH KH 2S 8S", "7C 9C QC 4D 9D TD 7H JH 4S 6S 9S QS AS"],
     [0, 0, 0, 0], "2C 5C 8S QC AS 5S KS 2S QS KD TS QH JH 9H TH 5H TD 7D AH", {"JD", "QD", "AD"}),
    (["3C 4C 5C 6C JC QC 3D 4D 5D 7D 3H 3S TS", "AC 6D JD QD AD 7H 8H 9H TH QH 6S 7S QS",
      "2C KC 2D 8D TD KD 2H 5H 6H AH 2S 5S 8S", "7C 8C 9C TC 9D 4H JH KH 4S 9S JS KS AS"],
     [27, 31, 46, 52], "2C TC JC AC 6S 8S AS TS KS 3S QS 2S JS 3D 7S 5S 9S 3H AD KC KH QC QH 5H JH 4D 7H",
     {"AH"}),
]
# The first position in the last round of a game: the runner at 90, Hard at 70 behind a seat at
# 50. Stopping the moon ends the game now with Hard beaten; the moon (26 to each other seat)
# keeps it going, so the match value prefers the moon (hard0 ducks with the 3♥). Hard stops it.
LATE_RUNNER = (RUNNER_POSITIONS[0][0], [60, 50, 70, 90], *RUNNER_POSITIONS[0][2:])
RUNNER_POSITIONS.append(LATE_RUNNER)


@pytest.mark.parametrize("hands, scores, plays, stops", RUNNER_POSITIONS)
def test_hard_stops_a_moon_run_when_one_card_surely_does(hands, scores, plays, stops):
    rules = load_preset("standard")
    rnd = Round(rules, [h.split() for h in hands], direction="none", scores=scores)
    play_script(rnd, plays)
    shooter = 3
    assert rnd.turn == 2 and len(rnd.trick) == 3
    assert sum(rnd.points) == rnd.points[shooter] >= 16  # the high seat holds every point so far
    for seed in (1, 2):
        card = suggest(rnd.view(2), "hard", seed)
        assert str(card) in stops
        after = rnd.copy()
        after.play(card)
        assert after.trick == [] and any(after.taken[s] & rules.penalty_mask for s in (0, 1, 2))


def test_hard0_lets_the_late_moon_through_for_the_match():
    """The late position is a real test of the guard: the match value alone ducks there."""
    hands, scores, plays, stops = LATE_RUNNER
    rnd = Round(load_preset("standard"), [h.split() for h in hands], direction="none", scores=scores)
    play_script(rnd, plays)
    assert all(str(suggest(rnd.view(2), HARD0, seed)) not in stops for seed in (1, 2))


def test_hard_wins_a_heart_trick_from_a_threat_before_it_is_a_runner():
    """A real game's moon (the `high` seat at 82 passed low and ran): it has taken 4 hearts,
    nobody else a point, and leads the 9♥. Seat 0 holds T♥ J♥ Q♥ A♥ and ducked with the 8♥;
    the runner kept the lead and took all 26. Hard now takes the trick with a heart: 3 points
    that surely end the moon. (4 points are not yet half of the 26, so the runner guard alone
    did not fire.)"""
    hands = ["2C TC JC QC KC 2H 5H 6H 8H TH JH QH AH", "3C 4C 5C 6C 8C 9C 9D KD 3S 7S 9S JS QS",
             "7C AC 4D 6D 8D JD AD 7H 9H KH 8S KS AS", "2D 3D 5D 7D TD QD 3H 4H 2S 4S 5S 6S TS"]
    rnd = Round(load_preset("standard"), [h.split() for h in hands], direction="none",
                scores=[12, 7, 82, 3])
    play_script(rnd, "2C 8C AC 5D  AS TS TC 9S  AD QD JC KD  KS 4S 2H JS  KH 3H 5H 9D"
                     "  JD TD QC 9C  9H 4H")
    assert rnd.turn == 0 and rnd.points == [0, 0, 4, 0]
    assert all(str(suggest(rnd.view(0), HARD0, seed)) == "8H" for seed in (1, 2))
    for seed in (1, 2, 3):
        card = suggest(rnd.view(0), "hard", seed)
        assert card.suit == 2 and card > Card("9H")


def test_hard_values_a_late_moon_by_another_seat_as_the_end_of_the_game():
    """Near the end a moon that keeps the game going is not a gift to a seat that is behind:
    Hard weighs it by the standings it leaves, as if the game ended there, so that the
    search does not prefer letting a runner shoot to losing the game now."""
    from hearts_cli.bots.hard import _value

    before = (70, 90, 50, 60)  # seat 1 runs; seat 0 is behind seat 2
    moon = (26, 0, 26, 26)
    as_end = _value(moon, 0, before, 100, True, moon=True)
    assert as_end == (96 - 76) + 30  # behind the best other seat by 20, and beaten
    assert _value(moon, 0, before, 100, True) == pytest.approx(26 - 52 / 3)  # the round alone
    assert _value(moon, 2, before, 100, True, moon=True) == (76 - 86) - 30  # the leader: ahead
    stop = (0, 20, 3, 3)  # the runner stopped at 110: the game ends with seat 2 first
    assert _value(stop, 0, before, 100, True) == (70 - 53) + 30


def hard_round_cards(tuning, code: str = "K7Q2MXA7", rules=QUICK, make=None) -> list[Card]:
    """The cards four Hards with ``tuning`` play in a round of ``code`` from 0-0-0-0 (10 deals a card);
    ``make``: the bot of each seat instead (``make(seat)``)."""
    from hearts_cli.bots.hard import HardBot

    rnd = Round.deal(rules, code, 1)
    bots = [make(s) if make else HardBot(s, 10, tuning=tuning) for s in range(rules.players)]
    for s in range(rules.players):
        rnd.pass_cards(bots[s].choose_pass(rnd.view(s)), s)
    out = []
    while rnd.phase is Phase.PLAY:
        out.append(bots[rnd.turn].choose_card(rnd.view(rnd.turn)))
        rnd.play(out[-1])
    return out


def test_win_chance_follows_the_standings_and_sharpens_near_the_target():
    """The chance of winning from the totals: the seats' chances make one, the lowest total is
    likeliest, equal totals are equal chances, and the same lead is worth more late in a game."""
    from hearts_cli.bots.hard import win_chance

    totals = (10, 20, 30, 35)
    chances = [win_chance(totals, s, 50) for s in range(4)]
    assert sum(chances) == pytest.approx(1.0)
    assert chances == sorted(chances, reverse=True) and chances[0] > 0.5
    assert win_chance((7, 7, 7, 7), 2, 50) == pytest.approx(0.25)
    assert win_chance((0, 10, 10, 10), 0, 100) < win_chance((40, 50, 50, 50), 0, 100) \
        < win_chance((80, 90, 90, 90), 0, 100)


def test_hard_game_value_gives_points_to_the_seat_likeliest_to_win():
    """With ``Tuning.standings`` a round after which the game goes on is valued by the chance of
    winning it: of two rounds with the same points for the seat, the one that loads the leader
    is better, where own points minus the others' average cannot tell them apart."""
    from hearts_cli.bots.hard import _value

    before = (20, 10, 30, 25)  # seat 1 leads
    on_leader, on_last = (4, 13, 0, 9), (4, 0, 13, 9)
    assert _value(on_leader, 0, before, 100, False) == _value(on_last, 0, before, 100, False)
    assert _value(on_leader, 0, before, 100, False, standings=90.0) \
        < _value(on_last, 0, before, 100, False, standings=90.0)
    # and fewer points of its own stay better: lower is better
    assert _value((2, 13, 2, 9), 0, before, 100, False, standings=90.0) \
        < _value(on_leader, 0, before, 100, False, standings=90.0)


def test_hard_weighs_the_standings_only_in_a_round_that_can_end_the_game():
    """A round from 0-0-0-0 cannot end a game to 50: Hard plays it for the round's points, as
    without the game value, where valuing every round by the chance of winning plays other cards."""
    import dataclasses

    from hearts_cli.bots.hard import PLAYED

    codes = ["K7Q2MXA7", "9100000D", "3100000S"]
    played = [hard_round_cards(PLAYED, c) for c in codes]
    assert played == [hard_round_cards(dataclasses.replace(PLAYED, standings=0.0), c) for c in codes]
    assert played != [hard_round_cards(dataclasses.replace(PLAYED, standings_late=False), c) for c in codes]


def test_hard_search_tells_its_valuation_which_playouts_end_in_another_seats_moon():
    """The late position: the runner holds 16 of the points, so some playouts end in its moon
    (told to the valuation), and never one where a seat other than the runner took a point."""
    from hearts_cli.bots import hard

    hands, scores, plays, _ = LATE_RUNNER
    rnd = Round(load_preset("standard"), [h.split() for h in hands], direction="none", scores=scores)
    play_script(rnd, plays)
    view = rnd.view(2)
    pub = public(view)
    seen: list[tuple[tuple[int, ...], bool]] = []

    def value(result, moon=False):
        seen.append((tuple(result), moon))
        return 0.0

    hard._weigh(view, pub, distinct_candidates(pub), random.Random(5), 40, value)
    assert any(moon for _, moon in seen) and not all(moon for _, moon in seen)
    for result, moon in seen:  # 26 to each other seat: the runner shot (standard: no J♦)
        assert moon == (sorted(result) == [0, 26, 26, 26] and result[3] == 0)


def test_hard_keeps_its_sure_stopper_from_a_runner():
    """A seat that led A♦ K♠ Q♠ Q♦ J♠ and won eight tricks holds the Q♠ and nothing else
    has been taken: it is running. Seat 0 holds only hearts, the A♥ on top, and the
    runner wins the diamond trick: the old Hard threw its A♥ on it (the runner then ran
    the hearts, as most seeds still would); Hard keeps the A♥, the one card that surely
    wins a heart trick later."""
    standard = load_preset("standard")
    hands = [parse_cards(h.split()) for h in (
        "4C 6C KC 2D 6D 2H 4H 6H 9H AH 6S 7S TS",
        "2C 3C 8C JD KD 3H 5H 7H TH 3S 5S 8S AS",
        "9C QC AC 5D 7D QD AD JH QH KH JS QS KS",
        "5C 7C TC JC 3D 4D 8D 9D TD 8H 2S 4S 9S")]
    rnd = Round(standard, hands, direction="none")
    play_script(rnd, "2C AC TC KC  AD 8D 6D KD  KS 9S TS AS  8C QC JC 6C  QS 4S 6S 8S  QD 9D 2D JD"
                     "  JS 2S 7S 3S  9C 5C 4C 3C  7D 3D")
    assert rnd.turn == 0 and all(c.suit == 2 for c in rnd.view(0).hand)
    old = [suggest(rnd.view(0), HARD0, seed) for seed in range(1, 7)]
    assert old.count(Card("AH")) >= 4  # a close call for the search alone
    assert all(suggest(rnd.view(0), "hard", seed) != Card("AH") for seed in range(1, 7))


def test_hard_shoots_with_a_certain_moon_hand():
    hands = [
        parse_cards(["2C", "4C", "5C", "2D", "3D", "4D", "5D", "6D", "2S", "3S", "4S", "5S", "2H"]),
        parse_cards(["AC", "KC", "QC", "3C", "AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H"]),
        parse_cards(["6C", "7C", "8C", "7D", "8D", "9D", "TD", "6S", "7S", "8S", "3H", "4H", "5H"]),
        parse_cards(["9C", "TC", "JC", "JD", "QD", "KD", "AD", "9S", "TS", "JS", "6H", "7H", "8H"]),
    ]
    rnd = Round(QUICK, hands, direction="none")
    bots = [make_bot("normal"), make_bot("hard", 3, 30), make_bot("normal"), make_bot("normal")]
    while rnd.phase is Phase.PLAY:
        rnd.play(bots[rnd.turn].choose_card(rnd.view(rnd.turn)))
    assert rnd.result.shooter == 1
    assert rnd.result.scores == (26, 0, 26, 26)


def test_equivalent_cards_are_one_candidate():
    hands = [
        parse_cards(["2C", "4C", "5C", "2D", "3D", "4D", "5D", "6D", "2S", "3S", "4S", "5S", "2H"]),
        parse_cards(["AC", "KC", "QC", "3C", "AS", "KS", "QS", "AH", "KH", "QH", "JH", "TH", "9H"]),
        parse_cards(["6C", "7C", "8C", "7D", "8D", "9D", "TD", "6S", "7S", "8S", "3H", "4H", "5H"]),
        parse_cards(["9C", "TC", "JC", "JD", "QD", "KD", "AD", "9S", "TS", "JS", "6H", "7H", "8H"]),
    ]
    rnd = Round(QUICK, hands, direction="none")
    rnd.play("2C")
    pub = public(rnd.view(1))
    # A♣ K♣ Q♣ touch; the 3♣ does not (4♣ ... J♣ are out)
    assert [CARDS[c] for c in distinct_candidates(pub)] == [Card("3C"), Card("QC")]


# ------------------------------------------------------------------ fairness


def _positions(rules: Rules, code: str, every: int = 7):
    """Real positions from a Normal-vs-Easy game: (round, seat to decide)."""
    game = Game(rules, code)
    bots = [make_bot("normal" if s % 2 else "easy") for s in range(rules.players)]
    k = 0
    for _ in range(2):  # two rounds
        rnd = game.round
        if rnd.phase is Phase.PASS:
            yield rnd.copy(), 1
            for s in range(rules.players):
                game.push_pass(bots[s].choose_pass(rnd.view(s)), s)
        while not rnd.over:
            s = rnd.turn
            k += 1
            if k % every == 0 and len(rnd.legal_cards()) > 1:
                yield rnd.copy(), s
            game.push(bots[s].choose_card(rnd.view(s)))
        if game.over:
            return


def _redistribute(rnd: Round, seat: int, rng: random.Random) -> Round:
    """Move unseen cards between other seats (and a face-down kitty), keeping every constraint.

    Random swaps between two holders, each allowed only if both cards may go
    where they are moved: shown voids, the cards ``seat`` passed (they stay
    with their receiver until played), and under a kitty the clubs below the
    first lead stay in it. Independent of the bots' own sampler.
    """
    if rnd.two:
        return _redistribute_two(rnd, seat, rng)
    view = rnd.view(seat)
    new = rnd.copy()
    holders = [s for s in range(rnd.players) if s != seat]
    masks = {s: rnd.hands[s] for s in holders}
    if rnd.kitty_mask and not rnd.kitty_taken:
        masks[-1] = rnd.kitty_mask
    pinned = mask_of(view.passed) if view.passed and rnd.phase is Phase.PLAY else 0
    if -1 in masks and (view.trick or view.tricks):
        first = (view.tricks[0].cards if view.tricks else view.trick)[0]
        if first // 13 == 0:
            pinned |= masks[-1] & SUIT_MASKS[0] & ((1 << first) - 1)

    def ok(h: int, c: int) -> bool:
        if h < 0:
            return True
        return not (rnd.phase is Phase.PLAY and any(c // 13 == s for s in view.voids[h]))

    keys = list(masks)
    for _ in range(400):
        a, b = rng.sample(keys, 2)
        ca = [c for c in range(52) if masks[a] >> c & 1 and not pinned >> c & 1]
        cb = [c for c in range(52) if masks[b] >> c & 1 and not pinned >> c & 1]
        if not ca or not cb:
            continue
        x, y = rng.choice(ca), rng.choice(cb)
        if ok(b, x) and ok(a, y):
            masks[a] ^= (1 << x) | (1 << y)
            masks[b] ^= (1 << x) | (1 << y)
    for h, m in masks.items():
        if h < 0:
            new.kitty_mask = m
        else:
            new.hands[h] = m
    new._legal = None
    return new


def _redistribute_two(rnd: Round, seat: int, rng: random.Random) -> Round:
    """Two decks: the same swaps over hands that may hold a card twice (multisets)."""
    from hearts_cli.play.dealt import pair_of

    view = rnd.view(seat)
    new = rnd.copy()
    hands = {s: list(rnd.hand(s)) for s in range(rnd.players) if s != seat}
    pinned = list(view.passed) if view.passed and rnd.phase is Phase.PLAY else []

    def ok(h: int, c: int) -> bool:
        return not (rnd.phase is Phase.PLAY and any(c // 13 == s for s in view.voids[h]))

    keys = list(hands)
    for _ in range(400):
        a, b = rng.sample(keys, 2)
        ia, ib = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        x, y = hands[a][ia], hands[b][ib]
        if x in pinned or y in pinned or x == y:
            continue
        if ok(b, x) and ok(a, y):
            hands[a][ia], hands[b][ib] = y, x
    for h, cards in hands.items():
        new.hands[h], new.twice[h] = pair_of(cards)
    new._legal = None
    return new


@pytest.mark.slow
@pytest.mark.parametrize("preset,players", [("quick", 4), ("kitty", 3), ("reference", 5),
                                            ("cancellation", 6), ("cancellation", 8),
                                            ("cancellation", 11)])
def test_fairness_hidden_cards_do_not_change_decisions(preset, players):
    rules = load_preset(preset).replace(players=players)
    rng = random.Random(5)
    checked = moved = 0
    for rnd, seat in _positions(rules, "WQA4PK0R"):
        other = _redistribute(rnd, seat, rng)
        assert other.view(seat) == rnd.view(seat)
        if any(other.hands[s] != rnd.hands[s] for s in range(rnd.players)):
            moved += 1
        seed = seed_for("WQA4PK0R", "cpu", seat)
        for level in SIM_LEVELS:
            a = suggest(rnd.view(seat), level, seed, HARD_SIMS)
            b = suggest(other.view(seat), level, seed, HARD_SIMS)
            assert a == b, (level, rnd.view(seat))
        checked += 1
    assert checked >= 5 and moved >= checked // 2


def test_a_bot_takes_only_a_view():
    rnd = Round.deal(QUICK, "WQA4PK0R", 3)
    with pytest.raises(TypeError):
        suggest(rnd, "hard", 1)  # type: ignore[arg-type]


def test_sampled_deals_respect_the_view():
    rules = QUICK
    rng = random.Random(2)
    seen = 0
    paths = set()
    for rnd, seat in _positions(rules, "TDEB3825", every=3):
        if rnd.phase is not Phase.PLAY:
            continue
        view = rnd.view(seat)
        pub = public(view)
        con = constraints(knowledge(view))
        paths.add(Sampler(con).simple)
        for _ in range(5):
            got = sample(con, rng)
            total = 0
            for h, m in zip(con.holders, got):
                assert (m).bit_count() == pub.counts[h]
                for suit in view.voids[h]:
                    assert not m & SUIT_MASKS[suit]
                assert not m & total
                total |= m
            assert total == pub.unseen
            if view.passed and view.passed_to is not None:
                i = con.holders.index(view.passed_to)
                assert mask_of(view.passed) & pub.unseen & ~got[i] == 0
        seen += 1
    assert seen >= 10
    assert paths == {True, False}  # both the plain shuffle and the constrained draw


def test_sampler_spreads_unseen_cards_by_hand_size():
    """With nothing known but hand sizes, each unseen card lands with each other
    seat about as often as that seat's share of the unseen cards."""
    rnd = Round.deal(QUICK, "TDEB3825", 3)  # no pass
    rnd.play(rnd.legal_cards()[0])  # the 2♣: the leader shows nothing else
    seat = rnd.turn
    view = rnd.view(seat)
    pub = public(view)
    con = constraints(knowledge(view))
    sampler = Sampler(con)
    assert sampler.simple
    rng = random.Random(4)
    draws = 3000
    hits = [[0] * 52 for _ in con.holders]
    for _ in range(draws):
        for i, m in enumerate(sampler.sample(rng)):
            for c in range(52):
                hits[i][c] += m >> c & 1
    unseen = pub.unseen.bit_count()
    for i, h in enumerate(con.holders):
        share = pub.counts[h] / unseen
        for c in range(52):
            if pub.unseen >> c & 1:
                assert abs(hits[i][c] / draws - share) < 0.05


# ------------------------------------------------------------------ determinism


def _whole_game(levels: list[str], code: str) -> list:
    rules = QUICK
    game = Game(rules, code)
    bots = [make_bot(lv, seed_for(code, "cpu", s), HARD_SIMS) for s, lv in enumerate(levels)]
    moves = []
    while not game.over:
        rnd = game.round
        if rnd.phase is Phase.PASS:
            for s in range(rules.players):
                p = bots[s].choose_pass(rnd.view(s))
                moves.append(("pass", s, p))
                game.push_pass(p, s)
        while not rnd.over:
            s = rnd.turn
            c = bots[s].choose_card(rnd.view(s))
            moves.append(("play", s, c))
            game.push(c)
    return moves + [tuple(game.totals)]


def test_same_seed_same_game():
    levels = ["hard", "normal", "easy", "random"]
    a = _whole_game(levels, "98X7174K")
    b = _whole_game(levels, "98X7174K")
    assert a == b
    assert len(a) > 52


# ------------------------------------------------------------------ legality everywhere


def _rule_sets():
    for name in preset_names():
        base = load_preset(name)
        for n in (3, 4, 5, 6) if base.decks == 1 else (6, 8, 11):
            try:
                yield f"{name}-{n}", base.replace(players=n)
            except RulesError:
                continue


@pytest.mark.parametrize("label,rules", list(_rule_sets()))
def test_every_level_plays_legally_everywhere(label, rules):
    n = rules.players
    cycle = len(rules.pass_cycle)
    for round_index in range(min(cycle, 2)):
        for shift in range(2):
            levels = [SIM_LEVELS[(s + 3 * shift) % len(SIM_LEVELS)] for s in range(n)]
            rnd = Round.deal(rules, "WQA4PK0R", round_index + shift)
            bots = [make_bot(lv, s, HARD_SIMS) for s, lv in enumerate(levels)]
            if rnd.phase is Phase.PASS:
                for s in range(n):
                    rnd.pass_cards(bots[s].choose_pass(rnd.view(s)), s)  # raises if wrong
            while rnd.phase is Phase.PLAY:
                s = rnd.turn
                rnd.play(bots[s].choose_card(rnd.view(s)))  # raises IllegalMove if illegal
            if rnd.phase is Phase.MOON:  # the shooter's choice, from the shooter's view
                rnd.choose_moon(suggest(rnd.view(rnd.turn), levels[rnd.turn], 0))
            assert rnd.result is not None


def _engine_checked(rnd: Round, inner, seen: list[int]):
    """A playout_steps hook that checks every call against the engine ``rnd`` and plays along."""
    n = rnd.rules.players

    def policy(legal, seat, win_card, win_seat, p):
        assert seat == rnd.turn
        assert legal == rnd.legal_mask()
        assert p.trick == [int(c) for c in rnd.trick]
        if rnd.trick:
            led = rnd.trick[0] // 13
            best = max(c for c in rnd.trick if c // 13 == led)
            assert win_card == best
            assert win_seat == (rnd.leader + list(rnd.trick).index(best)) % n
        else:
            assert win_card == win_seat == -1
        c = inner(legal, seat, win_card, win_seat, p)
        assert legal >> c & 1
        rnd.play(CARDS[c])  # checked by the engine too
        seen.append(c)
        return c

    return policy


@pytest.mark.parametrize("name", [n for n in preset_names() if load_preset(n).decks == 1])
def test_hard_playouts_follow_the_engine(name):
    """Hard's playouts (fast.playout_steps + the heuristic policy) from mid-round positions:
    at every card the legal set, the seat and the trick's winner so far are the engine's,
    every card is legal there, and the final scores are the engine's."""
    rules = load_preset(name)
    ctx = rules.facts
    rng = random.Random(11)
    n = rules.players
    for k in range(4):
        rnd = Round.deal(rules, "TDEB3825", k)
        if rnd.phase is Phase.PASS:
            for s in range(n):
                rnd.pass_cards(rnd.hand(s)[:rules.pass_count], s)
        for _ in range(rng.randrange(0, 4 * n)):  # start anywhere: mid-trick, first trick...
            rnd.play(rng.choice(rnd.legal_cards()))
        pos = fast.Position.from_round(rnd)
        seen: list[int] = []
        policy = _engine_checked(rnd, make_policy(ctx, random.Random(k), 0.3, -1,
                                                  threat(ctx, pos.taken)), seen)
        scores = fast.playout_steps(pos, policy)
        assert rnd.phase is Phase.OVER and seen
        assert scores == rnd.result.scores


# ------------------------------------------------------------------ the endgame solver


def _ending(cards: list[str], leader: int, trick: str = "", rules: Rules = QUICK) -> fast.Position:
    hands = [mask_of(parse_cards(h.split())) for h in cards]
    return fast.Position(rules, hands, leader=leader, trick=[int(c) for c in parse_cards(trick.split())],
                         hearts_broken=True, first_trick=False)


def test_endgame_solver_keeps_hearts_unled_until_broken():
    """Hearts are not broken: after A♣ wins the trick, seat 0 must lead A♦ (not 2♥), the
    others discard a heart each on it, and seat 0 takes 3 points. Were 2♥ a legal lead
    there, the search would duck with it and score 0."""
    hands = [mask_of(parse_cards(h.split())) for h in ("AC AD 2H", "2C 5H 6H", "3C 7H 8H", "4C 9H TH")]
    pos = fast.Position(QUICK, hands, leader=0, hearts_broken=False, first_trick=False)
    assert solve(QUICK, pos, [int(Card("AC"))]) == [(3, 0, 0, 4)]


def test_endgame_solver_finds_the_only_safe_lead():
    """Seat 0 leads with 2♠ A♠; the Q♠ and K♠ are single in seats 1 and 2.

    A♠ first wins the Q♠ (seat 1 has nothing else to play), then the 2♠ wins the
    last hearts: 17 points. 2♠ first makes seat 2's K♠ take the Q♠ (14), and the
    A♠ is then a free discard on the last heart trick: 0 points.
    """
    pos = _ending(["2S AS", "QS 3H", "KS 4H", "5H 6H"], leader=0)
    hands = list(pos.hands)
    two, ace = int(Card("2S")), int(Card("AS"))
    res = solve(QUICK, pos, [two, ace])
    assert res[0][0] == 0 and res[0][2] == 14
    assert res[1][0] == 17
    assert pos.hands == hands and not pos.trick  # solve leaves the position alone


def test_endgame_solver_stops_a_moon_and_equals_brute_force():
    """Every seat plays perfectly for itself: checked against a plain max-n over
    Position.legal_mask/play (no pruning, no card classes) on random endings."""
    ctx = QUICK
    n = 4

    def brute(pos):
        if pos.over:
            return pos.result()
        seat = pos.turn
        best = None
        m = pos.legal_mask()
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            p = pos.copy()
            p.play(c)
            r = brute(p)
            u = n * r[seat] - sum(r)
            if best is None or u < n * best[seat] - sum(best):
                best = r
        return best

    rng = random.Random(5)
    for trial in range(25):
        rnd = Round.deal(QUICK, "TDEB3825", trial % 4)
        if rnd.phase is Phase.PASS:
            for s in range(n):
                rnd.pass_cards(rnd.hand(s)[:3], s)
        while len(rnd.tricks) < 10 + trial % 2 or (trial % 3 and len(rnd.trick) < trial % 3):
            rnd.play(rng.choice(rnd.legal_cards()))
        pos = fast.Position.from_round(rnd)
        legal = pos.legal_mask()
        cands = [c for c in range(52) if legal >> c & 1]
        got = solve(ctx, pos, cands)
        for c, r in zip(cands, got):
            p = pos.copy()
            p.play(c)
            assert r == brute(p), (trial, c)



def test_two_deck_worlds_respect_the_view():
    """Hard's two-deck sampler: every unseen copy placed once, hand sizes kept, no card
    of a suit a seat has shown void in, the cards passed still with their receiver."""
    from collections import Counter

    from hearts_cli.bots import multi

    rules = load_preset("cancellation")
    rng = random.Random(3)
    checked = 0
    for rnd, seat in _positions(rules, "TDEB3825", every=5):
        if rnd.phase is not Phase.PLAY:
            continue
        view = rnd.view(seat)
        hands, kitty = multi.sample_world(view, rng)
        assert hands[seat] == [] and kitty == []
        assert Counter(c for h in hands for c in h) == Counter(int(c) for c in view.unseen())
        counts = knowledge(view).counts
        for s in range(rules.players):
            if s != seat:
                assert len(hands[s]) == counts[s]
                assert not any(c // 13 in {int(x) for x in view.voids[s]} for c in hands[s])
        to = view.passed_to
        if view.passed and to is not None:
            by_to = Counter(int(c) for tr in view.tricks for t, c in tr.plays() if t == to)
            by_to += Counter(int(c) for i, c in enumerate(view.trick)
                             if (view.leader + i) % rules.players == to)
            unseen = Counter(int(c) for c in view.unseen())
            for c, k in Counter(int(c) for c in view.passed).items():
                assert hands[to].count(c) >= min(max(0, k - by_to[c]), unseen[c])
        checked += 1
    assert checked >= 5


def test_normal_defends_against_a_plain_moon_run():
    """The `high` seat (pass low, play high) shot the moon in 15 of these 48 rounds against
    the Normal of 2026-11-30, which ducked and dumped its points on the runner; now Normal
    watches a seat that holds every penalty card and spoils the run (3 of 48)."""
    from hearts_cli.bots.match import match_code

    moons = rounds = 0
    for g in range(12):
        code = match_code("normal-moon", g)
        for k in range(4):
            seat = (g + k) % 4
            levels = ["normal"] * 4
            levels[seat] = HIGH
            rnd = Round.deal(QUICK, code, k)
            bots = [make_bot(lv, s) for s, lv in enumerate(levels)]
            if rnd.phase is Phase.PASS:
                for s in range(4):
                    rnd.pass_cards(bots[s].choose_pass(rnd.view(s)), s)
            while rnd.phase is Phase.PLAY:
                rnd.play(bots[rnd.turn].choose_card(rnd.view(rnd.turn)))
            rounds += 1
            moons += rnd.result.shooter == seat
    assert rounds == 48 and moons <= 6


def test_playouts_can_lead_spades_under_the_queen_to_flush_her():
    """`flush` (a switch of Hard's Tuning, off by default, measured in docs/bots.md): a seat
    without the Q♠, K♠ or A♠ leads its highest spade under her while she is out, instead of
    its lowest card."""
    from hearts_cli.bots import playout

    facts = QUICK.facts
    hand = mask_of(parse_cards(["2C", "9C", "3D", "5S", "JS", "4H"]))
    args = (facts, 0, hand, hand & ~SUIT_MASKS[2], [], -1, -1, True, -1)
    assert playout.choose(*args) == Card("2C")
    assert playout.choose(*args, True) == Card("JS")
    assert playout.choose(*args[:-2], False, -1, True) == Card("2C")  # she is gone: lead low
    with_king = hand | 1 << Card("KS")
    assert playout.choose(facts, 0, with_king, with_king & ~SUIT_MASKS[2], [], -1, -1, True, -1, True) == Card("2C")


def test_in_playouts_of_lone_defence_only_the_defender_minds_another_seats_moon():
    """`lone_defence` (a switch of Hard's Tuning, off by default, measured in docs/bots.md):
    seat 1 runs for the moon and wins the trick; void seat 2 keeps the Q♠ from it when every
    seat defends or when it is the defender, and gives it to the runner when only seat 0 is."""
    hands = [mask_of(parse_cards(h.split())) for h in ("2C 3C", "KC", "QS 5D 3H", "4C 5C")]
    pos = fast.Position(QUICK, hands, leader=1, trick=[int(Card("AC"))], hearts_broken=True, first_trick=False)

    def discard(defender: int, shooter: int = -1) -> Card:
        policy = make_policy(QUICK.facts, random.Random(0), 0.0, shooter, 1, -1, False, defender)
        return CARDS[policy(hands[2], 2, int(Card("AC")), 1, pos)]

    assert discard(-1) == discard(2) == Card("5D")
    assert discard(0) == Card("QS")
    # a run of the defender's own is spoiled by all: points to the trick's winner (seat 0 runs)...
    assert discard(0, shooter=0) == Card("3H")
    assert discard(1, shooter=1) == Card("5D")  # ...or none to the runner (seat 1)


def test_hard_plays_as_its_tuning_says_and_the_table_gets_the_default():
    """Hard's experiment switches are its constructor's `tuning`: the level people play is
    `Tuning()`, and a switch given changes the play it reaches (flush: the heuristic playouts'
    leads)."""
    from hearts_cli.bots.hard import PLAYED, Tuning

    assert make_bot("hard", 1).tuning == PLAYED == Tuning()
    played = hard_round_cards(PLAYED)
    assert hard_round_cards(Tuning()) == played
    assert hard_round_cards(Tuning(playout_eps=0.0)) != played
    heuristic = hard_round_cards(Tuning(learned_play=False))
    assert hard_round_cards(Tuning(learned_play=False, flush=True)) != heuristic


def test_hards_playouts_play_the_policy_its_tuning_gives():
    """`policy` (a seam of Hard's Tuning for bench experiments): the heuristic's maker given
    explicitly plays the round Hard playing out the heuristic plays, with the same random
    streams; another maker (every seat plays its lowest legal card) is the one the playouts call."""
    from hearts_cli.bots.hard import PLAYED, Tuning

    calls = []

    def lowest(*args, **kwargs):
        def policy(legal, seat, win_card, win_seat, pos):
            calls.append(seat)
            return (legal & -legal).bit_length() - 1
        return policy

    assert hard_round_cards(Tuning(policy=make_policy)) == hard_round_cards(Tuning(learned_play=False))
    assert hard_round_cards(Tuning(policy=lowest)) != hard_round_cards(PLAYED)
    assert len(set(calls)) == 4
