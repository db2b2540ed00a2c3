"""A playout policy learned from Hard's own cards (issue 35, item 1 for play).

    .venv/bin/python -m bench.imitate collect --rounds 2000 --worker 0 --workers 2 --out D/0.jsonl
    .venv/bin/python -m bench.imitate fit D/*.jsonl --out bench/train_runs/imitate/weights.json

Hard values a card by playing the round out with a heuristic policy for every seat
(:func:`hearts_cli.bots.playout.make_policy`); that policy picks the card a Hard really plays
only about half the time (``bench/agree.py``). ``collect`` plays rounds of the ``quick`` rules
with four Hards (deal codes ``match_code("imitate", k)``, passing on) and writes every card
with a real choice: the seat's hand and legal cards, the trick, what has been taken, the moon
threat, Hard's card and the classes of equivalent cards. ``fit`` learns a score for each
legal card (a conditional logit over the legal cards' classes: a linear score over a few
small features of the card and of what the seat knows, each looked up in a table, so a card
costs a few table reads) and prints its agreement with Hard on held-out rounds beside the
heuristic's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import level as bench_level
from hearts_cli.bots import make_bot
from hearts_cli.bots.common import trick_winner
from hearts_cli.bots.hard import equivalent_cards
from hearts_cli.bots.match import match_code
from hearts_cli.bots.playout import threat
from hearts_cli.model.cards import CARDS
from hearts_cli.model.rules import load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round


def collect(rounds: int, worker: int, workers: int, out: Path, level: str = "hard") -> None:
    """Append Hard's choices in rounds ``k`` (``k % workers == worker``) to ``out``, one JSON
    line per card; a round already in ``out`` is not played again (the run resumes)."""
    rules = load_preset("quick")
    facts = rules.facts
    index = {c: i for i, c in enumerate(CARDS)}
    done: set[int] = set()
    if out.exists():
        for line in out.read_text().splitlines():
            try:
                done.add(json.loads(line)["round"])
            except (ValueError, KeyError):
                pass
    with out.open("a") as f:
        for k in range(worker, rounds, workers):
            if k in done:
                continue
            rnd = Round.deal(rules, match_code("imitate", k), k % len(rules.pass_cycle))
            bots = [make_bot(bench_level(level), 1000 * k + s) for s in range(rules.players)]
            if rnd.phase is Phase.PASS:
                for s, bot in enumerate(bots):
                    rnd.pass_cards(bot.choose_pass(rnd.view(s)), s)
            rows = []
            while rnd.phase is Phase.PLAY:
                seat = rnd.turn
                view = rnd.view(seat)
                card = bots[seat].choose_card(view)
                same = equivalent_cards(view)
                if len(set(same.values())) > 1:
                    pos = fast.Position.from_round(rnd)
                    trick = list(rnd.trick)
                    wc, ws = trick_winner(trick, rnd.leader, rules.players) if trick else (-1, -1)
                    rows.append({
                        "round": k, "seat": seat, "hand": pos.hands[seat], "legal": rnd.legal_mask(),
                        "trick": [index[c] for c in trick], "leader": rnd.leader,
                        "win_card": index[wc] if trick else -1, "win_seat": ws,
                        "taken": pos.taken, "points": pos.points, "broken": pos.hearts_broken,
                        "first": pos.first_trick, "threat": threat(facts, pos.taken),
                        "card": index[card], "classes": {index[a]: index[b] for a, b in same.items()},
                    })
                rnd.play(card)
            for r in rows:
                f.write(json.dumps(r) + "\n")
            f.flush()


def _decisions(paths: list[Path]) -> list[dict[str, object]]:
    rows = []
    for p in paths:
        for line in p.read_text().splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def _encode(rows: list[dict[str, Any]]) -> tuple[list[list[list[int]]], list[int], list[list[int]]]:
    """Each decision's candidates (one card per class) as feature indexes, the index of Hard's
    class among them, and the candidate cards."""
    from hearts_cli.bots.learned_play import context, features
    from hearts_cli.bots.playout import choose

    facts = load_preset("quick").facts
    feats, chosen, cands = [], [], []
    for r in rows:
        classes = {int(k): v for k, v in r["classes"].items()}
        reps = sorted(set(classes.values()))
        ctx = context(facts, r["seat"], r["hand"], r["legal"], r["trick"], r["win_card"], r["win_seat"],
                      r["taken"], r["first"], r["broken"], r["threat"])
        h = classes[choose(facts, r["seat"], r["hand"], r["legal"], r["trick"], r["win_card"], r["win_seat"],
                           1 if ctx[2] else 0, r["threat"])]
        feats.append([features(facts, ctx, r["hand"], r["legal"], r["win_card"], c, c == h) for c in reps])
        chosen.append(reps.index(classes[r["card"]]))
        cands.append(reps)
    return feats, chosen, cands


def check(rows: list[dict[str, Any]], weights: list[float], moon_heuristic: bool = False) -> None:
    """The folded policy of play (:func:`hearts_cli.bots.learned_play.learned_policy`) picks the card of
    :func:`hearts_cli.bots.learned_play.learned_card` on every decision of ``rows``; SystemExit if not."""
    import random

    from hearts_cli.bots.learned_play import learned_card, learned_policy

    rules = load_preset("quick")
    facts = rules.facts
    factory = learned_policy(tuple(weights), moon_heuristic)
    for r in rows:
        hands = [0] * rules.players
        hands[r["seat"]] = r["hand"]
        pos = fast.Position(rules, hands, leader=r["leader"], trick=list(r["trick"]), taken=list(r["taken"]),
                            points=list(r["points"]), hearts_broken=r["broken"], first_trick=r["first"])
        fastc = factory(facts, random.Random(0), 0.0, -1, r["threat"])(
            r["legal"], r["seat"], r["win_card"], r["win_seat"], pos)
        slow = learned_card(facts, weights, r["seat"], r["hand"], r["legal"], r["trick"], r["win_card"],
                         r["win_seat"], r["taken"], r["first"], r["broken"], r["threat"], moon_heuristic)
        if fastc != slow:
            raise SystemExit(f"the folded policy plays {fastc}, the features {slow}: {r}")
    print(f"the folded policy agrees with the features on all {len(rows)} held-out decisions")


def fit(paths: list[Path], out: Path, steps: int, l2: float, rounds: int | None = None,
        moon_heuristic: bool = False) -> None:
    """A conditional logit over each decision's classes, fitted by full-batch Adam; rounds
    ``k % 10 == 9`` are held out. Prints the held-out agreement beside the heuristic's."""
    import numpy as np

    from hearts_cli.bots.learned_play import SIZE
    from hearts_cli.bots.playout import QS, choose

    facts = load_preset("quick").facts
    # the rounds below ``rounds`` (all: None); with ``moon_heuristic``, no card played while a
    # moon threat is on, where that policy leaves the card to the heuristic
    rows = [r for r in _decisions(paths) if (rounds is None or int(r["round"]) < rounds)
            and not (moon_heuristic and int(r["threat"]) >= 0)]
    train = [r for r in rows if int(r["round"]) % 10 != 9]
    held = [r for r in rows if int(r["round"]) % 10 == 9]

    def arrays(rs: list[dict[str, Any]]) -> tuple[Any, ...]:
        feats, chosen, _ = _encode(rs)
        idx, seg, pick = [], [], []
        n = 0
        for d, (fs, ch) in enumerate(zip(feats, chosen)):
            for j, f in enumerate(fs):
                idx.append(f)
                seg.append(d)
                pick.append(1.0 if j == ch else 0.0)
            n += len(fs)
        return (np.array(idx, dtype=np.int64), np.array(seg, dtype=np.int64),
                np.array(pick), len(feats))

    X, S, Y, D = arrays(train)
    Xh, Sh, Yh, Dh = arrays(held)
    w = np.zeros(SIZE)
    m = np.zeros(SIZE)
    v = np.zeros(SIZE)
    lr, b1, b2 = 0.05, 0.9, 0.999

    def probs(X: Any, S: Any, D: int) -> Any:
        z = w[X].sum(axis=1)
        zmax = np.full(D, -np.inf)
        np.maximum.at(zmax, S, z)
        e = np.exp(z - zmax[S])
        tot = np.bincount(S, weights=e, minlength=D)
        return e / tot[S]

    def agree(X: Any, S: Any, Y: Any, D: int) -> float:
        z = w[X].sum(axis=1)
        best = np.full(D, -np.inf)
        np.maximum.at(best, S, z)
        # the first candidate reaching the best (the lowest card, as in play)
        top = z >= best[S]
        first = np.zeros(D, dtype=bool)
        hit = 0
        for i in np.nonzero(top)[0]:
            d = S[i]
            if not first[d]:
                first[d] = True
                hit += Y[i] > 0
        return hit / D

    for t in range(1, steps + 1):
        p = probs(X, S, D)
        g = (p - Y)[:, None] * np.ones(X.shape[1])[None, :]
        grad = np.bincount(X.ravel(), weights=g.ravel(), minlength=SIZE) / D + l2 * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + 1e-8)
        if t % 50 == 0 or t == steps:
            ph = probs(Xh, Sh, Dh)
            nll = -np.log(ph[Yh > 0]).mean()
            print(f"step {t}: held-out loss {nll:.4f}, agreement {agree(Xh, Sh, Yh, Dh):.1%} "
                  f"(train {agree(X, S, Y, D):.1%})", flush=True)
    hits = 0
    for r in held:
        classes = {int(k): v for k, v in r["classes"].items()}
        taken = r["taken"]
        queen_out = not any(t >> QS & 1 for t in taken) and QS not in r["trick"]
        h = choose(facts, r["seat"], r["hand"], r["legal"], r["trick"], r["win_card"], r["win_seat"],
                   queen_out, r["threat"])
        hits += classes[h] == classes[r["card"]]
    print(f"{len(train)} decisions to learn from, {len(held)} held out; the heuristic agrees on "
          f"{hits / len(held):.1%} of those")
    check(held, [round(float(x), 4) for x in w], moon_heuristic)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"size": SIZE, "decisions": len(train), "l2": l2, "steps": steps, "rounds": rounds,
                               "moon_heuristic": moon_heuristic,
                               "weights": [round(float(x), 4) for x in w]}) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--rounds", type=int, default=2000)
    c.add_argument("--worker", type=int, default=0)
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--level", default="hardh", help="the teacher: a level, a bench short name or a hook")
    c.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--out", type=Path, required=True)
    f.add_argument("--steps", type=int, default=400)
    f.add_argument("--l2", type=float, default=1e-4)
    f.add_argument("--rounds", type=int, default=None, help="only the rounds below this (default: all)")
    f.add_argument("--moon-heuristic", action="store_true",
                   help="for learned_policy(moon_heuristic=True): leave out the cards played under a moon threat")
    a = ap.parse_args(argv)
    if a.cmd == "collect":
        collect(a.rounds, a.worker, a.workers, a.out, a.level)
    else:
        fit(a.data, a.out, a.steps, a.l2, a.rounds, a.moon_heuristic)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
