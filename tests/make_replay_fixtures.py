"""Make the golden replay fixtures in fixtures/replays/ (run by hand, never by the tests).

    .venv/bin/python tests/make_replay_fixtures.py

Each game is played by the CPU levels (seeded from the game code), or by a
scripted policy, searching game codes in a fixed order until the game shows
what the fixture is for (a moon, a tie under a given policy...). For each game
it writes:

- ``NAME.yaml``: the game record;
- ``NAME.log``: its move log (``hearts_cli.records.movelog.format_log``);
- ``NAME.txt``: the narrative, ``hearts replay NAME.yaml --plain --lang en``;

plus ``quick-4p.es.txt`` (Spanish), ``quick-4p.jsonl`` (``--json``),
``quick-4p.seat1.txt`` (``--seat 1``), ``partial.log`` / ``partial.txt`` (a log
that stops in the middle of a round) and ``blunder.yaml`` (a game in which
seat 0 drops the Q♠ on its own trick at a known position). The tests replay
them and compare; re-run this script only when the narrative is meant to change,
and review the diff.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hearts_cli.bots import suggest
from hearts_cli.model.cards import QUEEN_OF_SPADES, Suit
from hearts_cli.model.codes import ALPHABET, _check_char, seed_for
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.records.movelog import format_log
from hearts_cli.records.record_parts import Seat
from hearts_cli.records.record_writer import write_record

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "replays"
SEATS4 = (Seat("Ana"), Seat("West", "cpu", "normal"), Seat("North", "cpu", "normal"),
          Seat("East", "cpu", "normal"))


def code_of(i: int) -> str:
    """The i-th code of a fixed search order (valid check character)."""
    payload = ""
    for _ in range(7):
        payload = ALPHABET[i % 32] + payload
        i //= 32
    payload = ("RP" + payload)[-7:]
    return payload + _check_char(payload)


Chooser = Callable[[Game, int], object]


def cpu(level: str = "normal") -> Chooser:
    def choose(game: Game, seat: int):
        return suggest(game.round.view(seat), level, seed_for(game.code, "cpu", seat))
    return choose


def play(rules: Rules, code: str, choose: Callable[[Game, int], Chooser],
         watch: Callable[[Game], None] | None = None) -> Game:
    game = Game(rules, code)
    while not game.over:
        rd = game.round
        if rd.phase is Phase.PASS:
            for s in range(rules.players):
                game.push_pass(choose(game, s)(game, s), s)
        else:
            s = rd.turn
            game.push(choose(game, s)(game, s))
            if watch is not None and rd.over:
                watch(game)
    return game


def normal_everyone(game: Game, seat: int) -> Chooser:
    return cpu("normal")


def greedy(game: Game, seat: int):
    """Seat 0 plays its highest legal card (and passes its lowest): a moon hunter."""
    rd = game.round
    if rd.phase is Phase.PASS:
        return tuple(sorted(rd.hand(seat), key=lambda c: (c.rank, c))[: rd.rules.pass_count])
    return max(rd.legal_cards(), key=lambda c: (c.rank, c))


def moon_hunter(game: Game, seat: int) -> Chooser:
    return (lambda g, s: greedy(g, s)) if seat == 0 else cpu("easy")


def find(rules: Rules, want: Callable[[Game], bool], chooser=normal_everyone, start: int = 0,
         limit: int = 4000) -> Game:
    for i in range(start, start + limit):
        game = play(rules, code_of(i), chooser)
        if want(game):
            print(f"  {rules.spec()} -> {game.code} (tried {i - start + 1})")
            return game
    raise SystemExit(f"nothing found for {rules.spec()}")


def had_moon(game: Game) -> bool:
    return any(r.shooter is not None for r in game.results)


def tie_share(game: Game) -> bool:
    return len(game.winners) > 1


def tie_one_more(game: Game) -> bool:
    return game.extra_round


def tie_until_single(game: Game) -> bool:
    """The target was reached with a tie for the lowest total at least one round before the end."""
    totals = [0] * game.rules.players
    for res in game.results[:-1]:
        totals = [a + b for a, b in zip(totals, res.scores)]
        low = min(totals)
        if max(totals) >= game.rules.target and totals.count(low) > 1:
            return True
    return False


def narrative(path: Path, *args: str) -> str:
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app

    result = CliRunner().invoke(app, ["replay", str(path), "--plain", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def blunder_game() -> tuple[Game, str]:
    """Normal players, except that seat 0 once drops the Q♠ on its own trick:
    last to play to a spade trick it can win with the Q♠ while a lower spade
    would duck. Returns the game and the position of that card."""
    for i in range(4000):
        code = code_of(10_000 + i)
        rules = Rules.from_spec({"preset": "quick", "target": 20})
        game = Game(rules, code)
        planted = None
        while not game.over:
            rd = game.round
            if rd.phase is Phase.PASS:
                for s in range(4):
                    game.push_pass(cpu()(game, s), s)
                continue
            s = rd.turn
            legal = rd.legal_cards()
            if (planted is None and s == 0 and len(rd.trick) == 3 and rd.trick[0].suit == Suit(3)
                    and QUEEN_OF_SPADES in legal
                    and max(c for c in rd.trick if c.suit == Suit(3)) < QUEEN_OF_SPADES
                    and any(c.suit == Suit(3) and c < QUEEN_OF_SPADES
                            and c < max(x for x in rd.trick if x.suit == Suit(3)) for c in legal)):
                planted = f"{len(game.rounds)}.{len(rd.tricks) + 1}.4"
                game.push(QUEEN_OF_SPADES)
                continue
            game.push(cpu()(game, s))
        if planted is not None:
            print(f"  blunder -> {code} at {planted}")
            return game, planted
    raise SystemExit("no blunder position found")


def save(name: str, game: Game, seats=None) -> Path:
    path = OUT / f"{name}.yaml"
    path.write_text(write_record(game, seats=seats, program="hearts 0.1.0"), encoding="utf-8")
    (OUT / f"{name}.log").write_text("\n".join(format_log(game)) + "\n", encoding="utf-8")
    (OUT / f"{name}.txt").write_text(narrative(path, "--lang", "en"), encoding="utf-8")
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)

    def q(**kw: object) -> Rules:
        return Rules.from_spec({"preset": "quick", **kw})

    print("quick-4p")
    game = play(q(target=30), "DEM0GAMV", normal_everyone)
    path = save("quick-4p", game, SEATS4)
    (OUT / "quick-4p.es.txt").write_text(narrative(path, "--lang", "es"), encoding="utf-8")
    (OUT / "quick-4p.jsonl").write_text(narrative(path, "--json"), encoding="utf-8")
    (OUT / "quick-4p.seat1.txt").write_text(narrative(path, "--seat", "1", "--lang", "en"),
                                            encoding="utf-8")
    print("moon")
    save("moon", find(q(target=30), had_moon, moon_hunter))
    print("omnibus (J♦)")
    save("omnibus-jd", find(Rules.from_spec({"preset": "omnibus", "target": 40}),
                            lambda g: True))
    print("3 players")
    save("three-players", find(q(players=3, target=30), lambda g: True))
    print("5 players")
    save("five-players", find(q(players=5, target=30), lambda g: True))
    print("ties")
    save("tie-share", find(q(target=10, ties="share"), tie_share))
    save("tie-one-more-round", find(q(target=10, ties="one_more_round"), tie_one_more))
    save("tie-until-single", find(q(target=10, ties="until_single"), tie_until_single))
    print("blunder")
    game, planted = blunder_game()
    save("blunder", game)
    (OUT / "blunder.position").write_text(planted + "\n", encoding="utf-8")
    print("partial log")
    full = (OUT / "quick-4p.log").read_text(encoding="utf-8").splitlines()
    partial = full[:6] + ["    " + " ".join(full[6].split()[:6]) + "   # the log stops here"]
    (OUT / "partial.log").write_text("\n".join(partial) + "\n", encoding="utf-8")
    from typer.testing import CliRunner

    from hearts_cli.cli.app import app

    result = CliRunner().invoke(app, ["replay", str(OUT / "partial.log"), "--plain", "--lang", "en"])
    assert result.exit_code == 0, result.output
    (OUT / "partial.txt").write_text(result.stdout, encoding="utf-8")


if __name__ == "__main__":
    main()
