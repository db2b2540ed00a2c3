"""The bench's bots (bench/bots): yardsticks and experiments, reached through the level hook.

They are not in the product: the table, the protocol and ``hearts new`` refuse them; ``hearts
sim`` and the bench scripts take them as ``module:Class`` or ``path.py:Class``.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from test_bots import QUICK, deal_rest, hard_round_cards, play_script

from hearts_cli.bots import LEVELS, LevelError, check_level, level_class, make_bot, suggest
from hearts_cli.bots.common import public
from hearts_cli.bots.hard import HardBot
from hearts_cli.model.cards import CARDS, SUIT_MASKS, Card, parse_cards
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import load_preset, preset_names
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.knowledge import knowledge
from hearts_cli.play.round import Round
from hearts_cli.play.sampling import Sampler, constraints

ROOT = Path(__file__).resolve().parent.parent
HIGH, SHOOT, HARD0 = "bench.bots.exploit:HighBot", "bench.bots.exploit:ShootBot", "bench.bots.hard0:Hard0Bot"
HARD35 = "bench.bots.hard35:Hard35Bot"
BENCH = (HIGH, SHOOT, HARD0, HARD35, "bench.bots.belief:BeliefHard")


def test_the_hook_loads_a_bench_bot_by_module_or_by_path_as_one_class():
    by_path = level_class(f"{ROOT / 'bench' / 'bots' / 'hard0.py'}:Hard0Bot")
    assert by_path is level_class(HARD0) and by_path.__module__ == "bench.bots.hard0"
    for name in BENCH:
        bot = make_bot(name, 1, 4)
        assert callable(bot.choose_pass) and callable(bot.choose_card)
        assert check_level(f" {name} ", hook=True) == name


@pytest.mark.parametrize("name", ["bench.bots.nothing:Bot", "bench.bots.hard0:Nothing", "bench/bots/none.py:X",
                                  "os:path", "bench.bots.hard0:DEFAULT_SIMULATIONS", ":", "hard0"])
def test_a_hook_that_does_not_load_a_bot_class_is_one_sentence(name):
    with pytest.raises(LevelError) as e:
        check_level(name, hook=True)
    for lang in ("en", "es"):
        sentence = e.value.message(lang)
        assert name in sentence and all(level in sentence for level in LEVELS)
        assert "Class" in sentence or "Clase" in sentence


def test_bench_bots_are_for_sim_not_the_table(tmp_path, monkeypatch):
    import io

    from typer.testing import CliRunner

    from hearts_cli.cli.app import app
    from hearts_cli.cli.protocol import Session
    from hearts_cli.repl import start as repl
    from hearts_cli.repl.new_game import NewGame

    monkeypatch.setenv("HEARTS_HOME", str(tmp_path))
    session = Session(lang="en")
    assert session.handle({"cmd": "hello"})["levels"] == list(LEVELS)
    session.handle({"cmd": "position", "code": "K7Q2MXA7"})
    for name in ("hard0", "hard35", "high", "shoot", *BENCH):
        result = CliRunner().invoke(app, ["new", "--level", name, "--no-play"])
        assert result.exit_code == 2 and f"'{name}' is not a CPU level" in result.stderr
        with pytest.raises(LevelError):
            repl.start_new(NewGame.of(level=name), play=False, lang="en", stdin=io.StringIO(""), stdout=io.StringIO())
        assert session.handle({"cmd": "go", "level": name})["error"]["code"] == "bad_field"


def test_high_passes_its_lowest_and_plays_its_highest():
    hands = deal_rest(QUICK, {0: "AS KH QD JC 2C 3C 4C 5C 6C 7D 8D 2D 2H"})
    rnd = Round(QUICK, hands, direction="left")
    assert set(suggest(rnd.view(0), HIGH, 1)) == set(parse_cards(["2C", "2D", "2H"]))
    rnd = Round(QUICK, hands, direction="none")
    assert suggest(rnd.view(0), HIGH, 1) == Card("2C")  # the only legal lead
    rnd.play("2C")
    for _ in range(3):
        s = rnd.turn
        assert suggest(rnd.view(s), HIGH, 1) == max(rnd.legal_cards(), key=lambda c: (c.rank, c))
        rnd.play(suggest(rnd.view(s), HIGH, 1))


def test_shoot_runs_for_the_moon_until_another_seat_takes_a_point():
    """On real deals: while nobody else holds a penalty card the shooter leads its highest card,
    wins every trick it can and discards no point; after that it plays exactly like Normal."""
    running = fallen = 0
    for code in ("WQA4PK0R", "TDEB3825", "98X7174K", "D35H1EDY"):
        for round_index in range(4):
            rnd = Round.deal(QUICK, code, round_index)
            if rnd.phase is Phase.PASS:
                for s in range(4):
                    rnd.pass_cards(suggest(rnd.view(s), SHOOT if s == 0 else "normal", 1), s)
            while rnd.phase is Phase.PLAY:
                s = rnd.turn
                view = rnd.view(s)
                if s != 0:
                    rnd.play(suggest(view, "normal", 1))
                    continue
                card = suggest(view, SHOOT, 1)
                pen = QUICK.penalty_mask
                if any(rnd.taken[x] & pen for x in (1, 2, 3)):
                    assert card == suggest(view, "normal", 1)
                    fallen += 1
                elif not view.trick:
                    assert card.rank == max(c.rank for c in view.legal)
                    running += 1
                else:
                    led = view.trick[0].suit
                    follow = [c for c in view.legal if c.suit == led]
                    best = max(c for c in view.trick if c.suit == led)
                    if follow and max(follow) > best:
                        assert card == max(follow)
                    elif not follow and any(not pen >> c & 1 for c in view.legal):
                        assert not pen >> card & 1
                    running += 1
                rnd.play(card)
    assert running > 30 and fallen > 30



def _hard0_round(rules, code, round_index, simulations=20, level=HARD0, before=None, runner=-1):
    """Four hard0 seats (or ``level``'s; ShootBot at ``runner``) play one round from the totals
    ``before``: the passes, every card, the scores."""
    rnd = Round.deal(rules, code, round_index, scores=before)
    bots = [make_bot(SHOOT if s == runner else level, seed_for(code, "cpu", s), simulations)
            for s in range(rules.players)]
    passes = []
    if rnd.phase is Phase.PASS:
        for s, bot in enumerate(bots):
            passes.append(" ".join(str(c) for c in bot.choose_pass(rnd.view(s))))
            rnd.pass_cards(passes[-1].split(), s)
    plays = []
    while rnd.phase is Phase.PLAY:
        card = bots[rnd.turn].choose_card(rnd.view(rnd.turn))
        plays.append(str(card))
        rnd.play(card)
    return passes, " ".join(plays), rnd.result.scores


# Hard of commit e5eee52 (2026-12-01) on these two rounds, 20 deals a decision, recorded then
HARD0_GAMES = (
    ("quick", "K7Q2MXA7", 0, ['2D 3D TH', '7C KC AS', '7D QH AH', '5C JC KS'],
     "2C 5S TC JD 4S 2S 8S TH 7H 2H 6H 3H AC KH 4C 4H 9S KD 7S 3S KS 2D QS 6S TS 3D JS "
     "QH 8H 5H 8C 4D JH 9H 3C 5D 6C 7D 9C 6D 5C 8D 7C 9D KC QD JC TD AS AH QC AD",
     (20, 0, 6, 0)),
    ("standard", "WQA4PK0R", 2, ['2D QD KS', '4C TC QC', '3C KC AS', 'AC 4D AD'],
     "2C AC KS 4C 3D 5D 3S 6H 3H 2H AH 4H 3C KD 9H 9C 7H 9S 5H QH 2D TC 7C AD 4D 8D QS "
     "8C 6D 8H AS 7D TH KH QC 6S 9D 6C 5C JH TD 4S JC 7S JD 5S KC TS QD 8S 2S JS",
     (4, 1, 20, 1)),
)


@pytest.mark.slow  # whole rounds of the frozen Hard: seconds
def test_hard0_is_frozen_deterministic_and_not_at_the_table():
    """hard0 is the yardstick for a stronger Hard: it must play exactly as Hard did on
    2026-12-01 (whatever hard.py, playout.py or sampling.py become), the same way every
    time, and only for sim and bench/."""
    assert "hard0" not in LEVELS
    for preset, code, round_index, passes, plays, scores in HARD0_GAMES:
        rules = load_preset(preset)
        first = _hard0_round(rules, code, round_index)
        assert first == (list(passes), plays, scores), (preset, code)
        assert _hard0_round(rules, code, round_index) == first


def test_believed_deals_take_the_queen_from_a_seat_that_did_not_dump_her():
    """A seat void in clubs that threw the A♥ on a club trick, rather than the Q♠ (what the
    playout policy does with her), is believed to hold her less often than a uniform draw says."""
    from bench.bots.belief import believed_deals

    miss = 0.5  # as measured (docs/bots.md)

    hands = [parse_cards(h.split()) for h in (
        "2C 3C 4C 5C 6C 7D 8D 9D TD 8H 9H TH 4S",
        "2D 3D 4D 5D 6D 2H 3H 4H 5H 6H AH 2S 3S",
        "AC KC QC JC TC 9C JD QD KD JH QH KH 5S",
        "7C 8C AD 7H QS KS AS 6S 7S 8S 9S TS JS")]
    rnd = Round(QUICK, hands, direction="none")
    play_script(rnd, "2C 2D AC 7C KC 8C 3C AH")  # seat 1 is void in clubs and throws the A♥
    view = rnd.view(0)
    pub = public(view)
    con = constraints(knowledge(view))
    i = con.holders.index(1)

    def queen_share(spread: int) -> float:
        deals = believed_deals(view, pub, con, Sampler(con), random.Random(3), 600, spread, miss)
        for d in deals:  # each still a deal consistent with the view
            assert [m.bit_count() for m in d] == [pub.counts[h] for h in con.holders]
            assert not d[i] & SUIT_MASKS[0]
        return sum(d[i] >> Card("QS") & 1 for d in deals) / len(deals)

    uniform, believed = queen_share(1), queen_share(3)  # 3: as measured (docs/bots.md)
    assert 0.3 < uniform < 0.45  # about her share of the unseen cards
    assert believed < uniform - 0.07


@pytest.mark.slow  # whole rounds of Hard, twice: seconds
def test_hard_with_believed_deals_plays_whole_rounds_the_same_way_twice():
    """Belief sampling (bench/bots/belief.py, off in Hard): Hard still plays legal cards,
    deterministically, and not the same round as without it."""
    from bench.bots.belief import BeliefHard

    def round_cards(believe: bool = True) -> list[Card]:
        rnd = Round.deal(QUICK, "K7Q2MXA7", 1)
        bots = [BeliefHard(s, 10) if believe else HardBot(s, 10) for s in range(4)]
        for s in range(4):
            rnd.pass_cards(bots[s].choose_pass(rnd.view(s)), s)
        out = []
        while rnd.phase is Phase.PLAY:
            out.append(bots[rnd.turn].choose_card(rnd.view(rnd.turn)))
            rnd.play(out[-1])  # checked: an illegal card raises
        return out

    assert round_cards() == round_cards()
    assert round_cards() != round_cards(believe=False)  # the deals searched are drawn otherwise


def test_bench_set_names_a_switch_of_hard_and_builds_the_bot_with_it():
    """`--set` of the bench scripts (bench/tweak.py) gives Hard explicit parameters: the old
    module-constant spellings still name the same switches, a typo is refused, and only the
    `hard` seats are tuned."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import tweak

    from hearts_cli.bots.hard import PLAYED

    tuned = tweak.tuning(["hard.BELIEF_SPREAD=3", "playout.FLUSH=1", "endgame_cards=8"])
    assert tuned.flush is True and tuned.endgame_cards == 8 and tuned.draw is not None
    assert tweak.tuning([]) == PLAYED and tweak.maker([]) is make_bot
    with pytest.raises(SystemExit):
        tweak.tuning(["hard.NOPE=1"])
    make = tweak.maker(["flush=1"])
    hard, normal = make("hard", 1, 4), make("normal", 1, None)
    assert isinstance(hard, HardBot) and hard.tuning.flush and type(normal).__name__ == "NormalBot"


# ------------------------------------------------------------------ hard35: Hard as issue 35 found it, frozen

# (preset, code, round, totals before it, a seat that runs for the moon (ShootBot) or -1): whole rounds with
# passing (and without: a kitty's, shooter-minus's fourth), rounds that can end the game, moons to stop
HARD35_ROUNDS = (
    ("quick", "K7Q2MXA7", 0, None, -1), ("quick", "WQA4PK0R", 1, (30, 12, 22, 8), 2),
    ("quick", "TDEB3825", 2, (10, 35, 20, 40), 1), ("quick", "98X7174K", 3, (25, 20, 5, 33), 0),
    ("quick", "D35H1EDY", 0, (40, 26, 31, 12), -1), ("quick", "TDEB3825", 1, None, 3),
    ("no-moon", "98X7174K", 0, None, -1), ("no-moon", "K7Q2MXA7", 2, (90, 50, 60, 85), -1),
    ("omnibus", "D35H1EDY", 1, (60, 80, 40, 75), 3), ("omnibus", "WQA4PK0R", 0, None, -1),
    ("kitty", "K7Q2MXA7", 0, (70, 50, 20), 1), ("kitty", "D35H1EDY", 1, None, -1),
    ("kitty", "98X7174K", 0, (20, 85, 40), -1),
    ("black-maria", "WQA4PK0R", 0, None, 2), ("black-maria", "TDEB3825", 1, (75, 30, 88), -1),
    ("spot", "K7Q2MXA7", 1, None, -1), ("spot", "98X7174K", 0, (70, 95, 60, 20), 0),
    ("shooter-minus", "TDEB3825", 3, (80, 60, 90, 40), 0), ("shooter-minus", "WQA4PK0R", 0, None, -1),
    ("standard", "D35H1EDY", 0, None, 1), ("standard", "K7Q2MXA7", 1, (85, 92, 70, 78), -1),
)


def _filed_hard():
    """Today's Hard with the switches of the Hard issue 35 found: Normal's pass, the round's value,
    the heuristic playouts."""
    import dataclasses

    from hearts_cli.bots.hard import PLAYED

    return dataclasses.replace(PLAYED, learned_pass=False, standings=0.0, learned_play=False)


def _same_reading(hard35, view):
    """hard35 reads ``view`` as today's Hard does: candidates, moon plans and guards."""
    from hearts_cli.bots import hard

    pub = public(view)
    cands = hard35.distinct_candidates(pub)
    assert cands == hard.distinct_candidates(pub)
    assert hard35._moon_plausible(pub) == hard._moon_plausible(pub)
    assert hard35.moon_seat(view, pub) == hard.moon_seat(view, pub)
    assert hard35.moon_suspect(view, pub) == hard.moon_suspect(view, pub)
    for c in cands:
        assert hard35.gives_up_stopper(pub, c) == hard.gives_up_stopper(pub, c)
        for shooter in range(view.rules.players):
            assert hard35.sure_stop(pub, view.voids, shooter, c) == hard.sure_stop(pub, view.voids, shooter, c)


@pytest.mark.slow  # whole rounds of Hard, two bots a seat: seconds
def test_hard35_chooses_every_pass_and_card_as_hard_with_the_switches_of_issue_35():
    """The frozen copy is faithful today: on whole rounds of eight rule sets (passing, a kitty, the
    J♦, Black Maria, Spot Hearts, the shooter's minus, no moon; rounds that can end the game; a seat
    running for the moon), hard35 and today's Hard with ``learned_pass=False, standings=0.0`` pass
    the same cards and play the same card at every decision, and draw the same deals.

    When Hard changes on purpose (its code with those switches off no longer the Hard of issue
    35), this test is what stops holding; ``test_hard35_is_frozen_deterministic_and_not_at_the_table``
    still does."""
    from bench.bots import hard35

    tuning = _filed_hard()
    sims = 8
    passes = cards = searched = 0
    for preset, code, round_index, before, runner in HARD35_ROUNDS:
        rules = load_preset(preset)
        rnd = Round.deal(rules, code, round_index, scores=before)
        seeds = [seed_for(code, "cpu", s) for s in range(rules.players)]
        frozen = [hard35.Hard35Bot(seed, sims) for seed in seeds]
        live = [HardBot(seed, sims, tuning=tuning) for seed in seeds]
        shooter = make_bot(SHOOT, 1)
        if rnd.phase is Phase.PASS:
            for s in range(rules.players):
                view = rnd.view(s)
                if s == runner:
                    rnd.pass_cards(shooter.choose_pass(view), s)
                    continue
                chosen = frozen[s].choose_pass(view)
                assert chosen == live[s].choose_pass(view), (preset, code, round_index, s)
                rnd.pass_cards(chosen, s)
                passes += 1
        while rnd.phase is Phase.PLAY:
            s = rnd.turn
            view = rnd.view(s)
            if s == runner:
                rnd.play(shooter.choose_card(view))
                continue
            card = frozen[s].choose_card(view)
            assert card == live[s].choose_card(view), (preset, code, round_index, view.position())
            if len(view.legal) > 1:
                searched += 1
                _same_reading(hard35, view)
                con, live_con = hard35.constraints(knowledge(view)), constraints(knowledge(view))
                assert (con.holders, con.need, con.allowed, con.fixed, con.free) == \
                    (live_con.holders, live_con.need, live_con.allowed, live_con.fixed, live_con.free)
                for tries in (40, 1):  # (1: the matching when the first try fails)
                    a, b = random.Random(cards), random.Random(cards)
                    mine, theirs = hard35.Sampler(con, tries), Sampler(live_con, tries)
                    assert [mine.sample(a) for _ in range(3)] == [theirs.sample(b) for _ in range(3)]
            rnd.play(card)
            cards += 1
    assert passes >= 50 and cards >= 900 and searched >= 700, (passes, cards, searched)


def test_hard35s_pieces_are_todays_on_random_deals():
    """The pieces of hard35, one by one, on random deals of every one-deck rule set: Normal's pass,
    the playout policy card by card (a shooter, a threat, a suspect given or not), the endgame
    search, and the value of a round (one that can end the game, another seat's moon)."""
    from bench.bots import hard35
    from hearts_cli.bots import hard, normal, playout

    rng = random.Random(35)
    for preset in preset_names():
        rules = load_preset(preset)
        if rules.decks > 1:
            continue
        n = rules.players
        facts = rules.facts
        low = [CARDS[c] for c in range(52) if rules.in_play_mask >> c & 1 and (c % 13 < 7 or c // 13 == 3)]
        for _ in range(300):  # the heuristic card, every branch, on random arguments
            hand = fast.deal(rules, rng)[0][0]
            legal = hand & rng.choice((-1, *SUIT_MASKS))
            legal = legal or hand
            legal &= rng.getrandbits(52) | (legal & -legal)
            trick = rng.sample([c for c in range(52) if not hand >> c & 1], rng.randrange(n))
            win = max((c for c in trick if c // 13 == trick[0] // 13), default=-1)
            args = (rng.randrange(n), hand, legal, trick, win, rng.randrange(n) if trick else -1,
                    rng.randrange(2), rng.randrange(-1, n))
            assert hard35.choose(facts, *args) == playout.choose(facts, *args), (preset, args)
            args = (rng.randrange(n), rng.getrandbits(52) & rules.in_play_mask or hand, rng.randrange(-1, n),
                    rng.randrange(2), rng.randrange(-1, n))
            assert hard35.discard(facts, *args) == playout.discard(facts, *args), (preset, args)
            for cards in ([CARDS[c] for c in range(52) if hand >> c & 1], sorted(rng.sample(low, rules.hand_size))):
                # Normal's pass of the hand, and of a hand of low cards and spades (its last choices)
                assert hard35.normal_pass(SimpleNamespace(rules=rules, hand=cards)) == normal.hand_pass(rules, cards)
        for deal in range(6):
            hands, kitty = fast.deal(rules, rng)
            if kitty and deal % 2:  # the lowest club in the kitty: the lowest-club lead tells it
                club = min(c for c in range(13) if rules.in_play_mask >> c & 1)
                h = next(s for s in range(n) if hands[s] >> club & 1) if not kitty >> club & 1 else -1
                if h >= 0:
                    k = kitty & -kitty
                    hands[h] = hands[h] & ~(1 << club) | k
                    kitty = kitty & ~k | 1 << club
                first = Round(rules, [[CARDS[c] for c in range(52) if m >> c & 1] for m in hands],
                              kitty=[CARDS[c] for c in range(52) if kitty >> c & 1], direction="none")
                for _ in range(n):
                    view = first.view(first.turn)
                    con, live = hard35.constraints(knowledge(view)), constraints(knowledge(view))
                    assert (con.holders, con.need, con.allowed, con.fixed, con.free) == \
                        (live.holders, live.need, live.allowed, live.fixed, live.free), preset
                    first.play(max(view.legal))
            rnd = Round(rules, [[CARDS[c] for c in range(52) if h >> c & 1] for h in hands],
                        kitty=[CARDS[c] for c in range(52) if kitty >> c & 1], direction="left")
            for s in range(n):
                assert hard35.normal_pass(rnd.view(s)) == normal.normal_pass(rnd.view(s)), preset
            before = tuple(rng.randrange(rules.target) for _ in range(n))
            start = fast.Position.start(rules, hands, kitty=kitty, scores=before)
            args = (rng.randrange(-1, n), rng.randrange(-1, n), rng.randrange(-1, n))
            seed = rng.getrandbits(32)
            plays = []
            for policy in (hard35.make_policy(rules.facts, random.Random(seed), 0.1, *args),
                           playout.make_policy(rules.facts, random.Random(seed), 0.1, *args, False)):
                seen: list[int] = []

                def step(legal, seat, win_card, win_seat, pos, policy=policy, seen=seen):
                    seen.append(policy(legal, seat, win_card, win_seat, pos))
                    return seen[-1]

                plays.append((fast.playout_steps(start.copy(), step), seen))
            assert plays[0] == plays[1], (preset, args)
            end = start.copy()  # the last cards, to the endgame search
            for c in plays[0][1][:len(plays[0][1]) - rng.randrange(3, 3 * n)]:
                end.play(c)
            legal = end.legal_mask()
            cands = [c for c in range(52) if legal >> c & 1]
            if not end.first_trick:
                assert hard35.solve(rules.facts, end, cands) == playout.solve(rules.facts, end, cands), preset
            for _ in range(20):
                scores = [rng.choice((0, 0, 1, 2, 5, 13, 26, -10, rules.penalty_total)) for _ in range(n)]
                me, ending, moon = rng.randrange(n), rng.random() < 0.5, rng.random() < 0.3
                assert hard35._value(scores, me, before, rules.target, ending, moon) == \
                    hard._value(scores, me, before, rules.target, ending, moon, 0.0)


# hard35 on two rounds, 20 deals a decision, a ShootBot at the runner's seat, recorded on 2026-12-06 (as
# Hard with learned_pass=False, standings=0.0 played them then, and Hard of 963fd9a): hard0 lets the
# Spot Hearts moon through (0, 117, 117, 117) and ends the quick one (3, 23, 0, 0); today's Hard plays
# both otherwise
HARD35_GAMES = (  # (preset, code, round, totals before, runner, passes, plays, scores)
    ("spot", "98X7174K", 0, (70, 95, 60, 20), 0, ["3C 3D 5H", "7H KH QS", "KC TH QH", "8H 9H KS"],
     "2C 4C KC 6C AD KD QD JD TD 6S 8D 6D 8S AS TS QS KS 2D 2S 4S JS 3C 3S 5S 9S 5H KH 5D AH 9D 2H TH "
     "JH 5C 7H QH 7C 9H 8C QC 3H TC 6H 9C 7S 3D 7D JC 8H 4D 4H AC",
     (78, 0, 9, 30)),
    ("quick", "TDEB3825", 2, (10, 35, 20, 40), 1, ["QC 8D 9D", "3D 5D 3H", "6C JC KH", "AD TH AS"],
     "2C AC QC TC AS TS 7S 8S AD 6D KD 3S KC QH 4C 9C AH 7H 3H 2H QD 8D 3D JS JH QS 4H KH 5H 8H 9D 6H "
     "8C TD 5C 3C 9S 5S 2S 4S 9H 2D 4D 6C TH 6S 5D 7C JD KS 7D JC",
     (16, 10, 0, 0)),
)


@pytest.mark.slow  # whole rounds of the frozen Hard: seconds
def test_hard35_is_frozen_deterministic_and_not_at_the_table():
    """hard35 plays exactly as Hard did when issue 35 was filed, whatever hard.py, playout.py,
    sampling.py or normal.py become, the same way every time, and only for sim and bench/."""
    assert "hard35" not in LEVELS
    for preset, code, round_index, before, runner, passes, plays, scores in HARD35_GAMES:
        rules = load_preset(preset)
        first = _hard0_round(rules, code, round_index, level=HARD35, before=before, runner=runner)
        assert first == (list(passes), plays, scores), (preset, code)
        assert _hard0_round(rules, code, round_index, level=HARD35, before=before, runner=runner) == first


def test_the_imitation_bots_are_hard_with_the_learned_or_the_heuristic_playouts():
    """``hardi`` (the learned policy of a weights file; the shipped one by default) plays the cards
    of Hard with the learned playouts, and ``hardh`` those of Hard playing out the heuristic."""
    from bench.bots.imitate import HeuristicHard, ImitateHard
    from hearts_cli.bots.hard import Tuning

    def cards(make) -> list[Card]:
        return hard_round_cards(None, make=make)

    learned = cards(lambda s: HardBot(s, 10, tuning=Tuning(learned_play=True)))
    assert cards(lambda s: ImitateHard(s, 10)) == learned
    heuristic = cards(lambda s: HeuristicHard(s, 10))
    assert heuristic == cards(lambda s: HardBot(s, 10, tuning=Tuning(learned_play=False))) != learned


def _recording(name, maker, calls):
    def make(*args):
        inner = maker(*args)

        def policy(legal, seat, win_card, win_seat, pos):
            calls.append((name, seat))
            return inner(legal, seat, win_card, win_seat, pos)
        return policy
    return make


def test_the_opponent_model_bots_route_each_seat_of_a_playout_to_its_policy():
    """``hardo`` plays out its own seat with the learned policy and the others with the
    heuristic; ``hardm`` gives each seat of a playout one of the two, drawn from the playout's
    random stream (the same playout twice is the same)."""
    from bench.bots.imitate import MixedHard, OwnLearnedHard, own_seat
    from hearts_cli.bots.hard import Tuning
    from hearts_cli.bots.learned_play import mixed_policy, shipped_policy
    from hearts_cli.bots.playout import make_policy

    start = fast.Position.start(QUICK, fast.deal(QUICK, random.Random(5))[0])
    calls: list[tuple[str, int]] = []
    own = own_seat(_recording("learned", shipped_policy(), calls), _recording("heuristic", make_policy, calls), 2)
    fast.playout_steps(start.copy(), own(QUICK.facts, random.Random(1)))
    assert {s for n, s in calls if n == "learned"} == {2} and {s for n, s in calls if n == "heuristic"} == {0, 1, 3}
    seen = []
    for r in range(20):
        calls.clear()
        both = mixed_policy(_recording("learned", shipped_policy(), calls),
                            _recording("heuristic", make_policy, calls), 0.5)
        scores = fast.playout_steps(start.copy(), both(QUICK.facts, random.Random(r)))
        learned = frozenset(s for n, s in calls if n == "learned")
        assert not learned & {s for n, s in calls if n == "heuristic"}  # one policy a seat
        assert scores == fast.playout_steps(start.copy(), both(QUICK.facts, random.Random(r)))
        seen.append(learned)
    assert len(set(seen)) > 2  # the draw changes with the stream
    cards = [hard_round_cards(None, make=lambda s, b=b: b(s, 10)) for b in (OwnLearnedHard, MixedHard)]
    for on in (False, True):  # neither Hard's round (the heuristic's, the learned policy's)
        assert hard_round_cards(Tuning(learned_play=on)) not in cards
