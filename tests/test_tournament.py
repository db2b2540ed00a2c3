"""Tournaments (issue 27 §2): a gauntlet and a round robin of duplicate game pairs, ratings
with intervals, a sequential test that stops once it decides, and a results file from
which an interrupted run goes on to the same end."""

from __future__ import annotations

import json
import math

import pytest
from conftest import assert_user_error, run

from hearts_cli.bots.rating import SprtBounds, bradley_terry, elo_interval, elo_of, half_outcome, sprt


def test_the_arithmetic_of_ratings_and_of_the_test():
    assert elo_of(0.5) == 0 and round(elo_of(0.75), 1) == 190.8 and elo_of(1.0) == math.inf
    assert half_outcome(10, 4, 30, 12) == 0.5  # 2.5 points a seat-round each: a draw
    assert half_outcome(9, 4, 30, 12) == 1.0 and half_outcome(11, 4, 30, 12) == 0.0
    even = elo_interval([1.0] * 40 + [0.0, 2.0] * 20)
    assert even.elo == 0 and even.low < 0 < even.high
    # a 60% score over 100 games: about 70 Elo between them, half above the mean (0), half below
    a, b = bradley_terry(["a", "b"], {("a", "b"): (60.0, 100)})
    assert 66 < a.elo - b.elo < 71 and b.elo == pytest.approx(-a.elo) and a.ci95 == pytest.approx(b.ci95)
    assert (a.games, a.score, b.score) == (100, 60.0, 40.0)
    # a field of three, each beating the next: the order holds, the intervals are finite
    order = bradley_terry(["x", "y", "z"], {("x", "y"): (30, 40), ("y", "z"): (30, 40), ("x", "z"): (35, 40)})
    assert order[0].elo > order[1].elo > order[2].elo and all(math.isfinite(r.ci95) for r in order)
    bounds = SprtBounds(0, 10)
    assert sprt([2.0, 1.5, 2.0, 1.0] * 30, bounds).verdict == "H1"  # far stronger: decided
    assert sprt([1.0, 0.5, 1.5, 1.0] * 300, bounds).verdict == "H0"  # even: not stronger by 10
    assert sprt([1.0, 1.5], bounds).verdict is None


def _json(*args: str) -> dict:
    result = run("sim", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _timeless(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("seconds", "decision_ms")}


def test_a_gauntlet_rates_the_field_and_plays_every_pairing_in_pairs():
    report = _json("--gauntlet", "normal,easy,random", "--deals", "12", "--seed", "g1")
    ratings = {r["player"]: r for r in report["ratings"]}
    assert ratings["normal"]["elo"] > max(ratings["easy"]["elo"], ratings["random"]["elo"])  # they never meet
    assert sum(r["elo"] for r in report["ratings"]) == pytest.approx(0, abs=0.3)
    pairings = {tuple(p["players"]): p for p in report["pairings"]}
    assert set(pairings) == {("normal", "easy"), ("normal", "random")}  # the first against each other
    for p in pairings.values():
        # won, drawn and lost are counted in pairs (a pair is won with more than 1 of its 2
        # points), beside the pentanomial counts: the pairs that scored 0, ½, 1, 1½ and 2
        assert p["deals"] >= 12 and p["wins"] + p["draws"] + p["losses"] == p["pairs"] == sum(p["pentanomial"])
        zero, half, one, one_half, two = p["pentanomial"]
        assert (p["wins"], p["draws"], p["losses"]) == (one_half + two, one, zero + half)
        assert p["reliable"] and p["low"] < p["elo"] < (p["high"] if p["high"] is not None else math.inf)
    for r in report["ratings"]:  # an interval written as a pairing's is: its two ends
        assert r["reliable"] and r["low"] == pytest.approx(r["elo"] - r["ci95"], abs=0.11)
    assert report["halves"] == 2 * sum(p["pairs"] for p in pairings.values())
    assert report["sprt"] is None


def test_the_sequential_test_stops_as_soon_as_it_decides():
    report = _json("--round-robin", "normal,random", "--deals", "600", "--sprt", "0,50", "--seed", "s1")
    test = report["sprt"]
    assert test["verdict"] == "H1" and test["llr"] >= test["upper"] == pytest.approx(2.944, abs=1e-3)
    (pairing,) = report["pairings"]
    assert pairing["deals"] < 100  # stopped long before its deals


def test_an_interrupted_run_resumes_to_the_same_end(tmp_path):
    """A whole run, and the same run cut after three games (the last line half written):
    the same command goes on from the file and ends with the same report and the same file."""
    args = ["--gauntlet", "normal,easy", "--deals", "15", "--sprt", "0,400", "--seed", "r1"]
    whole = tmp_path / "whole.jsonl"
    expected = _json(*args, "--results", str(whole))
    lines = whole.read_text().splitlines(keepends=True)
    assert len(lines) == expected["halves"] + 1 > 5
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:4]) + lines[4][: len(lines[4]) // 2])
    resumed = _json(*args, "--results", str(cut))
    assert _timeless(resumed) == _timeless(expected)
    assert cut.read_bytes() == whole.read_bytes()
    # run again once finished: nothing more is played, the same report
    assert _timeless(_json(*args, "--results", str(cut))) == _timeless(expected)
    # without --seed, the file's own seed is taken up again
    assert _timeless(_json(*args[:-2], "--results", str(cut))) == _timeless(expected)


def test_the_report_says_how_many_deals_the_test_took_and_writes_what_it_tested():
    """After an early stop the header says the deals played (and those asked); H0's verdict
    writes elo0's value; a rating's interval is written as a pairing's, and the one Elo of a
    pairing is labelled as the first player's over the second."""
    result = run("sim", "--gauntlet", "random,normal", "--deals", "400", "--sprt", "0,50", "--seed", "h",
                 "--lang", "en", "--plain")
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    report = _json("--gauntlet", "random,normal", "--deals", "400", "--sprt", "0,50", "--seed", "h")
    (pairing,) = report["pairings"]
    assert report["sprt"]["verdict"] == "H0" and report["deals"] == pairing["deals"] < 400
    assert f"the test decided after {pairing['deals']} deals (400 asked)" in text
    assert "random is not stronger than normal by more than 0 Elo" in text
    assert "Elo of 1st" in text and "±" not in text.split("pts/round")[0]
    normal = next(r for r in report["ratings"] if r["player"] == "normal")
    assert f"[{normal['low']:+.0f}, {normal['high']:+.0f}]" in text
    assert f"[-∞, {pairing['high']:+.0f}]" in text  # the same minus sign, bounded or not
    es = run("sim", "--gauntlet", "random,normal", "--deals", "400", "--sprt", "0,50", "--seed", "h",
             "--lang", "es", "--plain")
    assert f"la prueba decidió tras {pairing['deals']} manos" in " ".join(es.stdout.split())


def _program_tournament():
    """A gauntlet of a program ``exec:a`` against ``easy`` whose halves are made up: ``half(game,
    side, faults)``, where the program takes fewer points every time."""
    from hearts_cli.bots.match import GamePlay, RoundLog
    from hearts_cli.bots.tournament import Half, Tournament
    from hearts_cli.model.rules import load_preset

    t = Tournament(load_preset("quick"), "gauntlet", ("exec:a", "easy"), 1000, "s", sprt=SprtBounds(0, 10))

    def half(game: int, side: int, faults: dict) -> Half:
        alone, others = ("exec:a", "easy") if side == 0 else ("easy", "exec:a")
        levels = (alone, others, others, others)
        a_wins = (1, 9, 9, 9) if side == 0 else (9, 1, 1, 1)  # exec:a takes fewer points
        play = GamePlay(levels, [RoundLog(a_wins, None, None, None)], a_wins, (0,), faults={"exec:a": faults})
        return Half(game, 0, side, "X", [play] * 4)

    return t, half


def test_a_test_never_concludes_on_a_player_the_cpu_played_for():
    """Pairs that decide H1 at once; but when the CPU made 5% of A's decisions, or all of them
    in one game, A has no Elo and the test goes on."""
    from hearts_cli.bots.match import reliable
    from hearts_cli.bots.tournament import finished, standing

    t, half = _program_tournament()
    fine = {"taken": 0, "decisions": 100, "silent": 0}
    halves = [half(g, s, fine) for g in range(30) for s in (0, 1)]
    assert standing(t, halves).test.verdict == "H1" and finished(t, halves)
    assert reliable({"taken": 4, "decisions": 100, "silent": 0}) and reliable(None)  # (a CPU level)
    share = [half(g, s, {"taken": 5, "decisions": 100, "silent": 0}) for g in range(30) for s in (0, 1)]
    one_game = [*halves[:-1], half(29, 1, {"taken": 3, "decisions": 100, "silent": 1})]
    for mixed in (share, one_game):
        now = standing(t, mixed)
        assert not now.reliable("exec:a") and now.reliable("easy")
        assert now.test.verdict is None and not finished(t, mixed)


def test_the_progress_line_writes_intervals_as_the_report_does(capsys):
    """The live line wrote an unbounded end as ``+inf``; it writes ``+∞`` as the report does,
    labels the Elo as the first player's over the second, and gives none of a player the CPU
    played for."""
    from hearts_cli.bots.tournament import standing
    from hearts_cli.cli.sim import _Live

    t, half = _program_tournament()
    fine = [half(g, s, {"taken": 0, "decisions": 100, "silent": 0}) for g in range(3) for s in (0, 1)]
    live = _Live(t, "en", 0)
    live(standing(t, fine))
    line = capsys.readouterr().err
    assert "exec:a over easy: +" in line and ", +∞]" in line and "inf" not in line
    live(standing(t, [*fine, half(3, 0, {"taken": 100, "decisions": 100, "silent": 1})]))
    assert "exec:a not rated" in capsys.readouterr().err


def test_the_human_report_says_the_verdict_in_both_languages():
    for lang, words in (("en", ("Gauntlet", "H1 accepted", "normal is stronger than random")),
                        ("es", ("Desafío", "H1 aceptada", "normal es más fuerte que random"))):
        result = run("sim", "--gauntlet", "normal,random", "--deals", "400", "--sprt", "0,50", "--seed", "h",
                     "--lang", lang)
        assert result.exit_code == 0, result.stderr
        for w in words:
            assert w in result.stdout, (w, result.stdout)


@pytest.mark.parametrize("args, words", [
    (["--gauntlet", "normal"], ["two players"]),
    (["--gauntlet", "normal,normal"], ["two players"]),
    (["--gauntlet", "normal,easy", "--round-robin", "easy,hard"], ["--gauntlet", "--round-robin"]),
    (["--sprt", "0,10"], ["--gauntlet"]),
    (["--gauntlet", "normal,easy,hard", "--sprt", "0,10"], ["one player against one other"]),
    (["--gauntlet", "normal,easy", "--sprt", "10,0"], ["ELO0"]),
    (["--gauntlet", "normal,easy", "--seats", "normal,easy,easy,easy"], ["--seats"]),
    (["--gauntlet", "normal,wizard"], ["wizard"]),
])
def test_tournament_errors_are_one_sentence_and_exit_2(args, words):
    assert_user_error(run("sim", *args, "--lang", "en"), *words)


def test_a_results_file_of_another_run_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    assert run("sim", "--gauntlet", "normal,easy", "--deals", "3", "--seed", "a", "--results", str(path)).exit_code == 0
    assert_user_error(run("sim", "--gauntlet", "normal,random", "--deals", "3", "--seed", "a", "--results", str(path),
                          "--lang", "en"), "another run")
    other = tmp_path / "o.jsonl"
    other.write_text("hello\n")
    assert_user_error(run("sim", "--gauntlet", "normal,easy", "--results", str(other), "--lang", "en"),
                      "not a results file")


def test_ctrl_c_keeps_every_finished_game_and_says_how_to_go_on(tmp_path, monkeypatch):
    import hearts_cli.sim.results as simulation

    args = ["--gauntlet", "normal,easy", "--deals", "10", "--seed", "c1"]
    expected = _json(*args)
    written = simulation._half_json
    calls = []

    def interrupted(half):
        calls.append(half)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return written(half)

    monkeypatch.setattr(simulation, "_half_json", interrupted)
    path = tmp_path / "r.jsonl"
    result = run("sim", *args, "--results", str(path), "--lang", "en")
    assert result.exit_code == 130
    assert "the same command goes on from there" in result.stderr and str(path) in result.stderr
    assert len(path.read_text().splitlines()) == 3  # the header and the two games finished
    monkeypatch.setattr(simulation, "_half_json", written)
    assert _timeless(_json(*args, "--results", str(path))) == _timeless(expected)


@pytest.mark.slow
def test_workers_give_the_same_tournament():
    args = ["--round-robin", "normal,easy,random", "--deals", "6", "--seed", "w"]
    assert _timeless(_json(*args, "--workers", "2")) == _timeless(_json(*args))
