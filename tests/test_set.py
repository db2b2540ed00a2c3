"""Any combination of settings: ``--set KEY=VALUE`` on new, rules and sim, and overrides in the protocol."""

from __future__ import annotations

import json

import pytest
from conftest import run

from hearts_cli.model.cards import Card
from hearts_cli.model.overrides import parse_set, valid_values
from hearts_cli.model.rules import CHOICES, FLAGS, SETTINGS, Rules, RulesError

# 004's three-player game (the 2♦ removed) with 003's Omnibus J♦ −10: no preset offers both
COMBINED = ["--preset", "online", "--players", "3", "--set", "jack_of_diamonds=true"]


def rules_json(*args: str) -> dict:
    result = run("rules", "--json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# ---------------------------------------------------------------- reading KEY=VALUE


def test_each_kind_of_value_is_read_by_its_setting():
    assert parse_set(["moon=off", "players=3", "first-trick=any", "jack_of_diamonds=Yes", "spot_hearts=false",
                      "passing=right,left", "removal=3:2D;5:2D,2C", "target=75"]) == {
        "moon": "off", "players": 3, "first_trick": "any", "jack_of_diamonds": True, "spot_hearts": False,
        "passing": ["right", "left"], "removal": {3: ["2D"], 5: ["2D", "2C"]}, "target": 75,
    }
    assert parse_set(["passing=across"]) == {"passing": ["across"]}  # a direction is a one-step cycle
    assert parse_set(["passing=left", "passing=none"]) == {"passing": "none"}  # the last one wins


@pytest.mark.parametrize("item, words", [
    ("foo=1", ["'foo' is not a setting", *SETTINGS]),
    ("mooon", ["'mooon' is not a setting: write KEY=VALUE"]),
    # a setting written without its value is named as a setting, with what it takes
    ("target", ["target needs a value: write target=VALUE", "it takes"]),
    ("moon", ["moon needs a value: write moon=VALUE", *CHOICES["moon"]]),
    ("moon=sometimes", ["moon cannot be 'sometimes'", *CHOICES["moon"]]),
    ("players=x", ["players cannot be 'x'", "3 to 6"]),
    ("jack_of_diamonds=maybe", ["'maybe'", "true or false"]),
    ("passing=up", ["'up'", "left, right, across, none"]),
    ("removal=3:ZZ", ["'3:ZZ'", "3:2D;5:2D,2C"]),
])
def test_a_bad_item_says_what_is_valid(item, words):
    with pytest.raises(RulesError) as e:
        parse_set([item])
    sentence = e.value.message("en")
    for w in words:
        assert w in sentence, sentence
    assert e.value.message("es") != sentence


@pytest.mark.parametrize("key", SETTINGS)
def test_every_setting_says_its_values_in_both_languages(key):
    assert valid_values(key, "en") and valid_values(key, "es")
    assert valid_values(key, "en") != valid_values(key, "es") or key in CHOICES


# ---------------------------------------------------------------- the command line


def test_rules_prints_the_combined_rules():
    data = rules_json(*COMBINED)
    assert data["preset"] == "online"
    assert data["overrides"] == {"players": 3, "jack_of_diamonds": True}
    assert data["settings"]["jack_of_diamonds"] is True and data["settings"]["ties"] == "until_single"
    text = run("rules", *COMBINED).stdout
    assert "Changed from the preset: players=3, jack_of_diamonds=true." in text
    assert "2♦ is taken out" in text and "J♦" in text


@pytest.mark.parametrize("key, value", [(k, v) for k, vs in CHOICES.items() for v in vs]
                         + [(k, v) for k in FLAGS for v in ("true", "false")])
def test_every_value_of_every_setting_can_be_set(key, value):
    players = ["--players", "3"] if key == "deck" else []
    data = rules_json("--preset", "standard", *players, "--set", f"{key}={value}")
    assert str(data["settings"][key]).lower() == value


def test_players_and_target_win_over_set_and_sets_combine():
    data = rules_json("--set", "target=80", "--set", "moon=off", "--target", "60")
    assert data["settings"]["target"] == 60 and data["settings"]["moon"] == "off"


@pytest.mark.parametrize("args, words", [
    (["--set", "colour=red"], ["'colour' is not a setting", "jack_of_diamonds"]),
    (["--set", "moon=never"], ["moon cannot be 'never'", "shooter_choice"]),
    (["--set", "players=2"], ["players", "3 to 6"]),
    (["--set", "players=7"], ["players", "--preset cancellation"]),  # two decks play 7
    (["--set", "target=0"], ["target", "above 0"]),
    (["--players", "3", "--set", "passing=across"], ["passing", "across"]),
    (["--set", "moon=\x1b[31m" + "x" * 300], ["moon cannot be"]),
])
@pytest.mark.parametrize("command", ["rules", "new", "sim"])
def test_a_bad_setting_is_one_sentence_and_exit_2(isolated, command, args, words):
    extra = ["--no-play"] if command == "new" else []
    result = run(command, *extra, *args)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr
    assert err.count("\n") == 1 and "Traceback" not in err and "\x1b" not in err and len(err) < 400, err
    for w in words:
        assert w in err, err


def test_new_keeps_preset_and_overrides_in_the_record(isolated):
    from hearts_cli.records.record_reader import read_record
    from hearts_cli.store.saves import Store

    result = run("new", "--no-play", "--code", "K7Q2MXA7", *COMBINED)
    assert result.exit_code == 0, result.stderr
    assert "Changed from the preset: players=3, jack_of_diamonds=true." in result.stdout  # said at the start
    store = Store()
    text = store.save_path.read_text(encoding="utf-8")
    assert "preset: online" in text and "jack_of_diamonds: true" in text
    record = read_record(store.save_path)
    rules = record.rules
    assert rules.spec() == {"preset": "online", "players": 3, "jack_of_diamonds": True}
    assert Rules.from_spec(rules.spec()) == rules
    assert rules.removed == (Card("2D"),) and rules.points[Card("JD")] == -10
    dealt = [record.replay().rounds[0].hand(seat) for seat in range(3)]
    assert [len(h) for h in dealt] == [17, 17, 17] and all(Card("2D") not in h for h in dealt)


def test_sim_plays_the_combined_rules(monkeypatch):
    from hearts_cli.cli import sim

    seen = {}

    def fake_run(rules, seats, deals, seed, **kw):
        seen["rules"] = rules
        raise SystemExit(0)

    monkeypatch.setattr(sim, "run", fake_run)
    result = run("sim", "--seats", "hard,normal,normal", *COMBINED)
    assert result.exit_code == 0, result.stderr
    assert seen["rules"].spec() == {"preset": "online", "players": 3, "jack_of_diamonds": True}


def test_new_help_lists_the_settings_and_says_where_the_presets_are():
    text = run("new", "--help").stdout
    assert "--set KEY=VALUE" in text
    for key in SETTINGS:
        assert f"  {key} " in text, key
    from hearts_cli.model.rules import preset_names

    for name in preset_names():
        assert f"  {name} " in text, name


# ---------------------------------------------------------------- the protocol


def test_protocol_position_takes_overrides_on_a_preset():
    from hearts_cli.cli.protocol import Session

    s = Session(lang="en")
    spec = {"preset": "online", "players": 3, "jack_of_diamonds": True}
    state = s.handle({"cmd": "position", "code": "K7Q2MXA7", "rules": spec, "reveal": True})
    assert state["ok"], state
    hands = [s.round.hand(seat) for seat in range(3)]
    assert [len(h) for h in hands] == [17, 17, 17] and all(Card("2D") not in h for h in hands)
    assert s.round.rules.spec() == spec and s.round.rules.points[Card("JD")] == -10
    bad = s.handle({"cmd": "position", "code": "K7Q2MXA7", "rules": {"preset": "online", "colour": "red"}})
    assert bad["error"]["code"] == "bad_rules" and bad["error"]["key"] == "colour"
    assert "jack_of_diamonds" in bad["error"]["message"]  # the valid settings are listed


@pytest.mark.parametrize("lang, words", [("en", "Changed from the preset: players=3, jack_of_diamonds=true."),
                                         ("es", "players=3, jack_of_diamonds=true")])
def test_the_games_rules_command_says_what_the_overrides_change(lang, words):
    from hearts_cli.play.game import Game
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    rules = Rules.from_spec({"preset": "online", "players": 3, "jack_of_diamonds": True})
    table = Table(Game(rules, "K7Q2MXA7"), make_seats(3, 0, None), lang=lang)
    renderer = Renderer(table, plain=True)
    table.handle("rules")
    text = "\n".join("".join(part for _, part in line) if isinstance(line, list) else str(line)
                     for ev in table.events for line in renderer.event(ev))
    assert words in " ".join(text.split())


def _varied_rule_sets() -> list[Rules]:
    from hearts_cli.model.rules import Direction

    base = Rules.from_spec("online")
    out = [base.replace(players=3, jack_of_diamonds=True)]
    out += [base.replace(**{key: value}) for key, values in CHOICES.items() for value in values
            if key != "deck"] + [base.replace(players=3, deck="kitty")]
    out += [base.replace(**{flag: not getattr(base, flag)}) for flag in FLAGS]
    out += [base.replace(passing=p) for p in ("left", "none", (Direction.RIGHT, Direction.LEFT))]
    out += [base.replace(removal=((3, (Card("2S"),)), (5, (Card("2S"), Card("3S")))), players=5),
            base.replace(target=77, pass_count=2)]
    return out


@pytest.mark.parametrize("rules", _varied_rule_sets(), ids=lambda r: " ".join(r.spec()) or "base")
def test_written_settings_read_back_to_the_same_rules(rules):
    from hearts_cli.model.overrides import format_set
    from hearts_cli.records.movelog import parse

    items = format_set(rules)
    assert Rules.from_spec({"preset": rules.preset, **parse_set(items)}) == rules
    header = f"code K7Q2MXA7\nrules {rules.preset} {' '.join(items)}\n"  # the move log's header
    assert parse(header).rules == rules


def test_a_move_log_header_in_yaml_flow_style_still_reads():
    from hearts_cli.records.movelog import parse

    rules = parse("rules online players=5 removal={3: [2S], 5: [2S, 3S]} passing=[right, left]\n").rules
    assert rules.removed == (Card("2S"), Card("3S")) and [d.value for d in rules.pass_cycle] == ["right", "left"]


def test_explain_and_replay_take_the_combined_rules_too():
    result = run("explain", "JD", "--code", "K7Q2MXA7", *COMBINED, "--json")
    assert result.exit_code == 0, result.stderr
    assert len(json.loads(result.stdout)["position"]["hand"]) == 17  # three players, the 2♦ out
    log = run("replay", "--code", "K7Q2MXA7", "--moves", "", *COMBINED, "--json")
    assert log.exit_code == 0, log.stderr
    start = json.loads(log.stdout.splitlines()[0])
    assert start["rules"] == {"preset": "online", "players": 3, "jack_of_diamonds": True}
    bad = run("explain", "JD", "--code", "K7Q2MXA7", "--set", "moon=never")
    assert bad.exit_code == 2 and "moon cannot be 'never'" in bad.stderr
