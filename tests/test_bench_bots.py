"""The bench's bots (bench/bots): yardsticks and experiments, reached through the level hook.

They are not in the product: the table, the protocol and ``hearts new`` refuse them; ``hearts
sim`` and the bench scripts take them as ``module:Class`` or ``path.py:Class``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_bots import QUICK, deal_rest, play_script

from hearts_cli.bots import LEVELS, LevelError, check_level, level_class, make_bot, suggest
from hearts_cli.bots.common import public
from hearts_cli.bots.hard import HardBot
from hearts_cli.model.cards import SUIT_MASKS, Card, parse_cards
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import load_preset
from hearts_cli.play.dealt import Phase
from hearts_cli.play.knowledge import knowledge
from hearts_cli.play.round import Round
from hearts_cli.play.sampling import Sampler, constraints

ROOT = Path(__file__).resolve().parent.parent
HIGH, SHOOT, HARD0 = "bench.bots.exploit:HighBot", "bench.bots.exploit:ShootBot", "bench.bots.hard0:Hard0Bot"
BENCH = (HIGH, SHOOT, HARD0, "bench.bots.belief:BeliefHard")


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
    for name in ("hard0", "high", "shoot", *BENCH):
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



def _hard0_round(rules, code, round_index, simulations=20):
    """Four hard0 seats play one round: the passes, every card, the scores."""
    rnd = Round.deal(rules, code, round_index)
    bots = [make_bot(HARD0, seed_for(code, "cpu", s), simulations) for s in range(rules.players)]
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
