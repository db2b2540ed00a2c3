"""`hearts sim`: bot tournaments through the command line, their numbers, determinism, errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hearts_cli.bots.match import BREAKDOWN, play_game, rotations, run_tournament
from hearts_cli.cli.app import app
from hearts_cli.model.cards import Card
from hearts_cli.model.codes import is_code
from hearts_cli.model.rules import Rules

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("isolated")  # tests/conftest.py: English, a save directory of our own


def sim_json(*args: str) -> dict:
    result = runner.invoke(app, ["sim", *args, "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    assert result.stderr == ""  # no progress bar without a terminal, nothing else either
    return json.loads(result.stdout)


def without_times(data: dict) -> dict:
    data = json.loads(json.dumps(data))
    for key in ("seconds", "workers"):
        data.pop(key)
    for st in data["levels"].values():
        st.pop("decision_ms")
    return data


def check_consistent(data: dict, rules: Rules) -> None:
    """Every number in the report agrees with the game log and the rules."""
    n = rules.players
    seats = data["seats"]
    bonus = rules.round_total - rules.penalty_total  # the J♦ (-10) when in play, else 0
    expected_seatings = rotations(seats, data["duplicate"])
    assert data["games"] == len(data["game_log"]) >= 1
    assert data["rotations"] == len(expected_seatings)
    points = dict.fromkeys(seats, 0)
    rounds = dict.fromkeys(seats, 0)
    shot = dict.fromkeys(seats, 0)
    stopped = dict.fromkeys(seats, 0)
    threats = dict.fromkeys(seats, 0)
    won = dict.fromkeys(seats, 0.0)
    parts = {lv: dict.fromkeys(BREAKDOWN, 0) for lv in seats}
    deals = table_rounds = 0
    for game in data["game_log"]:
        assert [tuple(p["seats"]) for p in game["plays"]] == expected_seatings
        deals += max(len(p["rounds"]) for p in game["plays"])
        for play in game["plays"]:
            table_rounds += len(play["rounds"])
            totals = [0] * n
            for r in play["rounds"]:
                scores = r["scores"]
                assert len(scores) == n
                if r["shooter"] is None:
                    assert sum(scores) == rules.round_total
                elif rules.moon == "others":
                    assert sum(scores) == (n - 1) * rules.penalty_total + bonus
                    assert scores[r["shooter"]] == min(scores)
                else:  # shooter_minus
                    assert sum(scores) == -rules.penalty_total + bonus
                # a threat ends in a moon (by the threatening seat) or is stopped by another seat
                if r["threat"] is None:
                    assert r["shooter"] is None and r["stopped_by"] is None
                else:
                    assert (r["shooter"] == r["threat"]) != (r["stopped_by"] is not None)
                    assert r["stopped_by"] != r["threat"]
                for s, lv in enumerate(play["seats"]):
                    for key, value in breakdown_from_cards(rules, r, s).items():
                        parts[lv][key] += value
                    totals[s] += scores[s]
                    points[lv] += scores[s]
                    rounds[lv] += 1
                    shot[lv] += r["shooter"] == s
                    stopped[lv] += r["stopped_by"] == s
                    threats[lv] += r["threat"] == s
            assert play["totals"] == totals
            assert max(totals) >= rules.target  # games are played whole
            assert play["winners"] == [s for s in range(n) if totals[s] == min(totals)]
            for s in play["winners"]:
                won[play["seats"][s]] += 1 / len(play["winners"])
    assert data["deals"] == deals >= data["deals_requested"]
    assert data["rounds"] == table_rounds
    for lv, st in data["levels"].items():
        assert st["seats"] == seats.count(lv)
        assert st["rounds"] == rounds[lv] == seats.count(lv) * table_rounds
        assert st["points"] == points[lv]
        assert st["mean"] == pytest.approx(points[lv] / rounds[lv], abs=1e-4)
        assert (st["ci95"] > 0) == (data["games"] > 1)  # a CI over games needs two
        assert st["moons_shot"] == shot[lv]
        assert st["moons_stopped"] == stopped[lv]
        assert st["moon_threats"] == threats[lv]
        assert st["breakdown"] == parts[lv]
        assert sum(st["breakdown"].values()) == st["points"]
        assert st["moon_points"] == st["breakdown"]["moons_conceded"]
        assert st["won"] == pytest.approx(won[lv], abs=1e-3)
        assert st["games"] == sum(len(g["plays"]) for g in data["game_log"])
        assert st["decision_ms"]["count"] > 0
    assert sum(st["won"] for st in data["levels"].values()) == pytest.approx(
        sum(len(g["plays"]) for g in data["game_log"]), abs=1e-3)
    assert sum(st["moon_threats"] for st in data["levels"].values()) == sum(
        st["moons_shot"] + st["moons_stopped"] for st in data["levels"].values())


def breakdown_from_cards(rules: Rules, r: dict, seat: int) -> dict[str, int]:
    """A seat's round score by source, from the scoring cards the log says it took."""
    taken = [Card(x) for x in r["taken"][seat]]
    assert all(rules.points[c] for c in taken)  # the log lists only cards worth points
    pts = {c: rules.points[c] for c in taken}
    jack = pts.pop(Card("JD"), 0)
    score = r["scores"][seat]
    out = dict.fromkeys(BREAKDOWN, 0)
    out["jack"] = jack
    if r["shooter"] is None:
        out["hearts"] = sum(v for c, v in pts.items() if c.suit == 2)
        out["queen"] = pts.get(Card("QS"), 0)
        out["other"] = sum(v for c, v in pts.items() if c.suit != 2 and c != Card("QS"))
        assert sum(out.values()) == score  # the cards taken are exactly what the round charged
    elif r["shooter"] == seat:
        assert sum(pts.values()) == rules.penalty_total  # every penalty card
        out["moon_bonus"] = score - jack
        assert out["moon_bonus"] == (0 if rules.moon == "others" else -rules.penalty_total)
    else:
        assert not pts  # the shooter took them all
        out["moons_conceded"] = score - jack
        assert out["moons_conceded"] == (rules.penalty_total if rules.moon == "others" else 0)
    return out


def test_smoke_duplicate_quick():
    data = sim_json("--seats", "normal,easy,random,random", "--deals", "12", "--duplicate", "--seed", "smoke")
    assert data["duplicate"] and data["rotations"] == 4 and data["seed"] == "smoke"
    assert set(data["levels"]) == {"normal", "easy", "random"}
    check_consistent(data, Rules.from_spec("quick"))
    # the random baseline loses points against the others, even in a short run
    assert data["levels"]["random"]["mean"] > data["levels"]["normal"]["mean"]


@pytest.mark.parametrize("args, spec", [
    (["--preset", "kitty", "--seats", "easy,random,random"], "kitty"),
    (["--preset", "omnibus", "--seats", "random,random,easy,random"], "omnibus"),
    (["--preset", "shooter-minus", "--seats", "random,random,random,random"], "shooter-minus"),
    (["--preset", "reference", "--players", "5", "--seats", "easy,random,random,random,random", "--duplicate"],
     {"preset": "reference", "players": 5}),
])
def test_other_rules_are_consistent(args, spec):
    data = sim_json(*args, "--deals", "3", "--seed", "presets")
    rules = Rules.from_spec(spec)
    assert data["players"] == rules.players
    check_consistent(data, rules)


@pytest.mark.parametrize("preset", ["quick", "omnibus", "shooter-minus", "black-maria", "spot"])
def test_points_break_down_by_source_against_a_moon_runner(preset):
    """The high seat shoots often against Easy: moons conceded and the J♦ show up, and every part adds up."""
    rules = Rules.from_spec(preset)
    seats = ",".join(["bench.bots.exploit:HighBot"] + ["easy"] * (rules.players - 1))  # through the hook
    data = sim_json("--preset", preset, "--seats", seats, "--deals", "12", "--seed", "parts")
    check_consistent(data, rules)
    high, easy = data["levels"]["bench.bots.exploit:HighBot"], data["levels"]["easy"]
    assert high["moons_shot"] >= 1
    if rules.moon == "others":
        assert easy["moon_points"] == (rules.players - 1) * rules.penalty_total * high["moons_shot"] > 0
    else:
        assert easy["moon_points"] == 0
        assert high["breakdown"]["moon_bonus"] == -rules.penalty_total * high["moons_shot"]
    if preset == "omnibus":
        assert high["breakdown"]["jack"] + easy["breakdown"]["jack"] < 0
    if preset == "black-maria":
        assert high["breakdown"]["other"] + easy["breakdown"]["other"] > 0  # the K♠ and A♠


def test_same_seed_same_results_and_another_seed_other_games():
    args = ("--seats", "easy,random,easy,random", "--deals", "8", "--duplicate")
    a = sim_json(*args, "--seed", "same")
    b = sim_json(*args, "--seed", "same")
    c = sim_json(*args, "--seed", "other")
    assert without_times(a) == without_times(b)
    assert [g["code"] for g in a["game_log"]] != [g["code"] for g in c["game_log"]]


def test_workers_give_the_same_results():
    args = ("--seats", "normal,random,easy,random", "--deals", "10", "--duplicate", "--seed", "workers")
    one = sim_json(*args, "--workers", "1")
    two = sim_json(*args, "--workers", "2")
    assert two["workers"] == 2
    assert without_times(one) == without_times(two)


def test_duplicate_plays_each_game_code_once_per_rotation():
    rules = Rules.from_spec("quick")
    seats = ["easy", "random", "random", "random"]
    games = run_tournament(rules, seats, 4, "dup", duplicate=True)
    for g in games:
        # the easy seat moves one place per rotation, on the same game code
        assert [p.levels.index("easy") for p in g.plays] == [0, 3, 2, 1]
        # and each rotation is exactly that game played alone with that seating
        assert [play_game(rules, g.code, p.levels).rounds for p in g.plays] == [p.rounds for p in g.plays]
    single = run_tournament(rules, seats, 4, "dup", duplicate=False)
    assert [g.code for g in single] == [g.code for g in games][:len(single)]
    assert all(len(g.plays) == 1 and g.plays[0].levels == tuple(seats) for g in single)


def test_combined_settings_are_played_and_named():
    args = ["--preset", "online", "--players", "3", "--set", "jack_of_diamonds=true", "--seats", "easy,random,random",
            "--deals", "3", "--seed", "set"]
    data = sim_json(*args)
    rules = Rules.from_spec({"preset": "online", "players": 3, "jack_of_diamonds": True})
    assert data["rules"] == rules.spec()
    check_consistent(data, rules)
    text = runner.invoke(app, ["sim", *args, "--plain"]).stdout
    head = " ".join(text.split("\n\n")[0].splitlines())  # the title and what was played, wrapped
    assert "Changed from the preset: players=3, jack_of_diamonds=true. " in head, text


def test_human_table_plain_and_spanish():
    result = runner.invoke(app, ["sim", "--seats", "easy,random,random,random", "--deals", "2", "--seed", "t",
                                 "--plain"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Preset quick, 4 players; seats easy,random,random,random; seed t."
    assert any(line.startswith("level") and "pts/round" in line for line in lines)
    assert any(line.split()[:2] == ["random", "3"] for line in lines)
    es = runner.invoke(app, ["sim", "--seats", "easy,random,random,random", "--deals", "2", "--seed", "t",
                             "--plain", "--lang", "es"])
    assert es.exit_code == 0
    assert "semilla t" in es.stdout and "pts/ronda" in es.stdout


def test_default_seats_and_fresh_seed():
    data = sim_json("--deals", "1", "--simulations", "2", "--players", "3")
    assert data["seats"] == ["hard", "normal", "normal"]
    assert data["simulations"] == 2
    assert is_code(data["seed"])  # a fresh game code, so the run can be repeated with --seed
    again = sim_json("--deals", "1", "--simulations", "2", "--players", "3")
    assert again["seed"] != data["seed"]
    assert data["game_log"][0]["code"] != again["game_log"][0]["code"]


@pytest.mark.parametrize("args, words", [
    (["--seats", "hard,normal,normal"], ["3 seats", "4 players"]),
    (["--seats", "hard,normal"], ["2 seats", "3 to 6"]),
    (["--seats", "hard,expert,normal,normal"], ["'expert'", "random, easy, normal, hard", "module:Class"]),
    (["--preset", "nope"], ["nope"]),
    (["--deals", "0"], ["--deals", "1"]),
    (["--workers", "0"], ["--workers"]),
    (["--simulations", "0"], ["--simulations"]),
    (["--seats", "random,random,random", "--players", "4", "--lang", "es"], ["3 asientos", "4 jugadores"]),
])
def test_errors_are_one_sentence_and_exit_2(args, words):
    result = runner.invoke(app, ["sim", *args])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    for w in words:
        assert w in err, err


def _stopped_after(monkeypatch, games: int) -> None:
    """Ctrl-C once ``games`` games have ended (each told to the export, if any, first)."""
    import hearts_cli.sim.games as simulation

    def interrupted(rules, seats, deals, seed, duplicate, sims, mapper, progress, on_game, job):
        ended = []

        def game_over(game):
            if on_game is not None:
                on_game(game)
            ended.append(game)
            if len(ended) == games:
                raise KeyboardInterrupt

        return run_tournament(rules, seats, deals, seed, duplicate, sims, mapper, progress, game_over, job)

    monkeypatch.setattr(simulation, "run_tournament", interrupted)


@pytest.mark.parametrize("lang, words", [("en", ["not kept", "--results FILE"]),
                                         ("es", ["no se guardan", "--results ARCHIVO"])])
def test_ctrl_c_says_that_no_game_is_kept_without_a_results_file(monkeypatch, lang, words):
    """Issue 33 §4: Ctrl-C in hearts sim ended without a word on where the games went."""
    _stopped_after(monkeypatch, 1)
    result = runner.invoke(app, ["sim", "--seats", "random,random,random,random", "--deals", "3",
                                 "--seed", "x", "--lang", lang])
    assert result.exit_code == 130 and result.stdout == ""
    err = result.stderr.strip()
    assert "\n" not in err and "Traceback" not in err and all(w in err for w in words), err


def test_ctrl_c_says_where_the_exported_games_are(monkeypatch, tmp_path):
    _stopped_after(monkeypatch, 2)
    path = tmp_path / "games.pbn"
    result = runner.invoke(app, ["sim", "--seats", "random,random,random,random", "--deals", "40",
                                 "--seed", "x", "--export", f"pbn:{path}", "--lang", "en"])
    assert result.exit_code == 130
    assert f"The 2 games finished are written to {path}" in result.stderr
    assert path.read_text().count("% hearts-pbn/1") == 2  # and they are there, whole


def test_ctrl_c_in_a_gauntlet_without_a_results_file_says_none_is_kept(monkeypatch):
    import hearts_cli.sim.tournaments as tournament

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(tournament, "run_pairings", interrupted)
    result = runner.invoke(app, ["sim", "--gauntlet", "random,easy", "--deals", "2", "--lang", "en"])
    assert result.exit_code == 130 and "The games finished are not kept" in result.stderr


def test_a_results_file_that_cannot_be_written_is_one_sentence_and_nothing_is_played(tmp_path):
    missing = tmp_path / "no such folder" / "r.jsonl"
    exported = tmp_path / "games.pbn"
    result = runner.invoke(app, ["sim", "--gauntlet", "normal,easy", "--deals", "2", "--results", str(missing),
                                 "--export", f"pbn:{exported}"])
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stderr.strip() == f"{missing} cannot be written: No such file or directory"
    assert "Traceback" not in result.stdout + result.stderr
    assert not missing.parent.exists()
    assert exported.read_text(encoding="utf-8") == ""  # opened before, closed again: no game in it
