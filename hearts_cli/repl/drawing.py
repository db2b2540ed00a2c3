"""The table drawn: the seats around the trick, what is going on, the scores, the hand."""

from __future__ import annotations

from ..base.wrapping import scored
from ..model.cards import Card
from ..model.rules import Direction
from ..play.dealt import Phase
from ..text.catalog import preset_name
from .layout import SUIT_CLASSES, Line, compose, fits, pack, place, plain
from .pieces import Writer

# the mark of a playable card in plain mode: one ASCII character after the rank, so the rank
# is read first (a screen reader says "star" or skips it) and the card keeps its width nearly
PLAYABLE = "*"


class TableDrawing(Writer):
    """The table as a person sees it at their turn (in plain mode nothing relies on colour:
    playable cards marked with a star when some are not, chosen cards in brackets)."""

    def table(self) -> list[Line]:
        tb = self.tb
        rd = tb.view()
        rules = tb.rules
        lines: list[Line] = []
        broken = self.say("hearts_broken_yes" if rd.hearts_broken else "hearts_broken_no")
        head = self.say("table_header" if tb.code is not None else "table_header_shared", code=tb.code,
                        round=tb.round_number, preset=preset_name(rules.preset, self.lang), target=rules.target)
        lines.append([("class:header", head + self.sep() + broken)])
        # the seats, placed around the trick
        cards_in_trick: dict[int, Card] = dict(rd.trick_plays())
        lines.extend(self.seats(cards_in_trick))
        if rd.phase is Phase.PLAY and rd.trick and not tb.over:
            # who led the trick in progress, in words (colour and place alone do not say it)
            plays = rd.trick_plays()
            lines.append([("class:trick", self.say("trick_now", plays=self.plays([s for s, _ in plays],
                                                                                 [c for _, c in plays])))])
        if rd.phase is Phase.PLAY and not rd.trick and rd.tricks and not tb.over:
            # the last trick stays on the table until the next card is played
            last = rd.tricks[-1]
            lines.append([("class:trick", self.trick_said("last_trick", len(rd.tricks), [s for s, _ in last.plays()],
                                                          last.cards, last.winner, last.points))])
        # what is going on
        lines.append(self.situation())
        totals = list(tb.core.totals)
        title = self.say("table_scores")
        scores = [[("class:scores", said)] for said in scored([(tb.name(s), totals[s]) for s in tb.round_the_table()])]
        lines.extend(pack(scores, self.fit, " " * (len(title) + 1), self.sep(),
                           first=[("class:scores", title + " ")]))
        lines.extend(self.hand())
        return lines


    def seat_label(self, seat: int, widest: bool = False) -> tuple[str, str]:
        """A seat's name, level, points this round and turn mark, and its style; ``widest``:
        the label as long as the round can make it (the turn mark and the most points)."""
        tb = self.tb
        rd = tb.view()
        label = tb.label(seat)
        pts = rd.points[seat]
        if widest:
            rules = tb.rules  # the most a seat takes, or the J♦'s bonus alone
            pts = max((rules.penalty_total, sum(p * n for p, n in zip(rules.points, rules.copies, strict=True)
                                                if p < 0)), key=lambda p: len(str(p)))
        if pts:
            label += " " + self.say("seat_points", points=pts)
        turn = rd.phase is Phase.PLAY and rd.turn == seat
        if turn or widest:
            label = (">" if self.ascii else "▶") + " " + label
        style = "class:me" if seat == tb.me else "class:seat"
        if turn:
            style += " class:turn"
        return style, label

    def seats(self, cards_in_trick: dict[int, Card]) -> list[Line]:
        """The seats placed where they sit, each card of the trick beside its player; when
        they do not fit around the trick (a narrow terminal, nine seats or more), a compact
        list from your left round the table, as many seats a line as fit, none split.

        Up to four seats, which of the two is chosen by the widest labels the round can give
        (every seat with the turn mark and the most points, a card of three characters by
        each), so that the table keeps one shape from the first trick to the last (at 40
        columns it once jumped from one to the other as points were taken). From five seats
        the labels as they are choose it (the widest labels would leave no room round the
        trick even at 80 columns)."""
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
        # the side seats' cards a row lower, under them: room for their labels beside the trick
        low = card_at | {"west": (3, w * 3 // 10), "east": (3, w * 7 // 10)}
        places = [tb.position(seat) for seat in range(n)]
        shapes = [(label_at, card_at), (spread, card_at)]
        if n <= 4:
            shapes += [(spread, low)]
        widest = {seat: ("", "10" + self.suit(0)) for seat in range(n)}  # a card by each, as wide as 10♣
        for labels, cards in shapes:
            if not all(pos in labels for pos in places):
                break  # nine seats or more: no compass place for each
            if n > 4 or self._placed(labels, cards, widest, widest=True) is not None:
                placed = self._placed(labels, cards, {s: self.card_frag(c) for s, c in cards_in_trick.items()})
                if placed is not None:
                    return placed
        entries: list[Line] = []
        for seat in tb.round_the_table()[1:] + [tb.me]:
            style, label = self.seat_label(seat)
            entry: Line = [(style, label)]
            if seat in cards_in_trick:
                entry += [("", ": "), self.card_frag(cards_in_trick[seat])]
            entries.append(entry)
        return pack(entries, self.fit, "  ", self.sep())

    def _placed(self, labels: dict[str, tuple[int, int, str]], cards: dict[str, tuple[int, int]],
                shown: dict[int, tuple[str, str]], widest: bool = False) -> list[Line] | None:
        """The seats placed at ``labels`` and the cards ``shown`` (by seat) at ``cards``, or
        None when they do not stand apart within the width."""
        tb = self.tb
        w = self.columns
        rows: list[list[tuple[int, Line]]] = [[] for _ in range(5)]
        for seat in range(tb.players):
            pos = tb.position(seat)
            style, label = self.seat_label(seat, widest)
            r, col, align = labels[pos]
            rows[r].append(place(col, align, [(style, label)], w))
            if seat in shown:
                r, col = cards[pos]
                rows[r].append(place(col, "c", [shown[seat]], w))
        placed = [compose(row) for row in rows if row]
        if all(fits(row) for row in rows if row) and all(
                sum(len(text) for _, text in line) <= w for line in placed):
            return placed
        return None

    def situation(self) -> Line:
        tb = self.tb
        if tb.over:
            return [("class:status", self.say("table_game_over"))]
        rd = tb.view()
        if rd.phase is Phase.PASS:
            arrow = "" if rd.direction is Direction.NONE else self.arrow(rd.direction) + " "
            line: Line = [("class:arrow", arrow + self.passing(rd.direction, tb.me))]
            chosen = tb.selection
            need = tb.rules.pass_count
            if chosen:
                line.append(("", self.sep()))
                line.append(("", self.say("chosen", cards=self.in_hand_order(chosen))))
            left = need - len(chosen)
            line.append(("", self.sep()))
            if left > 0:
                line.append(("", self.say("choose_more", count=left)))
            elif left == 0:
                line.append(("class:ready", self.say("ready_to_pass")))
            else:
                line.append(("class:error", self.say("too_many", count=need)))
            return line
        turn = rd.turn  # a round being played or waiting for its moon has one
        assert turn is not None
        if rd.phase is Phase.MOON:
            if turn == tb.me:
                return [("class:turn", self.say("moon_situation", **tb.moon_words()))]
            return [("class:status", self.say("moon_their_choice", name=tb.name(turn)))]
        trick_no = len(rd.tricks) + 1
        if turn == tb.me:
            return [("class:turn", self.say("your_turn", trick=trick_no))]
        return [("class:status", self.say("their_turn", name=tb.name(turn), trick=trick_no))]


    def hand(self) -> list[Line]:
        tb = self.tb
        rd = tb.view()
        hand = rd.hand
        my_turn = rd.phase is Phase.PLAY and rd.turn == tb.me and not tb.over
        legal = set(tb.legal()) if my_turn else None  # (not the person's turn: none is shown unplayable)
        # without colour the playable cards carry a light mark ("3*"), unless every card is playable:
        # a mark on each would say nothing
        marked = legal is not None and not set(hand) <= legal
        title = self.say("your_hand") + " "
        # a suit too long for a line of its own goes on over the next, its symbol repeated
        room = self.columns - 1 - len(title)
        groups: list[Line] = []
        for s, cards in tb.hand_order.arrange(hand):
            head: tuple[str, str] = (SUIT_CLASSES[s], self.suit(s))
            frag: Line = [head]
            for c in cards:
                rank = self.card(c)[:-1]
                playable = legal is None or c in legal
                chosen = c in tb.selection
                style = SUIT_CLASSES[s]
                if self.plain:
                    text = f"[{rank}]" if chosen else (f"{rank}{PLAYABLE}" if playable and marked else rank)
                    card: Line = [("", " " + text)]
                else:
                    if chosen:
                        style += " class:chosen"
                    elif not playable:
                        style = "class:dim"
                    card = [("", " "), (style, rank)]
                if len(plain(frag)) + len(plain(card)) > room and len(frag) > 1:
                    groups.append(frag)
                    frag = [head]
                frag.extend(card)
            groups.append(frag)
        if not groups:  # the last card is played (the moon's question): no hand to show
            return []
        out: list[Line] = []
        cur: Line = [("class:title", title)]
        width = len(title)
        for frag in groups:  # a line broken only where the next suit does not fit (three spaces before it)
            if width + 3 + len(plain(frag)) > self.columns - 1 and len(cur) > 1:
                out.append(cur)
                cur = [("", " " * len(title))]
                width = len(title)
            gap = "   " if len(cur) > 1 else ""
            cur.append(("", gap))
            cur.extend(frag)
            width += len(gap) + len(plain(frag))
        out.append(cur)
        return out
