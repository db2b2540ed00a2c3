"""The results file of a tournament (``hearts sim --results FILE``): its format, written and read.

The first line holds the run's options (:func:`_header`: the same command gives the same
line); each line after it is one finished half, appended as it ends (flushed and
``fsync``ed). Read back, the halves it holds are not played again: a last line cut short by
an interruption is dropped (the file is cut back to the halves kept), any other problem is
one sentence. See docs/sim.md.
"""

from __future__ import annotations

import json
import os

from ..base.files import write_atomic
from ..base.jsonvalue import JsonValue
from ..base.untrusted import TooBig, read_text, strict_json
from ..bots.match import GamePlay, RoundLog, match_code, rotations
from ..bots.tournament import Half, Tournament, half_seats
from ..model.errors import HeartsError
from ..text.catalog import os_problem, t

RESULTS_FORMAT = "hearts-sim-results/1"
RESULTS_LIMIT = 256 * 1024 * 1024  # a results file read back: 100,000 deals take about 60 MB


class ResultsFile:
    """A results file being written: its header first (a new file), then each finished half.
    A pair that is not to be kept (its program never answered) is cut off again, so that the
    same command plays it once the program is mended."""

    def __init__(self, path: str, tour: Tournament, resumed: bool):
        try:
            self.file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run, closed by close()
        except OSError as e:  # a folder that is not there, a file one may not write
            raise HeartsError("cli_cannot_write", path=path, problem=os_problem(e, None)) from None
        if not resumed and self.file.tell() == 0:
            self.file.write(json.dumps(_header(tour), separators=(",", ":")) + "\n")
            self.file.flush()
        self.mark = self.file.tell()  # where the file stood before the pair being played

    def add(self, half: Half) -> None:
        """``half`` appended, flushed and ``fsync``ed."""
        if half.half == 0:
            self.mark = self.file.tell()
        self.file.write(_half_json(half) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def drop_pair(self) -> None:
        """The pair being played cut off (its first half is in the file, its second is not)."""
        self.file.truncate(self.mark)

    def close(self) -> None:
        self.file.close()


def _header(tour: Tournament) -> dict[str, object]:
    """What the results file keeps of the run: the same command gives the same header."""
    b = tour.sprt
    return {"format": RESULTS_FORMAT, "rules": tour.rules.spec(), "mode": tour.mode, "players": list(tour.players),
            "deals": tour.deals, "seed": tour.seed, "simulations": tour.simulations,
            "sprt": None if b is None else [b.elo0, b.elo1, b.alpha, b.beta],
            **({} if tour.move_time is None else {"move_time": tour.move_time})}


def _half_json(half: Half) -> str:
    plays = [{"levels": list(p.levels), "totals": list(p.totals), "winners": list(p.winners),
              "rounds": [{"scores": list(r.scores), "shooter": r.shooter, "threat": r.threat,
                          "stopper": r.stopper, "taken": list(r.taken)} for r in p.rounds],
              **({"faults": p.faults} if p.faults else {}),
              **({"fault_log": p.fault_log} if p.fault_log else {})}
             for p in half.plays]
    return json.dumps({"game": half.game, "pairing": half.pairing, "half": half.half, "code": half.code,
                       "plays": plays}, separators=(",", ":"))


def _lines(path: str) -> list[str]:
    try:
        return read_text(path, RESULTS_LIMIT).split("\n")
    except TooBig:
        raise HeartsError("cli_bad_file", path=path, problem=t("input_too_big", None, limit=RESULTS_LIMIT)) from None
    except (OSError, UnicodeDecodeError) as e:
        problem = os_problem(e, None) if isinstance(e, OSError) else t("record_not_utf8", None)
        raise HeartsError("cli_bad_file", path=path, problem=problem) from None


def results_seed(path: str) -> str | None:
    """The seed a results file was run with (None when there is no file yet)."""
    if not os.path.exists(path):
        return None
    header = _read_header(path, _lines(path))
    seed = header.get("seed")
    return seed if isinstance(seed, str) else None


def _read_header(path: str, lines: list[str]) -> dict[str, JsonValue]:
    try:
        header = strict_json(lines[0]) if lines and lines[0] else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("format") != RESULTS_FORMAT:
        raise HeartsError("sim_results_not_ours", path=path, format=RESULTS_FORMAT)
    return header


def read_results(path: str, tour: Tournament) -> list[Half]:
    """The halves a results file holds for ``tour`` (none when the file does not exist yet).

    A last line cut short (the run was stopped while writing it) is dropped, and the file
    is cut back to the halves kept; any other problem is one sentence: the file is not of
    this run, or a line is not a half of it.
    """
    if not os.path.exists(path):
        return []
    lines = _lines(path)
    header = _read_header(path, lines)
    if header != strict_json(json.dumps(_header(tour))):
        raise HeartsError("sim_results_other_run", path=path)
    body = lines[1:]
    while body and not body[-1]:
        body.pop()
    halves: list[Half] = []
    for number, line in enumerate(body, 2):
        half = _half_of(line, tour, len(halves))
        if half is None:
            if number == len(body) + 1:  # the last line, cut short: dropped
                break
            raise HeartsError("sim_results_bad_line", path=path, line=number)
        halves.append(half)
    kept = "\n".join([lines[0], *(_half_json(h) for h in halves)]) + "\n"
    if kept != "\n".join(lines):  # a line cut short: the file is cut back to the games kept
        write_atomic(path, kept.encode("utf-8"), private=False)
    return halves


def _half_of(line: str, tour: Tournament, unit: int) -> Half | None:
    """Half number ``unit`` of ``tour`` as a results line holds it, or None if the line is not that."""
    pairs = tour.pairings
    game, pairing, half = unit // (2 * len(pairs)), unit // 2 % len(pairs), unit % 2
    code = match_code(tour.seed, game)
    try:
        item = strict_json(line)
        if not isinstance(item, dict) or [item.get(k) for k in ("game", "pairing", "half", "code")] \
                != [game, pairing, half, code]:
            return None
        seatings = rotations(half_seats(pairs[pairing], half, tour.rules.players), True)
        plays = item.get("plays")
        if not isinstance(plays, list) or len(plays) != len(seatings):
            return None
        return Half(game, pairing, half, code,
                    [_play_of(play, levels, tour.rules.players) for play, levels in zip(plays, seatings, strict=True)])
    except ValueError:
        return None


def _play_of(play: JsonValue, levels: tuple[str, ...], n: int) -> GamePlay:
    """One rotation of a half as the results file keeps it (a ValueError when it is not one)."""
    if not isinstance(play, dict) or play.get("levels") != list(levels) or not isinstance(play.get("rounds"), list):
        raise ValueError("not a play")
    rounds = []
    for r in play["rounds"]:  # type: ignore[union-attr]
        if not isinstance(r, dict):
            raise ValueError("not a round")
        rounds.append(RoundLog(_ints(r.get("scores"), n), _seat(r.get("shooter"), n), _seat(r.get("threat"), n),
                               _seat(r.get("stopper"), n), _ints(r.get("taken"), n)))
    log = play.get("fault_log", [])
    if not isinstance(log, list) or not all(isinstance(x, dict) for x in log):
        raise ValueError("not a fault log")
    return GamePlay(levels, rounds, _ints(play.get("totals"), n), _ints(play.get("winners")),
                    faults=_faults(play.get("faults", {})), fault_log=[x for x in log if isinstance(x, dict)])


def _faults(value: JsonValue) -> dict[str, dict[str, int]]:
    """A play's faults as the results file keeps them: program -> kind -> count."""
    if not isinstance(value, dict):
        raise ValueError("not faults")
    out = {}
    for level, counts in value.items():
        if not isinstance(counts, dict):
            raise ValueError("not faults")
        out[level] = dict(zip(counts, _ints(list(counts.values())), strict=True))
    return out


def _ints(value: JsonValue, count: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or (count is not None and len(value) != count):
        raise ValueError("not a list of whole numbers")
    out = tuple(x for x in value if isinstance(x, int) and not isinstance(x, bool))
    if len(out) != len(value):
        raise ValueError("not a list of whole numbers")
    return out


def _seat(value: JsonValue, n: int) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError("not a seat")
    return value
