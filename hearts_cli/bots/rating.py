"""Ratings and the sequential test of a tournament: pure arithmetic on results, no play.

A tournament (:mod:`hearts_cli.bots.tournament`) compares two players on a *pair* of
duplicate games: the same game code played with A at one seat and B at the others, in
every rotation, then with B at one seat and A at the others. Each half is a win, a draw
or a loss for A (fewer points per seat-round wins, as Hearts counts), so a pair scores
0, ½, 1, 1½ or 2: the pentanomial model that fastchess and cutechess-cli use for their
colour-reversed game pairs, here for seats.

- :func:`elo_interval`: A's Elo over B and its 95% interval, from the pairs' scores;
- :func:`sprt`: Wald's sequential test of ``elo0`` against ``elo1`` on those pairs
  (the generalised SPRT's normal approximation, as fastchess computes it): it stops
  as soon as "A is stronger than B by elo1" or "not by more than elo0" is decided at
  the error rates given;
- :func:`bradley_terry`: a rating for each of several players from all their pairwise
  results (Bradley–Terry, fitted by minorise–maximise), on the Elo scale with the
  field's mean at 0, and each rating's 95% interval from the fit's information.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["EloInterval", "Rating", "Sprt", "SprtBounds", "bradley_terry", "elo_interval", "elo_of",
           "half_outcome", "sprt"]

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval
ELO_PER_NAT = 400 / math.log(10)


def elo_of(score: float) -> float:
    """The Elo difference an expected score stands for (logistic): infinite at 0 and 1."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -ELO_PER_NAT * math.log(1 / score - 1)


def score_of(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


def half_outcome(a_points: float, a_rounds: int, b_points: float, b_rounds: int) -> float:
    """One half of a pair, for A: 1 when A took fewer points a seat-round than B, ½ when the
    same, 0 when more."""
    a = a_points * b_rounds
    b = b_points * a_rounds  # compared without dividing: exact on whole numbers
    return 1.0 if a < b else 0.5 if a == b else 0.0


@dataclass(frozen=True)
class EloInterval:
    elo: float
    low: float
    high: float
    pairs: int
    score: float  # A's mean score a game, from 0 to 1


def _mean_var(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    return mean, sum((x - mean) ** 2 for x in xs) / n


def elo_interval(pairs: Sequence[float]) -> EloInterval:
    """A's Elo over B from the pairs' scores (each 0 to 2), with its 95% interval."""
    if not pairs:
        return EloInterval(0.0, 0.0, 0.0, 0, 0.5)
    mean, var = _mean_var([p / 2 for p in pairs])
    half = Z95 * math.sqrt(var / len(pairs))
    return EloInterval(elo_of(mean), elo_of(mean - half), elo_of(mean + half), len(pairs), mean)


@dataclass(frozen=True)
class SprtBounds:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)


@dataclass(frozen=True)
class Sprt:
    bounds: SprtBounds
    llr: float
    verdict: str | None  # "H1" (A is stronger by elo1), "H0" (not by more than elo0), None (go on)


def sprt(pairs: Sequence[float], bounds: SprtBounds) -> Sprt:
    """The log-likelihood ratio of ``elo1`` against ``elo0`` after ``pairs``, and the verdict
    once it leaves the bounds. One pair lost and one won are added to those played (a prior:
    a run of pairs all alike has a variance, and decides), as a fit's prior keeps it finite."""
    if len(pairs) < 2:
        return Sprt(bounds, 0.0, None)
    xs = [p / 2 for p in pairs] + [0.0, 1.0]
    mean, var = _mean_var(xs)
    s0, s1 = score_of(bounds.elo0), score_of(bounds.elo1)
    llr = len(xs) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    verdict = "H1" if llr >= bounds.upper else "H0" if llr <= bounds.lower else None
    return Sprt(bounds, llr, verdict)


@dataclass(frozen=True)
class Rating:
    player: str
    elo: float
    ci95: float  # half-width of the 95% interval
    games: int  # halves played (each a win, a draw or a loss)
    score: float  # points won, a draw counting ½


def bradley_terry(players: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]]
                  ) -> list[Rating]:
    """Ratings from pairwise results: ``results[(a, b)] = (a's points against b, games)``.

    Each pairing counts one draw more than it played (a prior that keeps a player who
    won or lost everything finite); the ratings' mean is 0 and each interval comes from
    the inverse of the fit's information matrix (its pseudo-inverse: the ratings are
    only known up to their mean).
    """
    k = len(players)
    index = {p: i for i, p in enumerate(players)}
    won = [[0.0] * k for _ in range(k)]
    played = [[0.0] * k for _ in range(k)]
    for (a, b), (points, games) in results.items():
        i, j = index[a], index[b]
        won[i][j] += points + 0.5
        won[j][i] += games - points + 0.5
        played[i][j] += games + 1
        played[j][i] += games + 1
    strength = [1.0] * k
    for _ in range(500):
        new = []
        for i in range(k):
            denominator = sum(played[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            new.append(sum(won[i]) / denominator if denominator else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / k)
        new = [s / scale for s in new]
        settled = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True)) < 1e-12
        strength = new
        if settled:
            break
    theta = [math.log(s) for s in strength]
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and played[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                w = played[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
    cov = _pseudo_inverse(info)
    out = []
    for player in players:
        i = index[player]
        games = int(sum(played[i]) - sum(1 for j in range(k) if played[i][j]))
        score = sum(won[i]) - 0.5 * sum(1 for j in range(k) if played[i][j])
        out.append(Rating(player, ELO_PER_NAT * theta[i], Z95 * ELO_PER_NAT * math.sqrt(max(cov[i][i], 0.0)),
                          games, score))
    return out


def _pseudo_inverse(m: list[list[float]]) -> list[list[float]]:
    """The pseudo-inverse of a symmetric matrix whose rows add up to 0 (a graph's Laplacian,
    connected): (M + J/k)⁻¹ − J/k, with J all ones."""
    k = len(m)
    a = [[m[i][j] + 1 / k for j in range(k)] + [1.0 if i == j else 0.0 for j in range(k)] for i in range(k)]
    for col in range(k):  # Gauss–Jordan with partial pivoting
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        if abs(lead) < 1e-15:
            return [[math.inf if i == j else 0.0 for j in range(k)] for i in range(k)]
        a[col] = [x / lead for x in a[col]]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [[a[i][k + j] - 1 / k for j in range(k)] for i in range(k)]
