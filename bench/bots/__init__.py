"""The bench's bots: yardsticks and experiments the product does not ship.

Each is reached through the level hook of ``hearts sim --seats`` and the bench
scripts (``bench/bots/hard0.py:Hard0Bot`` or ``bench.bots.hard0:Hard0Bot``;
docs/sim.md). :data:`LEVELS` gives them the short names the bench scripts
accept (``--seats hard,hard0,hard0,hard0``); :func:`level` turns a short name
into the hook.
"""

from __future__ import annotations

# short name -> hook (module:Class), for the bench scripts
LEVELS: dict[str, str] = {
    "hard0": "bench.bots.hard0:Hard0Bot",  # Hard of 2026-12-01, frozen: the yardstick for a stronger Hard
    "hard35": "bench.bots.hard35:Hard35Bot",  # Hard of issue 35 (2026-12-06), frozen: Normal's pass, the round's value
    "high": "bench.bots.exploit:HighBot",  # passes low, plays high: a moon run against duckers
    "shoot": "bench.bots.exploit:ShootBot",  # shoots the moon while it can, then plays like Normal
    "belief": "bench.bots.belief:BeliefHard",  # Hard whose deals believe what they saw (not shown to pay)
    "hardl": "bench.bots.learned:LearnedHard",  # Hard with the learned pass (bench/train.py)
    "normall": "bench.bots.learned:LearnedNormal",  # Normal with the learned pass
    "hards": "bench.bots.learned:SearchHard",  # Hard with the searched pass (Normal's and the learned best)
    "normals": "bench.bots.learned:SearchNormal",  # Normal with Hard's searched pass
    "hardi": "bench.bots.imitate:ImitateHard",  # Hard playing out the bench's weights (bench/imitate.py)
    "hardh": "bench.bots.imitate:HeuristicHard",  # Hard playing out the heuristic (before the learned policy)
    "hardo": "bench.bots.imitate:OwnLearnedHard",  # its own seat learned, the others the heuristic
    "hardm": "bench.bots.imitate:MixedHard",  # each seat of a playout learned or heuristic, at random
}


def level(name: str) -> str:
    """The level to give ``hearts_cli.bots.make_bot`` for ``name``: a bench short name's hook,
    or ``name`` itself (a product level, or a hook already)."""
    return LEVELS.get(name.strip().lower(), name)
