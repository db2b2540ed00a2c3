"""The REPL's commands: one registry of names, handlers and message ids.

Each :class:`Command` says what it is called in each language (what help,
completion and "did you mean" offer), the other words that call it (every one
works in either language), whether a card follows it, and what a shared table
says when it is a command for a game of one's own. Adding a command is one
entry here, its handler, and its messages in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Literal, NamedTuple

from ..model.cards import fold
from ..play.counting import count
from ..play.dealt import Phase, Trick
from ..play.events import Counted, Event, Exchange, Hint, LastTrick, Pass, Play, Score, Tricks, Why
from ..table.game import Refused
from .hints import hint_text, pass_reason, play_reason
from .person import Person

if TYPE_CHECKING:
    from ..play.payloads import ShownTrick
    from ..table.seat_table import OwnTable

Signal = Literal["quit", "new", "replay"] | None  # what the loop does after a line
Handler = Callable[[Person, str], Signal]  # the person's side, and what follows the command word
OwnHandler = Callable[[Person, "OwnTable", str], Signal]  # ... and what a game of one's own allows


class Command(NamedTuple):
    key: str  # the command, whatever it is called
    names: Mapping[str, str]  # its name in each display language
    aliases: tuple[str, ...]  # the other words that call it (folded: no accents, lower case)
    run: Handler
    card: bool = False  # a card follows it: completion offers cards after it
    shared: str | None = None  # a game of one's own only: what a shared table says (message id)
    phrase: tuple[str, str] | None = None  # a name of two words ("por qué"): the first alone calls it too
    move: bool = False  # it makes a move: refused, it stops a script as a refused card does


# ---------------------------------------------------------------- handlers


def _own(handler: OwnHandler) -> Handler:
    """A command for a game of one's own, handed what the table allows (:func:`run` refuses it
    first at a shared table, which hands out no such thing)."""
    def run_own(person: Person, rest: str) -> Signal:
        own = person.tb.own
        return handler(person, own, rest) if own is not None else None
    return run_own


def _why(person: Person, rest: str) -> Signal:
    tb = person.tb
    if not rest:
        if tb.pending is None:
            tb.error("why_usage")
            return None
        card, verdict = tb.pending, tb.verdict  # judged when it was entered
    else:
        parsed = person.parse(rest)
        if parsed is None:
            return None
        card, verdict = parsed, None
    if verdict is None:
        verdict = tb.why(card)
    text = verdict.message(tb.lang, tb.ascii)
    tb.emit(Why(card=card, legal=verdict.legal, reason=verdict.reason.to_json(text) if verdict.reason else None,
                text=text))
    return None


def _hint(person: Person, rest: str) -> Signal:
    tb = person.tb
    if tb.over or not tb.waiting_for_person():
        tb.error("hint_not_now")
        return None
    if tb.view().phase is Phase.MOON:
        tb.emit(Hint(text=tb.say("hint_moon", default=tb.moon_words()["default"])))
        return None
    try:  # the analysis at a game of one's own; at a shared table the host's CPU, if it allows hints
        hint = tb.core.hint(tb.me)
    except Refused as e:
        tb.error(e.code, e.message)
        return None
    if hint.kind == "pass":
        cards = sorted(hint.best)
        tb.emit(Hint(cards=cards, text=hint_text(tb, hint, cards, pass_reason(tb, cards))))
    else:
        (card,) = hint.best
        tb.emit(Hint(card=card, text=hint_text(tb, hint, card, play_reason(tb, card))))
    return None


def _score(person: Person, rest: str) -> Signal:
    tb = person.tb
    points = list(tb.view().points)  # this round's so far: none once the game is over
    tb.emit(Score(totals=list(tb.core.totals), rounds=[list(r) for r in tb.core.round_scores],
                  points=[0] * len(points) if tb.over else points))
    return None


def _trick_data(tr: Trick) -> ShownTrick:
    """A completed trick as the `tricks` and `last` events carry it: who played each card."""
    return {"leader": tr.leader, "cards": list(tr.cards), "seats": [s for s, _ in tr.plays()],
            "winner": tr.winner, "points": tr.points}


def _tricks(person: Person, rest: str) -> Signal:
    tb = person.tb
    view = tb.view()
    current: ShownTrick | None = None
    plays = view.trick_plays()
    if plays:
        current = {"leader": plays[0][0], "cards": list(view.trick), "seats": [s for s, _ in plays]}
    tb.emit(Tricks(round=tb.round_number, tricks=[_trick_data(tr) for tr in view.tricks], current=current))
    return None


def _last(person: Person, rest: str) -> Signal:
    """The last completed trick of the round: who played what, and who took it."""
    tb = person.tb
    tricks = tb.view().tricks
    tb.emit(LastTrick(round=tb.round_number, number=len(tricks), trick=_trick_data(tricks[-1]) if tricks else None))
    return None


def _count(person: Person, rest: str) -> Signal:
    """The cards still out in each suit and the voids shown, from the person's seat only."""
    tb = person.tb
    counted = count(tb.view())
    tb.emit(Counted(out=[list(cards) for cards in counted.out], voids=[sorted(v) for v in counted.voids],
                    placed=[list(cards) for cards in counted.placed]))
    return None


def _exchange(person: Person, rest: str) -> Signal:
    """What the person passed and received this round (their seat's view: nobody else's pass)."""
    tb = person.tb
    view = tb.view()
    tb.emit(Exchange(round=tb.round_number, direction=view.direction.value,
                     passed=list(view.passed) if view.passed is not None else None, to=view.passed_to,
                     received=list(view.received) if view.received is not None else None,
                     source=view.received_from))
    return None


def _rules(person: Person, rest: str) -> Signal:
    rules = person.tb.rules
    # (by kind: the settings' nested maps keep int keys, which RulesShown.settings, a JsonObject, does not
    # allow; the tellers read them so)
    person.tb.emit(Event("rules", {"preset": rules.preset, "settings": rules.settings()}))
    return None


def _code(person: Person, rest: str) -> Signal:
    tb = person.tb
    if tb.code is None:  # a shared table tells it at the end (it would reveal the deal)
        tb.error("net_own_game", command=name_of("code", tb.lang))
        return None
    tb.info("code", tb.say("code_info", code=tb.code))
    tb.info("code", tb.say("code_position", position=tb.view().position()))  # the person's view only
    return None


def _auto(person: Person, own: OwnTable, rest: str) -> Signal:
    tb = person.tb
    if tb.over:  # nothing left to play: not a mistake (a script may say it once too often)
        tb.info("auto", tb.say("game_over_cards"))
        return None
    own.set_auto(tb.me)
    tb.selection = []
    tb.pending, tb.verdict = None, None
    tb.info("auto", tb.say("auto_on"))
    return None


def _at_once(person: Person, ask: Callable[[int], None]) -> bool:
    """The rest of the round played at once, if the person's own table grants ``ask`` (its
    refusal said): nothing is left waiting to be entered. Whether it was granted."""
    tb = person.tb
    try:
        ask(tb.me)
    except Refused as e:
        tb.error(e.code, tb.say(e.said, **e.params))
        return False
    tb.selection = []
    tb.pending, tb.verdict = None, None
    return True


def _finish(person: Person, own: OwnTable, rest: str) -> Signal:
    tb = person.tb
    if _at_once(person, own.finish):
        tb.info("finish", tb.say("finish_on"))
    return None


def _claim(person: Person, own: OwnTable, rest: str) -> Signal:
    """The rest of the round at once, when the person leads and holds every winning card."""
    _at_once(person, own.claim)  # (the claim event says it)
    return None


def _concede(person: Person, own: OwnTable, rest: str) -> Signal:
    """The rest of the round to whoever holds every winning card, at once."""
    tb = person.tb
    if _at_once(person, own.concede) and not tb.claimed():
        tb.info("finish", tb.say("finish_on"))  # no points left: played out, with no claimant to say it
    return None


def _log(person: Person, own: OwnTable, rest: str) -> Signal:
    """The move log of the game so far (docs/replay.md), to copy into `hearts replay`.

    A round under way with a pass is left out until it ends: its log would
    show the other seats' passes."""
    from ..records.movelog import format_log

    tb = person.tb
    lines = format_log(own.game, hide_round_in_progress=True)
    if lines[-1].startswith("# R"):
        lines[-1] = "# " + tb.say("log_round_hidden", round=tb.round_number)
    tb.info("log", "\n".join(lines))
    return None


def _undo(person: Person, own: OwnTable, rest: str) -> Signal:
    """Take back the person's last pass or card, and the CPU cards played after it (the
    table's :meth:`~hearts_cli.table.seat_table.OwnTable.undo`: saved before it is shown)."""
    tb = person.tb
    if not tb.undo_allowed:
        tb.error("undo_off")
        return None
    tb.selection = []
    tb.pending, tb.verdict = None, None
    try:
        own.undo(tb.me)
    except Refused as e:
        tb.error(e.code)
    return None


def _pass(person: Person, rest: str) -> Signal:
    person.pass_cards(rest)
    return None


def _again(person: Person, rest: str) -> Signal:
    """The last events once more (since the person's last move): for a screen reader above all,
    whose speech is gone once said, and for anyone who looked away."""
    tb = person.tb
    events = tb.recent()
    if not events:
        tb.info("again", tb.say("again_none"))
        return None
    mine = isinstance(events[0], (Pass, Play)) and events[0].seat == tb.me  # else: since the game opened
    tb.info("again", tb.say("again_title" if mine else "again_title_opened"))
    tb.front.again(events)
    return None


def _table(person: Person, rest: str) -> Signal:
    person.tb.dirty = True
    return None


def _help(person: Person, rest: str) -> Signal:
    tb = person.tb
    tb.info("help", tb.say("help_text" if tb.local else "net_help"))
    return None


def _quit(person: Person, rest: str) -> Signal:
    return "quit"


def _new(person: Person, rest: str) -> Signal:
    return _leave(person, "new")


def _replay(person: Person, rest: str) -> Signal:
    return _leave(person, "replay")


def _leave(person: Person, key: Literal["new", "replay"]) -> Signal:
    """Another game, once the person has said so: an unfinished game is not left on one word
    while confirmations are on (it is archived, and ``hearts play --resume CODE`` brings it back)."""
    tb = person.tb
    if tb.over or not tb.confirm or tb.answering == key:
        return key
    tb.leaving = key
    tb.info("leave", tb.say("leave_ask", command=name_of(key, tb.lang), code=tb.code))
    return None


# ---------------------------------------------------------------- the registry

_OWN = "net_own_game"
REGISTRY: tuple[Command, ...] = (  # in the order help and completion name them
    Command("why", {"en": "why", "es": "por-que"}, ("porque",), _why, card=True, phrase=("por", "que")),
    Command("hint", {"en": "hint", "es": "pista"}, (), _hint),
    Command("score", {"en": "score", "es": "puntos"}, ("scores",), _score),
    Command("tricks", {"en": "tricks", "es": "bazas"}, (), _tricks),
    Command("last", {"en": "last", "es": "ultima"}, ("ultima-baza", "last-trick"), _last),
    Command("count", {"en": "count", "es": "cuenta"}, ("contar",), _count),
    Command("exchange", {"en": "exchange", "es": "intercambio"}, (), _exchange),
    Command("rules", {"en": "rules", "es": "reglas"}, (), _rules),
    Command("code", {"en": "code", "es": "codigo"}, (), _code),
    Command("auto", {"en": "auto", "es": "auto"}, (), _own(_auto), shared=_OWN),
    Command("finish", {"en": "finish", "es": "terminar"}, (), _own(_finish), shared=_OWN),
    Command("claim", {"en": "claim", "es": "reclamar"}, ("reclamo",), _own(_claim), shared=_OWN),
    Command("concede", {"en": "concede", "es": "ceder"}, ("rendirse",), _own(_concede), shared=_OWN),
    Command("new", {"en": "new", "es": "nueva"}, ("another", "otra"), _new, shared=_OWN),
    Command("replay", {"en": "replay-deal", "es": "repetir"}, ("replay", "repetir-reparto"), _replay,
            shared=_OWN),
    Command("pass", {"en": "pass", "es": "pasar"}, ("paso",), _pass, card=True, move=True),
    Command("table", {"en": "table", "es": "mesa"}, (), _table),
    Command("again", {"en": "again", "es": "releer"}, ("reread", "repeat-last"), _again),
    Command("log", {"en": "log", "es": "jugadas"}, (), _own(_log), shared=_OWN),
    Command("undo", {"en": "undo", "es": "deshacer"}, (), _own(_undo), shared="net_undo"),
    Command("help", {"en": "help", "es": "ayuda"}, ("?",), _help),
    Command("quit", {"en": "quit", "es": "salir"}, ("exit",), _quit),
)
BY_KEY = {cmd.key: cmd for cmd in REGISTRY}


def _words(cmd: Command) -> tuple[str, ...]:
    """Every word that calls ``cmd``, folded, but the first of a two-word name."""
    return tuple(dict.fromkeys(fold(w) for w in (*cmd.names.values(), *cmd.aliases)))


# every word that calls a command (matched after folding case and accents) -> the command's key
COMMANDS: dict[str, str] = {w: cmd.key for cmd in REGISTRY for w in _words(cmd)} | {
    cmd.phrase[0]: cmd.key for cmd in REGISTRY if cmd.phrase}
# each command as the display language names it (every alias in COMMANDS works in either language)
COMMAND_NAMES: dict[str, dict[str, str]] = {
    lang: {cmd.key: cmd.names[lang] for cmd in REGISTRY} for lang in ("en", "es")}
# what completion offers: the display language's names first, then the other language's
COMMAND_WORDS = tuple(dict.fromkeys(name for lang in ("en", "es") for name in COMMAND_NAMES[lang].values()))
# words that call a command only as the whole line: `q` quits, as in many programs (a rank
# alone names no card), while `q s` and `q de picas` stay the Q♠ (and Tab offers the queens);
# `r` reads the last events again (a rank alone, again, names no card)
WHOLE_LINE: dict[str, str] = {"q": "quit", "r": "again"}
# the words a card follows (completion offers cards after them)
CARD_COMMANDS = frozenset(w for cmd in REGISTRY if cmd.card for w in _words(cmd))


def name_of(key: str, lang: str) -> str:
    """What the display language calls the command ``key``."""
    return COMMAND_NAMES.get(lang, COMMAND_NAMES["en"])[key]


def command_words(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The command names of ``lang``, and those of the other language."""
    own = tuple(COMMAND_NAMES.get(lang, COMMAND_NAMES["en"]).values())
    return own, tuple(w for w in COMMAND_WORDS if w not in own)


def close_commands(word: str, lang: str) -> list[str]:
    """The commands ``word`` most likely meant to be (a typo), named in ``lang``."""
    import difflib  # only on a typo: keeps start-up light

    names = COMMAND_NAMES.get(lang, COMMAND_NAMES["en"])
    found: list[str] = []
    for alias in difflib.get_close_matches(fold(word), [a for a in COMMANDS if len(a) > 2], n=6, cutoff=0.7):
        name = names[COMMANDS[alias]]
        if name not in found:
            found.append(name)
    return found[:2]


def find(head: str, rest: str) -> tuple[Command, str] | None:
    """The command a line starting with ``head`` calls, and its argument; None: no command."""
    key = COMMANDS.get(fold(head))
    if key is None and not rest.strip():
        key = WHOLE_LINE.get(fold(head))
    if key is None:
        return None
    cmd = BY_KEY[key]
    if cmd.phrase is not None and fold(head) == cmd.phrase[0]:  # "por qué QS"
        word, _, after = rest.partition(" ")
        rest = after if fold(word) == cmd.phrase[1] else rest
    return cmd, rest.strip()


def run(person: Person, cmd: Command, rest: str) -> Signal:
    """``cmd`` for ``person``: refused at a shared table when it is for a game of one's own."""
    tb = person.tb
    if cmd.shared is not None and not tb.local:
        tb.error(cmd.shared, command=name_of(cmd.key, tb.lang))
        return None
    return cmd.run(person, rest)
