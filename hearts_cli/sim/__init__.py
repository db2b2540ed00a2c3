"""``hearts sim``'s tournaments, below the command line: games between the seats given
(:mod:`.games`), a gauntlet or a round robin with its sequential test (:mod:`.tournaments`),
the results file a run resumes from (:mod:`.results`), every game exported (:mod:`.export`),
the outside programs of a run (:mod:`.programs`), where the games are played (:mod:`.pool`:
here, worker processes, or a Ray cluster, :mod:`.cluster`) and the reports as data
(:mod:`.report`). The command line (``cli/sim.py``) reads the options and prints. See
docs/sim.md.
"""
