"""Issue 33 §1: a card's verdict from what the seat knows (``play.knowledge``): the points at
stake, the seats still to play, how likely a higher card of the suit led is with them (exactly
0 or 1 where the knowledge decides it), and the fact that decides it. The reproductions of the
issue through ``hearts explain --json`` and the confirmation at the table, in both languages;
then every certainty a verdict states held against the real hands."""

from __future__ import annotations

import json
import random
import textwrap

import pytest
from conftest import run

from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import Rules
from hearts_cli.play import verdicts
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round

# the positions: the Q♠ already in the trick; a low lead; a lead while West holds the Q♣
# you passed (found by tests' search, kept as text); a seat still to play void in the suit led
QS_IN_TRICK = "hearts quick 2 8,4,14,0 K7Q2MXA7 AHJSQS/QDKDQH/ADKHAS/QCACKS 1:2CAC8C7C/4CQS 0 -"
LOW_LEAD = "hearts quick 5 44,6,29,25 WDDA9XXC KCAHAS/QCJDAD/ACKDKH/QDQHKS 3:2CTC9C8C 0 -"
PASSED_QC = "hearts quick 1 0,0,0,0 YT60000X QC7S8S/JHKSAS/9STSJS/2S5SQS 3:2CTC9C5C 0 -"
VOID = ("hearts quick 1 0,0,0,0 9S800005 5CJCKC/6C8CAC/2CQC3D/3C4C7C 3:2C7C5C8C/6CTC4CKC/8S6S3S5S/JCACQC3C/"
        "QSASJSKS/3D6DKDTD/2D3HQDJD/9C8HTS7H/AH2H6HKH/9S4S2S7S/4HQHJH9H 0 -")

CASES = [  # (position, card, covered, English, Spanish)
    (QS_IN_TRICK, "5C", 0.99,
     "5♣ will almost surely be covered, with 13 points at stake: 6 higher clubs are out, with West still to play.",
     "5♣ será cubierta casi con seguridad, con 13 puntos en juego: quedan 6 tréboles más altos; por jugar: Oeste."),
    (LOW_LEAD, "3S", 1.0,
     "3♠ can be covered for certain: West holds the A♠ you passed and is still to play.",
     "Seguro que pueden cubrir 3♠: Oeste tiene la A♠ que le pasaste y aún no ha jugado."),
    (PASSED_QC, "4C", 1.0,
     "4♣ can be covered for certain: West holds the Q♣ you passed and is still to play.",
     "Seguro que pueden cubrir 4♣: Oeste tiene la Q♣ que le pasaste y aún no ha jugado."),
    (VOID, "7D", 1.0,
     "7♦ can be covered for certain: 2 higher diamonds are out, with West and East still to play; North, void "
     "in diamonds, may discard on it.",
     "Seguro que pueden cubrir 7♦: quedan 2 diamantes más altos; por jugar: Oeste y Este; Norte, sin diamantes, "
     "puede descartarse."),
]


@pytest.mark.parametrize(("position", "card", "covered", "en", "es"), CASES, ids=["qs", "low-lead", "passed", "void"])
def test_explain_says_what_the_seat_knows(position, card, covered, en, es):
    for lang, said in (("en", en), ("es", es)):
        out = run("--lang", lang, "explain", card, "--position", position, "--json")
        assert out.exit_code == 0, out.stderr
        effect = json.loads(out.stdout)["effect"]
        assert effect["message"] == said
        assert effect["covered"] == covered
    text = run("explain", card, "--position", position).stdout
    assert en in text


def test_the_points_at_stake_are_named_when_a_card_may_win():
    effect = json.loads(run("explain", "5C", "--position", QS_IN_TRICK, "--json").stdout)["effect"]
    assert effect["wins"] is None and effect["stake"] == 13


def test_the_confirmation_at_the_table_is_the_verdict():
    from hearts_cli.repl.table import Table, make_seats

    for lang, said in (("en", CASES[0][3]), ("es", CASES[0][4])):
        shown: list = []
        tb = Table(Game.from_position(QS_IN_TRICK), make_seats(4, 0, None), lang=lang, confirm=True,
                   emit=shown.append)
        tb.handle("5C")
        [confirm] = [ev for ev in shown if ev.kind == "confirm"]
        assert said in confirm.data["text"]


def test_a_lead_of_the_highest_card_out_is_never_covered():
    game = Game.from_position(LOW_LEAD)
    rnd = game.round
    top = max(c for c in rnd.legal_cards() if c.suit == 3)  # seat 0 leads; its highest spade
    out = {c for c in Round.seen_by(rnd.view(0)).view(0).unseen() if c.suit == 3}
    if all(c < top for c in out):
        effect = rnd.why(top).effect
        assert effect.covered == 0 and effect.wins is True
        assert "no higher spade is still out" in rnd.why(top).message("en")


def test_the_first_tricks_forced_two_of_clubs_says_nothing_false():
    rnd = Round.deal(Rules.from_spec("quick"), "K7Q2MXA7", 3)  # no pass: the 2♣ leads at once
    v = rnd.why("2C")
    assert v.effect.wins is False and v.effect.covered == 1
    assert v.message("en") == ("2♣ cannot win the trick: every club still out is higher, and a seat still "
                               "to play must follow with one.")


def _rest_of_trick(rnd: Round, card, rng: random.Random) -> int:
    """The seat that takes the trick when ``card`` is played and the others follow at random."""
    r = rnd.copy()
    r.play(card)
    while r.trick and len(r.trick) < r.players:
        r.play(rng.choice(r.legal_cards()))
    return r.tricks[-1].winner if not r.trick else -1


@pytest.mark.parametrize("preset", ["quick", "omnibus", "kitty", "spot"])
def test_every_certainty_of_a_verdict_holds_against_the_real_hands(preset):
    """Whatever a verdict states as certain is true of the real deal: covered 1, a seat still to
    play holds a higher card of the suit led; covered 0, none does; a card certain to win or not
    to win does so however the others follow. An estimate is strictly between 0 and 1, the
    seen-by round (the seat's view alone) says the same, and the same position the same words;
    every verdict fits two lines of 80 columns in both languages."""
    rules = Rules.from_spec(preset)
    rng = random.Random(7)
    checked = estimates = 0
    for n in range(6):
        game = Game(rules, code_from_number(4000 + n))
        rnd = game.round
        while rnd.phase is Phase.PASS:
            seat = next(s for s in range(rules.players) if rnd.passes[s] is None)
            game.push_pass(list(rnd.hand(seat))[:rules.pass_count], seat=seat)
        while rnd.phase is Phase.PLAY:
            me = rnd.turn
            seen = Round.seen_by(rnd.view(me))
            for card in rnd.legal_cards():
                v = rnd.why(card)
                e = v.effect
                assert v.message("es") == seen.why(card).message("es")
                for lang in ("en", "es"):  # one sentence, two lines at most at 80 columns
                    assert len(textwrap.wrap(v.message(lang), 80)) <= 2, v.message(lang)
                if e.covered is None or e.taker is not None or len(rnd.trick) == rnd.players - 1:
                    continue
                led = (rnd.trick[0] if rnd.trick else card) // 13
                best = max([c for c in [*rnd.trick, card] if c // 13 == led])
                higher = sum(1 << x for x in range(best + 1, led * 13 + 13))
                held = any(rnd.hands[s] & higher for s in e.still)
                if e.covered == 1:
                    assert held
                elif e.covered == 0:
                    assert not held
                else:
                    assert 0.01 <= e.covered <= 0.99
                    estimates += 1
                    verdicts._DEALS.clear()
                    assert rnd.why(card).effect.covered == e.covered
                if e.wins is not None:
                    for _ in range(5):
                        winner = _rest_of_trick(rnd, card, rng)
                        assert (winner == me) is e.wins, (game.position(), card)
                checked += 1
            game.push(rng.choice(rnd.legal_cards()))
            rnd = game.round
    assert checked > 150 and estimates > 15
