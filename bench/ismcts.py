"""Hard against OpenSpiel's ISMCTS Hearts player, in duplicate (resumable).

    .venv/bin/python bench/ismcts.py --deals 100 --jobs 2 --out bench/ismcts_results.jsonl
    .venv/bin/python bench/ismcts.py --summary --out bench/ismcts_results.jsonl

Each deal is played as an OpenSpiel ``hearts`` game and, in lockstep, as an
engine :class:`~hearts_cli.play.round.Round` (a mirror): the same deal, the same
pass direction, the same passes and the same plays. Seats of the ``ismcts``
side are moved by ``pyspiel.ISMCTSBot`` on the OpenSpiel state; seats of the
``hard`` side by our Hard bot, which sees only ``round.view(seat)``. At every
play the two legal sets are checked equal, and at the end the two scores, so
the rule mapping below is verified on every card.

Formats (each deal is played in every arrangement, so luck of the deal cancels):

* ``2v2``: seats H,I,H,I and I,H,I,H (rotating by two more gives the same seats);
* ``1v3``: one Hard seat against three ISMCTS seats, Hard in each of the 4 seats.

A deal's result per format is the mean points per round of each side's seats
over its arrangements; the 95% CI is over deals (1.96 standard errors), for
each side and for the difference (hard minus ismcts; negative is good for Hard).

Rules: our ``quick`` preset, which equals OpenSpiel's hearts with
``pass_cards=true`` (directions: OpenSpiel 1 left, 2 across, 3 right, 0 none;
our Direction.receiver, the same seat numbers and play order),
``no_pts_on_first_trick=true`` (our ``first_trick: no_points``: no hearts and
no Q♠ on the first trick while the hand holds something else),
``can_lead_any_club=false`` (``first_lead: lowest_club``: the 2♣ leads),
``jd_bonus=false`` (``jack_of_diamonds: false``),
``avoid_all_tricks_bonus=false`` (no such rule here),
``must_break_hearts=true`` and ``qs_breaks_hearts=false`` (``hearts_break:
heart``; with ``--preset`` of a rule set whose ``hearts_break`` is
``heart_or_queen`` it is set true), ``can_lead_hearts_instead_of_qs=false``
(a hand of only the Q♠ and hearts must lead the Q♠ before hearts are broken,
as in our engine), and the moon is ``others`` (26 to each other seat) in
both. Other presets are refused unless they map the same way.

Cards: ours are ``13 * suit + rank``, OpenSpiel's ``4 * rank + suit`` (suits
clubs, diamonds, hearts, spades; rank 0 is the two in both). OpenSpiel deals
card ``k`` of its deal actions to seat ``k % 4``; the deal comes from our
game code (``match_code(label, index)``, round index ``index % 4``, so the
direction cycles left, right, across, none).

The pass: OpenSpiel 2.0.2's ISMCTS cannot search the pass phase (its
``ResampleFromInfostate`` crashes the process or leaves unvisited root nodes
there), so ISMCTS's seats pass with Normal's heuristic, and ours as their level
does (Hard: the learned pass since issue 35; ``hard0`` and ``hard35``: Normal's).
Three deals in four pass (the direction cycles with the deal's index); the fourth
measures card play alone.

ISMCTS: ``pyspiel.ISMCTSBot(seed, RandomRolloutEvaluator(1, seed), uct_c,
simulations, max_world_samples=-1, MAX_VISIT_COUNT, False, False)`` (default
``uct_c`` 2.0, 1,000 simulations), a fresh bot per seat and round with a seed
derived from the deal. The seed does not make a run reproducible: OpenSpiel 2.0.2's ISMCTS,
seeded alike on the same position, chose differently in 12 of 18 positions tried (a bot made
afresh for every move did not help), so two runs on the same deals are two samples of its play,
never a pair: compare variants by their intervals, on many deals.

Results go to ``--out`` as JSON lines, one per (deal, format); a rerun skips
what is already there, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import level as bench_level
from bench.tweak import maker
from hearts_cli.bots.match import match_code
from hearts_cli.bots.normal import normal_pass
from hearts_cli.model.cards import CARDS
from hearts_cli.model.codes import seed_for
from hearts_cli.model.rules import Deck, Direction, FirstLead, FirstTrick, HeartsBreak, Moon, Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round

FORMATS = {
    "2v2": [("hard", "ismcts", "hard", "ismcts"), ("ismcts", "hard", "ismcts", "hard")],
    "1v3": [tuple("hard" if s == r else "ismcts" for s in range(4)) for r in range(4)],
}
OS_DIRECTION = {Direction.NONE: 0, Direction.LEFT: 1, Direction.ACROSS: 2, Direction.RIGHT: 3}


def to_os(card: int) -> int:
    return 4 * (card % 13) + card // 13


def from_os(action: int) -> int:
    return 13 * (action % 4) + action // 4


def os_params(rules: Rules) -> dict[str, bool]:
    """OpenSpiel hearts parameters equal to ``rules``; refuses rule sets that differ."""
    expect = {"players": 4, "deck": Deck.REMOVE, "pass_count": 3,
              "first_lead": FirstLead.LOWEST_CLUB, "first_trick": FirstTrick.NO_POINTS,
              "moon": Moon.OTHERS, "jack_of_diamonds": False,
              "spot_hearts": False, "black_maria": False, "queen_penalty": True}
    bad = {k: getattr(rules, k) for k, v in expect.items() if getattr(rules, k) != v}
    if bad or rules.hearts_break is HeartsBreak.FREE or rules.removed:
        raise SystemExit(f"these rules have no OpenSpiel equivalent: {bad or rules.hearts_break}")
    return {
        "pass_cards": rules.pass_cycle != (Direction.NONE,),
        "no_pts_on_first_trick": True,
        "can_lead_any_club": False,
        "jd_bonus": False,
        "avoid_all_tricks_bonus": False,
        "must_break_hearts": True,
        "qs_breaks_hearts": rules.hearts_break is HeartsBreak.HEART_OR_QUEEN,
        "can_lead_hearts_instead_of_qs": False,
    }


def play_round(rules: Rules, code: str, round_index: int, sides: tuple[str, ...],
               sims: int, uct_c: float, hard_sims: int | None, salt: str, level: str = "hard",
               sets: tuple[str, ...] = ()) -> dict:
    import pyspiel

    game = pyspiel.load_game("hearts", os_params(rules))
    rnd = Round.deal(rules, code, round_index)
    st = game.new_initial_state()
    st.apply_action(OS_DIRECTION[rnd.direction])
    hands = [list(rnd.hand(s)) for s in range(4)]
    for i in range(rules.hand_size):
        for s in range(4):
            st.apply_action(to_os(hands[s][i]))
    make = maker(sets)
    hard = {s: make(bench_level(level), seed_for(code, "cpu", round_index, s), hard_sims)
            for s in range(4) if sides[s] == "hard"}
    ismcts = {}
    for s in range(4):
        if sides[s] == "ismcts":
            seed = seed_for(code, "ismcts", round_index, salt, s) & 0x7FFFFFFF
            ismcts[s] = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), uct_c, sims,
                                          -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                          False, False)
    if rnd.phase is Phase.PASS:
        chosen = {}
        for s in range(4):
            view = rnd.view(s)
            chosen[s] = hard[s].choose_pass(view) if s in hard else normal_pass(view)
        for s in range(4):  # OpenSpiel takes the passes seat by seat, one card at a time
            for c in chosen[s]:
                st.apply_action(to_os(c))
            rnd.pass_cards(chosen[s], s)
    times = {"hard": [], "ismcts": []}
    while rnd.phase is Phase.PLAY:
        s = rnd.turn
        assert st.current_player() == s, (st.current_player(), s)
        legal = st.legal_actions()
        assert sorted(legal) == sorted(to_os(c) for c in rnd.legal_cards()), "rules differ"
        t0 = time.process_time()
        if s in hard:
            card = int(hard[s].choose_card(rnd.view(s)))
            times["hard"].append(time.process_time() - t0)
        else:
            card = from_os(ismcts[s].step(st))
            times["ismcts"].append(time.process_time() - t0)
        rnd.play(CARDS[card])
        st.apply_action(to_os(card))
    assert st.is_terminal()
    scores = list(rnd.result.scores)
    os_points = [26 - r for r in st.returns()]
    assert [round(x) for x in os_points] == scores, (os_points, scores)
    return {"scores": scores, "times": times}


def play_deal(args) -> dict:
    preset, index, fmt, sims, uct_c, hard_sims, label, level, sets = args
    rules = Rules.from_spec(preset)
    code = match_code(label, index)
    round_index = index % len(rules.pass_cycle)
    sums = {"hard": 0.0, "ismcts": 0.0}
    counts = {"hard": 0, "ismcts": 0}
    times = {"hard": [], "ismcts": []}
    rounds = []  # each arrangement's scores, seat by seat (where the points went: moons, the Q♠)
    for a, sides in enumerate(FORMATS[fmt]):
        r = play_round(rules, code, round_index, sides, sims, uct_c, hard_sims, f"{fmt}/{a}", level, sets)
        rounds.append(r["scores"])
        for s, side in enumerate(sides):
            sums[side] += r["scores"][s]
            counts[side] += 1
        for k, ts in r["times"].items():
            times[k] += ts
    return {"deal": index, "format": fmt, "preset": preset, "sims": sims, "uct_c": uct_c,
            "hard_sims": hard_sims, "label": label, "level": level, "sets": list(sets),
            "hard": sums["hard"] / counts["hard"], "ismcts": sums["ismcts"] / counts["ismcts"],
            "rounds": rounds,
            "hard_ms": [round(1000 * t, 2) for t in times["hard"]],
            "ismcts_ms": [round(1000 * t, 2) for t in times["ismcts"]]}


def _ci(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(len(xs))


def _ratio_ci(hs: list[float], js: list[float]) -> float:
    """The 95% half-width of mean(hs) / mean(js) over deals (the delta method)."""
    n = len(hs)
    if n < 2 or not statistics.fmean(js):
        return float("nan")
    h, j = statistics.fmean(hs), statistics.fmean(js)
    r = h / j
    var = statistics.variance([a - r * b for a, b in zip(hs, js)]) / (j * j)
    return 1.96 * math.sqrt(var / n)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))] if xs else 0.0


def summary(rows: list[dict]) -> str:
    out = []
    for fmt, arrangements in FORMATS.items():
        rs = [r for r in rows if r["format"] == fmt]
        if not rs:
            continue
        h, hc = _ci([r["hard"] for r in rs])
        i, ic = _ci([r["ismcts"] for r in rs])
        d, dc = _ci([r["hard"] - r["ismcts"] for r in rs])
        rc = _ratio_ci([r["hard"] for r in rs], [r["ismcts"] for r in rs])
        hm = [t for r in rs for t in r["hard_ms"]]
        im = [t for r in rs for t in r["ismcts_ms"]]
        out.append(f"{fmt}: {len(rs)} deals x {len(arrangements)} arrangements | "
                   f"hard {h:.2f} ±{hc:.2f}  ismcts {i:.2f} ±{ic:.2f}  "
                   f"difference {d:+.2f} ±{dc:.2f}  ratio {h / i if i else float('nan'):.3f} ±{rc:.3f} | "
                   f"cpu ms/decision median hard {_pct(hm, .5):.0f} ismcts {_pct(im, .5):.0f}, "
                   f"p95 hard {_pct(hm, .95):.0f} ismcts {_pct(im, .95):.0f}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--start", type=int, default=0, help="first deal index")
    ap.add_argument("--formats", default="2v2,1v3")
    ap.add_argument("--preset", default="quick")
    ap.add_argument("--simulations", type=int, default=1000, help="ISMCTS simulations per move")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--hard-simulations", type=int, default=None, help="Hard's budget (default: its own)")
    ap.add_argument("--label", default="ismcts", help="names the deal codes")
    ap.add_argument("--level", default="hard",
                    help="our side's level: hard, a bench short name (hard0, hard35: the frozen Hards, "
                         "for a baseline on the same deals) or a hook (module:Class)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="a switch of Hard changed for this run (repeatable; bench/tweak.py)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="bench/ismcts_results.jsonl")
    ap.add_argument("--summary", action="store_true", help="only print the summary of --out")
    a = ap.parse_args(argv)
    out = Path(a.out)
    rows = [json.loads(x) for x in out.read_text().splitlines() if x.strip()] if out.exists() else []
    sets = tuple(sorted(a.set))
    maker(sets)  # refuse a switch that does not exist before any deal is played
    key = (a.preset, a.simulations, a.uct_c, a.hard_simulations, a.label, a.level, sets)
    rows = [r for r in rows if (r["preset"], r["sims"], r["uct_c"], r["hard_sims"], r["label"],
                                r.get("level", "hard"), tuple(r.get("sets", ()))) == key]
    first: dict[tuple[int, str], dict] = {}
    for r in rows:  # two runs that wrote the same deal at once: its first result counts
        first.setdefault((r["deal"], r["format"]), r)
    rows = list(first.values())
    if a.summary:
        print(summary(rows))
        return 0
    os_params(Rules.from_spec(a.preset))  # refuse early
    done = {(r["deal"], r["format"]) for r in rows}
    todo = [(a.preset, i, f, a.simulations, a.uct_c, a.hard_simulations, a.label, a.level, sets)
            for i in range(a.start, a.start + a.deals) for f in a.formats.split(",")
            if (i, f) not in done]
    print(f"{len(todo)} (deal, format) pairs to play, {len(done)} already in {out}", flush=True)
    t0 = time.perf_counter()
    with out.open("a") as fh:
        def record(row: dict) -> None:
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            rows.append(row)
            print(f"[{time.perf_counter() - t0:7.0f} s] deal {row['deal']} {row['format']}: "
                  f"hard {row['hard']:.2f} ismcts {row['ismcts']:.2f}", flush=True)
        if a.jobs > 1:
            with ProcessPoolExecutor(a.jobs) as ex:
                for fut in as_completed([ex.submit(play_deal, t) for t in todo]):
                    record(fut.result())
        else:
            for t in todo:
                record(play_deal(t))
    print(summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
