"""The golden cases: what ``hearts`` is run with, from the outside.

Every case is ``python -m hearts_cli ARGV`` with the stdin given here, in a
fresh ``$HEARTS_HOME`` (see ``harness.py`` for the environment and the few
normalisations). The transcripts are ``tests/golden/<name>.txt``;
``python tests/make_golden.py`` records them, ``tests/test_golden.py`` checks
them byte for byte.

The batch games' input lines were chosen once (by looking at the game as it
went) and are fixed here: sensible moves, with the commands ``hint``, ``why``,
``score``, ``tricks``, ``log``, ``undo``, ``auto``, ``finish``... in between.
A line the program refuses ends a batch game with exit status 2; some cases
end that way on purpose.

Adding a case: append it to CASES, run ``python tests/make_golden.py --only
NAME``, read the new transcript, commit both.
"""

from __future__ import annotations

from .harness import INPUTS_DIR, Case, case, steps_case


def lines(*items: str) -> str:
    """Input lines, one per item, each ending with a newline."""
    return "".join(f"{item}\n" for item in items)


def read_input(name: str) -> bytes:
    return (INPUTS_DIR / name).read_bytes()


GAME_FILES = ("home/current.yaml", "home/archive/*.yaml")  # the save and the archived records

# ---------------------------------------------------------------- batch games

QUICK_EN = lines(
    "help", "code", "hint", "why queen of spades", "why 2C", "pass 2D 3D 10h", "tricks", "why 7H",
    "2C", "score", "jd", "3C", "tricks", "log", "table", "7H", "T♠", "auto", "log", "score", "hint",
    "pass 4S JS QS", "3C", "why QS", "AH", "auto", "tricks", "score")

QUICK_ES = lines(
    "ayuda", "pista", "por-que dama de picas", "K♠", "as de corazones", "dama de diamantes", "K♠",
    "jota de picas", "pasar", "bazas", "por-que 2C", "2C", "puntos", "por qué 4D", "4D",
    "por-que 7♥", "7C", "bazas", "jugadas", "mesa", "KD", "auto", "jugadas", "puntos", "codigo",
    "pista", "pasar JC KC 3D", "9D", "JS", "auto", "bazas", "puntos", "auto", "auto", "auto",
    "repetir", "pista", "salir", "ayuda")

BLACK_MARIA = lines(
    "hint", "why KS", "pass 9S TS JS", "why QS", "2C", "score", "KS", "why AS", "3C", "7S", "tricks",
    "auto", "log", "score", "hint", "pass 5C 7C 9C", "TC", "AS", "auto", "tricks", "score")

CANCELLATION_6 = lines(
    "hint", "pass 8C JC QC", "tricks", "AC", "why QS", "why AS", "why JS", "AS", "score", "5D", "AD",
    "tricks", "auto", "log", "score")

CANCELLATION_8_ES = lines(
    "pista", "por-que 2C", "pasar 3C 8C JC", "bazas", "AC", "por-que AH", "QS", "puntos", "KD",
    "auto", "jugadas", "puntos")

KITTY = lines(
    "pista", "pasar 3C 5C 6C", "bazas", "8C", "por-que QS", "KS", "TC", "bazas", "puntos", "jugadas",
    "auto", "jugadas", "puntos", "reglas")

QUICK_ES_SHORT = QUICK_ES[:QUICK_ES.index("codigo\n")] + lines("codigo")  # up to round 2's pass

OLD_LEAD = lines(
    "hint", "pass KH 7S 8S", "tricks", "why 2C", "2C", "why QS", "QH", "score", "7C", "9C", "tricks",
    "auto", "log", "score", "hint", "pass TC JC AC", "8S", "auto", "tricks")

# X5SJA007 with random CPUs: rounds 1-6 played by `auto`; in round 7 these cards take all 26
MOON_ARGV = ("new", "--code", "X5SJA007", "--preset", "shooter-choice", "--level", "random",
             "--target", "100")
MOON_START = ("auto",) * 6 + ("hint", "pass 5C 8C QC", "KC", "KS", "JS", "9S", "6S", "AD", "4S",
                              "AH", "QH", "why JH", "JH", "7H", "score", "6H")
MOON_MINUS = lines(*MOON_START, "9D", "why 9D", "score", "hint", "minus", "score",
                   *("auto",) * 7, "quit")
MOON_ENTER = lines(*MOON_START, "9D", "", "score")
MOON_FINISH_ES = lines(*MOON_START, "terminar", "puntos")
MOON_BAD_WORD = lines(*MOON_START, "9D", "sideways", "others")

UNDO = lines("pass 3C 8C JC", "QC", "undo", "AC", "QC", "undo", "undo", "undo", "undo", "QC")

SHORT = lines("hint", "pass 2D 3D 10H", "2C", "why JD", "tricks", "score")

GAMES = [
    case("game-quick-en", ["new", "--code", "K7Q2MXA7"], QUICK_EN, collect=GAME_FILES, heavy=True,
         note="quick, English: help, code, hint, why, tricks, log, table, score, auto; into round 3"),
    case("game-quick-en-json", ["new", "--code", "K7Q2MXA7", "--json"], QUICK_EN, heavy=True,
         note="the same game and input as game-quick-en, as JSON events"),
    case("game-quick-es", ["--lang", "es", "new", "--code", "JYR35SWD"], QUICK_ES,
         collect=GAME_FILES, heavy=True,
         note="quick in Spanish (--lang es over HEARTS_LANG=en): Spanish commands and card names, "
              "cards chosen one by one for the pass, a whole game, then repetir (replay-deal) and salir"),
    case("game-quick-es-json", ["new", "--code", "JYR35SWD", "--json"], QUICK_ES_SHORT, lang="es",
         note="the first round of game-quick-es as JSON events, Spanish from HEARTS_LANG=es"),
    case("game-black-maria-en", ["new", "--code", "CARD5X97", "--preset", "black-maria"],
         BLACK_MARIA, collect=GAME_FILES, note="black-maria, 3 players: two rounds"),
    case("game-black-maria-es-json", ["new", "--code", "CARD5X97", "--preset", "maría-negra", "--json"],
         BLACK_MARIA, lang="es", note="game-black-maria-en's input in Spanish JSON (English commands)"),
    case("game-cancellation-6p-en",
         ["new", "--code", "QSPADE7B", "--preset", "cancellation", "--players", "6"], CANCELLATION_6,
         collect=GAME_FILES, heavy=True,
         note="cancellation, 6 players, two decks: why with twins, cancelled cards, round 1"),
    case("game-cancellation-8p-es",
         ["new", "--code", "ZZZZZZZ7", "--preset", "anulación", "--players", "8"], CANCELLATION_8_ES,
         lang="es", collect=GAME_FILES, heavy=True,
         note="cancellation (by its Spanish name), 8 players, in Spanish: round 1"),
    case("game-kitty-es", ["new", "--code", "KTY3P00J", "--preset", "kitty"], KITTY, lang="es",
         collect=GAME_FILES, note="kitty, 3 players, in Spanish: round 1, then reglas"),
    case("game-kitty-en-json", ["new", "--code", "KTY3P00J", "--preset", "kitty", "--json"], KITTY,
         note="game-kitty-es's input, English JSON (Spanish commands are read in English too)"),
    case("game-old-lead-en", ["new", "--code", "1234567M", "--preset", "old-lead"], OLD_LEAD,
         collect=GAME_FILES, heavy=True, note="old-lead: North leads any card; round 1 and part of 2"),
    case("game-old-lead-es", ["new", "--code", "1234567M", "--preset", "salida-antigua"],
         OLD_LEAD[:OLD_LEAD.index("auto\n")] + lines("log", "table"), lang="es",
         note="the first tricks of game-old-lead-en in Spanish"),
    case("game-shooter-choice-moon-en", MOON_ARGV, MOON_MINUS, collect=GAME_FILES,
         note="shooter-choice: you shoot the moon in round 7 and choose minus; played to the end"),
    case("game-shooter-choice-moon-json", [*MOON_ARGV, "--json"], MOON_ENTER,
         note="the same moon, JSON; an empty line takes the default"),
    case("game-shooter-choice-finish-es", MOON_ARGV, MOON_FINISH_ES, lang="es",
         note="the same moon in Spanish, reached with terminar (finish): the question waits, puntos answers"),
    case("game-shooter-choice-bad-word-en", MOON_ARGV, MOON_BAD_WORD,
         note="a word that is no moon choice at the moon's question: exit 2"),
    case("game-standard-undo-en", ["new", "--code", "HEARTS0N", "--preset", "standard"], UNDO,
         collect=GAME_FILES,
         note="undo a card, a card and the pass; one undo too many is refused, the game goes on, exit 2"),
    case("game-views-en", ["new", "--code", "JYR35SWD"],
         lines("exchange", "count", "last", "pass TS JS KS", "exchange", "2C", "last", "tricks", "count", "table"),
         note="what a good online table shows: exchange, count, last, tricks with who played what"),
    case("game-views-es", ["--lang", "es", "new", "--code", "JYR35SWD"],
         lines("intercambio", "cuenta", "ultima", "pasar TS JS KS", "intercambio", "2C", "ultima", "bazas", "cuenta",
               "mesa"), note="game-views-en in Spanish, with the Spanish commands"),
    case("game-views-json", ["new", "--code", "JYR35SWD", "--json"],
         lines("exchange", "pass TS JS KS", "exchange", "2C", "last", "tricks", "count"),
         note="exchange, last, tricks and count as JSON events"),
    case("game-online-3p-jd-en",
         ["new", "--code", "CARD5X97", "--preset", "online", "--players", "3", "--set",
          "jack_of_diamonds=true"], lines("hint", "why JD", "auto", "auto", "log", "score"),
         collect=GAME_FILES, note="online, 3 players, with the J♦ -10 (--set): two rounds by auto"),
    case("game-seat2-normal-en", ["new", "--code", "K7Q2MXA7", "--seat", "2", "--level", "normal"],
         lines("hint", "auto", "tricks", "score", "log"), note="--seat 2 and --level normal"),
    case("game-spot-easy-en", ["new", "--code", "QSPADE7B", "--preset", "spot", "--level", "easy"],
         lines("hint", "auto", "score", "log", "auto", "score"), collect=GAME_FILES,
         note="spot hearts against Easy: the whole game"),
    case("game-illegal-card-en", ["new", "--code", "K7Q2MXA7"], lines("pass 2D 3D 10H", "3C", "2C"),
         note="an illegal first lead: one sentence, exit 2"),
    case("game-illegal-card-json", ["new", "--code", "K7Q2MXA7", "--json"],
         lines("pass 2D 3D 10H", "3C", "2C"), note="the same as JSON: an error event, exit 2"),
    case("game-unknown-word-es", ["new", "--code", "K7Q2MXA7"], lines("pista", "pasr 2D 3D 10H"),
         lang="es", note="a mistyped command, in Spanish: exit 2"),
    case("game-long-line", ["new", "--code", "K7Q2MXA7"], lines("x" * 5000, "hint"),
         note="a line over 4,096 characters: exit 2"),
    case("game-ascii-es", ["--lang", "es", "new", "--code", "K7Q2MXA7"], SHORT,
         env={"PYTHONIOENCODING": "ascii"}, note="an output that cannot encode accents or suits"),
    case("game-hearts-ascii-en", ["new", "--code", "K7Q2MXA7"], SHORT, env={"HEARTS_ASCII": "1"},
         note="HEARTS_ASCII=1"),
    case("game-plain-en", ["--plain", "new", "--code", "K7Q2MXA7"], SHORT, note="--plain"),
    steps_case("game-save-resume-explain", [
        (["new", "--code", "HEARTS0N", "--preset", "standard"], lines("pass 3C 8C JC", "QC")),
        (["play"], lines("tricks", "hint")),
        (["explain", "QS"], ""),
        (["explain", "AC", "--json"], ""),
        (["--lang", "es", "explain", "9H"], ""),
        (["play", "--json"], lines("score", "log"), {"HEARTS_LANG": "es"}),
        (["new", "--no-play", "--code", "1234567M"], ""),
        (["explain", "2C"], ""),
        (["play"], lines("why 2C", "quit", "hint")),
    ], collect=GAME_FILES, note="a game saved at end of input, resumed by play, explained from the "
                                "save; new --no-play sets it aside in the archive"),
    steps_case("game-finished-then-stats", [
        (["new", "--code", "DEM0GAMV", "--level", "random", "--target", "30"],
         lines("auto", "auto", "auto", "replay-deal", "hint", "quit")),
        (["stats"], ""),
        (["stats", "--json"], ""),
        (["--lang", "es", "stats", "--preset", "rápida"], ""),
        (["stats", "--since", "2000-01-01", "--preset", "standard"], ""),
        (["stats", "--since", "yesterday"], ""),
    ], collect=GAME_FILES, normalise=("dates",),
        note="a whole game archived, replay-deal starts it again; then stats (dates normalised)"),
]

# ---------------------------------------------------------------- replays

REPLAYS = [
    case("replay-quick-4p-en", ["replay", "quick-4p.yaml"], files=("quick-4p.yaml",)),
    case("replay-quick-4p-es", ["replay", "quick-4p.yaml"], lang="es", files=("quick-4p.yaml",)),
    case("replay-quick-4p-seat1", ["replay", "quick-4p.yaml", "--seat", "1"],
         files=("quick-4p.yaml",)),
    case("replay-quick-4p-json", ["replay", "quick-4p.yaml", "--json"], files=("quick-4p.yaml",)),
    case("replay-quick-4p-at", ["replay", "quick-4p.yaml", "--at", "1.2.1", "--all-hands"],
         files=("quick-4p.yaml",)),
    case("replay-quick-4p-at-move-es", ["--lang", "es", "replay", "quick-4p.yaml", "--at", "20"],
         files=("quick-4p.yaml",)),
    case("replay-quick-4p-log-json", ["replay", "quick-4p.log", "--json"], files=("quick-4p.log",)),
    case("replay-partial-log", ["replay", "partial.log"], files=("partial.log",)),
    case("replay-log-stdin", ["replay", "--code", "K7Q2MXA7", "-"], lines(
        "R1  2D 3D TH | AD KH AS | 7D QH AH | 5C JC KS",
        "    2C KC TC 7D / 2D AD 9D KS / 4C JD 3C 7C / 3D QS QD 5C"),
         note="a move log on stdin: the start of game-quick-en"),
    case("replay-moves-option-json", ["replay", "--code", "K7Q2MXA7", "--moves",
                                      "R1 2D 3D TH | AD KH AS | 7D QH AH | 5C JC KS  2C KC TC 7D",
                                      "--json"]),
    case("replay-omnibus-jd-log", ["replay", "omnibus-jd.log"], files=("omnibus-jd.log",)),
    case("replay-kitty-record-json", ["replay", "kitty-3p-finished.yaml", "--json"],
         files=("kitty-3p-finished.yaml",)),
    case("replay-kitty-record-es", ["replay", "kitty-3p-finished.yaml"], lang="es",
         files=("kitty-3p-finished.yaml",)),
    case("replay-omnibus-6p-in-progress", ["replay", "omnibus-6p-in-progress.yaml"],
         files=("omnibus-6p-in-progress.yaml",)),
    case("replay-pass-phase", ["replay", "quick-pass-phase.yaml", "--all-hands"],
         files=("quick-pass-phase.yaml",)),
    case("replay-pass-phase-at-1.pass.1", ["replay", "quick-pass-phase.yaml", "--at", "1.pass.1"],
         files=("quick-pass-phase.yaml",)),
    case("replay-error-pass-position", ["replay", "quick-pass-phase.yaml", "--at", "1.pass.4"],
         files=("quick-pass-phase.yaml",)),
    case("replay-five-players-json", ["replay", "five-players.yaml", "--json"],
         files=("five-players.yaml",)),
    case("replay-moon", ["replay", "moon.yaml"], files=("moon.yaml",)),
    case("replay-analyze-blunder-seat0",
         ["replay", "blunder.yaml", "--analyze", "--seat", "0", "--simulations", "40", "--annotate-to",
          "study.yaml"],
         files=("blunder.yaml",), collect=("cwd/study.yaml",), heavy=True,
         note="--analyze for one seat, and the annotated record it writes"),
    case("replay-analyze-blunder-json", ["replay", "blunder.yaml", "--analyze", "--seat", "0", "--json",
                                         "--simulations", "20", "--seed", "3"],
         files=("blunder.yaml",)),
    case("replay-analyze-tie-share", ["replay", "tie-share.yaml", "--analyze", "--simulations", "40"],
         files=("tie-share.yaml",), heavy=True, note="--analyze for every seat"),
    case("replay-analyze-three-players-es",
         ["replay", "three-players.yaml", "--analyze", "--seat", "0", "--simulations", "10"],
         lang="es", files=("three-players.yaml",)),
    case("replay-error-position", ["replay", "quick-4p.yaml", "--at", "9.9.9"],
         files=("quick-4p.yaml",)),
    case("replay-error-bad-log", ["replay", "--code", "K7Q2MXA7", "--moves", "R1 2D 3D ZZ"]),
]

# ---------------------------------------------------------------- rules

PRESETS = ["quick", "always-left", "black-maria", "british", "cancellation", "classic", "cutthroat",
           "first-trick-points", "kitty", "no-breaking", "no-moon", "old-lead", "omnibus", "online",
           "queen-breaks", "reference", "shooter-choice", "shooter-minus", "spot", "standard"]

RULES = [case(f"rules-tips-{preset}-{lang}", ["rules", "--preset", preset, "--tips"], lang=lang)
         for preset in PRESETS for lang in ("en", "es")] + [
    case("rules-default", ["rules"]),
    case("rules-json-black-maria", ["rules", "--preset", "black-maria", "--json"]),
    case("rules-json-tips-omnibus-es", ["rules", "--preset", "omnibus", "--json", "--tips"], lang="es"),
    case("rules-online-3p-jd", ["rules", "--preset", "online", "--players", "3", "--set",
                                "jack_of_diamonds=true"]),
    case("rules-cancellation-11p-es", ["--lang", "es", "rules", "--preset", "anulación",
                                       "--players", "11", "--target", "150"]),
]

# ---------------------------------------------------------------- sim

SIM = [
    case("sim-json-quick", ["sim", "--json", "--seed", "golden", "--deals", "2", "--seats",
                            "hard,normal,easy,random", "--simulations", "8"], normalise=("sim_times",)),
    case("sim-json-black-maria-duplicate", ["sim", "--json", "--seed", "golden2", "--deals", "3",
                                            "--seats", "easy,random,normal", "--preset", "black-maria",
                                            "--duplicate"], normalise=("sim_times",)),
    case("sim-json-omnibus-5p", ["sim", "--json", "--seed", "7", "--deals", "2", "--seats",
                                 "normal,easy,random,easy,normal", "--preset", "omnibus",
                                 "--players", "5", "--set", "target=60"], normalise=("sim_times",)),
    case("sim-error-seat", ["sim", "--seats", "hard,genius", "--deals", "1"]),
]

# ---------------------------------------------------------------- the engine protocol

ENGINE = [
    case("engine-worked-session", ["engine"], read_input("engine-worked.jsonl"),
         note="docs/engine-protocol.md's worked session and more: passes, plays, why, go, ids"),
    case("engine-codes-and-errors", ["engine"], read_input("engine-codes-and-errors.jsonl"),
         note="positions from codes, rules objects, kitty, cancellation; one error of each kind"),
    case("engine-moon", ["engine"], read_input("engine-moon.jsonl"),
         note="shooter-choice: a position that ends in a moon, go and moon; bad hands"),
    case("engine-es-and-bytes", ["engine"],
         b'\xef\xbb\xbf{"cmd":"hello","id":"bom"}\r\n'
         b'\n'
         b'{"cmd":"position","code":"K7Q2MXA7"}\r\n'
         b'{"cmd":"why","card":"dama de picas"}\n'
         b'{"cmd":"why","card":"2C","lang":"en"}\n'
         b'{"cmd":"play","card":"\xff\xfe"}\n'
         b'\xff\xfe\n'
         b'{"cmd":"play","card":"Q\xe2\x99\xa0"}\n'
         b'{"cmd":"pass","seat":0,"cards":["2C","3C","\x1b[31m"]}\n'
         b'{"cmd":"pass","seat":0,"cards":["2C","3C","\\u001b[31m\\u0007"]}\n'
         b'{"cmd":"why","card":"' + b"9" * 100 + b'"}\n'
         b'{"cmd":"go","level":"easy","seed":1}\n'
         b'{"cmd":"go","level":"easy","seed":1,"simulations":0}\n'
         b'{"cmd":"quit","id":{"a":[1,2]}}\n',
         lang="es", note="HEARTS_LANG=es; a BOM, CRLF, a blank line, bytes that are not UTF-8, "
                         "an escape sequence in a card"),
]

# ---------------------------------------------------------------- errors and small commands

ERRORS = [
    case("error-bad-code", ["new", "--code", "K7Q2MXA8"]),
    case("error-short-code-es", ["new", "--code", "ABC"], lang="es"),
    case("error-code-letter", ["new", "--code", "K7Q2MXAI"]),
    case("error-bad-preset", ["new", "--preset", "nonesuch"]),
    case("error-bad-preset-rules-es", ["rules", "--preset", "nope"], lang="es"),
    case("error-bad-setting", ["new", "--set", "foo=bar"]),
    case("error-bad-setting-value", ["rules", "--set", "moon=sideways"]),
    case("error-bad-players", ["new", "--players", "12"]),
    case("error-bad-level", ["new", "--level", "superhard"]),
    case("error-bad-card", ["explain", "XZ", "--code", "K7Q2MXA7"]),
    case("error-bad-card-escape", ["explain", "\x1b]0;pwned\x07QS", "--code", "K7Q2MXA7"]),
    case("error-explain-no-save", ["explain", "QS"]),
    case("error-explain-illegal-move", ["explain", "4D", "--code", "K7Q2MXA7", "--moves",
                                        "8S 9S TS  AS KH 2H  QS JS AH  KS 6S 2S  2C 5D"]),
    case("error-replay-missing-file", ["replay", "nosuch.yaml"]),
    case("error-replay-not-a-record", ["replay", "notes.yaml"], files=("notes.yaml",)),
    case("error-unknown-option", ["new", "--bogus-option"]),
    case("error-unknown-command", ["frobnicate"]),
]

MISC = [
    case("version", ["--version"]),
    case("help", ["--help"]),
    case("help-new", ["new", "--help"]),
    case("help-rules", ["rules", "-h"]),
    case("explain-doc-example", ["explain", "4D", "--code", "K7Q2MXA7", "--moves",
                                 "8S 9S TS  AS KH 2H  QS JS AH  KS 6S 2S  2C"]),
    case("explain-json-legal-es", ["explain", "KC", "--code", "K7Q2MXA7", "--moves",
                                   "8S 9S TS  AS KH 2H  QS JS AH  KS 6S 2S  2C", "--json"], lang="es"),
    case("explain-record-at", ["explain", "QS", "--record", "quick-4p.yaml", "--at", "1.2.1"],
         files=("quick-4p.yaml",)),
    case("explain-cancellation-twin", ["explain", "QS", "--code", "QSPADE7B", "--preset",
                                       "cancellation", "--players", "6", "--moves",
                                       "8C JC QC KC KD QS KH KS KS 4D 8D KD AD TS TS AH AH AS "
                                       "2C QC TC TC AC QC AS JS"]),
    case("stats-empty", ["stats"]),
    case("stats-empty-json-es", ["stats", "--json"], lang="es"),
]

CASES: list[Case] = GAMES + REPLAYS + RULES + SIM + ENGINE + ERRORS + MISC
