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
from typer.testing import CliRunner

from hearts_cli.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "fixtures" / "replays" / "quick-4p.yaml"
CODE = "K7Q2MXA7"


# English by default, and a save directory of our own (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("isolated")


def run(*args: str, **kw):
    return runner.invoke(app, list(args), **kw)


def one_sentence(result, status: int = 2, *words: str) -> str:
    """``status``, nothing on stdout, one line on stderr holding ``words``, no traceback."""
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr.strip()
    assert err and "\n" not in err, err
    assert "Traceback" not in result.stderr
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    for w in words:
        assert w in err, (w, err)
    return err


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
    one_sentence(run("sim", "--deals", "1", "--workers", "100000"), 2, "--workers", "64", "100000")


def test_sim_workers_bound_in_spanish():
    err = one_sentence(run("sim", "--deals", "1", "--workers", "65", "--lang", "es"), 2, "--workers")
    assert "como mucho 64" in err


# ---------------------------------------------------------------- hearts replay


def test_analyze_with_no_simulations_says_what_is_wrong():
    """0 is a whole number: the sentence must say it has to be 1 or more."""
    err = one_sentence(run("replay", str(RECORD), "--analyze", "--simulations", "0"), 2, "--simulations", "1")
    assert "whole number" not in err


def test_annotate_to_an_empty_name(tmp_path):
    one_sentence(run("replay", str(RECORD), "--annotate-to", ""), 2, "--annotate-to")


def test_annotate_to_a_directory_cannot_be_written_and_nothing_is_left(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    err = one_sentence(run("replay", str(RECORD), "--annotate-to", str(folder)), 2, str(folder), "written")
    assert "read" not in err
    assert list(folder.iterdir()) == []


def test_replay_of_a_binary_file_says_it_is_not_text(tmp_path):
    binary = tmp_path / "game.yaml"
    binary.write_bytes(b"\xff\xfe\x00\x81 not text")
    err = one_sentence(run("replay", str(binary)), 2, "UTF-8")
    assert "UnicodeDecodeError" not in err


@pytest.mark.parametrize("args", [
    ["replay", "{missing}"],
    ["explain", "QS", "--record", "{missing}"],
])
def test_a_missing_file_is_told_in_spanish(args, tmp_path):
    missing = str(tmp_path / "nada.yaml")
    err = one_sentence(run(*[a.replace("{missing}", missing) for a in args], "--lang", "es"), 2, missing)
    assert "no existe" in err
    assert "No such file" not in err


@pytest.mark.parametrize("args", [
    ["replay", "{folder}"],
    ["explain", "QS", "--record", "{folder}"],
])
def test_a_directory_is_told_in_spanish(args, tmp_path):
    err = one_sentence(run(*[a.replace("{folder}", str(tmp_path)) for a in args], "--lang", "es"), 2)
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
    err = one_sentence(result, 1, str(home / "archive"))
    assert "went wrong" not in err
    assert (home / "current.yaml").read_text(encoding="utf-8") == saved


def test_a_damaged_directory_that_is_a_file_keeps_the_damaged_save(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "current.yaml").write_text("", encoding="utf-8")
    (home / "damaged").write_text("", encoding="utf-8")
    err = one_sentence(run("play", "--lang", "es", "--delay", "0", input=""), 1, str(home / "damaged"))
    assert "ya hay algo" in err
    assert (home / "current.yaml").exists()


def test_save_directory_problem_is_in_spanish(tmp_path, monkeypatch):
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    monkeypatch.setenv("HEARTS_HOME", str(afile))
    err = one_sentence(run("--lang", "es", "new", "--no-play"), 1)
    assert "File exists" not in err and "carpeta" in err


# ---------------------------------------------------------------- options


def test_an_empty_language_is_not_the_default():
    one_sentence(run("new", "--no-play", "--lang", ""), 2, "en or es")


def test_a_bad_number_is_told_in_the_language_of_lang_before_the_command():
    result = run("--lang", "es", "new", "--players", "x")
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "no es un número entero" in result.stderr


def test_a_bad_number_is_told_in_the_language_of_lang_after_it(tmp_path):
    proc = shell("hearts new --players x --lang es", tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no es un número entero" in proc.stderr
