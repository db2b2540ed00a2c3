"""Rule-by-rule engine tests, each from the rule texts (source numbers in the comments).

Positions are built by hand with ``Round(rules, hands, direction="none")``.
Seats are clockwise in play order; the 2♣ (or lowest club) leads.
"""

from __future__ import annotations

import pytest
from conftest import (
    ALL_RANKS,
    R,
    cards,
    play_out,
    play_script,
    position,
    preferring,
    run_of,
    snapshot,
)

from hearts_cli.model.cards import CARDS, Card, Suit, cards_of
from hearts_cli.model.rules import Direction
from hearts_cli.play.dealt import IllegalMove, PassError, Phase, PhaseError
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round, SeatView
from hearts_cli.play.verdicts import REASON_ORDER

C = Card


def hand_set(r: Round, seat: int) -> set[Card]:
    return set(r.hand(seat))


def assert_illegal_everywhere(r: Round) -> None:
    """Every card that is not legal is refused with a reason, and nothing changes."""
    before = snapshot(r)
    legal = set(r.legal_cards())
    for c in CARDS:
        if c in legal:
            continue
        v = r.why(c)
        assert not v.legal and v.reason is not None and v.reason.code in REASON_ORDER
        with pytest.raises(IllegalMove) as e:
            r.play(c)
        assert e.value.reason.code == v.reason.code
        assert snapshot(r, keep=False) == before


# ---------------------------------------------------------------- positions

# A: the first trick, with a hand of only hearts and the Q♠ (seat 1)
A = [
    run_of("C", ALL_RANKS),                              # seat 0: every club, leads the 2♣
    run_of("H", "23456789TJQK") + " QS",                 # seat 1: only hearts and the Q♠
    run_of("D", ALL_RANKS),                              # seat 2: every diamond
    run_of("S", "23456789TJKA") + " AH",                 # seat 3: spades and one heart
]
# A2: as A, but seat 1 also holds one card that scores nothing
A2 = [
    run_of("C", ALL_RANKS),
    run_of("H", "23456789TJQ") + " QS 5D",
    run_of("D", "2346789TJQKA") + " KH",
    run_of("S", "23456789TJKA") + " AH",
]
# B: seat 0 wins the first trick with the A♣ and then holds only hearts
B = [
    "AC " + run_of("H", "23456789TJQK"),
    run_of("D", ALL_RANKS),
    run_of("S", ALL_RANKS),
    run_of("C", "23456789TJQK") + " AH",
]
B_TRICK1 = "2C AC 2D 2S"  # seat 3 leads; seat 0 must play its only club and wins
# C: seat 0 wins the first trick and then holds only hearts and the Q♠
CQ = [
    "AC QS " + run_of("H", "23456789TJQ"),
    run_of("D", ALL_RANKS),
    run_of("S", "23456789TJKA") + " KH",
    run_of("C", "23456789TJQK") + " AH",
]
# D: seat 0 can take every heart and the Q♠ (a moon); seat 2 holds the J♦
D = [
    "AC AD 2D " + run_of("H", "56789TJQKA"),
    run_of("C", "23456789TJQK") + " 2H",
    run_of("D", "3456789TJQK") + " 2S 3S",
    "3H 4H " + run_of("S", "456789TJQKA"),
]
SHOOTER = {0: "AD AH KH QH JH TH 9H 8H 7H 6H 5H", 3: "3H QS"}


def test_positions_are_whole_deals():
    for hands in (A, A2, B, CQ, D):
        assert sorted(c for h in hands for c in cards(h)) == list(CARDS)


# ---------------------------------------------------------------- first lead


def test_the_two_of_clubs_leads_and_nothing_else():
    # all sources: "el dos de tréboles ... esa carta es obligatoria"
    r = position(R(), A)
    assert r.turn == 0
    assert r.legal_cards() == (C("2C"),)
    v = r.why("AC")
    assert v.reason.code == "must_lead_two_clubs" and v.reason.cards == (C("2C"),)
    assert_illegal_everywhere(r)


def test_the_first_lead_is_forced_even_for_a_heart_holder():
    r = position(R(), B)
    assert r.turn == 3
    # the precedence: must_lead_two_clubs comes before no_points_on_first_trick and hearts_not_broken
    assert r.why("AH").reason.code == "must_lead_two_clubs"
    assert r.why("KC").reason.code == "must_lead_two_clubs"


def test_old_rule_left_of_the_dealer_leads_any_card():
    # 004: "la persona a la izquierda de quien reparte abre con cualquier carta"
    rules = R("old-lead")
    r = position(rules, B, dealer=2)
    assert r.turn == 3  # left of the dealer
    # any card, except the usual restrictions: no points on the first trick, hearts not broken
    assert set(r.legal_cards()) == set(cards(run_of("C", "23456789TJQK")))
    assert r.why("AH").reason.code == "no_points_on_first_trick"
    r = position(rules, B, dealer=3)
    assert r.turn == 0
    assert r.legal_cards() == (C("AC"),)
    assert r.why("5H").reason.code == "no_points_on_first_trick"  # before hearts_not_broken
    r = position(R("old-lead", first_trick="any"), B, dealer=3)
    assert r.why("5H").reason.code == "hearts_not_broken"
    r = position(rules, B, dealer=0)
    assert r.turn == 1 and set(r.legal_cards()) == set(cards(run_of("D", ALL_RANKS)))


# E: a free first lead of spades; seat 1 holds the Q♠ and other spades, seat 2 the
# K♠ and A♠ (Black Maria's point spades) and one other spade
E = [
    "2S 3S 4S " + run_of("C", "23456789TJ"),
    "QS 5S 6S " + run_of("D", "23456789TJ"),
    "KS AS 7S " + run_of("H", "23456789TJ"),
    "8S 9S TS JS QC KC AC QD KD AD QH KH AH",
]


def test_a_point_card_does_not_follow_suit_to_a_free_first_trick():
    # 000: "en la primera baza no se juegan cartas de puntos ... salvo que solo te queden
    # cartas de puntos"; 001: "salvo que el jugador no tenga ninguna otra carta legal";
    # 003: the Q♠ may be played when you do not hold the suit led, "excepto en la primera baza"
    assert sorted(c for h in E for c in cards(h)) == list(CARDS)
    r = position(R("old-lead"), E, dealer=3)
    assert r.turn == 0
    r.play("2S")
    assert set(r.legal_cards()) == set(cards("5S 6S"))
    v = r.why("QS")
    assert v.reason.code == "no_points_on_first_trick"
    assert set(v.reason.cards) == set(cards("5S 6S"))
    # Black Maria: the K♠ and A♠ are point cards too
    r = position(R("black-maria", players=4, first_lead="any"), E, dealer=3)
    play_script(r, "2S 5S")
    assert r.legal_cards() == (C("7S"),)
    assert r.why("AS").reason.code == "no_points_on_first_trick"
    # following suit comes first: a Q♠ that is the only spade held must be played
    r = position(R("old-lead"), ["2S 3S 4S " + run_of("C", "23456789TJ"),
                                 "QS " + run_of("D", "23456789TJQK"),
                                 "5S 6S 7S " + run_of("H", "23456789TJ"),
                                 "8S 9S TS JS KS AS QC KC AC AD QH KH AH"], dealer=3)
    r.play("2S")
    assert r.legal_cards() == (C("QS"),)


@pytest.mark.parametrize("code", ["HEARTS0N", "QSPADE7B", "1234567M"])
def test_old_rule_leader_follows_the_dealer_from_a_code(code):
    rules = R("old-lead", passing="none")
    for k in range(4):
        r = Round.deal(rules, code, k)
        assert r.turn == (r.dealer + 1) % 4


# ---------------------------------------------------------------- following suit, the first trick


def test_a_first_trick_hand_of_only_hearts_and_the_queen_may_play_any_of_them():
    # 003: "una mano con SOLO corazones y la Q♠ ... obliga a relajar esta restricción";
    # 004: "a menos que toda tu mano sea corazones y la reina de picas"
    r = position(R(), A)
    r.play("2C")
    assert r.turn == 1
    assert set(r.legal_cards()) == set(cards(A[1]))
    r.play("QS")
    assert not r.hearts_broken  # the Q♠ does not break hearts (000)
    r.play("2D")
    # seat 3 is void in clubs and holds spades: the A♥ may not go on the first trick
    assert set(r.legal_cards()) == set(cards(run_of("S", "23456789TJKA")))
    v = r.why("AH")
    assert v.reason.code == "no_points_on_first_trick"
    assert set(v.reason.cards) == set(cards(run_of("S", "23456789TJKA")))
    assert_illegal_everywhere(r)


def test_a_heart_forced_onto_the_first_trick_breaks_hearts():
    r = position(R(), A)
    play_script(r, "2C 5H 2D 2S")
    assert r.hearts_broken
    assert r.tricks[0].winner == 0 and r.tricks[0].points == 1
    assert r.points == [1, 0, 0, 0]


def test_first_trick_one_card_without_points_must_be_played():
    r = position(R(), A2)
    r.play("2C")
    assert r.legal_cards() == (C("5D"),)
    v = r.why("QS")
    assert v.reason.code == "no_points_on_first_trick" and v.reason.cards == (C("5D"),)
    assert r.why("2H").reason.code == "no_points_on_first_trick"


def test_first_trick_no_hearts_allows_the_queen():
    # 003: "algunas mesas informales permiten jugar la Q♠ en la primera baza"
    r = position(R("quick", first_trick="no_hearts"), A)
    r.play("2C")
    assert r.legal_cards() == (C("QS"),)  # the hand holds a card that is not a heart
    v = r.why("2H")
    assert v.reason.code == "no_points_on_first_trick"
    assert v.reason.detail == "no_queen_on_first_trick"
    r = position(R("quick", first_trick="no_hearts"), A2)
    r.play("2C")
    assert set(r.legal_cards()) == {C("QS"), C("5D")}


def test_first_trick_points_allowed():
    # 004: "Desactívalo para permitir cartas de puntos desde el primer baza"
    r = position(R("first-trick-points"), A)
    play_script(r, "2C 2H 2D")
    assert C("AH") in r.legal_cards()
    r.play("AH")
    assert r.tricks[0].points == 2 and r.points[0] == 2


def test_must_follow_suit_names_the_led_suit_cards_still_held():
    r = position(R(), B)
    r.play("2C")
    assert r.turn == 0 and r.legal_cards() == (C("AC"),)
    v = r.why("5H")
    # must_follow_suit comes before no_points_on_first_trick
    assert v.reason.code == "must_follow_suit"
    assert v.reason.cards == (C("AC"),) and v.reason.suit is Suit.CLUBS
    assert_illegal_everywhere(r)


def test_must_follow_suit_lists_every_card_of_the_suit():
    r = position(R(), CQ)
    play_script(r, B_TRICK1)  # seat 0 wins with the A♣
    r.play("QS")  # seat 0 leads the Q♠ (its only card that is not a heart)
    r.play("3D")
    v = r.why("KH")  # seat 2 still holds spades
    assert v.reason.code == "must_follow_suit" and v.reason.suit is Suit.SPADES
    assert set(v.reason.cards) == set(cards(run_of("S", "3456789TJKA")))


def test_the_highest_card_of_the_led_suit_wins_no_trumps():
    r = position(R(), CQ)
    play_script(r, B_TRICK1)
    play_script(r, "QS 3D AS")
    r.play("AH")  # seat 3 is void in spades: the A♥ is a discard and cannot win
    t = r.tricks[-1]
    assert t.winner == 2 and t.points == 14
    assert r.turn == 2  # the winner leads the next trick
    assert r.hearts_broken


# ---------------------------------------------------------------- breaking hearts


def test_leading_when_only_hearts_remain():
    # 000/001/004: hearts may not be led before they are broken "salvo que solo te queden corazones"
    r = position(R(), B)
    play_script(r, B_TRICK1)
    assert r.turn == 0 and not r.hearts_broken
    assert set(r.legal_cards()) == set(cards(run_of("H", "23456789TJQK")))
    assert_illegal_everywhere(r)


def test_hearts_cannot_be_led_before_they_are_broken():
    r = position(R(), B)
    play_script(r, "2C AC 2D 2S")
    play_script(r, "2H")  # seat 0 leads a heart (it holds nothing else)
    assert r.hearts_broken
    r = position(R(), CQ)
    play_script(r, B_TRICK1)
    play_script(r, "QS 3D AS 3C")  # seat 2 wins the Q♠; no heart has been played
    assert r.turn == 2 and not r.hearts_broken
    v = r.why("KH")
    assert v.reason.code == "hearts_not_broken"
    assert C("KH") not in v.reason.cards and C("3S") in v.reason.cards
    assert C("KH") not in r.legal_cards()


def test_only_hearts_and_the_queen_on_lead_before_hearts_are_broken():
    r = position(R(), CQ)
    play_script(r, B_TRICK1)
    assert r.turn == 0
    assert r.legal_cards() == (C("QS"),)
    v = r.why("5H")
    assert v.reason.code == "hearts_not_broken" and v.reason.cards == (C("QS"),)
    e = r.why("QS").effect
    assert e is not None and not e.breaks_hearts
    r.play("QS")
    assert not r.hearts_broken  # 000: "En esta mesa la dama de picas NO rompe corazones"
    assert_illegal_everywhere(r)


def test_the_queen_breaks_hearts_under_heart_or_queen():
    rules = R("queen-breaks")
    r = position(rules, CQ)
    play_script(r, B_TRICK1)
    assert r.legal_cards() == (C("QS"),)
    e = r.why("QS").effect
    assert e.breaks_hearts
    play_script(r, "QS 3D AS 3C")
    assert r.hearts_broken
    assert C("KH") in r.legal_cards()  # seat 2 may now lead its heart


def test_no_breaking_restriction_hearts_lead_any_time():
    # 003: "se permite abrir con la Q♠ y/o corazones en cualquier momento"
    r = position(R("no-breaking"), CQ)
    play_script(r, B_TRICK1)
    assert set(r.legal_cards()) == set(cards(CQ[0])) - {C("AC")}
    # the first lead is still the 2♣
    assert position(R("no-breaking"), CQ).legal_cards() == (C("2C"),)


def test_a_discarded_heart_breaks_hearts_for_the_next_lead():
    r = position(R(), CQ)
    play_script(r, B_TRICK1)
    play_script(r, "QS 3D AS AH")
    assert r.hearts_broken
    assert C("KH") in r.legal_cards()


# ---------------------------------------------------------------- effects


def test_effect_of_a_lead_that_cannot_be_beaten():
    r = position(R(), A)
    e = r.why("2C").effect  # seat 0 holds every club
    assert e.wins is True and e.points == 0 and not e.breaks_hearts


def test_a_lead_below_every_card_of_its_suit_still_out_cannot_win():
    """Issue 33: what the seat knows decides it. The A♥ is the only heart out; whoever holds it
    is still to play and must follow with it, so no heart led can win."""
    r = position(R(), B)
    play_script(r, B_TRICK1)
    v = r.why("KH")
    assert v.effect.wins is False and v.effect.covered == 1 and v.effect.breaks_hearts
    assert v.message("en") == ("K♥ cannot win the trick: every heart still out is higher, and a seat still "
                               "to play must follow with one. It breaks hearts.")


def test_a_card_that_cannot_win_says_who_takes_the_trick_and_its_points():
    """Issue 26 §11: on a follow the verdict says who takes the trick (so far, or for certain
    on its last card) and the points it gives them, named from the seat to move."""

    r = position(R(), B)
    play_script(r, B_TRICK1)
    r.play(max(r.legal_cards()))  # a high lead: the next seat's low cards lose to it
    beaten = [c for c in r.legal_cards() if r.why(c).effect.wins is False]
    assert beaten
    for card in beaten:
        e = r.why(card).effect
        assert e.taker == (r.mover - 1) % r.players and not e.exact  # the leader, so far
        assert e.points == sum(r.rules.points[c] for c in [*r.trick, card])
        assert "takes it so far" in r.why(card).message("en")


def test_effect_of_the_last_card_is_exact():
    r = position(R(), B)
    play_script(r, B_TRICK1 + " 2H 3D 3S")
    e = r.why("AH").effect  # seat 3 is last to play and must follow with the A♥
    assert e.wins is True and e.points == 2 and e.exact
    assert r.why("AH").message("en") == "A♥ wins the trick and takes 2 points."
    assert r.why("AH").message("es") == "A♥ gana la baza y se lleva 2 puntos."


def test_effect_of_a_losing_card_and_of_a_discard():
    r = position(R(), CQ)
    play_script(r, B_TRICK1 + " QS 3D")
    e = r.why("AS").effect
    assert e.wins is True and e.points == 13  # nobody can beat the A♠
    e = r.why("3S").effect
    assert e.wins is False
    r.play("AS")
    e = r.why("AH").effect  # seat 3's discard
    assert e.wins is False and e.breaks_hearts


# ---------------------------------------------------------------- illegal moves


def test_precedence_not_in_hand_then_wrong_phase():
    r = Round.deal(R(), "HEARTS0N", 0)  # a passing round
    assert r.phase is Phase.PASS
    mine, other = r.hand(0)[0], r.hand(1)[0]
    assert r.why(other, seat=0).reason.code == "not_in_hand"
    assert r.why(mine, seat=0).reason.code == "wrong_phase"
    before = snapshot(r)
    with pytest.raises(IllegalMove) as e:
        r.play(mine)
    assert e.value.reason.code == "wrong_phase"  # seat 0 holds it: not_in_hand does not apply
    assert snapshot(r, keep=False) == before


def test_a_seat_that_is_not_to_move_gets_wrong_phase():
    r = position(R(), A)
    assert r.why("5H", seat=1).reason.code == "wrong_phase"
    assert r.why("2C", seat=1).reason.code == "not_in_hand"


def test_reason_order_is_the_documented_one():
    assert REASON_ORDER == (
        "not_in_hand", "wrong_phase", "must_lead_two_clubs", "must_lead_lowest_club",
        "must_follow_suit", "no_points_on_first_trick", "hearts_not_broken",
    )


def test_nothing_can_be_played_once_the_round_is_over():
    r = position(R(), D)
    play_out(r)
    assert r.over and r.phase is Phase.OVER
    before = snapshot(r)
    with pytest.raises(IllegalMove):
        r.play("2C")
    assert snapshot(r, keep=False) == before


def test_the_trick_on_the_table_seat_by_seat_and_the_questions_of_a_phase():
    """Who played each card of the trick in progress, the same for the round and every
    view; the seat to move and the result only in a phase that has them."""
    r = position(R(), B)
    assert r.trick_plays() == []  # the first lead is to come
    play_script(r, "2C AC")  # seat 3 leads, seat 0 follows
    played = [(3, C("2C")), (0, C("AC"))]
    assert r.trick_plays() == played
    assert all(r.view(s).trick_plays() == played for s in range(4))
    assert r.mover == 1
    with pytest.raises(PhaseError):
        r.outcome  # noqa: B018  (the question is the test)
    play_out(r)
    assert r.trick_plays() == [] and r.view(2).trick_plays() == []
    assert r.outcome == r.result and sum(r.outcome.taken) == 26
    with pytest.raises(PhaseError):
        r.mover  # noqa: B018


def test_messages_name_the_rule_in_both_languages():
    r = position(R(), B)
    r.play("2C")
    v = r.why("5H")
    # both name the rule (follow the led suit) and the card that must be played
    assert "follow clubs" in v.message("en") and "AC" in v.message("en", ascii=True)
    assert "Debes asistir a tréboles" in v.message("es") and "AC" in v.message("es", ascii=True)
    assert "A♣" in v.message("es") and v.message("es") != v.message("en")


# ---------------------------------------------------------------- the kitty


def test_kitty_goes_with_its_points_to_the_winner_of_the_first_trick():
    # 004: "quien gana la primera baza también recoge las sobrantes y sus puntos de ♥ o ♠Q"
    rules = R("kitty")
    hands = [
        run_of("C", "23456789TJQK") + " " + run_of("D", "23456"),
        "AC " + run_of("D", "789TJQKA") + " " + run_of("H", "23456789"),
        run_of("H", "TJQK") + " " + run_of("S", ALL_RANKS),
    ]
    r = position(rules, hands)
    assert cards_of(r.kitty_mask) == (C("AH"),)
    for s in range(3):
        assert r.view(s).kitty == ()  # face down
        assert C("AH") in r.view(s).unseen()
    r.play("2C")
    e = r.why("AC").effect
    assert e.wins is True and not e.exact  # the kitty's points are not known yet
    r.play("AC")
    assert r.legal_cards() == cards_of(sum(1 << c for c in cards(run_of("S", "23456789TJKA"))))
    r.play("2S")
    t = r.tricks[0]
    assert t.winner == 1 and t.kitty == (C("AH"),) and t.points == 1
    assert r.points == [0, 1, 0]
    assert r.view(1).kitty == (C("AH"),)
    # a heart in the kitty is not a heart played: hearts are still not broken
    assert not r.hearts_broken


def test_kitty_holding_the_two_of_clubs_lowest_club_in_play_leads():
    # 004: "Si el 2♣ está allí, empieza el ♣ más bajo en juego"
    rules = R("kitty")
    hands = [
        run_of("C", "3456789TJQKA") + " " + run_of("D", "23456"),
        run_of("D", "789TJQKA") + " " + run_of("H", "23456789T"),
        run_of("H", "JQKA") + " " + run_of("S", ALL_RANKS),
    ]
    r = position(rules, hands)
    assert cards_of(r.kitty_mask) == (C("2C"),)
    assert r.turn == 0 and r.legal_cards() == (C("3C"),)
    v = r.why("4C")
    assert v.reason.code == "must_lead_lowest_club" and v.reason.cards == (C("3C"),)


@pytest.mark.parametrize("spec", [
    {"preset": "online", "players": 5},      # 004: "el tres de tréboles con cinco jugadores"
    {"preset": "reference", "players": 3},   # 003: the 2♣ is removed
    {"preset": "reference", "players": 6},
])
def test_removed_two_of_clubs_the_three_leads(spec):
    spec = dict(spec)
    rules = R(spec.pop("preset"), **spec)
    r = Round.deal(rules, "HEARTS0N", 2 if rules.players != 6 else 3)
    if r.phase is Phase.PASS:
        for s in range(rules.players):
            r.pass_cards(r.hand(s)[:rules.pass_count], s)
    assert C("2C") in rules.removed
    assert C("3C") in r.hand(r.turn)
    assert r.legal_cards() == (C("3C"),)
    other = next(c for c in r.hand(r.turn) if c != C("3C"))
    v = r.why(other)
    assert v.reason.code == "must_lead_lowest_club" and v.reason.cards == (C("3C"),)


# ---------------------------------------------------------------- passing


def dealt_round(rules=None, rnd=0, code="HEARTS0N") -> Round:
    return Round.deal(rules or R(), code, rnd)


@pytest.mark.parametrize("rnd, offset", [(0, 1), (1, 3), (2, 2), (4, 1)])
def test_the_exchange_happens_only_after_every_seat_has_passed(rnd, offset):
    r = dealt_round(rnd=rnd)
    assert r.phase is Phase.PASS
    dealt = [set(r.hand(s)) for s in range(4)]
    chosen = {s: r.hand(s)[3:6] for s in range(4)}
    for s in (2, 0, 3):  # any order
        r.pass_cards(chosen[s], s)
        assert r.phase is Phase.PASS
        assert [set(r.hand(x)) for x in range(4)] == dealt  # nothing moved yet
        assert all(r.view(x).received is None for x in range(4))
    assert r.view(2).passed == tuple(sorted(chosen[2]))
    r.pass_cards([str(c) for c in chosen[1]], 1)  # text is fine too
    assert r.phase is Phase.PLAY
    for s in range(4):
        to = (s + offset) % 4  # left is the next seat in play order
        assert r.view(to).received == tuple(sorted(chosen[s]))
        assert set(chosen[s]) <= set(r.hand(to))
    for s in range(4):
        giver = (s - offset) % 4
        assert set(r.hand(s)) == (dealt[s] - set(chosen[s])) | set(chosen[giver])
        assert r.view(s).received_from == giver
        assert r.view(s).passed_to == (s + offset) % 4
    assert C("2C") in r.hand(r.turn)  # the 2♣ leads after the exchange


def test_a_no_pass_round_starts_at_once_and_refuses_a_pass():
    r = dealt_round(rnd=3)
    assert r.direction is Direction.NONE and r.phase is Phase.PLAY
    with pytest.raises(PassError) as e:
        r.pass_cards(r.hand(0)[:3], 0)
    assert e.value.code == "no_pass_round"


@pytest.mark.parametrize("n", [3, 5])
def test_three_and_five_players_pass_left_right_then_none(n):
    rules = R("online", players=n)
    offsets = {0: 1, 1: n - 1}
    for rnd in range(6):
        r = dealt_round(rules, rnd)
        if rnd % 3 == 2:
            assert r.phase is Phase.PLAY and r.direction is Direction.NONE
            continue
        chosen = {s: r.hand(s)[:3] for s in range(n)}
        for s in range(n):
            r.pass_cards(chosen[s], s)
        for s in range(n):
            assert r.view((s + offsets[rnd % 3]) % n).received == tuple(chosen[s])


def _bad_pass(r: Round, seat: int, chosen, code: str) -> None:
    before = snapshot(r)
    with pytest.raises(PassError) as e:
        r.pass_cards(chosen, seat)
    assert e.value.code == code
    assert e.value.seat == seat
    assert snapshot(r, keep=False) == before


def test_bad_passes_are_refused_and_change_nothing():
    r = dealt_round()
    h0, h1 = r.hand(0), r.hand(1)
    _bad_pass(r, 0, h0[:2], "pass_count")
    _bad_pass(r, 0, h0[:4], "pass_count")
    _bad_pass(r, 0, [], "pass_count")
    _bad_pass(r, 0, [h0[0], h0[0], h0[1]], "pass_duplicate")
    _bad_pass(r, 0, [h0[0], h0[1], h1[0]], "not_in_hand")
    r.pass_cards(h0[:3], 0)
    for s in (1, 2, 3):
        r.pass_cards(r.hand(s)[:3], s)
    _bad_pass(r, 1, r.hand(1)[:3], "wrong_phase_play")


def test_a_seat_cannot_pass_twice():
    r = dealt_round()
    r.pass_cards(r.hand(0)[:3], 0)
    _bad_pass(r, 0, r.hand(0)[3:6], "pass_twice")


def test_a_pass_for_a_seat_that_does_not_exist_is_refused():
    r = dealt_round()
    _bad_pass(r, 7, r.hand(0)[:3], "bad_seat")
    _bad_pass(r, -1, r.hand(0)[:3], "bad_seat")


def test_a_card_being_received_cannot_be_passed_on():
    # a seat passes from its dealt hand: the cards passed to it are not in it yet
    r = dealt_round()
    incoming = r.hand(0)[:3]  # round 1 passes left: seat 0 gives to seat 1
    r.pass_cards(incoming, 0)
    _bad_pass(r, 1, [incoming[0], r.hand(1)[0], r.hand(1)[1]], "not_in_hand")
    for s in (1, 2, 3):
        r.pass_cards(r.hand(s)[:3], s)
    # once they have arrived the exchange is over: there is no second pass to send them on
    assert set(incoming) <= set(r.hand(1))
    _bad_pass(r, 1, incoming, "wrong_phase_play")


# ---------------------------------------------------------------- what a seat may see


def visible_cards(v: SeatView) -> set[Card]:
    out = set(v.hand) | set(v.trick) | set(v.kitty) | set(v.legal)
    out |= set(v.received or ()) | set(v.passed or ())
    for t in v.tricks:
        out |= set(t.cards) | set(t.kitty)
    return out


def assert_no_other_hand(r: Round) -> None:
    for s in range(r.players):
        v = r.view(s)
        seen = visible_cards(v)
        for other in range(r.players):
            if other != s:
                leaked = seen & set(r.hand(other)) - set(v.passed or ())
                assert not leaked, (s, other, leaked)
        if not r.kitty_taken:
            assert not seen & set(cards_of(r.kitty_mask))
        assert v.hand == r.hand(s)


def test_a_seat_view_holds_no_other_hand():
    r = dealt_round(R("kitty"), 0)
    assert_no_other_hand(r)
    for s in range(3):
        r.pass_cards(r.hand(s)[:3], s)
        assert_no_other_hand(r)
    while not r.over:
        r.play(r.legal_cards()[-1])
        assert_no_other_hand(r)
    fields = set(SeatView.__match_args__) | set(SeatView.__slots__)
    assert not {"hands", "kitty_mask", "dealt", "passes"} & fields


def test_view_shows_own_legal_cards_only_to_the_seat_to_move():
    r = position(R(), A)
    assert r.view(0).legal == (C("2C"),)
    assert r.view(1).legal == ()


# ---------------------------------------------------------------- scoring and the moon


def run_d(rules, prefs=None, scores=None) -> Round:
    r = position(rules, D, scores=scores)
    play_out(r, preferring(prefs or SHOOTER))
    return r


def test_the_moon_layout_really_is_a_moon():
    r = run_d(R())
    assert r.result.shooter == 0
    assert r.result.taken == (26, 0, 0, 0)


def test_a_round_hands_out_26():
    r = position(R(), D)
    play_out(r)  # everybody plays its lowest legal card
    assert r.result.shooter is None
    assert sum(r.result.scores) == 26 and r.result.scores == r.result.taken


def test_moon_others_plus_26():
    # all sources: the shooter scores 0 and each other player 26
    r = run_d(R())
    assert r.result.scores == (0, 26, 26, 26) and r.result.moon == "others"


def test_moon_off_the_taker_scores_26():
    # 004: "Entonces, recoger todos los puntos da 26 puntos"
    r = run_d(R("no-moon"))
    assert r.result.scores == (26, 0, 0, 0)
    assert r.result.shooter is None


def test_moon_shooter_minus_26():
    # 003: "el tirador puede optar en cambio por restar 26 a su propia puntuación"
    r = run_d(R("shooter-minus"))
    assert r.result.scores == (-26, 0, 0, 0) and r.result.moon == "shooter_minus"


def test_moon_with_the_jack_of_diamonds_taken_by_the_shooter():
    # 004: "el tirador obtiene -10 si lo tomó"
    r = run_d(R("omnibus"))
    assert C("JD") in [c for t in r.tricks if t.winner == 0 for c in t.cards]
    assert r.result.scores == (-10, 26, 26, 26)


def test_moon_with_the_jack_of_diamonds_taken_by_another():
    # 004: "otro jugador que lo tomó obtiene 26 - 10 = 16"
    prefs = {**SHOOTER, 2: "-JD"}
    r = run_d(R("omnibus"), prefs)
    assert r.tricks[-1].winner == 2 and C("JD") in r.tricks[-1].cards
    assert r.result.taken == (26, 0, -10, 0)
    assert r.result.scores == (0, 26, 16, 26)


def test_jack_of_diamonds_without_a_moon_and_with_other_moon_modes():
    prefs = {**SHOOTER, 2: "-JD"}
    assert run_d(R("omnibus", moon="off"), prefs).result.scores == (26, 0, -10, 0)
    assert run_d(R("omnibus", moon="shooter_minus"), prefs).result.scores == (-26, 0, -10, 0)
    assert run_d(R("omnibus", moon="shooter_minus")).result.scores == (-36, 0, 0, 0)


def test_spot_hearts_moon_is_worth_the_whole_penalty_total():
    r = run_d(R("spot"))
    assert r.result.taken == (117, 0, 0, 0)
    assert r.result.scores == (0, 117, 117, 117)


def test_spot_hearts_scores_face_values():
    r = position(R("spot"), B)
    play_script(r, B_TRICK1 + " 2H 3D 3S AH")
    assert r.tricks[-1].points == 2 + 14


def test_black_maria_points():
    # 004: the Q♠ 13, the K♠ 10 and the A♠ 7
    rules = R("black-maria", players=4)
    r = position(rules, CQ)
    play_script(r, B_TRICK1 + " QS 3D AS 3C")
    assert r.tricks[-1].points == 13 + 7 and r.points[2] == 20


@pytest.mark.parametrize("before, mode, scores", [
    # the shooter strictly lowest after "others +26": it takes that (brings the end closer)
    ((0, 0, 0, 0), "others", (0, 26, 26, 26)),
    ((50, 80, 80, 80), "others", (0, 26, 26, 26)),
    # otherwise it subtracts 26 and the game goes on
    ((60, 20, 80, 80), "shooter_minus", (-26, 0, 0, 0)),
    ((90, 0, 0, 0), "shooter_minus", (-26, 0, 0, 0)),
])
def test_shooter_choice_is_the_shooters_move_and_the_better_one_is_known(before, mode, scores):
    from hearts_cli.bots import choose_moon, suggest

    r = run_d(R("shooter-choice"), scores=before)
    # 003: the shooter may choose; nobody chooses for it
    assert r.phase is Phase.MOON and r.turn == 0 and r.result is None and not r.over
    view = r.view(0)
    assert choose_moon(view) == mode == suggest(view, "easy", 1)  # the CPU's choice, from its view
    with pytest.raises(PassError):
        r.choose_moon(mode, seat=1)  # not the shooter
    with pytest.raises(PassError):
        r.choose_moon("both")
    assert r.phase is Phase.MOON
    other = "shooter_minus" if mode == "others" else "others"
    assert r.moon_outcomes()[other] != r.moon_outcomes()[mode]
    copy = r.copy()
    copy.choose_moon(other)
    assert copy.result.moon == other and copy.result.scores == r.moon_outcomes()[other]
    res = r.choose_moon(mode)
    assert res is r.result and r.over
    assert r.result.moon == mode and r.result.scores == scores and r.result.shooter == 0
    with pytest.raises(PassError):
        r.choose_moon(mode)  # once only


# ---------------------------------------------------------------- game end and ties


def moon_round_in(g: Game, totals) -> None:
    """Replace the game's current round by the moon layout (seat 0 shoots) and play it."""
    g.totals = tuple(totals)
    k = len(g.rounds) - 1
    g.rounds[-1] = position(g.rules, D, round_index=k, scores=tuple(totals))
    play_out(g.round, preferring(SHOOTER), play=g.push)


def play_dealt_round(g: Game) -> None:
    r = g.round
    if r.phase is Phase.PASS:
        for s in range(g.rules.players):
            r.pass_cards(r.hand(s)[:g.rules.pass_count], s)
    play_out(r, play=g.push)


def test_the_game_ends_after_the_round_in_which_somebody_reaches_the_target():
    g = Game(R(), "HEARTS0N")
    moon_round_in(g, [10, 23, 23, 23])
    assert not g.over and g.totals == (10, 49, 49, 49)
    g2 = Game(R(), "HEARTS0N")
    moon_round_in(g2, [10, 24, 30, 40])
    assert g2.over and g2.totals == (10, 50, 56, 66)
    assert g2.winners == (0,)


def test_ties_share_first_place():
    # 000: "Los empates abajo comparten el primer puesto y no se juega desempate"
    g = Game(R(), "HEARTS0N")
    moon_round_in(g, [36, 10, 40, 40])
    assert g.over and g.totals == (36, 36, 66, 66)
    assert g.winners == (0, 1)
    assert [p for p, _, _ in g.standings()] == [1, 1, 3, 3]


def test_ties_one_more_round_plays_exactly_one_more_round():
    # 001: "En caso de empate en la puntuación más baja, juegue una ronda adicional"
    g = Game(R("classic", target=50), "HEARTS0N")
    moon_round_in(g, [36, 10, 40, 40])
    assert not g.over and len(g.rounds) == 2
    assert g.round.direction is Direction.RIGHT  # the cycle goes on
    play_dealt_round(g)
    assert g.over and len(g.rounds) == 2
    assert g.winners == tuple(s for s in range(4) if g.totals[s] == min(g.totals))


def test_one_more_round_not_needed_without_a_tie():
    g = Game(R("classic", target=50), "HEARTS0N")
    moon_round_in(g, [30, 10, 40, 40])
    assert g.over and g.winners == (0,)


def test_ties_until_single_keeps_dealing_with_the_pass_cycle_continuing():
    # 004: "Los repartos continúan (la dirección de paso y el número del reparto continúan)"
    g = Game(R("online", target=50), "HEARTS0N")
    moon_round_in(g, [36, 10, 40, 40])
    assert not g.over and g.totals == (36, 36, 66, 66)
    assert len(g.rounds) == 2 and g.round.round_index == 1
    assert g.round.direction is Direction.RIGHT
    moon_round_in(g, [36, 36, 66, 66])  # still tied before it; seat 0 shoots again
    assert g.over and g.totals == (36, 62, 92, 92) and g.winners == (0,)


def test_the_pass_cycle_never_restarts_in_a_game():
    g = Game(R("quick", target=10_000), "HEARTS0N")
    dirs = []
    for _ in range(6):
        dirs.append(g.round.direction)
        play_dealt_round(g)
    L, RT, A, N = Direction.LEFT, Direction.RIGHT, Direction.ACROSS, Direction.NONE
    assert dirs == [L, RT, A, N, L, RT]


@pytest.mark.parametrize("n, expected", [(3, "LRNLRN"), (5, "LRNLRN")])
def test_the_pass_cycle_with_three_and_five_players_in_a_game(n, expected):
    g = Game(R("online", players=n, target=10_000), "QSPADE7B")
    dirs = ""
    for _ in range(6):
        dirs += g.round.direction.value[0].upper()
        play_dealt_round(g)
    assert dirs == expected


def test_the_first_lead_message_names_the_card_that_must_lead():
    r = position(R(), A)
    text = r.why("AC").message("en", ascii=True)
    assert "2C" in text and "AC" not in text
    r = Round.deal(R("online", players=5), "HEARTS0N", 2)
    other = next(c for c in r.hand(r.turn) if c != C("3C"))
    text = r.why(other).message("es", ascii=True)
    assert "3C" in text and str(other) not in text


# ---------------------------------------------------------------- shooting the sun (issue 26)

_SUN_HANDS = [  # seat 0 holds every club: it leads the 2♣ and wins every trick, whatever is played
    [f"{r}C" for r in "23456789TJQKA"],
    [f"{r}D" for r in "23456789TJQKA"],
    [f"{r}H" for r in "23456789TJQKA"],
    [f"{r}S" for r in "23456789TJQKA"],
]


@pytest.mark.parametrize("preset, sun, scores, is_sun", [
    ("quick", -52, (-52, 0, 0, 0), True),  # gnome-hearts: the taker's
    ("quick", 39, (0, 39, 39, 39), True),  # World of Card Games: everybody else's
    ("quick", 0, (0, 26, 26, 26), False),  # off: a moon, as ever
    ("shooter-choice", -52, (-52, 0, 0, 0), True),  # a sun asks no moon's question
    ("omnibus", -52, (-62, 0, 0, 0), True),  # the J♦ still counts for whoever took it
])
def test_a_seat_that_takes_every_trick_shoots_the_sun(preset, sun, scores, is_sun):
    import random

    from hearts_cli.model.rules import load_preset
    from hearts_cli.play import fast

    rules = load_preset(preset).replace(sun=sun)
    rng = random.Random(sun)
    r = Round(rules, _SUN_HANDS, direction="none")
    start = fast.Position.start(rules, r.hands, kitty=r.kitty_mask, dealer=r.dealer, scores=r.scores_before)
    while r.phase is Phase.PLAY:
        r.play(rng.choice(r.legal_cards()))
    if not is_sun and r.phase is Phase.MOON:
        r.choose_moon("others")
    assert r.phase is Phase.OVER and r.result.scores == scores
    assert r.result.sun is is_sun and r.result.shooter == 0
    assert fast.playout(start, random.Random(1)) == scores  # the fast path (the CPUs' search) scores it alike


def test_why_says_a_card_shoots_the_sun_or_loses_the_no_trick_bonus():
    """Issue 26: the variants' reasons. The last club of the seat that took every trick shoots
    the sun; a card certain to take a seat's first trick loses its no-trick bonus."""
    from hearts_cli.model.rules import load_preset

    rules = load_preset("quick").replace(sun=-52, no_trick_bonus=-5)
    r = Round(rules, _SUN_HANDS, direction="none")
    first = r.why("2C")
    assert first.effect.loses_bonus == -5 and "you lose the bonus for taking none (-5)" in first.message("en")
    while not (r.turn == 0 and len(r.hand(0)) == 1):
        r.play(r.legal_cards()[0])
    last = r.why(r.hand(0)[0])
    assert last.effect.sun and not last.effect.loses_bonus
    assert last.message("en").endswith("With it you take every trick: you shoot the sun.")
    assert "tiras al sol" in last.message("es")
    plain = Round(load_preset("quick"), _SUN_HANDS, direction="none")
    while not (plain.turn == 0 and len(plain.hand(0)) == 1):
        plain.play(plain.legal_cards()[0])
    assert not plain.why(plain.hand(0)[0]).effect.sun  # without the setting, nothing is said
