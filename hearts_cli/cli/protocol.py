"""The engine protocol: ``hearts engine`` speaks JSON lines on stdin and stdout.

One request object per line, exactly one reply object per line, in order (a
blank line is ignored and gets no reply). This module only translates between
JSON and :class:`hearts_cli.play.round.Round`; the rules live in the engine. The
full reference, with a worked session, is ``docs/engine-protocol.md``.

Start-up must stay fast: import only ``json``, ``sys`` and the engine's own
modules here (never prompt_toolkit or rich); the CPU players are imported
lazily, by the ``go`` command, when they exist.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO, cast

from .. import __version__
from ..base.jsonvalue import JsonObject, JsonValue
from ..bots import LEVELS, LevelError, check_level
from ..model.cards import Card
from ..model.codes import CodeError, normalize_code
from ..model.rules import DEFAULT_PRESET, Direction, Rules, RulesError, preset_names
from ..play import requests
from ..play.dealt import MOON_CHOICES, IllegalMove, MoonChoiceError, PassError, Phase
from ..play.events import SCHEMA, Event, view_event
from ..play.requests import RequestError
from ..play.round import Round
from ..text.catalog import LANGUAGES, default_language, t

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from ..play.events import View
    from ..play.replies import Reply, StateReply, Suggestion
    from ..play.verdicts import Reason

PROTOCOL_VERSION = SCHEMA  # the engine speaks the shared vocabulary (docs/events.md)
NAME = "hearts"
DIRECTIONS = tuple(d.value for d in Direction)

def _cards(cards: Iterable[int]) -> list[str]:
    """Canonical, sorted card strings (never the bare ints a Card is made of)."""
    return [str(Card(c)) for c in sorted(cards)]


def reason_text(reason: Reason, lang: str) -> str:
    """The sentence for an engine :class:`Reason`, cards in ASCII: the one every surface says."""
    return reason.message(lang, ascii=True)


def _indexed(code: str, field: str, index: int, problem: str) -> RequestError:
    return RequestError(code, "proto_index", {"field": field, "index": index, "problem": problem},
                        field=field, index=index)


class PositionReader:
    """``position``: a whole new round read from a request (rules, round, pass direction,
    totals, the hands or a code, then the passes, plays and moon choice made so far),
    every field checked before the round it builds replaces the session's."""

    def __init__(self, lang: str):
        self.lang = lang

    def read(self, request: Mapping[str, JsonValue]) -> Round:
        if request.get("text") is not None:
            return self._from_text(request)
        rules = self._rules(request.get("rules"))
        round_index = self._round_number(request) - 1
        direction = self._direction(request, rules.players)
        totals = self._totals(request, rules.players)
        has_hands = request.get("hands") is not None
        has_code = request.get("code") is not None
        if has_hands and has_code:
            raise RequestError("bad_field", "proto_bad_field",
                               {"field": "code", "problem": t("proto_hands_or_code", self.lang, ascii=True)},
                               field="code")
        if has_code:
            r = self._dealt_round(rules, request["code"], round_index, direction, totals)
        elif has_hands:
            r = self._given_round(rules, request["hands"], round_index, direction, totals)
        else:
            raise requests.missing("hands")
        self._replay_passes(r, request.get("passes"), rules.players)
        self._replay_plays(r, request.get("plays"))
        if request.get("moon") is not None:  # the shooter's choice, once the plays end in a moon
            choose_moon(r, request["moon"], "moon")
        return r

    # the fields a position text holds already (docs/position.md): given with it, refused
    TEXT_HOLDS = ("rules", "hands", "code", "round", "direction", "pass", "totals", "passes", "plays", "moon")

    def _from_text(self, request: Mapping[str, object]) -> Round:
        """``"text"``: the round of a whole table's position text, as ``Game.from_position`` reads it."""
        from ..model.errors import HeartsError
        from ..play.game import Game
        from ..play.position import PositionTextError

        beside = next((f for f in self.TEXT_HOLDS if request.get(f) is not None), None)
        if beside is not None:
            raise RequestError("bad_field", "proto_bad_field",
                               {"field": beside, "problem": t("proto_text_alone", self.lang, ascii=True)},
                               field=beside)
        text = request["text"]
        try:
            if not isinstance(text, str):
                raise PositionTextError("position_not_text")
            return Game.from_position(text).round
        except HeartsError as e:
            raise RequestError("bad_position", cause=e, field="text") from None

    def _rules(self, spec: JsonValue) -> Rules:
        try:  # a preset's name or a spec; from_spec refuses any other value (RulesError)
            return Rules.from_spec(cast("str | dict[str, JsonValue]", spec) if spec is not None else DEFAULT_PRESET)
        except RulesError as e:
            raise RequestError("bad_rules", cause=e, field="rules", key=e.key) from None
        except (ValueError, TypeError):
            raise requests.bad_type("rules", "type_spec") from None

    def _round_number(self, request: Mapping[str, JsonValue]) -> int:
        """``round`` of a position request: 1 when not given."""
        round_number = request.get("round")
        if round_number is None:
            return 1
        if not requests.whole(round_number) or round_number < 1:
            raise requests.bad_type("round", "type_round")
        return int(round_number)

    def _direction(self, request: Mapping[str, JsonValue], n: int) -> Direction | None:
        """The pass direction of a position request, if it names one."""
        # "direction", as the state reply names it; "pass" is its name in protocol version 1
        dir_field = "direction" if request.get("direction") is not None else "pass"
        given = request.get(dir_field)
        if given is None:
            return None
        direction = Direction(requests.choice(given, dir_field, DIRECTIONS, fold=True))
        if direction is Direction.ACROSS and n % 2:
            raise RequestError("bad_field", "proto_across_odd", {"players": n}, field=dir_field)
        return direction

    def _totals(self, request: Mapping[str, JsonValue], n: int) -> list[int] | None:
        """The game's scores so far of a position request, one whole number a seat."""
        totals = request.get("totals")
        if totals is None:
            return None
        scores = [x for x in totals if requests.whole(x) and abs(x) < 10**6] if isinstance(totals, list) else []
        if not isinstance(totals, list) or len(totals) != n or len(scores) != n:
            raise requests.bad_type("totals", "type_totals", players=n)
        return scores

    def _replay_passes(self, r: Round, passes: object, n: int) -> None:
        """Each seat's pass of a position request, made on the new round."""
        if passes is None or passes == []:
            return
        if not isinstance(passes, list) or len(passes) != n:
            raise requests.bad_type("passes", "type_passes", players=n)
        for seat, chosen in enumerate(passes):
            cards = requests.cards(chosen, "passes", index=seat)
            try:
                r.pass_cards(cards, seat)
            except PassError as e:
                raise _indexed(requests.refused_pass(e).code, "passes", seat,
                               e.message(self.lang, ascii=True)) from None

    def _replay_plays(self, r: Round, plays: object) -> None:
        """The cards played so far of a position request, played on the new round."""
        if plays is None:
            return
        if not isinstance(plays, list):
            raise requests.bad_type("plays", "type_cards")
        for i, text in enumerate(plays):
            if not isinstance(text, str):
                raise _indexed("bad_field", "plays", i, t("type_card", self.lang, ascii=True))
            card = requests.card(text, "plays", index=i)
            try:
                r.play(card)
            except IllegalMove as e:
                raise _indexed(e.reason.code, "plays", i, reason_text(e.reason, self.lang)) from None

    def _dealt_round(self, rules: Rules, code: object, round_index: int,
                     direction: Direction | None, totals: list[int] | None = None) -> Round:
        if not isinstance(code, str):
            raise RequestError("bad_code", "proto_bad_code", {"code": json.dumps(code)}, field="code")
        try:
            code = normalize_code(code)
        except CodeError as e:
            raise RequestError("bad_code", cause=e, field="code") from None
        return Round.deal(rules, code, round_index, scores=totals, direction=direction)

    def _given_round(self, rules: Rules, hands: object, round_index: int,
                     direction: Direction | None, totals: list[int] | None = None) -> Round:
        n = rules.players
        if not isinstance(hands, list) or len(hands) != n:
            raise requests.bad_type("hands", "type_hands", players=n)
        parsed = [requests.cards(h, "hands", index=seat) for seat, h in enumerate(hands)]
        try:
            return Round(rules, parsed, direction=direction, round_index=round_index, scores=totals)
        except ValueError:
            raise RequestError("bad_hands", "proto_bad_hands", {"players": n, "size": rules.hand_size},
                               field="hands") from None


def choose_moon(r: Round, choice: object, field: str) -> None:
    """The shooter's choice made on ``r``, read from a request's ``field``."""
    try:
        r.choose_moon(requests.choice(choice, field, MOON_CHOICES))
    except MoonChoiceError as e:
        raise RequestError("wrong_phase", cause=e) from None


def go_options(request: Mapping[str, JsonValue]) -> tuple[str, int, int | None]:
    """``go``'s level, seed and simulations (the level's own default budget: None)."""
    given = request.get("level", "normal")
    try:
        if not isinstance(given, str):
            raise LevelError(str(given))
        level = check_level(given)
    except LevelError as e:
        raise requests.bad_choice("level", LEVELS) from e
    seed = request.get("seed")
    if seed is None:
        seed = 0
    elif not requests.whole(seed):
        raise requests.bad_type("seed", "type_int")
    simulations = request.get("simulations")
    if simulations is not None and (not requests.whole(simulations) or simulations < 1):
        raise requests.bad_type("simulations", "type_positive")
    return level, seed, simulations


def cpu_choice(r: Round, level: str, seed: int, simulations: int | None) -> Suggestion:
    """``go``: what a CPU player would do for the seat to move; never changes the round."""
    from ..play.replies import Suggestion  # (the replies: imported by the first that needs them)

    if r.phase is Phase.OVER:
        raise RequestError("wrong_phase", "wrong_phase_over")
    suggest = _suggest()
    seat = r.mover
    choice = suggest(r.view(seat), level, seed, simulations=simulations)
    if r.phase is Phase.MOON:
        return Suggestion(seat=seat, moon=str(choice), level=level)
    if r.phase is Phase.PASS:
        chosen = [Card(c) for c in cast("Iterable[int]", choice)]  # a pass: cards
        hand = list(r.hand(seat))  # two decks: a card may be there twice
        if len(chosen) != r.rules.pass_count or any(chosen.count(c) > hand.count(c) for c in chosen):
            raise RequestError("internal_error", "proto_bot_bad", {"cards": sorted(chosen)})
        return Suggestion(seat=seat, cards=sorted(chosen), level=level)
    card = Card(cast("int", choice))  # a play: one card
    if not r.is_legal(card):
        raise RequestError("internal_error", "proto_bot_bad", {"cards": [card]})
    return Suggestion(seat=seat, card=card, level=level)


def _suggest() -> Callable[..., object]:
    """The CPU players' entry point, imported only when ``go`` asks for it."""
    try:
        import importlib

        bots = importlib.import_module("hearts_cli.bots")
        suggest: Callable[..., object] = bots.suggest
    except ModuleNotFoundError as e:
        if e.name not in ("hearts_cli.bots",):
            raise
        raise RequestError("unsupported", "proto_unsupported") from None
    except AttributeError:
        raise RequestError("unsupported", "proto_unsupported") from None
    return suggest


class Session:
    """One conversation: the current position, and the handler of each request.

    ``handle_line`` takes one input line (``str`` or ``bytes``) and returns the
    reply object, or ``None`` for a blank line. ``finished`` turns true after
    ``quit``. Nothing here reads or writes a stream: :func:`serve` does; reading
    a position is :class:`PositionReader`'s, a CPU's move :func:`cpu_choice`'s.
    """

    def __init__(self, lang: str | None = None):
        self.default_lang = lang if lang in LANGUAGES else default_language()
        self.lang = self.default_lang
        self.round: Round | None = None
        self.finished = False
        self._commands: dict[str, Callable[[Mapping[str, JsonValue]], Reply]] = {
            "hello": self.cmd_hello,
            "position": self.cmd_position,
            "state": self.cmd_state,
            "pass": self.cmd_pass,
            "play": self.cmd_play,
            "why": self.cmd_why,
            "go": self.cmd_go,
            "moon": self.cmd_moon,
            "quit": self.cmd_quit,
        }

    # ------------------------------------------------------------ plumbing

    def handle_line(self, line: str | bytes) -> JsonObject | None:
        self.lang = self.default_lang
        try:
            request = requests.parse_line(line)
        except RequestError as fail:
            return self._error(fail)
        return None if request is None else self.handle(request)

    def handle(self, request: Mapping[str, JsonValue]) -> JsonObject:
        """The reply to one request object, as JSON (``id`` echoed when present)."""
        self.lang = self.default_lang
        head: JsonObject = {"id": request["id"]} if "id" in request else {}
        try:
            if request.get("lang") is not None:
                self.lang = requests.choice(request["lang"], "lang", LANGUAGES, fold=True)
            reply = self._commands[requests.command(request, list(self._commands))](request)
        except RequestError as fail:
            return head | self._error(fail)
        except Exception as exc:  # never a traceback: report it and keep serving
            internal = RequestError("internal_error", "proto_internal", {"problem": type(exc).__name__})
            return head | self._error(internal)
        return head | reply.to_json()

    def _error(self, fail: RequestError) -> JsonObject:
        return fail.answer(self.lang).to_json()

    def _optional_seat(self, request: Mapping[str, JsonValue], field: str = "seat") -> int | None:
        """The seat a request names, or None when it names none."""
        value = request.get(field)
        if value is not None and not requests.whole(value):
            raise requests.bad_type(field, "type_seat")
        return requests.seat(value, field, self._need_round().players) if value is not None else None

    def _need_round(self) -> Round:
        if self.round is None:
            raise RequestError("no_position", "proto_no_position")
        return self.round

    # ------------------------------------------------------------ replies

    def state(self, request: Mapping[str, JsonValue] | None = None) -> StateReply:
        """The state reply: the seat view (docs/events.md) of the seat to move, plus
        ``passes_made``; ``"reveal": true`` adds every hand. Once the round is over
        nobody is to move: ``seat`` is null and the seat's own fields are empty."""
        from ..play.replies import StateReply

        r = self._need_round()
        seat = None if r.phase is Phase.OVER else r.turn
        view = view_event(r.view(0 if seat is None else seat), r.result).data
        if seat is None:
            view.update(seat=None, pass_to=None, hand=[], legal=[], passed=None, received=None,
                        received_from=None)
        view["passes_made"] = [p is not None for p in r.passes]
        if r.phase is Phase.MOON:  # the shooter chooses: the round's scores under each choice
            view["moon_choices"] = {str(c): list(v) for c, v in r.moon_outcomes().items()}
        if request is not None and request.get("reveal") is True:
            view["hands"] = {str(s): _cards(r.hand(s)) for s in range(r.players)}
        return StateReply(view=cast("View", Event("view", view)))

    # ------------------------------------------------------------ commands

    def cmd_hello(self, request: Mapping[str, JsonValue]) -> Reply:
        from ..play.replies import Hello

        return Hello(name=NAME, version=__version__, protocol=PROTOCOL_VERSION, schema=SCHEMA,
                     presets=list(preset_names()), commands=list(self._commands), languages=list(LANGUAGES),
                     levels=list(LEVELS))

    def cmd_quit(self, request: Mapping[str, JsonValue]) -> Reply:
        from ..play.replies import OK

        self.finished = True
        return OK

    def cmd_state(self, request: Mapping[str, JsonValue]) -> Reply:
        return self.state(request)

    def cmd_position(self, request: Mapping[str, JsonValue]) -> Reply:
        """Build a whole new round; the old one stays until the new one is complete."""
        self.round = PositionReader(self.lang).read(request)
        return self.state(request)

    def cmd_moon(self, request: Mapping[str, JsonValue]) -> Reply:
        """The shooter's choice (``moon: shooter_choice``): ``others`` or ``shooter_minus``."""
        r = self._need_round()
        requests.required(request, "choice")
        seat = self._optional_seat(request)
        if seat is not None and r.phase is Phase.MOON and seat != r.turn:
            raise RequestError("not_your_turn", "moon_choice_not_shooter", {"shooter": r.turn})
        choose_moon(r, request["choice"], "choice")
        return self.state(request)

    def cmd_pass(self, request: Mapping[str, JsonValue]) -> Reply:
        r = self._need_round()
        seat = self._optional_seat(request)
        if seat is None:
            raise requests.missing("seat")
        if "cards" not in request:
            raise requests.missing("cards")
        cards = requests.cards(request["cards"], "cards")
        if r.phase is Phase.PASS and r.passes[seat] is not None:
            raise RequestError("pass_twice", "pass_twice", {"seat": seat})
        try:
            r.pass_cards(cards, seat)
        except PassError as e:
            raise requests.refused_pass(e) from None
        return self.state(request)

    def cmd_play(self, request: Mapping[str, JsonValue]) -> Reply:
        r = self._need_round()
        card = requests.card(requests.required(request, "card"), "card")
        snapshot = r.copy()
        try:
            r.play(card)
        except IllegalMove as e:
            raise RequestError(e.reason.code, text=reason_text(e.reason, self.lang), card=str(card)) from None
        except Exception:
            self.round = snapshot  # a bug in the engine must not leave a half-played card
            raise
        return self.state(request)

    def cmd_why(self, request: Mapping[str, JsonValue]) -> Reply:
        r = self._need_round()
        card = requests.card(requests.required(request, "card"), "card")
        seat = self._optional_seat(request)
        verdict = r.why(card, seat)
        said = (reason_text(verdict.reason, self.lang) if verdict.reason is not None
                else verdict.message(self.lang, ascii=True))
        from ..play.replies import VerdictReply

        return VerdictReply(verdict=verdict.to_json(said))

    def cmd_go(self, request: Mapping[str, JsonValue]) -> Reply:
        """Ask a CPU player for a move; never changes the state."""
        level, seed, simulations = go_options(request)  # the request's own fields are checked first
        return cpu_choice(self._need_round(), level, seed, simulations)


# ---------------------------------------------------------------- serving


def _dump(reply: JsonObject) -> str:
    return json.dumps(reply, ensure_ascii=False)


def serve(stdin: TextIO, stdout: TextIO, lang: str | None = None) -> int:
    """Answer requests from ``stdin`` until end of input or ``quit``; returns the exit status.

    Reads and writes UTF-8 bytes when the streams have a binary buffer (so a
    bad byte is a ``bad_json`` error, not a crash, whatever the locale), and
    flushes after every reply.
    """
    from ..base.untrusted import MAX_REQUEST_BYTES, read_line

    session = Session(lang)
    reader = getattr(stdin, "buffer", stdin)
    out_bytes = getattr(stdout, "buffer", None)
    try:
        while True:
            line, too_long = read_line(reader, MAX_REQUEST_BYTES)  # never more than that in memory
            if not line:
                return 0
            reply: JsonObject | None
            if too_long:
                reply = session._error(requests.bad_json("proto_too_long", limit=MAX_REQUEST_BYTES))
            else:
                reply = session.handle_line(line)
            if reply is None:
                continue
            text = _dump(reply) + "\n"
            if out_bytes is not None:
                stdout.flush()
                out_bytes.write(text.encode("utf-8"))
                out_bytes.flush()
            else:
                stdout.write(text)
                stdout.flush()
            if session.finished:
                return 0
    except BrokenPipeError:
        # the other program went away: nobody is left to answer. Point stdout at
        # the null device so the interpreter's final flush does not complain.
        if stdout is sys.stdout:
            import os

            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
        return 0
    except KeyboardInterrupt:
        return 130
