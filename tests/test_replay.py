"""`hearts replay`: golden narratives of the fixture games, positions, the seat's point of
view, analysis marks, annotated records, bad input, and a light start for --json."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run

from hearts_cli.model.cards import Card
from hearts_cli.model.errors import HeartsError
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.records import analysis
from hearts_cli.records import replay as rp
from hearts_cli.records.record_parts import MoveAddress, default_seats
from hearts_cli.records.record_reader import read_record
from hearts_cli.records.record_writer import write_record
from hearts_cli.records.sentences import describe

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "replays"
GAMES = sorted(p.stem for p in FIX.glob("*.yaml"))


@pytest.mark.parametrize("name", GAMES)
def test_golden_narrative(name):
    result = run("replay", str(FIX / f"{name}.yaml"), "--plain", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert result.stdout == (FIX / f"{name}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["quick-4p", "three-players", "five-players"])
def test_the_log_replays_to_the_same_story(name):
    result = run("replay", str(FIX / f"{name}.log"), "--plain", "--lang", "en")
    assert result.exit_code == 0, result.output
    record = read_record(FIX / f"{name}.yaml")
    expected = (FIX / f"{name}.txt").read_text(encoding="utf-8")
    # the log carries no names: the story names the seats by place, as the table does
    for given, place in zip(record.seats, default_seats(record.rules.players)):
        expected = expected.replace(given.name, place.name)
    assert "Player" not in result.stdout
    assert result.stdout == expected


def test_log_from_stdin_and_from_a_string_with_code():
    log = (FIX / "quick-4p.log").read_text(encoding="utf-8")
    body = "\n".join(ln for ln in log.splitlines() if not ln.startswith(("code", "rules")))
    a = run("replay", "-", "--code", "DEM0GAMV", "--target", "30", "--json", input=body)
    b = run("replay", "--moves", body, "--code", "dem0-gamv", "--target", "30", "--json")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    golden = (FIX / "quick-4p.jsonl").read_text(encoding="utf-8").splitlines()
    assert a.stdout == b.stdout
    # the same events; only the seat names differ (a log carries none)
    assert a.stdout.splitlines()[1:] == golden[1:]


def test_spanish_json_and_seat_goldens():
    path = str(FIX / "quick-4p.yaml")
    spanish = (FIX / "quick-4p.es.txt").read_text(encoding="utf-8")
    assert run("replay", path, "--plain", "--lang", "es").stdout == spanish
    assert run("replay", path, "--plain", "--json").stdout == (FIX / "quick-4p.jsonl").read_text(encoding="utf-8")
    seat = run("replay", path, "--plain", "--seat", "1", "--lang", "en").stdout
    assert seat == (FIX / "quick-4p.seat1.txt").read_text(encoding="utf-8")


def test_partial_log_shows_the_table_where_it_stops():
    result = run("replay", str(FIX / "partial.log"), "--plain", "--lang", "en")
    assert result.exit_code == 0
    assert result.stdout == (FIX / "partial.txt").read_text(encoding="utf-8")
    assert "The moves end here, after 41 moves" in result.stdout and "Legal:" in result.stdout


def test_all_hands_shows_every_hand_where_a_partial_log_stops():
    """--all-hands is honoured at the end of a partial log as it is with --at: four hands, not one."""
    moves = ("--code", "K7Q2MXA7", "--moves", "8S 9S TS AS KH 2H QS JS AH KS 6S 2S 2C", "--plain", "--lang", "en")
    story = run("replay", *moves, "--all-hands").stdout
    at = run("replay", *moves, "--at", "6", "--all-hands").stdout
    assert story.endswith("\n\n" + at)  # the same table, every hand, as at the next move
    assert all(f"\n{seat}: " in at for seat in ("South", "West", "North", "East"))
    view = json.loads(run("replay", *moves, "--all-hands", "--json").stdout.splitlines()[-1])
    assert len(view["hands"]) == 4


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Last trick: Ana led 2C, West KC, North 9C, East KS. West takes trick 1, with no points."),
    ("es", "Última baza: Ana 2C (sale), Oeste KC, Norte 9C, Este KS. Oeste se lleva la baza 1, sin puntos."),
])
def test_the_last_trick_says_who_played_which_card(lang, said):
    """--at after a trick: who led it and who played each card, in the live table's `last` words."""
    result = run("replay", str(FIX / "quick-4p.yaml"), "--at", "1.2.1", "--plain", "--lang", lang)
    assert result.stdout.splitlines()[1] == said


def test_json_events_tell_the_whole_game():
    events = [e.to_json() for e in rp.narrate(read_record(FIX / "moon.yaml"))]  # the replay's own events
    kinds = [e["event"] for e in events]
    assert kinds[0] == "start" and kinds[-1] == "game_end"
    assert {"deal", "pass", "lead", "trick", "hearts_broken", "void", "queen", "moon_attempt",
            "moon_stopped", "moon", "round_end"} <= set(kinds)
    moon = next(e for e in events if e["event"] == "moon")
    end = next(e for e in events if e["event"] == "round_end" and e["round"] == moon["round"])
    assert end["scores"][moon["seat"]] == 0 and sorted(end["scores"])[1:] == [26, 26, 26]


def test_events_for_the_jack_and_the_tie_policies():
    record = read_record(FIX / "omnibus-jd.yaml")
    game = record.replay()
    jacks = [e.data for e in rp.narrate(record) if e.kind == "jack"]
    # one event per round in which the J♦ was played, naming the trick and who took it
    expected = [(r + 1, k + 1, t.winner) for r, rd in enumerate(game.rounds)
                for k, t in enumerate(rd.tricks) if Card("JD") in t.cards]
    assert expected and [(e["round"], e["trick"], e["seat"]) for e in jacks] == expected
    assert all(e["points"] == -10 for e in jacks)
    # round 1 of the tie fixtures: the target (10) is reached and two seats tie for lowest
    for name in ("tie-share", "tie-one-more-round", "tie-until-single"):
        events = rp.narrate(read_record(FIX / f"{name}.yaml"))
        ends = [e.data for e in events if e.kind == "round_end"]
        first = ends[0]["totals"]
        assert max(first) >= 10 and first.count(min(first)) == 2
        last = ends[-1]["totals"]
        end = events[-1]
        assert end.kind == "game_end"
        assert end.data["winners"] == [s for s in range(4) if last[s] == min(last)]
        if name == "tie-share":  # shared first place, no more rounds
            assert len(ends) == 1 and len(end.data["winners"]) == 2
            assert [p["place"] for p in end.data["standings"]][:2] == [1, 1]
        else:  # a further round, and then one winner
            assert len(ends) == 2 and len(end.data["winners"]) == 1


def test_seat_view_hides_other_hands_and_passes():
    events = rp.narrate(read_record(FIX / "quick-4p.yaml"), seat=1)
    for ev in events:
        if ev.kind == "pass" and ev.data["seat"] != 1:
            assert ev.data["cards"] is None  # another seat's pass: that it happened, not what
        if ev.kind == "deal":
            assert list(ev.data["hands"]) == [1]
    assert any(ev.kind == "receive" for ev in events)
    assert any(ev.kind == "pass" and ev.data["seat"] == 1 and len(ev.data["cards"]) == 3 for ev in events)


def test_at_position_from_above_and_from_a_seat():
    path = str(FIX / "quick-4p.yaml")
    result = run("replay", path, "--at", "1.6.2", "--all-hands", "--json")
    table = json.loads(result.stdout)
    assert table["event"] == "view"
    assert (table["round"], table["trick_number"], len(table["trick"]), table["turn"]) == (1, 6, 1, 0)
    assert len(table["hands"]) == 4 and table["trick"] == [{"seat": 3, "card": "8S"}]
    assert table["legal"] == ["AS"] and table["seat"] == 0 and table["hand"] == table["hands"]["0"]
    by_number = json.loads(run("replay", path, "--at", str(table["moves"] + 1), "--seat", "2", "--json").stdout)
    assert by_number["trick"] == table["trick"] and "hands" not in by_number
    assert by_number["hand"] == table["hands"]["2"] and by_number["legal"] == []
    explained = run("explain", "AS", "--record", path, "--at", "1.6.2", "--json")
    assert json.loads(explained.stdout)["position"]["hand"] == table["hands"]["0"]
    text = run("replay", path, "--at", "1.pass.2", "--plain", "--lang", "en").stdout
    assert "passing left; North to choose" in text


def test_bad_positions_exit_2():
    path = str(FIX / "quick-4p.yaml")
    for at in ("9.1.1", "banana", "999"):
        result = run("replay", path, "--at", at)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- analysis


def test_analysis_marks_the_planted_blunder_and_is_deterministic():
    record = read_record(FIX / "blunder.yaml")
    planted = MoveAddress.parse((FIX / "blunder.position").read_text().strip())
    upto = next(i for i, m in enumerate(record.moves) if MoveAddress.of(m) == planted)
    cut = type(record)(record.rules, record.code, record.seats, record.moves[:upto + 8])
    first = analysis.analyze(cut, [0], seed=1, simulations=24)
    d = next(d for d in first if d.position == planted)
    assert d.glyph == "??" and d.loss >= 4 and str(d.played[0]) == "QS"
    assert d.reason is not None and d.reason[0] == "an_queen_on_self"
    assert "drops the Q♠ on its own trick" in d.comment("en")
    assert "suelta la Q♠" in d.comment("es")
    again = analysis.analyze(cut, [0], seed=1, simulations=24)
    assert [(x.position, x.glyph, x.values) for x in again] == [(x.position, x.glyph, x.values) for x in first]
    rows = analysis.summary(first, 4, [0])
    assert rows[0].blunders >= 1 and rows[0].lost >= d.loss - 0.05


def test_passes_are_weighed():
    record = read_record(FIX / "quick-4p.yaml")
    cut = type(record)(record.rules, record.code, record.seats, record.moves[:4])
    found = analysis.analyze(cut, seed=0, simulations=8)
    assert [d.move.kind for d in found] == ["pass"] * 4
    assert all(tuple(sorted(d.played)) == d.move.cards for d in found)


def test_annotate_to_writes_a_record_that_replays(tmp_path):
    src = FIX / "blunder.yaml"
    out = tmp_path / "study.yaml"
    planted = (FIX / "blunder.position").read_text().strip()
    result = run("replay", str(src), "--analyze", "--seat", "0", "--simulations", "12", "--annotate-to", str(out),
                 "--plain", "--lang", "en")
    assert result.exit_code == 0, result.output
    annotated = read_record(out)
    note = annotated.annotations[MoveAddress.parse(planted)]
    assert note.glyph == "??"
    assert write_record(annotated.replay()) == write_record(read_record(src).replay())
    assert f"{planted} South: QS??" in result.stdout  # blunder.yaml's seat 0 is "South"
    assert "Analysis (12 deals per decision, seed 0):" in result.stdout
    again = run("replay", str(out), "--plain", "--lang", "en")
    assert again.exit_code == 0


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("moves, code, words", [
    ("KC 9H QS | AC QD JH | KD QH KS | 6C AH AS  2C KC 9X", "movelog_bad_token",
     ["'9X' is not a card", "(line 1, column 50)"]),
    ("KC 9H QS | AC QD 2C | KD QH KS | 6C AH AS", "not_in_hand",
     ["West's pass", "2♣ is not in that hand.", "(round 1; line 1, column 18)"]),
    ("KC 9H QS | AC QD JH | KD QH KS | 6C AH AS  2C KC 9C KS 8C 5C KH 4D", "must_follow_suit",
     ["South cannot play 4♦", "follow suit", "(round 1, trick 2, card 4; line 1, column 65)"]),
    ("KC 9H | AC QD JH KD | QH KS 6C | AH AS", "pass size",
     ["South's pass has 2 cards; a pass is 3 cards.", "(round 1; line 1, column 1)"]),
    ("code K7Q2MXA7\nKC 9H QS", "other code", ["This log is for game K7Q2MXA7, not DEM0GAMV.", "(line 1,"]),
    ("rules standard\nKC 9H QS", "other rules", ["This log is for the rules 'standard'", "(line 1,"]),
])
def test_bad_logs_exit_2_with_one_sentence_and_write_nothing(tmp_path, moves, code, words):
    out = tmp_path / "out.yaml"
    result = run("replay", "--moves", moves, "--code", "DEM0GAMV", "--target", "30", "--annotate-to", str(out))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    for w in words:  # the problem, and where it is
        assert w in result.stderr, (code, w, result.stderr)
    assert not out.exists()


def test_bad_record_and_missing_file_exit_2(tmp_path):
    text = (FIX / "quick-4p.yaml").read_text(encoding="utf-8").replace(
        "{lead: 1, cards: [8C, 5C, KH, 7C]", "{lead: 1, cards: [8C, 5C, KH, 4D]")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    result = run("replay", str(bad))
    assert result.exit_code == 2 and "round 1, trick 2, card 4" in result.stderr
    assert "line" in result.stderr
    assert run("replay", str(tmp_path / "nope.yaml")).exit_code == 2
    assert run("replay", str(FIX / "quick-4p.yaml"), "--code", "DEM0GAMV").exit_code == 2
    assert run("replay").exit_code == 2
    assert run("replay", str(FIX / "quick-4p.yaml"), "--seat", "7").exit_code == 2


# ---------------------------------------------------------------- scripted use


def _hearts(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_cli", *args], capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_json_analysis_is_the_same_under_two_hash_seeds():
    args = ("replay", str(FIX / "blunder.yaml"), "--json", "--analyze", "--seat", "0",
            "--simulations", "4")
    outs = [_hearts(*args, env=dict(os.environ, PYTHONHASHSEED=s)).stdout for s in ("1", "2")]
    assert outs[0] == outs[1] and '"glyph": "??"' in outs[0]


@pytest.mark.parametrize("args", [
    [str(FIX / "quick-4p.yaml"), "--json"],
    ["--code", "K7Q2MXA7", "--moves", "8S 9S TS AS KH 2H QS JS AH KS 6S 2S 2C", "--json"],
])
def test_replay_json_starts_light(args):
    code = (
        "import sys\n"
        "from hearts_cli.cli.app import app\n"
        f"sys.argv = ['hearts', 'replay', *{args!r}]\n"
        "try:\n    app(prog_name='hearts')\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('\\n'.join(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    mods = set(proc.stderr.split("\n"))
    assert "hearts_cli.records.replay" in mods
    assert {m for m in mods if m.split(".")[0] in ("prompt_toolkit", "rich", "pygments")} == set()
    # nor what only other paths need: explain (--at), the analysis and the bots (--analyze),
    # the wording of the story (text), the typed payloads (the type checker's), OpenSSL
    # (hashlib's _hashlib: the deal's SHA-256 comes from CPython's own module)
    only_elsewhere = ("hearts_cli.records.explain", "hearts_cli.records.analysis", "hearts_cli.records.sentences",
                      "hearts_cli.play.payloads", "_hashlib")
    unwanted = {m for m in mods if m in only_elsewhere or m.startswith("hearts_cli.bots")}
    assert unwanted == set()


def test_round_trip_scripted_game():
    """Play a scripted game, write its record, replay it: same scores, same bytes."""
    from hearts_cli.bots import suggest
    from hearts_cli.model.codes import seed_for
    from hearts_cli.model.rules import Rules
    from hearts_cli.records.movelog import format_log, replay_log
    from hearts_cli.records.record import GameRecord

    game = Game(Rules.from_spec({"preset": "quick", "players": 5, "target": 20}), "K7Q2MXA7")
    while not game.over:
        rd = game.round
        if rd.phase is Phase.PASS:
            for s in range(5):
                game.push_pass(suggest(rd.view(s), "easy", seed_for(game.code, "cpu", s)), s)
        else:
            game.push(suggest(rd.view(rd.turn), "easy", seed_for(game.code, "cpu", rd.turn)))
    text = write_record(game)
    record = read_record(text)
    again = record.replay()
    assert again.totals == game.totals and record.to_text() == text
    from_log = replay_log("\n".join(format_log(game))).game
    assert write_record(from_log) == text
    events = rp.narrate(GameRecord.from_game(game))
    assert events[-1].data["standings"] == [{"place": p, "seat": s, "total": v} for p, s, v in game.standings()]


# ---------------------------------------------------------------- how seats and points are said


def _as_the_game_names_them(tmp_path) -> Path:
    """quick-4p as `hearts play` records it: the person's seat is named "You"."""
    text = (FIX / "quick-4p.yaml").read_text(encoding="utf-8").replace("name: Ana,", "name: You,")
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_persons_seat_is_told_in_the_third_person_as_south(tmp_path):
    path = str(_as_the_game_names_them(tmp_path))
    story = run("replay", path, "--plain", "--lang", "en").stdout
    assert "South, West, North, East" in story
    assert "South passes KC, 9H, QS to West." in story and "South leads." in story
    # no "You deals", "You takes it", "You's moon"...
    assert "You" not in story
    seat = run("replay", path, "--plain", "--lang", "en", "--seat", "0").stdout
    assert "Told from South's seat" in seat and "You" not in seat
    es = run("replay", path, "--plain", "--lang", "es").stdout
    assert "Sur, Oeste, Norte, Este" in es and "Sale Sur." in es
    assert "Tú" not in es and "You" not in es and "West" not in es


def test_points_are_singular_for_one(tmp_path):
    for lang, one, many in (("en", ", with 1 point.", ", with no points."), ("es", ", con 1 punto.", ", sin puntos.")):
        story = run("replay", str(FIX / "quick-4p.yaml"), "--plain", "--lang", lang).stdout
        assert one in story and many in story
        assert "1 points" not in story and "1 puntos" not in story


@pytest.mark.parametrize("lang, words", [
    ("en", ["West cannot play 4♣", "(round 1, trick 1, card 2;"]),
    ("es", ["Oeste no puede jugar 4♣", "(ronda 1, baza 1, carta 2;"]),
])
def test_move_log_errors_name_the_seat_as_the_story_does(lang, words):
    moves = "2D 3D TH AD KH AS 7D QH AH 5C JC KS 2C 4C"
    story = run("replay", "--code", "K7Q2MXA7", "--moves", moves[:-3], "--lang", lang).stdout
    assert words[0].split(" ")[0] in story  # the story names the seat the same way
    assert "Player" not in story and "Jugador" not in story
    result = run("replay", "--code", "K7Q2MXA7", "--moves", moves, "--lang", lang)
    assert result.exit_code == 2 and result.stdout == ""
    for w in words:
        assert w in result.stderr, result.stderr
    assert "Seat" not in result.stderr and "asiento" not in result.stderr


@pytest.mark.parametrize("reason, loss, expected", [
    (None, 0.0, "  1.1.2 Ana: A♦ expects 0.1 pts."),
    (None, 0.4, "  1.1.2 Ana: A♦ expects 0.5 pts (best 8♣: 0.1)."),
    (("an_only_good", {"diff": "1.0"}), 0.0,
     "  1.1.2 Ana: A♦! expects 0.1 pts; the only good card: every other one costs at least 1.0 more."),
    (("an_generic", {"best": Card("8C"), "diff": "0.4"}), 0.4,
     "  1.1.2 Ana: A♦ expects 0.5 pts (best 8♣: 0.1); 8♣ was worth 0.4 pts less on average."),
])
def test_a_weighed_decision_reads_as_one_sentence(reason, loss, expected):
    record = read_record(FIX / "quick-4p.yaml")
    data = {"position": "1.1.2", "seat": 0, "played": [Card("AD")], "glyph": "!" if reason and
            reason[0] == "an_only_good" else "", "expected": 0.1 + loss, "loss": loss,
            "best": [Card("8C")], "best_expected": 0.1, "reason": reason[0] if reason else None,
            "reason_params": reason[1] if reason else {}, "round": 1, "kind": "play", "values": {}}
    assert describe(rp.Event("decision", data), record, "en") == [expected]
    spanish = describe(rp.Event("decision", data), record, "es")[0]
    assert spanish.endswith(".") and ("; " in spanish) == bool(reason)


def test_the_records_layer_gives_what_the_command_prints():
    """hearts replay is a thin command: records.replay reads the game and gives every line."""
    path = FIX / "partial.log"
    text, where = rp.read_input(str(path), None, "en", ascii=True)
    record = rp.open_game(text, where)
    options = rp.Options(lang="en", ascii=True)
    rp.check(record, options)
    lines = rp.output(record, options)
    assert "\n".join(line for line, _ in lines) + "\n" == (FIX / "partial.txt").read_text(encoding="utf-8")
    assert ("  Hearts are broken: East plays KH.", "red") in lines  # in red on a colour terminal


def test_the_records_layer_refuses_what_a_person_can_get_wrong():
    record = read_record(FIX / "quick-4p.yaml")
    text = (FIX / "quick-4p.yaml").read_text(encoding="utf-8")
    with pytest.raises(HeartsError) as e:
        rp.open_game(text, None, code="DEM0GAMV")  # a record names its own code
    assert e.value.message_id == "rp_cli_code_with_record"
    with pytest.raises(HeartsError) as e:
        rp.check(record, rp.Options(seat=4))
    assert e.value.message_id == "cli_bad_seat"
    with pytest.raises(HeartsError) as e:
        rp.output(record, rp.Options(analyze=True, simulations=0))
    assert e.value.message_id == "sim_at_least_one"


def test_every_colour_style_of_the_story_belongs_to_an_event_it_tells():
    """A style keyed by a kind the story never tells never shows: round headers were once
    meant bold under a key no event had."""
    from hearts_cli.play.events import KINDS
    from hearts_cli.records.record_reader import read_record
    from hearts_cli.records.replay import STYLES, Options, output

    record = read_record(FIX.parent / "records" / "quick-4p-finished.yaml")
    assert set(STYLES) <= set(KINDS)
    styled = output(record, Options(lang="en"))
    heads = [line for line, style in styled if style == "bold" and line.startswith("Round ")]
    assert len(heads) == len(record.replay().rounds)


# ---------------------------------------------------------------- the analysis's budget and pace


def test_the_analysis_weighs_with_the_hints_own_budget_and_its_help_says_so():
    """One budget, defined once: `--analyze` by default weighs as the hint does (issue 18 §2)."""
    from hearts_cli.records import hint

    assert rp.Options(analyze=True).simulations == analysis.DEFAULT_SIMULATIONS == 600
    assert hint.hint_for.__defaults__ == (analysis.DEFAULT_SIMULATIONS,)
    for lang, words in (("en", "(default 600, the hint's own budget"),
                        ("es", "(por defecto 600, el presupuesto de la pista")):
        text = " ".join(run("replay", "--help", "--lang", lang, env={"COLUMNS": "200"}).output.split())
        assert words in text


@pytest.mark.slow  # two processes spawned
def test_one_or_two_worker_processes_give_the_same_analysis():
    """Each decision is weighed at its own seed: the pool changes the time, never the output."""
    args = ("replay", str(FIX / "blunder.yaml"), "--json", "--analyze", "--seat", "0", "--simulations", "6")
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout and '"event": "decision"' in one.stdout


def test_a_deep_analysis_uses_every_core_and_a_quick_look_stays_in_one_process(monkeypatch):
    from hearts_cli.cli.commands import replay as command

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert command._mapper(None, 600) is not None  # the default budget: two processes here
    assert command._mapper(None, 40) is None  # --simulations 40: starting them costs more
    assert command._mapper(2, 40) is not None and command._mapper(1, 600) is None  # as asked


@pytest.mark.parametrize("workers, words", [("0", "1 or more"), ("65", "at most 64")])
def test_workers_out_of_range_are_refused(workers, words):
    from conftest import assert_user_error

    assert_user_error(run("replay", str(FIX / "blunder.yaml"), "--analyze", "--workers", workers),
                      "--workers", words)


@pytest.mark.parametrize("lang, columns", [("en", 80), ("en", 40), ("es", 40), ("es", 120)])
def test_the_progress_line_says_how_far_and_how_long_in_one_line(monkeypatch, capsys, lang, columns):
    """On a terminal's stderr: decisions weighed of how many, about how long is left once one is
    weighed, a bar where the width leaves room; written over in place, never wider than the
    terminal (a wrapped line could not be written over)."""
    import time

    from hearts_cli.cli.commands.replay import _progress
    from hearts_cli.cli.output import Out

    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    monkeypatch.setenv("COLUMNS", str(columns))
    tick = _progress(Out(lang, ascii=False, color=False))
    shown = []
    for done, seconds in ((0, 0), (1, 1.5), (5, 6), (40, 100)):
        clock[0] = 1000.0 + seconds
        tick(done, 40)
        shown.append(capsys.readouterr().err)
    assert all(s.startswith("\r") and len(s.rstrip("\n")) <= columns for s in shown)
    assert shown[-1].endswith("\n") and not any(s.endswith("\n") for s in shown[:-1])
    first, after_one, after_five, last = (s.strip() for s in shown)
    if lang == "en":
        assert first.endswith("Analysing: 0/40 decisions")
        assert after_one.endswith("1/40 decisions, about 58 s left")  # 1.5 s a decision
        assert after_five.endswith("5/40 decisions, about 42 s left")
        assert last.endswith("Analysing: 40/40 decisions")
    else:
        assert after_one.endswith("1/40 decisiones, quedan unos 58 s")
    assert after_one.startswith(("Analysing", "Analizando", "[")) == (columns > 40)  # fewer words at 40
    assert ("[" in after_five) == (columns >= 80)  # the bar, where there is room for it
    clock[0] = 1000.0
    long = _progress(Out("en", ascii=False, color=False))
    long(0, 400)
    clock[0] = 1010.0
    long(1, 400)
    assert "about 66 min left" in capsys.readouterr().err


def test_the_progress_counts_the_decisions_the_summary_counts():
    """Forced moves are neither weighed nor counted: the progress goes to the summary's number."""
    record = read_record(FIX / "blunder.yaml")
    calls: list[tuple[int, int]] = []
    decisions = analysis.analyze(record, [0], simulations=4, progress=lambda done, total: calls.append((done, total)))
    n = len(decisions)
    assert calls[0] == (0, n) and calls[-1] == (n, n) and len(calls) == n + 1
    [row] = analysis.summary(decisions, record.rules.players, [0])
    assert row.decisions == n
