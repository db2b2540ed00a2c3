"""How often Hard's playout policy picks the card a level really plays (a yardstick for playouts).

    .venv/bin/python -m bench.agree --level hard --rounds 60
    .venv/bin/python -m bench.agree --level normal --rounds 200
    .venv/bin/python -m bench.agree --level hard --rounds 60 --learned

Hard values a card by playing the round out with :func:`hearts_cli.bots.playout.make_policy`
for every seat, its own later cards included: its search is as good as that policy is a model
of the table. Here four seats of ``--level`` play rounds of the ``quick`` rules (deal codes
``match_code("agree", k)``, passing on); at every card with a real choice (two classes of
equivalent cards or more) the policy, with no random cards and the moon threat of what has
been taken, is asked what it would play in the same position, and the two are compared up to
equivalent cards. The share that agree is printed by the card's place in the trick (a lead,
a follow, the last card). The policy reads the seat's own hand and what is public only
(whether the Q♠ is still out), so giving it the real position shows it nothing hidden.
``--learned`` asks the learned policy that Hard now plays out (:mod:`hearts_cli.bots.learned_play`)
instead of the heuristic.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import level as bench_level
from hearts_cli.bots import make_bot
from hearts_cli.bots.common import trick_winner
from hearts_cli.bots.hard import equivalent_cards
from hearts_cli.bots.learned_play import shipped_policy
from hearts_cli.bots.match import match_code
from hearts_cli.bots.playout import make_policy, threat
from hearts_cli.model.cards import CARDS
from hearts_cli.model.rules import load_preset
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round


def agreement(level: str, rounds: int, learned: bool = False) -> dict[str, tuple[int, int]]:
    """``{place: (agreeing, decisions)}`` over ``rounds`` rounds of four ``level`` seats."""
    maker = shipped_policy() if learned else make_policy
    rules = load_preset("quick")
    facts = rules.facts
    agree: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    for k in range(rounds):
        rnd = Round.deal(rules, match_code("agree", k), k % len(rules.pass_cycle))
        bots = [make_bot(bench_level(level), 100 * k + s) for s in range(rules.players)]
        if rnd.phase is Phase.PASS:
            for s, bot in enumerate(bots):
                rnd.pass_cards(bot.choose_pass(rnd.view(s)), s)
        while rnd.phase is Phase.PLAY:
            seat = rnd.turn
            view = rnd.view(seat)
            card = bots[seat].choose_card(view)
            same = equivalent_cards(view)
            if len(set(same.values())) > 1:
                pos = fast.Position.from_round(rnd)
                policy = maker(facts, random.Random(0), 0.0, -1, threat(facts, pos.taken))
                trick = list(rnd.trick)
                win_card, win_seat = trick_winner(trick, rnd.leader, rules.players) if trick else (-1, -1)
                guess = CARDS[policy(rnd.legal_mask(), seat, win_card, win_seat, pos)]
                place = "lead" if not trick else "last" if len(trick) == rules.players - 1 else "follow"
                total[place] += 1
                agree[place] += same[guess] == same[card]
            rnd.play(card)
    return {p: (agree[p], total[p]) for p in ("lead", "follow", "last")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="hard", help="a level, a bench short name or a hook")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--learned", action="store_true", help="the learned playout policy, not the heuristic")
    a = ap.parse_args(argv)
    found = agreement(a.level, a.rounds, a.learned)
    parts = [f"{p} {n}/{d} ({n / d:.0%})" for p, (n, d) in found.items() if d]
    n, d = sum(x for x, _ in found.values()), sum(y for _, y in found.values())
    policy = "learned" if a.learned else "heuristic"
    print(f"{policy} policy, {a.level}, {a.rounds} rounds: " + ", ".join(parts)
          + f"; every place {n}/{d} ({n / d:.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
