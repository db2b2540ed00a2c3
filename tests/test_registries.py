"""The registries: each CPU level is one entry in ``bots.REGISTRY`` and every place derives from it."""

from __future__ import annotations

import pytest
from conftest import run

from hearts_cli import bots
from hearts_cli.bots import LEVELS, REGISTRY, LevelError, check_level, make_bot
from hearts_cli.cli import options
from hearts_cli.text.catalog import CATALOG, LANGUAGES, t

# ---------------------------------------------------------------- CPU levels


@pytest.mark.parametrize("level", REGISTRY, ids=lambda lv: lv.name)
def test_every_level_has_its_messages_in_both_languages(level):
    for lang in LANGUAGES:
        for mid in (level.message_id, level.about_id):
            assert CATALOG[lang].get(mid, "").strip(), (lang, mid)
    assert t(level.message_id, "en") != t(level.about_id, "en")


HOOKED = ("bench.bots.exploit:HighBot", "bench.bots.hard0:Hard0Bot")  # bot classes of bench/, by the hook


@pytest.mark.parametrize("name", LEVELS)
def test_every_level_makes_its_bot(name):
    bot = make_bot(name, seed=1)
    assert bot.level == name
    assert callable(bot.choose_pass) and callable(bot.choose_card)


def test_level_names_are_checked_in_one_place():
    assert check_level(" Hard ") == "hard"
    with pytest.raises(LevelError) as e:
        check_level("expert")
    for lang in LANGUAGES:
        sentence = e.value.message(lang)
        assert "expert" in sentence
        assert all(name in sentence for name in LEVELS), sentence
    with pytest.raises(LevelError):
        make_bot("expert")
    assert tuple(lv.name for lv in REGISTRY) == LEVELS  # the product's levels only
    for name in HOOKED:  # a bot class of bench/ is for sim and the benches only
        with pytest.raises(LevelError):
            check_level(name)
        assert check_level(name, hook=True) == name
    for name in ("hard0", "high", "shoot"):  # the bench's short names are the bench's
        with pytest.raises(LevelError):
            check_level(name, hook=True)


@pytest.mark.parametrize("name", LEVELS)
def test_every_level_is_accepted_by_hearts_new(isolated, name):
    result = run("new", "--level", name.upper(), "--no-play", "--lang", "en")
    assert result.exit_code == 0, result.stderr
    from hearts_cli.store.saves import Store

    loaded = Store().load()
    assert {s.level for s in loaded.seats if s.kind == "cpu"} == {name}


@pytest.mark.parametrize("name", LEVELS)
def test_every_level_is_accepted_by_the_game_loop(isolated, name):
    import io

    from hearts_cli.repl import start as repl
    from hearts_cli.repl.new_game import NewGame

    out = io.StringIO()
    status = repl.start_new(NewGame.of(level=name), play=False, lang="en", stdin=io.StringIO(""), stdout=out)
    assert status == 0, out.getvalue()


@pytest.mark.parametrize("name", LEVELS)
def test_every_level_is_accepted_by_the_protocol(name):
    from hearts_cli.cli.protocol import Session

    s = Session(lang="en")
    assert s.handle({"cmd": "hello"})["levels"] == list(LEVELS)
    assert s.handle({"cmd": "position", "code": "K7Q2MXA7", "pass": "none"})["ok"]
    reply = s.handle({"cmd": "go", "level": name, "simulations": 2})
    assert reply["ok"] and reply["card"] == "2C", reply  # the first lead is forced
    bad = s.handle({"cmd": "go", "level": "expert"})
    assert bad["error"]["code"] == "bad_field"
    assert all(n in bad["error"]["message"] for n in LEVELS)


@pytest.mark.parametrize("name", LEVELS + HOOKED)
def test_every_level_and_hooked_bot_is_accepted_by_sim(monkeypatch, name):
    from hearts_cli.cli import sim

    seen = {}

    def fake_run(rules, seats, deals, seed, **kw):
        seen["seats"] = seats
        raise SystemExit(0)

    monkeypatch.setattr(sim, "run", fake_run)
    typed = name if ":" in name else name.title()  # a level in any case; a class as it is spelled
    result = run("sim", "--seats", f"hard, {typed},normal,normal", "--deals", "1")
    assert result.exit_code == 0, result.stderr
    assert seen["seats"] == ["hard", name, "normal", "normal"]
    bad = run("sim", "--seats", "hard,normal,normal,expert")
    assert bad.exit_code == 2 and "'expert' is not a CPU level" in bad.stderr
    assert all(n in bad.stderr for n in LEVELS) and "module:Class" in bad.stderr


def test_help_and_completion_list_every_level():
    new_help = run("new", "--help").stdout
    assert "|".join(LEVELS) in new_help  # the --level metavar
    sim_help = run("sim", "--help").stdout
    for level in REGISTRY:
        assert t(level.about_id, "en", ascii=True) in new_help
        assert t(level.about_id, "en", ascii=True) in sim_help
    assert ", ".join(LEVELS) in " ".join(sim_help.split())  # --seats help, rewrapped by Click
    assert "MODULE:CLASS or PATH.py:CLASS" in " ".join(sim_help.split())  # the hook, documented
    assert "MODULE:CLASS" not in new_help  # the table takes levels only
    abouts = [t(lv.about_id, "en", ascii=True) for lv in REGISTRY]
    listed = [line for line in new_help.splitlines() + sim_help.splitlines() if any(a in line for a in abouts)]
    assert len(listed) == 2 * len(LEVELS) and max(map(len, listed)) <= 80
    assert all(len(line) <= 80 for line in sim_help.splitlines() if "CLASS" in line)
    assert options.complete_level("") == list(LEVELS)
    assert options.complete_level("h") == ["hard"]
    assert options.complete_levels("hard,no") == ["hard,normal"]
    assert options.complete_levels("hard,sh") == []


def test_the_level_list_costs_no_bot_import():
    import subprocess
    import sys

    code = ("import sys\nfrom hearts_cli.bots import LEVELS\n"
            "print(sorted(m for m in sys.modules if m.startswith('hearts_cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert eval(out) == ["hearts_cli.base", "hearts_cli.base.untrusted", "hearts_cli.base.version", "hearts_cli.bots",
                         "hearts_cli.bots.levels", "hearts_cli.model",
                         "hearts_cli.model.errors"]  # the version: the package's face; the registry, no bot
    assert bots.DEFAULT_SIMULATIONS >= 1  # Hard's budget, loaded when asked for


def test_sim_help_states_hards_real_default_budgets():
    """The help of --simulations names the budgets Hard really uses, one deck and two."""
    from hearts_cli.bots import hard, multi

    text = " ".join(run("sim", "--help", env={"COLUMNS": "200"}).output.split())
    assert f"(default {hard.DEFAULT_SIMULATIONS};" in text
    assert f"default {multi.DEFAULT_WORLDS})" in text
