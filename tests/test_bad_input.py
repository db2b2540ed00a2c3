"""Bad input a person can give: one clear sentence in their language, never a traceback.

Regressions from an audit of every command against odd options, files, saves
and streams. Errors a person causes exit with status 2 (a problem with the
save directory, as before, with 1); the sentence comes from the message
catalog in the language asked for, with no English left in the Spanish.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_user_error, run

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "fixtures" / "replays" / "quick-4p.yaml"
CODE = "K7Q2MXA7"


# English by default, and a save directory of our own (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("isolated")


def shell(command: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    """``command`` through sh, with ``hearts`` meaning this package's command line."""
    hearts = f"{sys.executable} -m hearts_cli"
    environment = dict(os.environ, HEARTS_HOME=str(tmp_path / "home"), LC_ALL="C.UTF-8", **env)
    environment.pop("HEARTS_LANG", None)
    environment.pop("HEARTS_DEBUG", None)
    return subprocess.run(["sh", "-c", command.replace("hearts ", hearts + " ")], capture_output=True,
                          text=True, env=environment, cwd=ROOT, timeout=120)


# ---------------------------------------------------------------- closed standard streams


@pytest.mark.parametrize("command", [
    f"hearts new --code {CODE} --delay 0 <&- >/dev/null",
    "hearts play <&- >/dev/null",
    "hearts engine <&-",
    f"hearts replay - --code {CODE} <&- >/dev/null",
    "hearts rules >&-",
])
def test_a_closed_stream_is_not_an_internal_error(command, tmp_path):
    """A closed stdin reads as empty input; a closed stdout discards what is printed."""
    proc = shell(command, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "went wrong" not in proc.stderr, proc.stderr


# ---------------------------------------------------------------- hearts sim


def test_sim_refuses_an_absurd_number_of_workers():
    """--workers 100000 used to start processes for minutes on end."""
    assert_user_error(run("sim", "--deals", "1", "--workers", "100000"), "--workers", "64", "100000")


def test_sim_workers_bound_in_spanish():
    err = assert_user_error(run("sim", "--deals", "1", "--workers", "65", "--lang", "es"), "--workers")
    assert "como mucho 64" in err


# ---------------------------------------------------------------- hearts replay


def test_analyze_with_no_simulations_says_what_is_wrong():
    """0 is a whole number: the sentence must say it has to be 1 or more."""
    err = assert_user_error(run("replay", str(RECORD), "--analyze", "--simulations", "0"), "--simulations", "1")
    assert "whole number" not in err


def test_annotate_to_an_empty_name(tmp_path):
    assert_user_error(run("replay", str(RECORD), "--annotate-to", ""), "--annotate-to")


def test_annotate_to_a_directory_cannot_be_written_and_nothing_is_left(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    err = assert_user_error(run("replay", str(RECORD), "--annotate-to", str(folder)), str(folder), "written")
    assert "read" not in err
    assert list(folder.iterdir()) == []


def test_replay_of_a_binary_file_says_it_is_not_text(tmp_path):
    binary = tmp_path / "game.yaml"
    binary.write_bytes(b"\xff\xfe\x00\x81 not text")
    err = assert_user_error(run("replay", str(binary)), "UTF-8")
    assert "UnicodeDecodeError" not in err


@pytest.mark.parametrize("args", [
    ["replay", "{missing}"],
    ["explain", "QS", "--record", "{missing}"],
])
def test_a_missing_file_is_told_in_spanish(args, tmp_path):
    missing = str(tmp_path / "nada.yaml")
    err = assert_user_error(run(*[a.replace("{missing}", missing) for a in args], "--lang", "es"), missing)
    assert "no existe" in err
    assert "No such file" not in err


@pytest.mark.parametrize("args", [
    ["replay", "{folder}"],
    ["explain", "QS", "--record", "{folder}"],
])
def test_a_directory_is_told_in_spanish(args, tmp_path):
    err = assert_user_error(run(*[a.replace("{folder}", str(tmp_path)) for a in args], "--lang", "es"))
    assert "carpeta" in err
    assert "Is a directory" not in err


# ---------------------------------------------------------------- the save


def test_a_damaged_save_is_told_wholly_in_the_language_asked_for(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "current.yaml").write_text("- not a record\n", encoding="utf-8")
    result = run("play", "--lang", "es", "--delay", "0", input="")
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "no se puede leer" in result.stderr
    assert "is not a game record" not in result.stderr and "YAML mapping" not in result.stderr
    [moved] = (home / "damaged").iterdir()  # the damaged save is kept aside, not lost
    assert moved.read_text(encoding="utf-8") == "- not a record\n"


def test_an_archive_that_is_a_file_is_one_sentence_and_the_game_is_kept(tmp_path):
    home = tmp_path / "home"
    assert run("new", "--code", CODE, "--no-play").exit_code == 0
    saved = (home / "current.yaml").read_text(encoding="utf-8")
    (home / "archive").write_text("", encoding="utf-8")
    result = run("new", "--no-play")
    err = assert_user_error(result, str(home / "archive"), status=1)
    assert "went wrong" not in err
    assert (home / "current.yaml").read_text(encoding="utf-8") == saved


def test_a_damaged_directory_that_is_a_file_keeps_the_damaged_save(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "current.yaml").write_text("", encoding="utf-8")
    (home / "damaged").write_text("", encoding="utf-8")
    err = assert_user_error(run("play", "--lang", "es", "--delay", "0", input=""), str(home / "damaged"), status=1)
    assert "ya hay algo" in err
    assert (home / "current.yaml").exists()


def test_save_directory_problem_is_in_spanish(tmp_path, monkeypatch):
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    monkeypatch.setenv("HEARTS_HOME", str(afile))
    err = assert_user_error(run("--lang", "es", "new", "--no-play"), status=1)
    assert "File exists" not in err and "carpeta" in err


# ---------------------------------------------------------------- options


def test_an_empty_language_is_not_the_default():
    assert_user_error(run("new", "--no-play", "--lang", ""), "en or es")


def test_a_bad_number_is_told_in_the_language_of_lang_before_the_command():
    result = run("--lang", "es", "new", "--players", "x")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "no es un número entero" in result.stderr


def test_a_bad_number_is_told_in_the_language_of_lang_after_it(tmp_path):
    proc = shell("hearts new --players x --lang es", tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no es un número entero" in proc.stderr


# ---------------------------------------------------------------- hostile files and input (issue 10)
#
# Each case below failed before the fix: a bomb of YAML aliases grew to a MemoryError (or
# hung), deep nesting ended in RecursionError, nothing limited the size of settings or move
# logs, escapes from a file reached the terminal, an error quoted a whole megabyte back, a
# kill during a write left temporary files for ever, and an unwritable save directory was
# named by its temporary file, after the move had been shown as played.

BOMB = (
    "lol:\n"
    "  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + "".join(f"  l{k}: &l{k} [{', '.join([f'*l{k - 1}'] * 9)}]\n" for k in range(1, 10))
)
QUICK = RECORD.read_text(encoding="utf-8")


def bombed(field: str) -> str:
    """The quick-4p record with ``field`` an alias into "billion laughs" anchors."""
    places = {
        "code": ('code: "DEM0GAMV"', "code: *l9"),
        "score": ("score: [16, 6, 2, 2]", "score: *l9"),
        "totals": ("totals: [25, 15, 5, 33]", "totals: *l9"),
        "hands": ("0: [2C, 4C, 7C, QC, KC, 4D, 5D, 7D, TD, 5H, 9H, 2S, QS]", "0: *l9"),
        "trick cards": ("cards: [2C, KC, 9C, KS]", "cards: *l9"),
    }
    old, new = places[field]
    assert old in QUICK
    return QUICK.replace("program:", BOMB + "program:", 1).replace(old, new, 1)


@pytest.mark.parametrize("field", ["code", "score", "totals", "hands", "trick cards"])
def test_a_record_with_an_alias_bomb_is_refused_before_anything_is_built(field, tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(bombed(field), encoding="utf-8")
    proc = shell(f"hearts replay {path}", tmp_path)  # before: minutes of CPU, then MemoryError
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert str(path) in line and "anchor or alias" in line, line


def test_explain_record_and_stdin_refuse_an_alias_bomb_in_spanish(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(bombed("hands"), encoding="utf-8")
    proc = shell(f"hearts explain QS --record {path} --lang es", tmp_path)
    assert proc.returncode == 2 and "ancla o un alias" in proc.stderr, proc.stderr
    proc = shell(f"hearts replay - --lang es < {path}", tmp_path)
    assert proc.returncode == 2 and "ancla o un alias" in proc.stderr, proc.stderr


def test_a_saved_game_with_an_alias_bomb_is_set_aside_and_a_game_starts(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "current.yaml").write_text(bombed("trick cards"), encoding="utf-8")
    proc = shell("hearts play --delay 0 </dev/null", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "anchor or alias" in proc.stderr and "Traceback" not in proc.stderr
    [moved] = (home / "damaged").iterdir()  # kept, never lost
    assert "*l9" in moved.read_text(encoding="utf-8")
    assert "Game " in proc.stdout  # and a new game started


@pytest.mark.parametrize("settings", [
    BOMB + "confirm: *l9\n",                # an alias bomb: start-up used to hang
    "[" * 5000 + "]" * 5000 + "\n",         # 5,000 deep: used to end in RecursionError
    "confirm: " + "[" * 5000 + "]" * 5000 + "\n",
], ids=["alias-bomb", "deep-list", "deep-value"])
def test_hostile_settings_give_one_warning_and_the_defaults(settings, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.yaml").write_text(settings, encoding="utf-8")
    proc = shell(f"hearts new --code {CODE} --no-play --plain", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert CODE in proc.stdout
    [line] = proc.stderr.strip().splitlines()  # one warning line, then the defaults
    assert str(home / "settings.yaml") in line and "default settings" in line, line
    assert "Traceback" not in proc.stderr and len(line) < 300


def test_settings_larger_than_the_limit_are_not_read(isolated):
    from hearts_cli.base.untrusted import MAX_SETTINGS_BYTES

    home = isolated / "home"
    home.mkdir()
    # valid settings, padded past the limit: refused by their size alone, before reading
    text = "confirm: false\n" + ("# padding\n" * (MAX_SETTINGS_BYTES // 10 + 1))
    (home / "settings.yaml").write_text(text, encoding="utf-8")
    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "larger than 64 KiB" in line and "default settings" in line, line
    from hearts_cli.store.saves import read_settings

    assert read_settings(home)[0] == {}  # confirm: false was not taken from it


def _padded_log(size: int) -> str:
    log = (ROOT / "fixtures" / "replays" / "quick-4p.log").read_text(encoding="utf-8")
    return log + ("# padding\n" * (size // 10 + 1))


def test_a_move_log_file_larger_than_the_limit_is_refused(tmp_path):
    from hearts_cli.base.untrusted import MAX_MOVE_LOG_BYTES

    path = tmp_path / "moves.txt"
    path.write_text(_padded_log(MAX_MOVE_LOG_BYTES), encoding="utf-8")
    assert_user_error(run("replay", str(path)), str(path), "larger than 1 MiB")


def test_a_move_log_on_stdin_larger_than_the_limit_is_refused(tmp_path):
    from hearts_cli.base.untrusted import MAX_MOVE_LOG_BYTES

    path = tmp_path / "moves.txt"
    path.write_text(_padded_log(MAX_MOVE_LOG_BYTES), encoding="utf-8")
    proc = shell(f"hearts replay - < {path}", tmp_path)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    [line] = proc.stderr.strip().splitlines()
    assert "larger than 1 MiB" in line


@pytest.mark.parametrize("args", [["replay", "--moves", "{log}"], ["explain", "2C", "--moves", "{log}"]])
def test_a_moves_option_larger_than_the_limit_is_refused(args):
    from hearts_cli.base.untrusted import MAX_MOVE_LOG_BYTES

    log = "2C " + " " * MAX_MOVE_LOG_BYTES
    err = assert_user_error(run(*[log if a == "{log}" else a for a in args], "--code", CODE))
    assert "larger than 1 MiB" in err and len(err) < 200


def test_a_line_without_end_piped_to_the_game_is_refused_short(tmp_path):
    from hearts_cli.base.untrusted import MAX_LINE_CHARS

    result = run("new", "--code", CODE, "--delay", "0", input="q" * (MAX_LINE_CHARS * 50) + "\n")
    assert result.exit_code == 2
    err = result.stderr.strip()
    assert f"longer than {MAX_LINE_CHARS} characters" in err and len(err) < 200, err[:300]


def test_an_engine_request_larger_than_the_limit_gets_one_short_error(tmp_path):
    from hearts_cli.base.untrusted import MAX_REQUEST_BYTES

    request = tmp_path / "request.jsonl"
    request.write_text('{"cmd": "hello", "pad": "' + "x" * MAX_REQUEST_BYTES + '"}\n{"cmd": "hello"}\n',
                       encoding="utf-8")
    proc = shell(f"hearts engine < {request}", tmp_path)
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert '"bad_json"' in first and "longer than 1 MiB" in first and len(first) < 300
    assert '"ok": true' in second  # and it keeps serving


ESCAPES = "\x1b]0;pwned\x07\x1b[31mWest"


def _no_raw_controls(text: str) -> None:
    assert not any(ch in text for ch in "\x1b\x07\x9b\r\x08"), repr(text[:300])


def test_a_seat_name_with_terminal_escapes_is_shown_escaped_by_replay(tmp_path):
    path = tmp_path / "names.yaml"
    quoted = ESCAPES.replace("\x1b", "\\e").replace("\x07", "\\a")  # YAML's own escapes
    path.write_text(QUICK.replace("name: Ana", f'name: "{quoted}"'), encoding="utf-8")
    for args in ([str(path)], [str(path), "--at", "1.2.1"]):
        result = run("replay", *args)
        assert result.exit_code == 0, result.stderr
        _no_raw_controls(result.stdout)
        assert "\\x1b]0;pwned\\x07\\x1b[31mWest" in result.stdout


def test_control_characters_typed_as_a_card_come_back_escaped(tmp_path):
    result = run("new", "--code", CODE, "--delay", "0", input=f"pass {ESCAPES} 2c 3c\n")
    assert result.exit_code == 2
    _no_raw_controls(result.stderr)
    assert "\\x1b]0;pwned" in result.stderr
    result = run("explain", ESCAPES, "--code", CODE)
    assert result.exit_code == 2
    _no_raw_controls(result.stderr)


def test_escapes_in_settings_and_in_a_move_log_are_shown_escaped(isolated):
    home = isolated / "home"
    home.mkdir()
    (home / "settings.yaml").write_text('"\\e[2Jkey": 1\n', encoding="utf-8")
    result = run("new", "--code", CODE, "--no-play", "--plain")
    assert result.exit_code == 0 and "\\x1b[2Jkey" in result.stderr, result.stderr
    _no_raw_controls(result.stderr)
    result = run("replay", "--code", CODE, "--moves", "2C \x1b[2J")
    assert result.exit_code == 2 and "\\x1b[2J" in result.stderr
    _no_raw_controls(result.stderr)


# Windows Notepad writes a byte-order mark (EF BB BF) before the text it saves (issue 26 §8):
# it is no part of a move log, a record or settings.yaml, however the file comes in.
NOTEPAD = "\ufeff"
LOG = "code DEM0GAMV\nrules quick target=30\nKC 9H QS | AC QD JH | KD QH KS | 6C AH AS\n2C KC 9C KS\n"


def test_a_move_log_saved_by_notepad_replays_from_a_file_stdin_and_moves(tmp_path):
    from hearts_cli.records.movelog import read_movelog

    path = tmp_path / "notepad.log"
    path.write_text(NOTEPAD + "# hearts move log\n" + LOG, encoding="utf-8")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert len(read_movelog(path).round.tricks) == 1
    for args, stdin in (([str(path)], None), (["-"], NOTEPAD + LOG), (["--moves", NOTEPAD + LOG], None)):
        result = run("replay", *args, input=stdin)
        assert result.exit_code == 0, (args, result.stderr)
        assert "Game totals" in result.stdout


def test_a_record_and_settings_saved_by_notepad_are_read(isolated):
    from hearts_cli.records.record_reader import read_record
    from hearts_cli.store.saves import read_settings

    path = isolated / "notepad.yaml"
    record = QUICK.split("\n", 1)[1]  # from its `format:` line, which tells a record from a move log
    assert record.startswith("format:")
    path.write_text(NOTEPAD + record, encoding="utf-8")
    assert read_record(path).replay().over
    result = run("replay", str(path))
    assert result.exit_code == 0 and "Winner: North." in result.stdout, result.stderr
    home = isolated / "home"
    home.mkdir()
    (home / "settings.yaml").write_text(NOTEPAD + "confirm: false\n", encoding="utf-8")
    assert read_settings(home) == ({"confirm": False}, [])


def test_a_byte_order_mark_inside_a_word_is_quoted_as_an_escape():
    """Invisible, it would make the word quoted look like a card ('\ufeff2C' is not a card)."""
    result = run("replay", "--code", CODE, "--moves", "KC 9H \ufeffQS")
    err = assert_user_error(result, "'\\ufeffQS' is not a card")
    assert "\ufeff" not in err


WORD = "x" * 1_000_000


@pytest.mark.parametrize("args, stdin", [
    (["explain", WORD, "--code", CODE], None),
    (["replay", "--code", CODE, "--moves", "2C " + WORD], None),
    (["new", "--preset", WORD], None),
    (["new", "--level", WORD], None),
    (["new", "--code", WORD], None),
    (["new", "--lang", WORD], None),
    (["new", "--players", WORD], None),
    (["new", "--code", CODE, "--delay", "0"], "q" * 4000 + "\n"),  # under the line limit
    (["new", "--code", CODE, "--delay", "0"], "pass 2c 3c q" + "q" * 4000 + "\n"),
], ids=["explain-card", "movelog-token", "preset", "level", "code", "lang", "players", "play-word",
        "play-pass"])
def test_an_error_quotes_only_a_few_dozen_characters_of_bad_input(args, stdin):
    result = run(*args, input=stdin)
    assert result.exit_code == 2, result.stderr[:300]
    err = result.stderr.strip()
    assert err and "Traceback" not in err
    assert len(err) < 400, err[:500]  # before: the whole word came back, up to a megabyte


def test_a_record_value_is_quoted_short(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(QUICK.replace('code: "DEM0GAMV"', f'code: "{WORD}"'), encoding="utf-8")
    err = assert_user_error(run("replay", str(path)), str(path))
    assert len(err) < 400 + len(str(path)), err[:500]


def test_temporary_files_a_kill_left_behind_are_cleaned_up(isolated):
    home = isolated / "home"
    assert run("new", "--code", CODE, "--no-play").exit_code == 0
    dead = 2 ** 22 + 12345  # above any pid in use here
    stale = [home / f".current.yaml.{dead}.0badf00d.tmp",
             home / "archive" / f".20260101-000000-{CODE}.yaml.{dead}.12345678.tmp"]
    stale[1].parent.mkdir()
    fresh = home / f".current.yaml.{os.getpid()}.cafef00d.tmp"  # a live writer's: kept
    other = home / ".notes.txt.tmp"  # not ours: kept
    for path in stale + [fresh, other]:
        path.write_text("half a save", encoding="utf-8")
    result = run("play", "--delay", "0", input="")
    assert result.exit_code == 0, result.stderr
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and other.exists()


def test_a_save_directory_that_cannot_be_written_is_named_and_the_move_is_not_shown(isolated, monkeypatch):
    home = isolated / "home"
    assert run("new", "--code", CODE, "--no-play").exit_code == 0
    before = (home / "current.yaml").read_bytes()
    real_open = os.open

    def refuse(path, flags, *args, **kw):  # the directory turned read-only (root ignores chmod)
        if str(path).endswith(".tmp"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", refuse)
    result = run("play", "--plain", "--delay", "0", input="pass 8s 9s ts\n")
    monkeypatch.undo()
    assert result.exit_code == 1
    err = result.stderr.strip()
    assert str(home) in err and ".tmp" not in err and "Permission denied" in err, err
    assert "You pass" not in result.stdout  # not shown as played: it was never saved
    assert (home / "current.yaml").read_bytes() == before
    assert not [p for p in home.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("pure", [False, True], ids=["libyaml", "pure-python"])
def test_both_loaders_read_a_record_and_refuse_aliases_and_depth(pure):
    """The guard holds on libyaml's parser and on PyYAML's own (a PyYAML built without libyaml)."""
    import yaml

    from hearts_cli.base.untrusted import DEPTH, YamlRefused, yaml_loader

    def load(text: str, depth: int):
        loader = yaml_loader(pure=pure)(text, depth)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()

    assert load(QUICK, DEPTH["record"]) == yaml.safe_load(QUICK)
    for text, refused, line in [(BOMB, "yaml_alias", 2), ("a: 1\nb: *x\n", "yaml_alias", 2),
                                ("[" * 5000 + "]" * 5000, "yaml_too_deep", 1),
                                ("a:\n  b:\n    c: [1]\n", "yaml_too_deep", 3)]:
        with pytest.raises(YamlRefused) as caught:
            load(text, 2)
        assert (caught.value.message_id, caught.value.line) == (refused, line)


def test_replay_json_writes_c1_controls_from_a_file_as_escapes(tmp_path):
    """JSON escapes only C0: a seat name holding U+009B (a one-character CSI) went out raw."""
    import json

    path = tmp_path / "c1.yaml"
    path.write_text(QUICK.replace("name: Ana", 'name: "\\x9b31mAna"'), encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert "\x9b" not in result.stdout and "\\u009b31mAna" in result.stdout
    first = json.loads(result.stdout.splitlines()[0])
    assert "\x9b31mAna" in json.dumps(first, ensure_ascii=False)  # the same value, escaped in transit


def test_the_prompt_history_is_read_from_its_newest_end_only(tmp_path):
    """prompt-toolkit read all of history.txt at start, and kept every line typed, a paste of
    a whole file too."""
    from prompt_toolkit.history import FileHistory

    from hearts_cli.base.untrusted import LIMITS, MAX_LINE_CHARS
    from hearts_cli.repl.history import BoundedHistory

    path = tmp_path / "history.txt"
    with open(path, "wb") as fh:
        for i in range(200_000):  # about 3.6 MB
            fh.write(f"\n# 2026-12-01\n+card {i}\n".encode())
    assert path.stat().st_size > 10 * LIMITS["history"]
    loaded = list(BoundedHistory(str(path)).load_history_strings())
    assert loaded[0] == "card 199999"  # newest first, as prompt-toolkit wants them
    assert 0 < sum(len(f"\n# 2026-12-01\n+{s}\n") for s in loaded) <= LIMITS["history"]
    assert loaded == [f"card {i}" for i in range(199_999, 199_999 - len(loaded), -1)]  # whole entries
    history = BoundedHistory(str(tmp_path / "new.txt"))
    history.store_string("q" * (MAX_LINE_CHARS + 1))
    history.store_string("2c")
    assert list(FileHistory(str(tmp_path / "new.txt")).load_history_strings()) == ["2c"]
