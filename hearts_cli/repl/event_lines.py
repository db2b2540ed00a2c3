"""Each event of the table in words: the lines it adds to the log, and the toolbar's line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.cards import Card, Suit
from ..model.rules import Direction, Moon, preset_info
from ..play.dealt import Phase
from ..play.events import Event, Teller
from ..records.sentences import cancel_sentence
from ..text.catalog import preset_name
from .layout import Line, plain, reflow
from .pieces import Writer

if TYPE_CHECKING:
    from ..base.jsonvalue import JsonObject
    from ..play.payloads import (
        DirectionName,
        ErrorBody,
        MoonChoiceName,
        MoveName,
        MoverName,
        PhaseName,
        RecordChange,
        SeatEntry,
        SeatStatusName,
        ShownTrick,
        Standing,
        TakeoverReason,
        TieOutcome,
        TiePolicy,
        TrickPlay,
    )


class EventLines(Writer, Teller[Line]):
    """The lines of the log for each kind of event (``ev_<kind>``, told through the shared
    dispatch :class:`~hearts_cli.play.events.Teller`; none for the others)."""

    def event(self, ev: Event) -> list[Line]:
        """The lines an event shows in the log (empty for events that show nothing)."""
        return self.tell(ev)

    def status(self, ev: Event) -> str | None:
        """The one line the toolbar shows for an event, if it should replace the last one."""
        lines = self.event(ev)
        if not lines:
            return None
        return plain(lines[0])

    def ev_start(self, code: str | None, preset: str, target: int, players: int, you: int | None,
                 seats: list[SeatEntry]) -> list[Line]:
        tb = self.tb
        others = ", ".join(tb.label(s) for s in tb.round_the_table() if s != you)
        mid = "start_line" if code is not None else "start_line_shared"  # a shared table: no code yet
        out = self._text(self.say(mid, code=code, preset=preset_name(preset, self.lang), target=target,
                                  others=others), "class:header")
        return out + self._changes()

    def _changes(self) -> list[Line]:
        """"Changed from the preset: ..." when the game's rules are a preset with --set on top."""
        if not self.tb.rules.overrides:
            return []
        from ..model.rules_text import changes

        return self._text(self.say("rt_changed", changes=changes(self.tb.rules)))

    def ev_resume(self, round: int, trick: int, phase: PhaseName) -> list[Line]:
        if phase == Phase.PASS.value:
            return self._text(self.say("resume_line_pass", round=round))
        return self._text(self.say("resume_line", round=round, trick=trick))

    def ev_deal(self, round: int, direction: DirectionName, to: int | None) -> list[Line]:
        d = Direction(direction)
        arrow = "" if d is Direction.NONE else self.arrow(d) + " "
        text = self.say("round_line", round=round) + self.sep() + arrow + self.passing(d, self.tb.me)
        return self._text(text, "class:header")

    def ev_lead(self, seat: int) -> list[Line]:
        return []

    def ev_pass(self, seat: int, by: MoverName | None, cards: list[Card] | None, to: int) -> list[Line]:
        if seat != self.tb.me or cards is None:
            return []  # the CPUs' passes stay hidden
        mid = "pass_you_timer" if by == "timer" else "pass_you"
        return self._text(self.say(mid, cards=self.in_hand_order(cards), name=self.tb.name(to)))

    def ev_receive(self, cards: list[Card], source: int | None) -> list[Line]:
        if source is None:  # (told only after a pass: somebody passed them)
            return []
        return self._text(self.say("received", cards=cards, name=self.tb.name(source)), "class:info")

    def ev_play(self, seat: int, card: Card, by: MoverName | None) -> list[Line]:
        tb = self.tb
        if seat == tb.me:  # (the seat's own card: ``by`` is known)
            mid = {"you": "play_you", "auto": "play_auto", "timer": "play_timer"}[by or "you"]
            return [[("class:me", self.say(mid, card=card))]]
        return [[("", self.say("play_other", name=tb.name(seat), card=card))]]

    def ev_hearts_broken(self, seat: int, card: Card) -> list[Line]:
        return self._text(self.say("hearts_now_broken"), "class:red")

    def ev_trick(self, trick: int, plays: list[TrickPlay], winner: int | None, points: int, kitty: list[Card],
                 cancelled: list[Card] | None = None, by: Card | None = None,
                 carried: list[Card] | None = None) -> list[Line]:
        tb = self.tb
        said = None
        if cancelled:  # two decks: "The two A♥ cancel: K♥ wins." (the suit led's pairs)
            said = cancel_sentence(self.say, tb.name, plays, cancelled, by, winner, tb.rules.set_aside_last,
                                   self.lang, self.ascii)
        out = self._text(said, "class:trick") if said else []
        if winner is None:
            return out + self._text(self.result(trick, points, None), "class:trick")
        text = self.result(trick, points, winner)
        if kitty:
            text += " " + self.say("trick_kitty", cards=kitty)
        if carried:
            text += " " + self.say("rp_carried", seat=tb.name(winner), count=len(carried), cards=list(carried))
        return out + self._text(text, "class:trick")

    def ev_round_end(self, round: int, taken: list[int], scores: list[int], totals: list[int], shooter: int | None,
                     moon: MoonChoiceName | None, sun: bool | None = None,
                     no_trick: list[int] | None = None) -> list[Line]:
        """A moon (and the shooter's choice) or a sun first: it explains the scores that follow."""
        tb = self.tb
        out: list[Line] = []
        if shooter is not None and sun:
            who = "you" if shooter == tb.me else "other"
            mid = ("sun_you_minus" if who == "you" else "sun_other_minus") if tb.rules.sun < 0 else \
                ("sun_you_others" if who == "you" else "sun_other_others")
            out += self._text(self.say(mid, name=tb.name(shooter), points=abs(tb.rules.sun)), "class:moon")
        elif shooter is not None and moon is not None:
            value = tb.rules.penalty_total
            who = "you" if shooter == tb.me else "other"
            mid = f"moon_{who}_others" if Moon(moon) is Moon.OTHERS else f"moon_{who}_minus"
            if tb.rules.moon is Moon.SHOOTER_CHOICE:
                mid += "_chosen"  # the shooter chose it
            out += self._text(self.say(mid, name=tb.name(shooter), points=value), "class:moon")
        bonus = no_trick or []
        if bonus:  # the seats that took no trick score the bonus, said as the sun is
            mine = tb.me in bonus
            others = [tb.name(s) for s in bonus if s != tb.me]
            if mine:
                out += self._text(self.say("no_trick_you", points=f"{tb.rules.no_trick_bonus:+d}"), "class:moon")
            if others:
                names = others[0] if len(others) == 1 else self.say(
                    "names_and", first=", ".join(others[:-1]), last=others[-1])
                out += self._text(self.say("no_trick_other", names=names, n=len(others),
                                           points=f"{tb.rules.no_trick_bonus:+d}"), "class:moon")
        out += self._text(self.say("round_end_line", round=round, scores=self.names(scores)), "class:header")
        out += self._text(self.say("totals_line", totals=self.names(totals)))
        return out

    def ev_moon_choice(self, round: int, seat: int, choices: dict[MoonChoiceName, list[int]],
                       default: MoonChoiceName) -> list[Line]:
        tb = self.tb
        if seat != tb.me:
            return self._text(self.say("moon_their_choice", name=tb.name(seat)), "class:moon")
        return self._text(self.say("moon_ask", **tb.moon_words()), "class:moon")

    def ev_tie(self, seats: list[int], total: int, policy: TiePolicy, outcome: TieOutcome) -> list[Line]:
        tb = self.tb
        names = [tb.name(s) for s in seats]
        joined = self.say("names_and", first=", ".join(names[:-1]), last=names[-1])
        return self._text(self.say(f"tie_{outcome}", names=joined, total=total), "class:moon")

    def ev_game_end(self, winners: list[int], totals: list[int], standings: list[Standing],
                    rounds: list[list[int]], record: RecordChange | None = None) -> list[Line]:
        tb = self.tb
        out = self._text(self.say("game_over_line", rounds=len(rounds)), "class:header")
        if len(winners) > 1:
            names = ", ".join(tb.name(s) for s in winners)
            out += self._text(self.say("winners_shared", names=names), "class:moon")
        elif winners[0] == tb.me:
            out += self._text(self.say("winner_you"), "class:moon")
        else:
            out += self._text(self.say("winner_other", name=tb.name(winners[0])), "class:moon")
        out += self.standing_lines(standings)
        out += self.score_lines(rounds, totals)
        out += self.chart_lines(totals)
        if record is not None:  # how it changes the person's record: "your 3rd win in a row"
            out += self._text(record["text"], "class:moon")
        out += self._text(self.say("after_game"), "class:info")
        return out

    def standing_lines(self, standings: list[Standing]) -> list[Line]:
        """The final places, one a line, in columns: place, name, total."""
        tb = self.tb
        width = max(len(tb.name(s)) for s in range(tb.players))
        out: list[Line] = []
        for st in standings:
            shared = sum(1 for x in standings if x["place"] == st["place"]) > 1
            text = f"  {st['place']}. {tb.name(st['seat']).ljust(width)} {st['total']:>4}"
            if shared:
                text += "  " + self.say("place_shared")
            out.append([("", text)])
        return out

    def ev_undo(self, move: MoveName, cards: list[Card], after: int, round: int, trick: int, undos: int) -> list[Line]:
        if move == "pass":
            mid = "undo_pass" if after else "undo_pass_alone"
            return self._text(self.say(mid, cards=cards, count=after, round=round), "class:info")
        mid = "undo_play" if after else "undo_play_alone"
        return self._text(self.say(mid, card=cards[0], count=after, round=round, trick=trick), "class:info")

    def ev_claim(self, seat: int, tricks: int, points: int) -> list[Line]:
        mid = "claim_mine" if seat == self.tb.me else "claim_theirs"
        return self._text(self.say(mid, name=self.tb.name(seat), tricks=tricks, points=points), "class:info")

    def ev_no_points_left(self, round: int, auto: bool) -> list[Line]:
        return self._text(self.say("no_points_auto" if auto else "no_points_offer"), "class:info")

    def ev_selection(self, cards: list[Card], count: int, need: int) -> list[Line]:
        cards = self.in_hand_order(cards)  # (the event's are in the cards' own order)
        if count == need:
            return self._text(self.say("chosen", cards=cards) + self.sep() + self.say("ready_to_pass"))
        if count < need:
            text = self.say("chosen", cards=cards) if cards else self.say("chosen_none")
            return self._text(text + self.sep() + self.say("choose_more", count=need - count))
        return self._text(self.say("chosen", cards=cards) + self.sep() + self.say("too_many", count=need))

    def ev_confirm(self, card: Card, text: str) -> list[Line]:
        return self._text(text, "class:confirm")

    def ev_cancel(self, text: str) -> list[Line]:
        return self._text(text)

    def ev_why(self, card: Card, legal: bool, reason: ErrorBody | None, text: str) -> list[Line]:
        return self._text(text, "class:info" if legal else "class:error")

    def ev_hint(self, text: str, card: Card | None = None, cards: list[Card] | None = None) -> list[Line]:
        return self._text(text, "class:info")

    def ev_info(self, topic: str, text: str) -> list[Line]:
        if topic == "log" and self.width:
            # every line shown must stay a line of the notation, however narrow the screen
            from ..records.movelog import fit_lines

            text = "\n".join(fit_lines(text.split("\n"), self.width))
        elif topic == "help" and self.width and max(map(len, text.split("\n"))) > self.fit:
            text = reflow(text)  # wrapped anew at the screen's width, without stubs
        return self._text(text, "class:info")

    def ev_error(self, code: str, message: str) -> list[Line]:
        return self._text(message, "class:error")

    def archived(self, text: str, path: str) -> list[Line]:
        """Where a game went (``archived_at``, ``previous_archived``): the sentence, the command
        that opens it again (the lines after the first: a command to copy, never broken, see
        :func:`wrap`), and the file, home folder written ``~``, where the screen holds it
        whole (the command is enough to open the game: nobody needs the long path)."""
        from ..store.saves import archived_file_line

        first, *commands = text.split("\n")
        out = [[("class:info", first)]] + [[("class:info class:path", line)] for line in commands]
        shown = archived_file_line(path, self.lang, self.ascii)
        if self.width is None or len(shown) <= self.width:  # the screen's own width, even past 80
            out.append([("class:info class:path", shown)])
        return out

    def ev_seat(self, seat: int, name: str, status: SeatStatusName) -> list[Line]:
        """A shared table: somebody sits down, goes (the CPU plays for them) or is back; or,
        before the game goes on, the table waits for them to sit down."""
        mid = {"joined": "net_seat_joined", "left": "net_seat_left", "back": "net_seat_back",
               "awaited": "net_seat_awaited"}.get(status)
        if mid is None or seat == self.tb.me:
            return []
        return self._text(self.say(mid, name=self.tb.name(seat), seat=seat), "class:info")

    def ev_takeover(self, seat: int, reason: TakeoverReason | None, status: int | None = None) -> list[Line]:
        """The CPU moves for a person's seat (yours: the move's own line says so), or plays a
        program's seat from now on (it has stopped: its exit status, when it has one)."""
        if seat == self.tb.me:
            return []
        if reason == "program":
            mid = "net_takeover_program" if status is None else "net_takeover_program_status"
            return self._text(self.say(mid, name=self.tb.name(seat), status=status), "class:info")
        mid = "net_takeover_timer" if reason == "timer" else "net_takeover_away"
        return self._text(self.say(mid, name=self.tb.name(seat)), "class:info")

    def ev_saved(self) -> list[Line]:
        return self._text(self.say("saved_line"), "class:info")

    def ev_score(self, totals: list[int], rounds: list[list[int]], points: list[int]) -> list[Line]:
        out = self._text(self.say("totals_line", totals=self.names(totals)))
        if any(points):
            out += self._text(self.say("round_points_line", points=self.names(points)))
        if rounds:
            out += self.score_lines(rounds, totals)
        return out

    def score_lines(self, rounds: list[list[int]], totals: list[int]) -> list[Line]:
        """Each round's scores and the totals (``score``, the game's end): a table here."""
        return score_table(self, rounds, totals)

    def chart_lines(self, totals: list[int]) -> list[Line]:
        """The totals drawn as bars at the game's end."""
        return chart(self, totals)

    def trick_row(self, mid: str, number: int, tr: ShownTrick) -> list[Line]:
        """A completed trick in one sentence: who played what, who took it, its points."""
        return self._text(self.trick_said(mid, number, tr["seats"], tr["cards"], tr.get("winner"),
                                          tr.get("points", 0)))

    def ev_tricks(self, round: int, tricks: list[ShownTrick], current: ShownTrick | None) -> list[Line]:
        if not tricks and not current:
            return self._text(self.say("no_tricks_yet"))
        out: list[Line] = []
        for k, tr in enumerate(tricks, 1):
            out += self.trick_row("trick_row", k, tr)
        if current:
            out += self._text(self.say("trick_row_current", number=len(tricks) + 1,
                                       plays=self.plays(current["seats"], current["cards"])))
        return out

    def ev_last(self, round: int, number: int, trick: ShownTrick | None) -> list[Line]:
        if trick is None:
            return self._text(self.say("no_tricks_yet"))
        return self.trick_row("last_trick", number, trick)

    def ev_count(self, out: list[list[Card]], voids: list[list[Suit]],
                 placed: list[list[Card]]) -> list[Line]:
        lines = self._text(self.say("count_title"))
        for suit, cards in enumerate(out):
            lines += self.count_suit(suit, cards)
        for seat, cards in enumerate(placed):
            if cards:
                lines += self._text(self.say("count_placed", name=self.tb.name(seat), cards=cards))
        shown = self.voids(voids)
        lines += self._text(self.say("count_voids", voids=shown) if shown else self.say("count_no_voids"))
        return lines

    def count_suit(self, suit: int, cards: list[Card]) -> list[Line]:
        """One suit of the count: its symbol, the ranks still out, how many ("♣ K Q 9 (3)")."""
        ranks = " ".join(self.card(c)[:-1] for c in cards)
        mid = "count_suit" if cards else "count_suit_none"
        return self._text("  " + self.say(mid, suit=self.suit(suit), cards=ranks, count=len(cards)))

    def ev_exchange(self, round: int, direction: DirectionName, passed: list[Card] | None, to: int | None,
                  received: list[Card] | None, source: int | None) -> list[Line]:
        tb = self.tb
        if to is None:
            return self._text(self.say("no_pass_round"))
        if passed is None:
            return self._text(self.say("passed_not_yet"))
        out = self._text(self.say("passed_to", cards=self.in_hand_order(passed), name=tb.name(to)))
        if received is None or source is None:
            return out + self._text(self.say("passed_waiting"))
        return out + self._text(self.say("received", cards=received, name=tb.name(source)))

    def ev_rules(self, preset: str, settings: JsonObject) -> list[Line]:
        try:  # the preset's own line, unless --set changed it into other rules (the changes follow)
            desc = {} if self.tb.rules.overrides else preset_info(preset).get("description") or {}
        except Exception:
            desc = {}
        text = desc.get(self.lang) or desc.get("en") or "" if isinstance(desc, dict) else str(desc)
        out = self._text((self.say("rules_title", preset=preset_name(preset, self.lang)) + " " + text).rstrip())
        out += self._changes()  # a preset with --set on top: say what differs
        out += self._text(self.say("rules_summary", target=settings["target"],
                                   ties=self.say(f"ties_{settings['ties']}"),
                                   players=settings["players"]))
        for mid in ("rules_follow", f"rules_first_{settings['first_trick']}",
                    f"rules_break_{settings['hearts_break']}", f"rules_moon_{settings['moon']}"):
            out += self._text(self.say(mid, points=self.tb.rules.penalty_total))
        return out


def score_table(writer: Writer, rounds: list[list[int]], totals: list[int]) -> list[Line]:
    """Each round's scores and the totals, a column a seat from the person's, round the table.

    Where the seats do not fit the screen's width (five players at 40 columns, nine at 80)
    they are split into as many tables as it takes, one under the other, each led by the
    round's column: a line the screen wrapped would put numbers under the wrong names."""
    tb = writer.tb
    order = tb.round_the_table()
    w = {s: max(len(tb.name(s)), 4) for s in order}
    first = max(len(writer.say("col_round")), len(writer.say("col_total")))
    parts: list[list[int]] = [[]]
    used = first
    for s in order:
        if parts[-1] and writer.width and used + 2 + w[s] > writer.width:
            parts.append([])
            used = first
        parts[-1].append(s)
        used += 2 + w[s]
    out: list[Line] = []
    for part in parts:
        if out:
            out.append([("", "")])
        out.append([("class:title", writer.say("col_round").ljust(first) + "".join(
            "  " + tb.name(s).rjust(w[s]) for s in part))])
        for k, scores in enumerate(rounds, 1):
            out.append([("", str(k).rjust(first) + "".join("  " + str(scores[s]).rjust(w[s]) for s in part))])
        out.append([("class:title", writer.say("col_total").ljust(first) + "".join(
            "  " + str(totals[s]).rjust(w[s]) for s in part))])
    return out


def chart(writer: Writer, totals: list[int]) -> list[Line]:
    """The totals as bars, the longest 40 columns, or less where the screen would break it."""
    tb = writer.tb
    top = max(max(totals), 1)
    width = max(len(tb.name(s)) for s in range(tb.players))
    bar = "#" if writer.ascii else "█"
    room = writer.fit - width - 1 - len(f" {max(totals)}")  # name, bar and number on one line
    longest = max(1, min(40, room))
    out = []
    for s in tb.round_the_table():
        v = totals[s]
        size = max(0, round(longest * v / top))
        out.append([("", tb.name(s).ljust(width) + " "), ("class:bar", bar * size),
                    ("", f" {v}")])
    return out
