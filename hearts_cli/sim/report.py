"""The reports of a ``hearts sim`` run as data: a tournament's standing, its pairings as the
report gives them, and each run's JSON object (keys in English, for scripts). The words and
tables people read are the command line's (``cli/sim.py``). See docs/sim.md, "JSON"."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from ..bots.match import GameResult, TournamentStats, tournament_stats
from ..bots.tournament import Half, Standing, Tournament, standing
from ..model.cards import cards_of
from .games import Simulation

PENTANOMIAL = (0.0, 0.5, 1.0, 1.5, 2.0)  # what a pair can score for its first player


def _round(x: float, digits: int = 4) -> float:
    return round(x, digits)


def _bound(elo: float) -> float | None:
    """An Elo for JSON: None where the interval has no bound (every game won, or lost)."""
    return _round(elo, 1) if math.isfinite(elo) else None


def to_json(sim: Simulation) -> dict[str, object]:
    """Everything about the run, as one JSON object (keys in English, for scripts)."""
    scoring = sum(1 << c for c in range(52) if sim.rules.points[c])  # the cards worth points
    levels = {}
    for lv, st in sim.stats.items():
        d = asdict(st)
        for k in ("mean", "ci95", "won", "win_rate"):
            d[k] = _round(d[k])
        d["decision_ms"] = {"count": st.decisions, "mean": _round(st.mean_ms), "median": _round(st.median_ms),
                            "p95": _round(st.p95_ms)}
        for k in ("level", "decisions", "mean_ms", "median_ms", "p95_ms"):
            del d[k]
        levels[lv] = d
    return {
        "rules": sim.rules.spec(),
        "players": sim.rules.players,
        "seats": list(sim.seats),
        "seed": sim.seed,
        "duplicate": sim.duplicate,
        "rotations": sim.rotations,
        "simulations": sim.simulations,
        "workers": sim.workers,
        "deals_requested": sim.deals_requested,
        "deals": sim.deals,
        "games": len(sim.games),
        "rounds": sim.rounds,
        "seconds": _round(sim.seconds, 2),
        "levels": levels,
        "faults": sim.faults,
        "game_log": [
            {"game": g.index, "code": g.code, "plays": [
                {"seats": list(p.levels), "totals": list(p.totals), "winners": list(p.winners),
                 "rounds": [{"scores": list(r.scores), "shooter": r.shooter, "threat": r.threat,
                             "stopped_by": r.stopper,
                             "taken": [[str(c) for c in cards_of(m & scoring)] for m in r.taken]}
                            for r in p.rounds]}
                for p in g.plays]}
            for g in sim.games],
    }


@dataclass
class TournamentReport:
    """A tournament as its report gives it: the halves played, the standing they make, each
    player's statistics, the time it took."""

    tournament: Tournament
    halves: list[Half]
    standing: Standing
    stats: dict[str, TournamentStats]
    seconds: float

    @property
    def rounds(self) -> int:
        return sum(len(p.rounds) for h in self.halves for p in h.plays)


def tournament_report(tour: Tournament, halves: list[Half], seconds: float) -> TournamentReport:
    games = [GameResult(h.game, h.code, h.plays) for h in halves]
    return TournamentReport(tour, halves, standing(tour, halves), tournament_stats(tour.rules, tour.players, games),
                            seconds)


@dataclass(frozen=True)
class PairingRow:
    """One pairing as the report gives it: its pairs won, drawn and lost by the first player
    (more than 1 of a pair's 2 points wins it), the pentanomial counts (pairs scoring 0, ½, 1,
    1½, 2), the first player's Elo over the second with its interval, and whether both
    players' results are their own."""

    a: str
    b: str
    pairs: int
    deals: int
    wins: int
    draws: int
    losses: int
    pentanomial: tuple[int, ...]
    score: float
    elo: float
    low: float
    high: float
    reliable: bool


def pairing_rows(r: TournamentReport) -> list[PairingRow]:
    now = r.standing
    out = []
    for a, b in r.tournament.pairings:
        scores = now.pairs.get((a, b), [])
        e = now.interval((a, b))
        out.append(PairingRow(a, b, len(scores), now.deals.get((a, b), 0), sum(x > 1 for x in scores),
                              sum(x == 1 for x in scores), sum(x < 1 for x in scores),
                              tuple(scores.count(x) for x in PENTANOMIAL), e.score, e.elo, e.low, e.high,
                              now.reliable(a) and now.reliable(b)))
    return out


def deals_played(r: TournamentReport) -> int:
    """The deals of the pairing that played fewest (every pairing plays the same games)."""
    return min((r.standing.deals.get(p, 0) for p in r.tournament.pairings), default=0)


def report_json(r: TournamentReport) -> dict[str, object]:
    """The tournament as one JSON object: the same run gives the same object, but for ``seconds``
    and the decision times. A player the CPU played for (:meth:`Standing.reliable`) has
    ``"reliable": false`` and no Elo, nor does any pairing of it."""
    tour, now = r.tournament, r.standing
    pairs = [{"players": [x.a, x.b], "pairs": x.pairs, "deals": x.deals, "wins": x.wins, "draws": x.draws,
              "losses": x.losses, "pentanomial": list(x.pentanomial), "score": _round(x.score),
              "reliable": x.reliable, "elo": _bound(x.elo) if x.reliable else None,
              "low": _bound(x.low) if x.reliable else None, "high": _bound(x.high) if x.reliable else None}
             for x in pairing_rows(r)]
    test = None
    if now.test is not None:
        bounds = now.test.bounds
        test = {"elo0": bounds.elo0, "elo1": bounds.elo1, "alpha": bounds.alpha, "beta": bounds.beta,
                "llr": _round(now.test.llr), "lower": _round(bounds.lower), "upper": _round(bounds.upper),
                "verdict": now.test.verdict}
    ratings = []
    for x in now.ratings:
        ok = now.reliable(x.player)
        ratings.append({"player": x.player, "reliable": ok, "elo": _round(x.elo, 1) if ok else None,
                        "ci95": _round(x.ci95, 1) if ok else None,
                        "low": _bound(x.elo - x.ci95) if ok else None, "high": _bound(x.elo + x.ci95) if ok else None,
                        "faults": now.faults.get(x.player), "games": x.games, "score": x.score,
                        "points_per_round": _round(r.stats[x.player].mean),
                        "points_ci95": _round(r.stats[x.player].ci95)})
    return {
        "mode": tour.mode, "rules": tour.rules.spec(), "players": list(tour.players), "seed": tour.seed,
        "deals_requested": tour.deals, "deals": deals_played(r), "simulations": tour.simulations,
        "halves": len(r.halves), "rounds": r.rounds, "seconds": _round(r.seconds, 2),
        "ratings": ratings,
        "pairings": pairs,
        "sprt": test,
        "faults": now.faults or None,
        "decision_ms": {lv: {"count": st.decisions, "mean": _round(st.mean_ms), "median": _round(st.median_ms),
                             "p95": _round(st.p95_ms)} for lv, st in r.stats.items()},
    }
