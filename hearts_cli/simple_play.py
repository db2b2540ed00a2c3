"""The engine's simplest playable form: a plain line-by-line game loop.

This is what ``hearts play`` runs until the prompt-toolkit game loop exists:
you hold seat 0 against three CPU players; type a card in any notation, or
``why CARD``, or ``quit``. It reads stdin line by line, so it can be scripted.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .cards import CardParseError, parse_card
from .codes import CodeError, new_code, normalize_code, seed_for
from .engine import Game, IllegalMove, PassError, Phase
from .messages import default_language, t
from .rules import Rules, RulesError

CPU_LEVEL = "normal"


def _cpu_move(game: Game, seat: int):
    from .bots import suggest

    view = game.round.view(seat)
    seed = seed_for(game.code, "cpu", seat)
    return suggest(view, CPU_LEVEL, seed)


def _hand_line(game: Game, seat: int) -> str:
    rd = game.round
    legal = rd.legal_mask() if rd.turn == seat and rd.phase is Phase.PLAY else 0
    parts = []
    for suit in range(4):
        cards = [c for c in rd.hand(seat) if c // 13 == suit]
        if cards:
            parts.append(" ".join(c.symbol + ("" if legal >> c & 1 or not legal else "·") for c in cards))
    return "   ".join(parts)


def run(code: str | None = None, preset: str | None = None, *, stdin: TextIO | None = None,
        stdout: TextIO | None = None, lang: str | None = None) -> int:
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    err = sys.stderr
    lang = lang or default_language()

    def say(message_id: str, **params: object) -> None:
        out.write(t(message_id, lang, **params) + "\n")
        out.flush()

    try:
        rules = Rules.from_spec(preset)
        code = normalize_code(code) if code else new_code()
    except (RulesError, CodeError) as e:
        err.write(e.message(lang) + "\n")
        return 2
    game = Game(rules, code)
    me = 0
    say("play_start", code=code, preset=rules.preset, target=rules.target)
    shown_round = -1
    while not game.over:
        rd = game.round
        if len(game.rounds) - 1 != shown_round:
            shown_round = len(game.rounds) - 1
            say("play_round", number=shown_round + 1, direction=t(f"dir_{rd.direction.value}", lang))
        if rd.phase is Phase.PASS:
            for seat in range(rules.players):
                if seat != me and rd.passes[seat] is None:
                    rd.pass_cards(seat, _cpu_move(game, seat))
            if rd.passes[me] is None:
                out.write(_hand_line(game, me) + "\n")
                say("play_ask_pass", count=rules.pass_count)
                line = inp.readline()
                if not line or line.strip().lower() in ("quit", "q", "salir"):
                    return 0
                try:
                    rd.pass_cards(me, [parse_card(w) for w in line.replace(",", " ").split()])
                except CardParseError as e:
                    say("bad_card_hint" if e.suggestions else "bad_card", text=e.text, cards=list(e.suggestions))
                except PassError as e:
                    say(e.message_id, **e.params)
                if rd.phase is Phase.PLAY:
                    say("play_received", cards=list(rd.received[me] or ()))
            continue
        if rd.turn != me:
            seat = rd.turn
            card = _cpu_move(game, seat)
            done = game.play(card)
            say("play_card", seat=seat, card=card)
            if done is not None:
                say("play_trick", seat=done.winner, points=done.points)
            if game.round is not rd and rd.result is not None:
                say("play_round_over", scores=" ".join(map(str, rd.result.scores)),
                    totals=" ".join(map(str, game.totals)))
            continue
        out.write(_hand_line(game, me) + "\n")
        say("play_ask_card")
        line = inp.readline()
        if not line:
            return 0
        words = line.strip()
        if words.lower() in ("quit", "q", "salir"):
            return 0
        try:
            if words.lower().startswith(("why ", "por que ", "porque ")):
                verdict = rd.why(parse_card(words.split(" ", 1)[1].replace("que ", "", 1)))
                out.write(verdict.message(lang) + "\n")
                continue
            card = parse_card(words)
            done = game.play(card)
        except CardParseError as e:
            say("bad_card_hint" if e.suggestions else "bad_card", text=e.text, cards=list(e.suggestions))
            continue
        except IllegalMove as e:
            out.write(e.reason.message(lang) + "\n")
            continue
        say("play_card", seat=me, card=card)
        if done is not None:
            say("play_trick", seat=done.winner, points=done.points)
        if game.round is not rd and rd.result is not None:
            say("play_round_over", scores=" ".join(map(str, rd.result.scores)),
                totals=" ".join(map(str, game.totals)))
    say("play_game_over", winners=", ".join(str(s) for s in game.winners),
        totals=" ".join(map(str, game.totals)))
    return 0
