"""What a person reads: the table and each event, as styled fragments.

A line is a list of ``(style, text)`` fragments (prompt-toolkit's formatted
text); :func:`plain` joins them for plain output. In plain mode nothing relies
on colour: unplayable cards are shown in parentheses and chosen cards in
brackets. Everything fits 80 columns.
"""

from __future__ import annotations

import re
from typing import Any

from ..model.cards import SUIT_SYMBOLS, Card
from ..model.rules import Direction, Moon
from ..play.engine import Phase
from ..play.events import Event
from ..text.catalog import preset_name, t
from .client import TableClient

Line = list[tuple[str, str]]
WIDTH = 80  # the table is laid out for 80 columns, or fewer: down to MIN_WIDTH
MIN_WIDTH = 40
# the pass arrow, as the table is drawn (you at the bottom): left is West, across North, right East
ARROWS = {"left": {False: "←", True: "<-"}, "across": {False: "↑", True: "^"},
          "right": {False: "→", True: "->"}}


def plain(line: Line) -> str:
    return "".join(text for _, text in line).rstrip()


class Renderer:
    def __init__(self, table: TableClient, *, plain: bool, width: int | None = None):
        self.tb = table
        self.plain = plain
        # the columns to fit (a terminal's, kept up to date by the session); None: no limit
        self.width = width

    # ------------------------------------------------------------ small pieces

    @property
    def lang(self) -> str:
        return self.tb.lang

    @property
    def ascii(self) -> bool:
        return self.tb.ascii

    def say(self, message_id: str, **params: Any) -> str:
        return t(message_id, self.lang, ascii=self.ascii, **params)

    def card(self, c: Card) -> str:
        return c.face(self.ascii)

    def card_frag(self, c: Card, extra: str = "") -> tuple[str, str]:
        style = "class:suit-red" if c // 13 in (1, 2) else "class:suit-black"
        return (f"{style} {extra}".strip(), self.card(c))

    def suit(self, s: int) -> str:
        return "CDHS"[s] if self.ascii else SUIT_SYMBOLS[s]

    def arrow(self, direction: Direction) -> str:
        """Where the pass goes on the drawn table: West is on the left, North at the top."""
        return ARROWS[direction.value][self.ascii]

    def names(self, values: list[int]) -> str:
        # you first, then round the table: the order the seats sit in from your place
        return self.sep().join(f"{self.tb.name(s)} {values[s]}" for s in self.tb.round_the_table())

    def sep(self) -> str:
        return " | " if self.ascii else " · "

    # ------------------------------------------------------------ the table

    def table(self) -> list[Line]:
        tb = self.tb
        g = tb.game
        rd = g.round
        n = tb.players
        lines: list[Line] = []
        broken = self.say("hearts_broken_yes" if rd.hearts_broken else "hearts_broken_no")
        head = self.say("table_header" if g.code is not None else "table_header_shared", code=g.code,
                        round=len(g.rounds), preset=preset_name(g.rules.preset, self.lang), target=g.rules.target)
        lines.append([("class:header", head + self.sep() + broken)])
        # the seats, placed around the trick
        cards_in_trick: dict[int, Card] = {}
        if rd.phase is Phase.PLAY and rd.trick:
            for i, c in enumerate(rd.trick):
                cards_in_trick[(rd.leader + i) % n] = c
        lines.extend(self.seats(cards_in_trick))
        # what is going on
        lines.append(self.situation())
        totals = list(g.totals)
        title = self.say("table_scores")
        scores = [[("class:scores", f"{tb.name(s)} {totals[s]}")] for s in tb.round_the_table()]
        lines.extend(_pack(scores, self.fit, " " * (len(title) + 1), self.sep(),
                           first=[("class:scores", title + " ")]))
        lines.extend(self.hand())
        return lines

    @property
    def columns(self) -> int:
        """The width the table is laid out for: the terminal's (from 40 columns up), 80 at most."""
        return max(MIN_WIDTH, min(self.width or WIDTH, WIDTH))

    @property
    def fit(self) -> int:
        """The most a line of a list may hold: the terminal's width itself, even below 40."""
        return min(self.columns, self.width) if self.width else self.columns

    def seat_label(self, seat: int) -> tuple[str, str]:
        """A seat's name, level, points this round and turn mark, and its style."""
        tb = self.tb
        rd = tb.game.round
        label = tb.label(seat)
        pts = rd.points[seat]
        if pts:
            label += " " + self.say("seat_points", points=pts)
        turn = rd.phase is Phase.PLAY and rd.turn == seat
        if turn:
            label = (">" if self.ascii else "▶") + " " + label
        style = "class:me" if seat == tb.me else "class:seat"
        if turn:
            style += " class:turn"
        return style, label

    def seats(self, cards_in_trick: dict[int, Card]) -> list[Line]:
        """The seats placed where they sit, each card of the trick beside its player; when
        they do not fit around the trick (a narrow terminal, nine seats or more), a compact
        list from your left round the table, as many seats a line as fit, none split."""
        tb = self.tb
        n = tb.players
        w = self.columns
        mid, quarter = w // 2, w // 4
        label_at = {"north": (0, mid, "c"), "northwest": (0, quarter, "c"), "northeast": (0, w - quarter, "c"),
                    "west": (2, 1, "l"), "east": (2, w - 1, "r"), "you": (4, mid, "c"),
                    "southwest": (4, 1, "l"), "southeast": (4, w - 1, "r")}
        card_at = {"north": (1, mid), "northwest": (1, quarter), "northeast": (1, w - quarter),
                   "west": (2, w * 7 // 20), "east": (2, w * 13 // 20), "you": (3, mid),
                   "southwest": (3, w * 3 // 10), "southeast": (3, w * 7 // 10)}
        # the top corners pushed out to the edges: room for a long name with its points
        spread = label_at | {"northwest": (0, 1, "l"), "northeast": (0, w - 1, "r")}
        for labels in (label_at, spread):
            if not all(tb.position(seat) in labels for seat in range(n)):
                break  # nine seats or more: no compass place for each
            rows: list[list[tuple[int, Line]]] = [[] for _ in range(5)]
            for seat in range(n):
                pos = tb.position(seat)
                style, label = self.seat_label(seat)
                r, col, align = labels[pos]
                rows[r].append(_place(col, align, [(style, label)], w))
                if seat in cards_in_trick:
                    r, col = card_at[pos]
                    rows[r].append(_place(col, "c", [self.card_frag(cards_in_trick[seat])], w))
            placed = [_compose(row) for row in rows if row]
            if all(_fits(row) for row in rows if row) and all(
                    sum(len(text) for _, text in line) <= w for line in placed):
                return placed
        entries: list[Line] = []
        for seat in tb.round_the_table()[1:] + [tb.me]:
            style, label = self.seat_label(seat)
            entry: Line = [(style, label)]
            if seat in cards_in_trick:
                entry += [("", ": "), self.card_frag(cards_in_trick[seat])]
            entries.append(entry)
        return _pack(entries, self.fit, "  ", self.sep())

    def situation(self) -> Line:
        tb = self.tb
        g = tb.game
        rd = g.round
        if g.over:
            return [("class:status", self.say("table_game_over"))]
        if rd.phase is Phase.PASS:
            arrow = "" if rd.direction is Direction.NONE else self.arrow(rd.direction) + " "
            line: Line = [("class:arrow", arrow + self.passing(rd.direction, tb.me))]
            chosen = tb.selection
            need = g.rules.pass_count
            if chosen:
                line.append(("", self.sep()))
                line.append(("", self.say("chosen", cards=sorted(chosen))))
            left = need - len(chosen)
            line.append(("", self.sep()))
            if left > 0:
                line.append(("", self.say("choose_more", count=left)))
            elif left == 0:
                line.append(("class:ready", self.say("ready_to_pass")))
            else:
                line.append(("class:error", self.say("too_many", count=need)))
            return line
        if rd.phase is Phase.MOON:
            if rd.turn == tb.me:
                return [("class:turn", self.say("moon_situation", **tb.moon_words()))]
            return [("class:status", self.say("moon_their_choice", name=tb.name(rd.turn)))]
        trick_no = len(rd.tricks) + 1
        if rd.turn == tb.me:
            return [("class:turn", self.say("your_turn", trick=trick_no))]
        return [("class:status", self.say("their_turn", name=tb.name(rd.turn), trick=trick_no))]

    def passing(self, direction: Direction, seat: int) -> str:
        if direction is Direction.NONE:
            return self.say("no_pass_round")
        to = direction.receiver(seat, self.tb.players)
        return self.say(f"passing_{direction.value}", name=self.tb.name(to))

    def hand(self) -> list[Line]:
        tb = self.tb
        rd = tb.game.round
        hand = rd.hand(tb.me)
        my_turn = rd.phase is Phase.PLAY and rd.turn == tb.me and not tb.game.over
        legal = rd.legal_mask() if my_turn else -1
        groups: list[Line] = []
        for s in range(4):
            cards = [c for c in hand if c // 13 == s]
            if not cards:
                continue
            red = s in (1, 2)
            frag: Line = [("class:suit-red" if red else "class:suit-black", self.suit(s))]
            for c in cards:
                rank = self.card(c)[:-1]
                playable = bool(legal >> c & 1)
                chosen = c in tb.selection
                style = "class:suit-red" if red else "class:suit-black"
                if self.plain:
                    text = f"[{rank}]" if chosen else (rank if playable else f"({rank})")
                    frag.append(("", " " + text))
                else:
                    if chosen:
                        style += " class:chosen"
                    elif not playable:
                        style = "class:dim"
                    frag.append(("", " "))
                    frag.append((style, rank))
            groups.append(frag)
        title = self.say("your_hand") + " "
        out: list[Line] = []
        cur: Line = [("class:title", title)]
        width = len(title)
        for frag in groups:
            w = len(plain(frag)) + 3
            if width + w > self.columns - 1 and len(cur) > 1:
                out.append(cur)
                cur = [("", " " * len(title))]
                width = len(title)
            cur.append(("", "   " if len(cur) > 1 else ""))
            cur.extend(frag)
            width += w
        out.append(cur)
        return out

    # ------------------------------------------------------------ events

    def event(self, ev: Event) -> list[Line]:
        """The lines an event shows in the log (empty for events that show nothing)."""
        fn = getattr(self, f"ev_{ev.kind}", None)
        return fn(**_wanted(fn, ev.data)) if fn is not None else []

    def status(self, ev: Event) -> str | None:
        """The one line the toolbar shows for an event, if it should replace the last one."""
        lines = self.event(ev)
        if not lines:
            return None
        return plain(lines[0])

    def _text(self, text: str, style: str = "") -> list[Line]:
        return [[(style, line)] for line in text.split("\n")]

    def ev_start(self, code, preset, target, players, you, seats) -> list[Line]:
        tb = self.tb
        others = ", ".join(tb.label(s) for s in tb.round_the_table() if s != you)
        mid = "start_line" if code is not None else "start_line_shared"  # a shared table: no code yet
        out = self._text(self.say(mid, code=code, preset=preset_name(preset, self.lang), target=target,
                                  others=others), "class:header")
        return out + self._changes()

    def _changes(self) -> list[Line]:
        """"Changed from the preset: ..." when the game's rules are a preset with --set on top."""
        if not self.tb.game.rules.overrides:
            return []
        from ..model.rules_text import changes

        return self._text(self.say("rt_changed", changes=changes(self.tb.game.rules)))

    def ev_resume(self, round, trick, phase) -> list[Line]:
        if phase == Phase.PASS.value:
            return self._text(self.say("resume_line_pass", round=round))
        return self._text(self.say("resume_line", round=round, trick=trick))

    def ev_deal(self, round, direction, to) -> list[Line]:
        d = Direction(direction)
        arrow = "" if d is Direction.NONE else self.arrow(d) + " "
        text = self.say("round_line", round=round) + self.sep() + arrow + self.passing(d, self.tb.me)
        return self._text(text, "class:header")

    def ev_lead(self, seat) -> list[Line]:
        return []

    def ev_pass(self, seat, by, cards=None, to=None) -> list[Line]:
        if seat != self.tb.me or cards is None:
            return []  # the CPUs' passes stay hidden
        mid = "pass_you_timer" if by == "timer" else "pass_you"
        return self._text(self.say(mid, cards=cards, name=self.tb.name(to)))

    def ev_receive(self, cards, source) -> list[Line]:
        return self._text(self.say("received", cards=cards, name=self.tb.name(source)), "class:info")

    def ev_play(self, seat, card, by) -> list[Line]:
        tb = self.tb
        if seat == tb.me:
            mid = {"you": "play_you", "auto": "play_auto", "timer": "play_timer"}[by]
            return [[("class:me", self.say(mid, card=card))]]
        return [[("", self.say("play_other", name=tb.name(seat), card=card))]]

    def ev_hearts_broken(self, seat, card) -> list[Line]:
        return self._text(self.say("hearts_now_broken"), "class:red")

    def ev_trick(self, trick, winner, points, kitty, cancelled=(), by=None, carried=()) -> list[Line]:
        tb = self.tb
        if cancelled:  # two decks: "The two A♥ cancel: K♥ wins."
            pairs = ", ".join(self.say("cancel_pair", card=c) for c in cancelled)
            if by is not None:
                then = self.say("rp_cancel_wins", card=by)
            elif winner is not None:  # the last trick: the fallback gave it to somebody
                then = self.say(f"rp_cancel_last_{tb.game.rules.set_aside_last}", seat=tb.name(winner))
            else:
                then = self.say("rp_cancel_aside")
            said = self.say("rp_cancel", pairs=pairs, then=then)
            out = self._text(said[:1].upper() + said[1:], "class:trick")
        else:
            out = []
        if winner is None:
            return out + self._text(self.say("trick_aside", number=trick, points=points), "class:trick")
        if winner == tb.me:
            mid = "trick_you_points" if points else "trick_you"
        else:
            mid = "trick_other_points" if points else "trick_other"
        text = self.say(mid, name=tb.name(winner), points=points, number=trick)
        if kitty:
            text += " " + self.say("trick_kitty", cards=kitty)
        if carried:
            text += " " + self.say("rp_carried", seat=tb.name(winner), count=len(carried), cards=list(carried))
        return out + self._text(text, "class:trick")

    def ev_round_end(self, round, taken, scores, totals, shooter, moon) -> list[Line]:
        tb = self.tb
        out = self._text(self.say("round_end_line", round=round, scores=self.names(scores)), "class:header")
        if shooter is not None:
            value = tb.game.rules.penalty_total
            who = "you" if shooter == tb.me else "other"
            mid = f"moon_{who}_others" if Moon(moon) is Moon.OTHERS else f"moon_{who}_minus"
            if tb.game.rules.moon is Moon.SHOOTER_CHOICE:
                mid += "_chosen"  # the shooter chose it
            out += self._text(self.say(mid, name=tb.name(shooter), points=value), "class:moon")
        out += self._text(self.say("totals_line", totals=self.names(totals)))
        return out

    def ev_moon_choice(self, round, seat, choices, default) -> list[Line]:
        tb = self.tb
        if seat != tb.me:
            return self._text(self.say("moon_their_choice", name=tb.name(seat)), "class:moon")
        return self._text(self.say("moon_ask", **tb.moon_words()), "class:moon")

    def ev_tie(self, seats, total, policy, outcome) -> list[Line]:
        tb = self.tb
        names = [tb.name(s) for s in seats]
        joined = self.say("names_and", first=", ".join(names[:-1]), last=names[-1])
        return self._text(self.say(f"tie_{outcome}", names=joined, total=total), "class:moon")

    def ev_game_end(self, winners, totals, standings, rounds, record=None) -> list[Line]:
        tb = self.tb
        out = self._text(self.say("game_over_line", rounds=len(rounds)), "class:header")
        if len(winners) > 1:
            names = ", ".join(tb.name(s) for s in winners)
            out += self._text(self.say("winners_shared", names=names), "class:moon")
        elif winners[0] == tb.me:
            out += self._text(self.say("winner_you"), "class:moon")
        else:
            out += self._text(self.say("winner_other", name=tb.name(winners[0])), "class:moon")
        width = max(len(tb.name(s)) for s in range(tb.players))
        for st in standings:
            shared = sum(1 for x in standings if x["place"] == st["place"]) > 1
            text = f"  {st['place']}. {tb.name(st['seat']).ljust(width)} {st['total']:>4}"
            if shared:
                text += "  " + self.say("place_shared")
            out.append([("", text)])
        out += self.score_table(rounds, totals)
        out += self.chart(totals)
        if record is not None:  # how it changes the person's record: "your 3rd win in a row"
            out += self._text(record["text"], "class:moon")
        out += self._text(self.say("after_game"), "class:info")
        return out

    def score_table(self, rounds: list[list[int]], totals: list[int]) -> list[Line]:
        tb = self.tb
        order = tb.round_the_table()
        cols = [tb.name(s) for s in order]
        w = [max(len(c), 4) for c in cols]
        first = max(len(self.say("col_round")), len(self.say("col_total")))
        out = [[("class:title", self.say("col_round").ljust(first) + "".join(
            "  " + c.rjust(w[i]) for i, c in enumerate(cols)))]]
        for k, scores in enumerate(rounds, 1):
            out.append([("", str(k).rjust(first) + "".join(
                "  " + str(scores[s]).rjust(w[i]) for i, s in enumerate(order)))])
        out.append([("class:title", self.say("col_total").ljust(first) + "".join(
            "  " + str(totals[s]).rjust(w[i]) for i, s in enumerate(order)))])
        return out

    def chart(self, totals: list[int]) -> list[Line]:
        tb = self.tb
        top = max(max(totals), 1)
        width = max(len(tb.name(s)) for s in range(tb.players))
        bar = "#" if self.ascii else "█"
        out = []
        for s in tb.round_the_table():
            v = totals[s]
            size = max(0, round(40 * v / top))
            out.append([("", tb.name(s).ljust(width) + " "), ("class:bar", bar * size),
                        ("", f" {v}")])
        return out

    def ev_undo(self, move, cards, after, round, trick, undos) -> list[Line]:
        if move == "pass":
            mid = "undo_pass" if after else "undo_pass_alone"
            return self._text(self.say(mid, cards=cards, count=after, round=round), "class:info")
        mid = "undo_play" if after else "undo_play_alone"
        return self._text(self.say(mid, card=cards[0], count=after, round=round, trick=trick), "class:info")

    def ev_no_points_left(self, round, auto) -> list[Line]:
        return self._text(self.say("no_points_auto" if auto else "no_points_offer"), "class:info")

    def ev_selection(self, cards, count, need) -> list[Line]:
        if count == need:
            return self._text(self.say("chosen", cards=cards) + self.sep() + self.say("ready_to_pass"))
        if count < need:
            text = self.say("chosen", cards=cards) if cards else self.say("chosen_none")
            return self._text(text + self.sep() + self.say("choose_more", count=need - count))
        return self._text(self.say("chosen", cards=cards) + self.sep() + self.say("too_many", count=need))

    def ev_confirm(self, card, text) -> list[Line]:
        return self._text(text, "class:confirm")

    def ev_cancel(self, text) -> list[Line]:
        return self._text(text)

    def ev_why(self, card, legal, reason, text) -> list[Line]:
        return self._text(text, "class:info" if legal else "class:error")

    def ev_hint(self, text, card=None, cards=None) -> list[Line]:
        return self._text(text, "class:info")

    def ev_info(self, topic, text) -> list[Line]:
        if topic == "log" and self.width:
            # every line shown must stay a line of the notation, however narrow the screen
            from ..records.movelog import fit_lines

            text = "\n".join(fit_lines(text.split("\n"), self.width))
        return self._text(text, "class:info")

    def ev_error(self, id, message) -> list[Line]:
        return self._text(message, "class:error")

    def note_with_path(self, text: str, path: str) -> list[Line]:
        """A message naming a file: the path's line is never wrapped (see :func:`wrap`)."""
        return [[("class:info class:path" if line.strip() == path else "class:info", line)]
                for line in text.split("\n")]

    def ev_seat(self, seat, name, status) -> list[Line]:
        """A shared table: somebody sits down, goes (the CPU plays for them) or is back."""
        mid = {"joined": "net_seat_joined", "left": "net_seat_left", "back": "net_seat_back"}.get(status)
        if mid is None or seat == self.tb.me:
            return []
        return self._text(self.say(mid, name=self.tb.name(seat), seat=seat), "class:info")

    def ev_takeover(self, seat, reason) -> list[Line]:
        """The CPU moves for a person's seat (yours: the move's own line says so)."""
        if seat == self.tb.me:
            return []
        mid = "net_takeover_timer" if reason == "timer" else "net_takeover_away"
        return self._text(self.say(mid, name=self.tb.name(seat)), "class:info")

    def ev_saved(self) -> list[Line]:
        return self._text(self.say("saved_line"), "class:info")

    def ev_score(self, totals, rounds, points) -> list[Line]:
        out = self._text(self.say("totals_line", totals=self.names(totals)))
        if any(points):
            out += self._text(self.say("round_points_line", points=self.names(points)))
        if rounds:
            out += self.score_table(rounds, totals)
        return out

    def ev_tricks(self, round, tricks, current) -> list[Line]:
        tb = self.tb
        if not tricks and not current:
            return self._text(self.say("no_tricks_yet"))
        out = []
        for k, tr in enumerate(tricks, 1):
            cards = " ".join(self.card(c) for c in tr["cards"])
            out += self._text(self.say("trick_row", number=k, name=tb.name(tr["leader"]), cards=cards,
                                       winner=tb.name(tr["winner"]) if tr["winner"] is not None
                                       else self.say("trick_aside_short"), points=tr["points"]))
        if current:
            cards = " ".join(self.card(c) for c in current["cards"])
            out += self._text(self.say("trick_row_current", number=len(tricks) + 1,
                                       name=tb.name(current["leader"]), cards=cards))
        return out

    def ev_rules(self, preset, settings) -> list[Line]:
        from ..model.rules import preset_info

        try:
            desc = preset_info(preset).get("description") or {}
        except Exception:
            desc = {}
        text = desc.get(self.lang) or desc.get("en") or preset if isinstance(desc, dict) else str(desc)
        out = self._text(self.say("rules_title", preset=preset_name(preset, self.lang)) + " " + text)
        out += self._changes()  # a preset with --set on top: say what differs
        out += self._text(self.say("rules_summary", target=settings["target"],
                                   ties=self.say(f"ties_{settings['ties']}"),
                                   players=settings["players"]))
        for mid in ("rules_follow", f"rules_first_{settings['first_trick']}",
                    f"rules_break_{settings['hearts_break']}", f"rules_moon_{settings['moon']}"):
            out += self._text(self.say(mid, points=self.tb.game.rules.penalty_total))
        return out


def _wanted(fn: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of an event that its ``ev_`` method names (the events carry more: docs/events.md)."""
    names = _PARAMS.get(fn.__func__)
    if names is None:
        import inspect

        names = _PARAMS[fn.__func__] = frozenset(inspect.signature(fn).parameters)
    return {k: v for k, v in data.items() if k in names}


_PARAMS: dict[Any, frozenset[str]] = {}


def _place(col: int, align: str, frags: Line, width: int = WIDTH) -> tuple[int, Line]:
    size = sum(len(text) for _, text in frags)
    if align == "c":
        start = col - size // 2
    elif align == "r":
        start = col - size + 1
    else:
        start = col
    start = max(0, min(start, width - 1 - size))
    return (start, frags)


def _pack(entries: list[Line], width: int, indent: str, sep: str, first: Line | None = None) -> list[Line]:
    """``entries`` joined by ``sep`` into lines of at most ``width`` columns, each entry whole
    (one longer than a line gets a line of its own); lines after the first start with ``indent``."""
    out: list[Line] = []
    cur: Line = list(first) if first is not None else [("", indent)]
    used = sum(len(text) for _, text in cur)
    empty = True
    for entry in entries:
        size = sum(len(text) for _, text in entry)
        if not empty and used + len(sep) + size > width:
            out.append(cur)
            cur, used, empty = [("", indent)], len(indent), True
        if not empty:
            cur.append(("", sep))
            used += len(sep)
        cur += entry
        used += size
        empty = False
    out.append(cur)
    return out


def _fits(items: list[tuple[int, Line]]) -> bool:
    """Whether the pieces of a row stand apart (at least one space between them)."""
    pos = -1
    for start, frags in sorted(items, key=lambda x: x[0]):
        if start <= pos:
            return False
        pos = start + sum(len(text) for _, text in frags)
    return True


def _compose(items: list[tuple[int, Line]]) -> Line:
    out: Line = []
    pos = 0
    for start, frags in sorted(items, key=lambda x: x[0]):
        if start > pos:
            out.append(("", " " * (start - pos)))
            pos = start
        elif start < pos and out:
            out.append(("", " "))
            pos += 1
        out.extend(frags)
        pos += sum(len(text) for _, text in frags)
    return out


def wrap(line: Line, width: int) -> list[Line]:
    """``line`` broken at spaces into lines of at most ``width`` characters, styles kept.

    A word longer than the width gets a line of its own, unbroken; a line
    styled ``class:path`` (a file name to copy) is never broken."""
    if width <= 0 or sum(len(text) for _, text in line) <= width \
            or any("class:path" in style for style, _ in line):
        return [line]
    # (the spaces before a word, the word), each as fragments
    words: list[tuple[Line, Line]] = []
    spaces: Line = []
    word: Line = []
    for style, text in line:
        for chunk in re.findall(r" +|[^ ]+", text):
            if chunk.startswith(" "):
                if word:
                    words.append((spaces, word))
                    spaces, word = [], []
                spaces.append((style, chunk))
            else:
                word.append((style, chunk))
    if word:
        words.append((spaces, word))
    out: list[Line] = []
    cur: Line = []
    used = 0
    for k, (sp, wd) in enumerate(words):
        w_len = sum(len(t) for _, t in wd)
        s_len = sum(len(t) for _, t in sp)
        if k == 0:  # the first line keeps its indentation, as far as it fits
            if s_len + w_len > width:
                sp = [("", " " * max(0, width - w_len))] if s_len else []
                s_len = sum(len(t) for _, t in sp)
            cur, used = sp + wd, s_len + w_len
        elif used + s_len + w_len <= width:
            cur += sp + wd
            used += s_len + w_len
        else:
            out.append(cur)
            cur, used = list(wd), w_len
    out.append(cur)
    return out


def shorten(text: str, width: int, lines: int, ellipsis: str) -> str:
    """``text`` wrapped at spaces into at most ``lines`` lines of ``width``; what does not fit
    is cut at a word boundary and marked with ``ellipsis``."""
    rows = [plain(row) for row in wrap([("", text)], width)]
    if len(rows) <= lines:
        return "\n".join(rows)
    rows = rows[:lines]
    last = rows[-1]
    while last and len(last) + len(ellipsis) > width:
        cut = last.rfind(" ")
        last = last[:cut] if cut > 0 else last[: max(0, width - len(ellipsis))]
    rows[-1] = last.rstrip(" ,;:") + ellipsis
    return "\n".join(rows)
