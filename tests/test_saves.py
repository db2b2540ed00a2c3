"""Saving: where, atomically, the archive, damaged saves, and one process per save."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time

import pytest

from hearts_cli.model.rules import Rules
from hearts_cli.play.game import Game
from hearts_cli.records.record_reader import read_record
from hearts_cli.repl.new_game import NewGame
from hearts_cli.repl.start import resume, start_new
from hearts_cli.repl.table import make_seats
from hearts_cli.store import saves
from hearts_cli.store.saves import DamagedSave, SaveLocked, Store

CODE = "JYR35SWD"


pytestmark = pytest.mark.usefixtures("home")  # tests/conftest.py: a save directory of our own


def _game(moves: int = 0) -> Game:
    g = Game(Rules.from_spec(None), CODE)
    from hearts_cli.bots import suggest

    for seat in range(4):
        g.push_pass(suggest(g.round.view(seat), "easy", seat), seat)
    for _ in range(moves):
        g.push(g.round.legal_cards()[0])
    return g


def test_home_is_the_platform_data_dir_unless_overridden(monkeypatch, home):
    assert saves.home() == home
    monkeypatch.delenv("HEARTS_HOME")
    import platformdirs

    assert str(saves.home()) == platformdirs.user_data_dir("hearts", appauthor=False)


def test_save_and_load_give_back_the_same_position(home):
    store = Store()
    g = _game(moves=6)
    seats = make_seats(4, 0, "hard")
    store.save(g, seats)
    loaded = store.load()
    assert loaded.seats == seats
    assert loaded.game.round.hands == g.round.hands
    assert loaded.game.round.trick == g.round.trick and len(loaded.game.round.tricks) == 1


def test_a_crash_while_saving_leaves_the_previous_save(home, monkeypatch):
    store = Store()
    store.save(_game(moves=1), make_seats(4, 0, None))
    before = store.save_path.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        store.save(_game(moves=5), make_seats(4, 0, None))
    monkeypatch.undo()
    assert store.save_path.read_bytes() == before
    assert [p.name for p in home.iterdir() if p.name.endswith(".tmp")] == []


def test_kill_9_while_saving_never_leaves_a_broken_save(home, tmp_path):
    """A child saves in a loop; we kill it at random moments and read the save every time."""
    script = (
        "import sys\n"
        "from hearts_cli.store.saves import Store\n"
        "from hearts_cli.play.game import Game\n"
        "from hearts_cli.model.rules import Rules\n"
        "from hearts_cli.repl.table import make_seats\n"
        "g = Game(Rules.from_spec(None), sys.argv[1]); s = Store(); seats = make_seats(4, 0, None)\n"
        "s.save(g, seats)\n"  # one whole save first: on a loaded machine the first could outlast the wait
        "print('ready', flush=True)\n"
        "while True:\n"
        "    s.save(g, seats)\n"
    )
    env = dict(os.environ)
    for wait in (0.05, 0.11, 0.17):
        proc = subprocess.Popen([sys.executable, "-c", script, CODE], stdout=subprocess.PIPE, env=env)
        assert proc.stdout.readline() == b"ready\n"
        time.sleep(wait)
        proc.kill()
        proc.wait()
        record = read_record(home / "current.yaml")
        assert record.code == CODE


def test_a_finished_game_is_archived_where_hearts_replay_can_open_it(home):
    assert start_new(NewGame.of(code=CODE, level="easy"), stdin=io.StringIO("auto\n" * 30), stdout=io.StringIO()) == 0
    [path] = (home / "archive").glob("*.yaml")
    assert CODE in path.name
    game = read_record(path).replay()
    assert game.over and game.winners
    assert not (home / "current.yaml").exists()


def test_a_damaged_save_is_moved_aside_with_a_message(home, capsys):
    home.mkdir(parents=True)
    damaged = "format: hearts-record/1\ncode: NOTACODE\nrounds: [\n"
    (home / "current.yaml").write_text(damaged)
    assert resume(stdin=io.StringIO(""), stdout=io.StringIO()) == 0
    err = capsys.readouterr().err
    assert "could not be read" in err and "moved to" in err
    [moved] = (home / "damaged").iterdir()
    assert moved.read_text() == damaged  # kept byte for byte
    assert str(moved) in err
    read_record(home / "current.yaml")  # a new game was started and saved


def test_store_load_raises_damagedsave_and_keeps_the_file(home):
    home.mkdir(parents=True)
    (home / "current.yaml").write_text("just: text\n")
    with pytest.raises(DamagedSave) as info:
        Store().load()
    assert info.value.moved_to.read_text() == "just: text\n"
    assert not (home / "current.yaml").exists()


def test_new_archives_an_unfinished_game_instead_of_losing_it(home):
    assert start_new(NewGame.of(code=CODE), stdin=io.StringIO("pass TS JS KS\n"), stdout=io.StringIO()) == 0
    assert start_new(NewGame.of(), stdin=io.StringIO(""), stdout=io.StringIO()) == 0
    [old] = (home / "archive").glob(f"*{CODE}-unfinished.yaml")
    game = read_record(old).replay()
    assert game.round.passes[0] is not None


def test_resume_without_a_save_starts_a_new_game_with_the_defaults(home):
    out = io.StringIO()
    assert resume(stdin=io.StringIO(""), stdout=out) == 0
    record = read_record(home / "current.yaml")
    assert record.rules.preset == "quick"
    assert [s.level for s in record.seats] == [None, "easy", "normal", "hard"]
    assert out.getvalue().startswith(f"Game {record.code} (quick, to 50).")


def test_a_second_process_is_told_the_game_is_open_elsewhere_and_touches_nothing(home):
    store = Store()
    store.save(_game(moves=3), make_seats(4, 0, None))
    store.acquire()
    try:
        before = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
        env = dict(os.environ)
        proc = subprocess.run([sys.executable, "-m", "hearts_cli", "play"], stdin=subprocess.DEVNULL,
                              capture_output=True, env=env, timeout=60)
        assert proc.returncode == 1
        assert proc.stderr.decode().strip() == (
            "This game is open elsewhere (another `hearts` is playing it); nothing was changed.")
        assert proc.stdout == b""
        after = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
        assert after == before
        # the same inside one process: a second Store is refused too
        with pytest.raises(SaveLocked):
            Store().acquire()
    finally:
        store.release()
    Store().acquire()  # free again once the first one leaves


def test_an_unfinished_game_set_aside_is_listed_and_played_on_where_it_stopped(home):
    """A new game archives the unfinished one (issue 26: nothing resumed it): `hearts play
    --unfinished` lists it, `--resume CODE` makes it the saved game again, exactly where it
    stopped (the game saved until then archived in its turn), and a code not there is one
    sentence naming the ones that are."""
    from conftest import assert_user_error, run

    assert run("new", "--no-play", "--code", "K7Q2MXA7").exit_code == 0
    with Store() as store:
        loaded = store.load()
        for seat in range(4):
            loaded.game.push_pass(loaded.game.round.hand(seat)[:3], seat)
        loaded.game.push("2C")
        store.save(loaded.game, loaded.seats)
        made = loaded.game.move_stack
    assert run("new", "--no-play").exit_code == 0
    other = Store().load().game.code
    listed = run("play", "--unfinished").stdout
    assert "hearts play --resume K7Q2MXA7" in listed and "1 unfinished game" in listed
    assert_user_error(run("play", "--resume", "S1C0000M"), "S1C0000M", "K7Q2MXA7")
    result = run("play", "--resume", "k7q2mxa7", "--plain", "--no-confirm", input="")
    assert result.exit_code == 0, result.stderr
    game = Store().load().game
    assert game.code == "K7Q2MXA7" and game.move_stack[:5] == made  # the passes and the 2♣, then the CPUs
    assert f"hearts play --resume {other}" in result.stdout  # the game it replaced, and how to get it back
    assert [c for _, c, _ in saves.unfinished_games()] == [other]


def test_the_language_is_remembered_by_settings_and_by_each_game(home, monkeypatch):
    """Issue 26: `lang:` in settings.yaml speaks when neither --lang nor HEARTS_LANG does (a bad
    one is warned about); a game is saved with the language it is played in and `hearts play`
    goes on in it, unless --lang says otherwise."""
    from conftest import run

    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    home.mkdir()
    (home / "settings.yaml").write_text("lang: es\n")
    assert run("rules").stdout.startswith("Corazones")
    assert run("rules", "--lang", "en").stdout.startswith("Hearts")
    monkeypatch.setenv("HEARTS_LANG", "en")
    assert run("rules").stdout.startswith("Hearts")
    monkeypatch.delenv("HEARTS_LANG")
    (home / "settings.yaml").write_text("lang: fr\n")
    assert run("rules").stdout.startswith("Hearts")
    result = run("new", "--no-play")  # a game's command says what is wrong in its settings
    assert result.stdout.startswith("Game") and "'lang' must be en or es" in result.stderr

    (home / "settings.yaml").unlink()
    assert run("new", "--no-play", "--lang", "es", "--code", "K7Q2MXA7").exit_code == 0
    assert read_record(home / "current.yaml").lang == "es"
    assert run("play", "--plain", input="").stdout.startswith("Partida K7Q2MXA7")  # its own language
    assert run("play", "--plain", "--lang", "en", input="").stdout.startswith("Game K7Q2MXA7")
    assert run("--lang", "en", "play", "--plain", input="").stdout.startswith("Game K7Q2MXA7")


# ---------------------------------------------------------------- settings.yaml, as a person wrote it (issue 33 §4)


@pytest.mark.parametrize("lang, said", [
    ("en", "'dealy' is not a setting (did you mean delay?); it is ignored."),
    ("es", "«dealy» no es un ajuste (¿querías decir delay?); se ignora."),
])
def test_a_misspelled_setting_asks_whether_the_close_one_was_meant(home, lang, said):
    home.mkdir()
    (home / "settings.yaml").write_text("dealy: 1\nconfirm: false\nzzz: 1\n")
    settings, _ = saves.read_settings(home)
    assert settings == {"confirm": False}  # (the misspelled key is not taken for the close one)
    near, far = saves.settings_warnings(lang, home)
    assert near == f"{home / 'settings.yaml'}: {said}"
    assert "zzz" in far and "delay" in far and "?" not in far  # nothing close: the settings listed


def test_a_setting_given_twice_is_named_in_one_sentence(home):
    home.mkdir()
    (home / "settings.yaml").write_text("delay: 1\nconfirm: false\ndelay: 2\n")
    assert saves.read_settings(home)[0] == {"delay": 2, "confirm": False}  # (the last, as before)
    [en] = saves.settings_warnings("en", home)
    assert en == f"{home / 'settings.yaml'}: 'delay' is set twice, on lines 1 and 3; the one on line 3 is used."
    [es] = saves.settings_warnings("es", home)
    assert "«delay» aparece dos veces, en las líneas 1 y 3" in es


@pytest.mark.parametrize("text, en, es", [
    ("delay: 1\n  confirm: false\n", "line 2 does not read as YAML", "la línea 2 no se lee como YAML"),
    ('delay: 1\nsort: "SHDC\n', "the quote opened on line 2 is never closed", "la comilla abierta en la línea 2"),
    ("delay: 1\n\tconfirm: false\n", "line 2 is indented with a tab", "la línea 2 está sangrada con un tabulador"),
    ("confirm: false\nsort: [S, H\n", "the [ or { opened on line 2 is never closed", "el [ o { abierto en la línea 2"),
])
def test_settings_yaml_that_does_not_parse_is_said_in_plain_words_with_its_line(isolated, home, text, en, es):
    """Not PyYAML's own words ("mapping values are not allowed in this context"): what is wrong
    and on which line, in the game's language, in the one warning a broken file gives."""
    home.mkdir()
    (home / "settings.yaml").write_text(text)
    from conftest import run

    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"{home / 'settings.yaml'} cannot be read ({en}") and "default settings" in line
    for words in ("mapping values", "scalar", "token", "expected", "stream", "flow"):
        assert words not in line, line
    [said] = saves.settings_warnings("es", home)
    assert es in said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "2 unfinished games wait in the archive; they are listed with:"),
    ("es", "2 partidas sin terminar esperan en el archivo; se muestran con:")])
def test_play_without_a_saved_game_says_that_unfinished_games_wait(home, lang, said):
    """Issue 33 §4.2: `hearts play` with no saved game dealt a new one without a word of the
    games set aside in the archive: it says they wait there, and how to list them; with none
    there it says nothing of them."""
    from conftest import run

    result = run("play", "--plain", "--no-confirm", "--lang", lang, input="")
    assert result.exit_code == 0 and "--unfinished" not in result.stdout
    for _ in range(2):
        assert run("new", "--no-play").exit_code == 0  # each sets the game before it aside
    Store().save_path.unlink()
    result = run("play", "--plain", "--no-confirm", "--lang", lang, input="")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert said in lines and lines[lines.index(said) + 1] == "  hearts play --unfinished", result.stdout
