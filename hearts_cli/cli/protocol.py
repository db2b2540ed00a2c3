"""The engine protocol: ``hearts engine`` speaks JSON lines on stdin and stdout.

One request object per line, exactly one reply object per line, in order (a
blank line is ignored and gets no reply). This module only translates between
JSON and :class:`hearts_cli.play.engine.Round`; the rules live in the engine. The
full reference, with a worked session, is ``docs/engine-protocol.md``.

Start-up must stay fast: import only ``json``, ``sys`` and the engine's own
modules here (never prompt_toolkit or rich); the CPU players are imported
lazily, by the ``go`` command, when they exist.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .. import __version__
from ..bots import LEVELS, LevelError, check_level
from ..model.cards import Card, CardParseError, parse_card
from ..model.codes import CodeError, normalize_code
from ..model.errors import HeartsError
from ..model.rules import DEFAULT_PRESET, Direction, Rules, RulesError, preset_names
from ..play.engine import MOON_CHOICES, IllegalMove, MoonChoiceError, PassError, Phase, Reason, Round
from ..play.events import SCHEMA, view_json
from ..text.catalog import LANGUAGES, default_language, t

PROTOCOL_VERSION = SCHEMA  # the engine speaks the shared vocabulary (docs/events.md)
NAME = "hearts"
DIRECTIONS = tuple(d.value for d in Direction)

# PassError message ids that are really "not the time to pass"
_PASS_PHASE_IDS = ("no_pass_round", "wrong_phase_play", "wrong_phase_pass", "wrong_phase_over")


class Fail(HeartsError):
    """A request that cannot be done: becomes ``{"ok": false, "error": {...}}``.

    ``code`` is the stable error code of the reply; the sentence is the
    message ``message_id`` with ``params``, or the one of ``cause`` (the
    error of a lower layer: a card, a code, rules, a pass), or ``text``, a
    sentence the session has already made. ``extra`` goes into the reply.
    """

    echoed = ("cmd", "code", "text", "value")

    def __init__(self, code: str, message_id: str = "proto_internal", /, params: dict[str, Any] | None = None,
                 *, cause: HeartsError | None = None, text: str | None = None, **extra: Any):
        self.code = code
        self.cause = cause
        self.text = text
        self.extra = extra
        super().__init__(message_id, **(params or {}))

    def message(self, lang: str | None = None, ascii: bool = True) -> str:
        if self.text is not None:
            return self.text
        if self.cause is not None:
            return self.cause.message(lang, ascii=ascii)
        return super().message(lang, ascii=ascii)

    def to_json(self, lang: str | None = None) -> dict[str, Any]:
        return {"code": self.code, "message": self.message(lang, ascii=True), **self.extra}


def _no_constant(name: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON; Python would accept them (and echo them back)."""
    raise ValueError(name)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(cards: Any) -> list[str]:
    """Canonical, sorted card strings (never the bare ints a Card is made of)."""
    return [str(Card(c)) for c in sorted(cards)]


def _in_order(cards: Any) -> list[str]:
    """Canonical card strings in the order given (a trick is in play order)."""
    return [str(Card(c)) for c in cards]


class Session:
    """One conversation: the current position, and the handler of each request.

    ``handle_line`` takes one input line (``str`` or ``bytes``) and returns the
    reply object, or ``None`` for a blank line. ``finished`` turns true after
    ``quit``. Nothing here reads or writes a stream: :func:`serve` does.
    """

    def __init__(self, lang: str | None = None):
        self.default_lang = lang if lang in LANGUAGES else default_language()
        self.lang = self.default_lang
        self.round: Round | None = None
        self.finished = False
        self._commands: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
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

    def t(self, message_id: str, **params: Any) -> str:
        return t(message_id, self.lang, ascii=True, **params)

    def handle_line(self, line: str | bytes) -> dict[str, Any] | None:
        self.lang = self.default_lang
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                return self._error(Fail("bad_json", "proto_bad_json"))
        line = line.lstrip("\ufeff").strip()
        if not line:
            return None
        try:
            request = json.loads(line, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            request = None
        if not isinstance(request, dict):
            return self._error(Fail("bad_json", "proto_bad_json"))
        return self.handle(request)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request object (``id`` echoed when present)."""
        self.lang = self.default_lang
        head: dict[str, Any] = {"id": request["id"]} if "id" in request else {}
        try:
            self._set_lang(request)
            cmd = request.get("cmd")
            if cmd is None:
                raise self._missing("cmd")
            if not isinstance(cmd, str):
                raise self._bad_type("cmd", "type_string")
            handler = self._commands.get(cmd)
            if handler is None:
                raise Fail("unknown_cmd", "proto_unknown_cmd", {"cmd": cmd},
                           commands=list(self._commands))
            reply = handler(request)
        except Fail as fail:
            return head | self._error(fail)
        except Exception as exc:  # never a traceback: report it and keep serving
            internal = Fail("internal_error", "proto_internal", {"problem": type(exc).__name__})
            return head | self._error(internal)
        return head | reply

    def _error(self, fail: Fail) -> dict[str, Any]:
        return {"ok": False, "error": fail.to_json(self.lang)}

    def _set_lang(self, request: dict[str, Any]) -> None:
        if "lang" not in request or request["lang"] is None:
            return
        lang = request["lang"]
        if not isinstance(lang, str) or lang.lower() not in LANGUAGES:
            raise Fail("bad_field", "proto_bad_choice", {"field": "lang", "choices": ", ".join(LANGUAGES)},
                       field="lang")
        self.lang = lang.lower()

    def _missing(self, field: str) -> Fail:
        return Fail("missing_field", "proto_missing", {"field": field}, field=field)

    def _bad_type(self, field: str, expected: str, **params: Any) -> Fail:
        return Fail("bad_field", "proto_bad_type", {"field": field, "expected": self.t(expected, **params)},
                    field=field)

    def _card(self, value: Any, field: str, **where: Any) -> Card:
        if not isinstance(value, str):
            raise self._bad_type(field, "type_card")
        try:
            return parse_card(value)
        except CardParseError as e:
            raise self._bad_card(e, field, **where) from None

    def _bad_card(self, e: CardParseError, field: str, **where: Any) -> Fail:
        return Fail("bad_card", cause=e, field=field, **where, suggestions=_in_order(e.suggestions))

    def _card_list(self, value: Any, field: str, **where: Any) -> list[Card]:
        if not isinstance(value, list):
            raise Fail("bad_field", "proto_bad_type", {"field": field, "expected": self.t("type_cards")},
                       field=field, **where)
        out = []
        for item in value:
            if not isinstance(item, str):
                raise Fail("bad_field", "proto_bad_type", {"field": field, "expected": self.t("type_cards")},
                           field=field, **where)
            try:
                out.append(parse_card(item))
            except CardParseError as e:
                raise self._bad_card(e, field, **where) from None
        return out

    def _seat(self, request: dict[str, Any], field: str = "seat") -> int:
        """The seat a request names (it must name one)."""
        seat = self._optional_seat(request, field)
        if seat is None:
            raise self._missing(field)
        return seat

    def _optional_seat(self, request: dict[str, Any], field: str = "seat") -> int | None:
        """The seat a request names, or None when it names none."""
        if request.get(field) is None:
            return None
        seat = request[field]
        if not _is_int(seat):
            raise self._bad_type(field, "type_seat")
        players = self._need_round().players
        if not 0 <= seat < players:
            raise Fail("bad_seat", "bad_seat", {"seat": seat, "players": players}, field=field)
        return int(seat)

    def _need_round(self) -> Round:
        if self.round is None:
            raise Fail("no_position", "proto_no_position")
        return self.round

    # ------------------------------------------------------------ replies

    def state(self, request: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state reply: the seat view (docs/events.md) of the seat to move, plus
        ``passes_made``; ``"reveal": true`` adds every hand. Once the round is over
        nobody is to move: ``seat`` is null and the seat's own fields are empty."""
        r = self._need_round()
        seat = None if r.phase is Phase.OVER else r.turn
        reply: dict[str, Any] = {"ok": True} | view_json(r.view(0 if seat is None else seat), r.result)
        if seat is None:
            reply.update(seat=None, pass_to=None, hand=[], legal=[], passed=None, received=None,
                         received_from=None)
        reply["passes_made"] = [p is not None for p in r.passes]
        if r.phase is Phase.MOON:  # the shooter chooses: the round's scores under each choice
            reply["moon_choices"] = {str(c): list(v) for c, v in r.moon_outcomes().items()}
        if request is not None and request.get("reveal") is True:
            reply["hands"] = {str(s): _cards(r.hand(s)) for s in range(r.players)}
        return reply

    # ------------------------------------------------------------ commands

    def cmd_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "name": NAME,
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "schema": SCHEMA,
            "presets": preset_names(),
            "commands": list(self._commands),
            "languages": list(LANGUAGES),
            "levels": list(LEVELS),
        }

    def cmd_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.finished = True
        return {"ok": True}

    def cmd_state(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.state(request)

    def cmd_position(self, request: dict[str, Any]) -> dict[str, Any]:
        """Build a whole new round; the old one stays until the new one is complete."""
        rules = self._rules(request.get("rules"))
        round_index = self._round_number(request) - 1
        direction = self._direction(request, rules.players)
        totals = self._totals(request, rules.players)
        has_hands = request.get("hands") is not None
        has_code = request.get("code") is not None
        if has_hands and has_code:
            raise Fail("bad_field", "proto_bad_field", {"field": "code", "problem": self.t("proto_hands_or_code")},
                       field="code")
        if has_code:
            r = self._dealt_round(rules, request["code"], round_index, direction, totals)
        elif has_hands:
            r = self._given_round(rules, request["hands"], round_index, direction, totals)
        else:
            raise self._missing("hands")
        self._replay_passes(r, request.get("passes"), rules.players)
        self._replay_plays(r, request.get("plays"))
        if request.get("moon") is not None:  # the shooter's choice, once the plays end in a moon
            self._choose_moon(r, request["moon"], "moon")
        self.round = r
        return self.state(request)

    def _round_number(self, request: dict[str, Any]) -> int:
        """``round`` of a position request: 1 when not given."""
        round_number = request.get("round")
        if round_number is None:
            return 1
        if not _is_int(round_number) or round_number < 1:
            raise self._bad_type("round", "type_round")
        return int(round_number)

    def _direction(self, request: dict[str, Any], n: int) -> Direction | None:
        """The pass direction of a position request, if it names one."""
        # "direction", as the state reply names it; "pass" is its name in protocol version 1
        dir_field = "direction" if request.get("direction") is not None else "pass"
        given = request.get(dir_field)
        if given is None:
            return None
        if not isinstance(given, str) or given.lower() not in DIRECTIONS:
            raise Fail("bad_field", "proto_bad_choice", {"field": dir_field, "choices": ", ".join(DIRECTIONS)},
                       field=dir_field)
        direction = Direction(given.lower())
        if direction is Direction.ACROSS and n % 2:
            raise Fail("bad_field", "proto_across_odd", {"players": n}, field=dir_field)
        return direction

    def _totals(self, request: dict[str, Any], n: int) -> list[int] | None:
        """The game's scores so far of a position request, one whole number a seat."""
        totals = request.get("totals")
        if totals is not None and (not isinstance(totals, list) or len(totals) != n
                                   or not all(_is_int(x) and abs(x) < 10**6 for x in totals)):
            raise Fail("bad_field", "proto_bad_type",
                       {"field": "totals", "expected": self.t("type_totals", players=n)}, field="totals")
        return totals

    def _replay_passes(self, r: Round, passes: Any, n: int) -> None:
        """Each seat's pass of a position request, made on the new round."""
        if passes is None or passes == []:
            return
        if not isinstance(passes, list) or len(passes) != n:
            raise Fail("bad_field", "proto_bad_type",
                       {"field": "passes", "expected": self.t("type_passes", players=n)}, field="passes")
        for seat, chosen in enumerate(passes):
            cards = self._card_list(chosen, "passes", index=seat)
            try:
                r.pass_cards(seat, cards)
            except PassError as e:
                raise self._indexed(self._pass_code(e), "passes", seat,
                                    e.message(self.lang, ascii=True)) from None

    def _replay_plays(self, r: Round, plays: Any) -> None:
        """The cards played so far of a position request, played on the new round."""
        if plays is None:
            return
        if not isinstance(plays, list):
            raise self._bad_type("plays", "type_cards")
        for i, text in enumerate(plays):
            if not isinstance(text, str):
                raise self._indexed("bad_field", "plays", i, self.t("type_card"))
            try:
                card = parse_card(text)
            except CardParseError as e:
                raise self._bad_card(e, "plays", index=i) from None
            try:
                r.play(card)
            except IllegalMove as e:
                raise self._indexed(e.reason.code, "plays", i, self._reason(e.reason)) from None

    def _choose_moon(self, r: Round, choice: Any, field: str) -> None:
        if not isinstance(choice, str) or choice not in MOON_CHOICES:
            raise Fail("bad_field", "proto_bad_choice", {"field": field, "choices": ", ".join(MOON_CHOICES)},
                       field=field)
        try:
            r.choose_moon(choice)
        except MoonChoiceError as e:
            raise Fail("wrong_phase", cause=e) from None

    def cmd_moon(self, request: dict[str, Any]) -> dict[str, Any]:
        """The shooter's choice (``moon: shooter_choice``): ``others`` or ``shooter_minus``."""
        r = self._need_round()
        if request.get("choice") is None:
            raise self._missing("choice")
        seat = self._optional_seat(request)
        if seat is not None and r.phase is Phase.MOON and seat != r.turn:
            raise Fail("not_your_turn", "moon_choice_not_shooter", {"shooter": r.turn})
        self._choose_moon(r, request["choice"], "choice")
        return self.state(request)

    def _reason(self, reason: Reason) -> str:
        """The sentence for an engine :class:`Reason`, cards in ASCII.

        The lead reasons name the card that must lead: the engine keeps it in
        ``reason.cards`` (``reason.card`` is the card asked about), so it is
        passed as ``card`` here.
        """
        if reason.code in ("must_lead_two_clubs", "must_lead_lowest_club") and reason.cards:
            return t(reason.detail or reason.code, self.lang, ascii=True, card=reason.cards[0],
                     cards=list(reason.cards))
        return reason.message(self.lang, ascii=True)

    def _indexed(self, code: str, field: str, index: int, problem: str) -> Fail:
        return Fail(code, "proto_index", {"field": field, "index": index, "problem": problem},
                    field=field, index=index)

    def _rules(self, spec: Any) -> Rules:
        try:
            return Rules.from_spec(spec if spec is not None else DEFAULT_PRESET)
        except RulesError as e:
            raise Fail("bad_rules", cause=e, field="rules", key=e.key) from None
        except (ValueError, TypeError):
            raise self._bad_type("rules", "type_spec") from None

    def _dealt_round(self, rules: Rules, code: Any, round_index: int,
                     direction: Direction | None, totals: list[int] | None = None) -> Round:
        if not isinstance(code, str):
            raise Fail("bad_code", "proto_bad_code", {"code": json.dumps(code)}, field="code")
        try:
            code = normalize_code(code)
        except CodeError as e:
            raise Fail("bad_code", cause=e, field="code") from None
        return Round.deal(rules, code, round_index, scores=totals, direction=direction)

    def _given_round(self, rules: Rules, hands: Any, round_index: int,
                     direction: Direction | None, totals: list[int] | None = None) -> Round:
        n = rules.players
        if not isinstance(hands, list) or len(hands) != n:
            raise self._bad_type("hands", "type_hands", players=n)
        parsed = [self._card_list(h, "hands", index=seat) for seat, h in enumerate(hands)]
        try:
            return Round(rules, parsed, direction=direction, round_index=round_index, scores=totals)
        except ValueError:
            raise Fail("bad_hands", "proto_bad_hands", {"players": n, "size": rules.hand_size},
                       field="hands") from None

    def _twice(self, r: Round, seat: int) -> str | None:
        """The ``pass_twice`` message when ``seat`` has already passed, else None.

        The engine's ``PassError(seat, "pass_twice", seat=seat)`` gives ``seat``
        twice and raises TypeError instead; checking here first keeps the
        answer right whether or not the engine is fixed.
        """
        if r.phase is Phase.PASS and 0 <= seat < r.players and r.passes[seat] is not None:
            return self.t("pass_twice", seat=seat)
        return None

    def _pass_code(self, e: PassError) -> str:
        return "wrong_phase" if e.message_id in _PASS_PHASE_IDS else e.message_id

    def cmd_pass(self, request: dict[str, Any]) -> dict[str, Any]:
        r = self._need_round()
        seat = self._seat(request)
        if "cards" not in request:
            raise self._missing("cards")
        cards = self._card_list(request["cards"], "cards")
        twice = self._twice(r, seat)
        if twice is not None:
            raise Fail("pass_twice", text=twice)
        try:
            r.pass_cards(seat, cards)
        except PassError as e:
            raise Fail(self._pass_code(e), cause=e) from None
        return self.state(request)

    def cmd_play(self, request: dict[str, Any]) -> dict[str, Any]:
        r = self._need_round()
        if request.get("card") is None:
            raise self._missing("card")
        card = self._card(request["card"], "card")
        snapshot = r.copy()
        try:
            r.play(card)
        except IllegalMove as e:
            raise Fail(e.reason.code, text=self._reason(e.reason), card=str(card)) from None
        except Exception:
            self.round = snapshot  # a bug in the engine must not leave a half-played card
            raise
        return self.state(request)

    def cmd_why(self, request: dict[str, Any]) -> dict[str, Any]:
        r = self._need_round()
        if request.get("card") is None:
            raise self._missing("card")
        card = self._card(request["card"], "card")
        seat = self._optional_seat(request)
        verdict = r.why(card, seat)
        if verdict.legal:
            assert verdict.effect is not None
            effect = verdict.effect.to_json() | {"message": verdict.effect.message(self.lang, ascii=True)}
            return {"ok": True, "card": str(card), "legal": True, "effect": effect}
        assert verdict.reason is not None
        reason = {"code": verdict.reason.code, "message": self._reason(verdict.reason)}
        return {"ok": True, "card": str(card), "legal": False, "reason": reason}

    def cmd_go(self, request: dict[str, Any]) -> dict[str, Any]:
        """Ask a CPU player for a move; never changes the state."""
        level = request.get("level", "normal")
        try:
            level = check_level(level)
        except LevelError as e:
            raise Fail("bad_field", "proto_bad_choice", {"field": "level", "choices": ", ".join(LEVELS)},
                       field="level") from e
        seed = request.get("seed")
        if seed is None:
            seed = 0
        elif not _is_int(seed):
            raise self._bad_type("seed", "type_int")
        simulations = request.get("simulations")
        if simulations is not None and (not _is_int(simulations) or simulations < 1):
            raise self._bad_type("simulations", "type_positive")
        r = self._need_round()
        if r.phase is Phase.OVER:
            raise Fail("wrong_phase", "wrong_phase_over")
        try:
            import importlib

            bots = importlib.import_module("hearts_cli.bots")
            suggest = bots.suggest
        except ModuleNotFoundError as e:
            if e.name not in ("hearts_cli.bots",):
                raise
            raise Fail("unsupported", "proto_unsupported") from None
        except AttributeError:
            raise Fail("unsupported", "proto_unsupported") from None
        seat = r.turn
        assert seat is not None
        view = r.view(seat)
        choice = suggest(view, level, seed, simulations=simulations)
        if r.phase is Phase.MOON:
            return {"ok": True, "seat": seat, "moon": str(choice)}
        if r.phase is Phase.PASS:
            chosen = [Card(c) for c in choice]
            hand = list(r.hand(seat))  # two decks: a card may be there twice
            if len(chosen) != r.rules.pass_count or any(chosen.count(c) > hand.count(c) for c in chosen):
                raise Fail("internal_error", "proto_bot_bad", {"cards": sorted(chosen)})
            return {"ok": True, "seat": seat, "cards": _cards(chosen)}
        card = Card(choice)
        if not r.is_legal(card):
            raise Fail("internal_error", "proto_bot_bad", {"cards": [card]})
        return {"ok": True, "seat": seat, "card": str(card)}


# ---------------------------------------------------------------- serving


def _dump(reply: dict[str, Any]) -> str:
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
            reply: dict[str, Any] | None
            if too_long:
                reply = session._error(Fail("bad_json", "proto_too_long", {"limit": MAX_REQUEST_BYTES}))
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
