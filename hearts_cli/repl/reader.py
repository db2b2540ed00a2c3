"""The screen-reader mode (``ACCESSIBLE=1`` or ``--screen-reader``): every difference of the
mode is here, chosen once when the game opens.

A screen reader speaks what is added to the terminal; anything drawn again, moved
or erased is read again or garbled. So this mode never uses prompt-toolkit: lines
are read with the terminal's own line editing, and what is shown only appends —
no redraws, no bottom toolbar, no completion menu, no cursor movement, no erasing,
no colour, no spinner. Cards are said in words ("queen of spades", "reina de
picas": :func:`spoken`), the table is told in sentences (:class:`SpokenRenderer`),
and ``again`` (``r``) reads the last events once more. Card input is the same as
everywhere: every notation is read.
"""

from __future__ import annotations

import os
import re
import select
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from ..model.cards import Card
from ..play.dealt import Phase
from ..play.events import Event, Play, TrickDone
from ..text.catalog import preset_name, t
from .front import Incoming, TimeUp, TurnLoop
from .layout import Line, plain, reflow
from .pacing import CpuPause, KeyWithin, QuietInput, key_within
from .render import Renderer
from .table import Table

if TYPE_CHECKING:
    from ..play.payloads import DirectionName, Standing

Note = str | tuple[str, str]  # a line to say first, or (a text, the path it names)

SUITS = "♣♦♥♠"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# a card as the screen writes it (10♥, Q♠), not inside a word or a number
_FACE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
# what a screen reader would spell out or say as a symbol's name: dropped, or said plainly
# (a back-quote marks a command to type on the screen: read out, it is a word too many)
_GLYPHS = str.maketrans({"▶": "", "←": "", "↑": "", "→": "", "·": ",", "█": "", "…": "...", "`": ""})


def spoken(text: str, lang: str) -> str:
    """``text`` as a screen reader should hear it: every card in words ("Q♠" -> "queen of spades",
    "reina de picas"), a suit alone by its name, the table's glyphs and back-quotes dropped."""
    ranks = t("spoken_ranks", lang).split()
    suits = t("spoken_suits", lang).split()

    def card(m: re.Match[str]) -> str:
        words = t("spoken_card", lang, rank=ranks[RANKS.index(m.group(1))], suit=suits[SUITS.index(m.group(2))])
        return capital(words) if m.start() == 0 else words  # (a sentence that begins with the card)

    text = _FACE.sub(card, text)
    text = re.sub("[♣♦♥♠]", lambda m: suits[SUITS.index(m.group(0))], text)
    text = text.translate(_GLYPHS).replace(" ,", ",")
    return re.sub(r"  +", " ", text).strip()


def capital(text: str) -> str:
    """``text`` begun with a capital when it begins with a word (the glyphs before it, which are
    not said, skipped); anything else (a move log's ``# hearts``, a number) as it is."""
    k = len(text) - len(text.lstrip(" ▶←↑→"))
    return text[:k] + text[k:k + 1].upper() + text[k + 1:] if text[k:k + 1].isalpha() else text


def sentence(text: str) -> str:
    """``text`` as a sentence of its own: a capital first, a full stop last."""
    text = capital(text.strip())
    return text + ("" if not text or text.endswith((".", ":", "?", "!")) else ".")


class SpokenRenderer(Renderer):
    """The renderer of the screen-reader mode: the table told in sentences rather than drawn,
    the scores said round by round, no bars. (Each event's sentence is the same as anywhere.)"""

    def __init__(self, table: Table):
        super().__init__(table, plain=True, width=None)

    def sep(self) -> str:
        return ", "

    def event(self, ev: Event) -> list[Line]:
        """The event's lines, the first begun as a sentence ("chosen: ..." made "Chosen: ...")."""
        lines = super().event(ev)
        if lines and lines[0] and not any("class:path" in style for style, _ in lines[0]):
            lines[0] = [("", capital(plain(lines[0])))]
        return lines

    def table(self, whole: bool = True) -> list[Line]:
        """The table in sentences; not ``whole``: only what a decision needs (the trick, whose
        turn, the hand), since the rest was said when the round began and ``table`` says it all."""
        tb = self.tb
        rd = tb.view()
        lines: list[Line] = []
        if whole:
            broken = self.say("hearts_broken_yes" if rd.hearts_broken else "hearts_broken_no")
            head = self.say("table_header" if tb.code is not None else "table_header_shared", code=tb.code,
                            round=tb.round_number, preset=self.preset(), target=tb.rules.target)
            lines.append([("", head + ", " + broken + ".")])
            seats = [self.seat_words(s) for s in tb.round_the_table()[1:]]
            lines.append([("", self.say("spoken_seats", seats=", ".join(seats)))])
        if rd.phase is Phase.PLAY and rd.trick and not tb.over:
            plays = rd.trick_plays()
            lines.append([("", self.say("trick_now", plays=self.plays([s for s, _ in plays],
                                                                     [c for _, c in plays])))])
        if whole and rd.phase is Phase.PLAY and not rd.trick and rd.tricks and not tb.over:
            # (on lead after a trick: its cards and its taker were just said, play by play)
            last = rd.tricks[-1]
            lines.append([("", self.trick_said("last_trick", len(rd.tricks), [s for s, _ in last.plays()],
                                               last.cards, last.winner, last.points))])
        lines.append([("", sentence(plain(self.situation())))])
        if whole:
            totals = list(tb.core.totals)
            lines.append([("", self.say("table_scores") + " " + self.names(totals) + ".")])
        lines.extend(self.hand())
        return lines

    def ev_deal(self, round: int, direction: DirectionName, to: int | None) -> list[Line]:
        from ..model.rules import Direction

        said = sentence(self.passing(Direction(direction), self.tb.me))
        return [[("", sentence(self.say("round_line", round=round)) + " " + said)]]

    def preset(self) -> str:
        return preset_name(self.tb.rules.preset, self.lang)

    def seat_words(self, seat: int) -> str:
        """A seat in words: its name and level, and its points this round when it has some."""
        label = self.tb.label(seat)
        points = self.tb.view().points[seat]
        return self.say("spoken_seat_points", seat=label, points=points) if points else label

    def hand(self) -> list[Line]:
        """The hand suit by suit, ranks in words; then the cards that may be played, when some
        may not (said, not marked)."""
        tb = self.tb
        rd = tb.view()
        hand = rd.hand
        if not hand:
            return []
        ranks = self.say("spoken_ranks").split()
        suits = self.say("spoken_suits").split()
        said = []
        for s, cards in tb.hand_order.arrange(hand):
            said.append(suits[s] + ": " + ", ".join(ranks[c % 13] for c in cards))
        out: list[Line] = [[("", self.say("your_hand") + " " + "; ".join(said) + ".")]]
        if rd.phase is Phase.PLAY and rd.turn == tb.me and not tb.over:
            legal = list(tb.legal())
            if not set(hand) <= set(legal):
                out.append([("", self.say("spoken_playable", cards=legal))])
        return out

    def count_suit(self, suit: int, cards: list[Card]) -> list[Line]:
        """A suit of the count with its cards in words ("Clubs (3): queen, nine, two."), not the
        ranks' letters and digits a screen reader would spell out."""
        said = ", ".join(self.say("spoken_ranks").split()[c % 13] for c in cards)
        name = capital(self.say("spoken_suits").split()[suit])
        mid = "spoken_count_suit" if cards else "spoken_count_suit_none"
        return [[("", self.say(mid, suit=name, cards=said, count=len(cards)))]]

    def ev_info(self, topic: str, text: str) -> list[Line]:
        """An answer to a command; the help's lines, broken by hand for the screen, joined into
        its sentences (a line a screen reader reads stops where a sentence does)."""
        return super().ev_info(topic, reflow(text) if topic == "help" else text)

    def ev_selection(self, cards: list[Card], count: int, need: int) -> list[Line]:
        """The cards chosen to pass, and what is left to do, as a sentence with its full stop
        (the drawn table shows it as a status line, which has none)."""
        return [[("", sentence(plain(line)))] for line in super().ev_selection(cards, count, need)]

    def standing_lines(self, standings: list[Standing]) -> list[Line]:
        """The final places in sentences ("1. You, 7 points."), not in columns."""
        out: list[Line] = []
        for st in standings:
            shared = sum(1 for x in standings if x["place"] == st["place"]) > 1
            out.append([("", self.say("spoken_standing_shared" if shared else "spoken_standing", place=st["place"],
                                      name=self.tb.name(st["seat"]), total=st["total"]))])
        return out

    def score_lines(self, rounds: list[list[int]], totals: list[int]) -> list[Line]:
        """Each round's scores in a sentence (the totals are said before them)."""
        return [[("", self.say("spoken_round_scores", round=k, scores=self.names(scores)))]
                for k, scores in enumerate(rounds, 1)]

    def chart_lines(self, totals: list[int]) -> list[Line]:
        return []  # bars are no words: the totals were said


class ReaderLoop(TurnLoop):
    """The game for a screen reader: the table's front end (each event said once, in words,
    paced as at any terminal) and, between the CPUs' moves, one line read from ``inp``."""

    def __init__(self, table: Table, *, inp: TextIO, out: TextIO, delay: float, turn_timer: int | None,
                 auto_play: float | None, keys: KeyWithin | None = None):
        self.inp = inp
        self.out = out
        self.delay = delay
        # (what waits on the clock needs a terminal to wait on: a pipe's lines are all read)
        super().__init__(table, turn_timer=turn_timer if self.selectable() else None)
        self.auto_play = auto_play
        self.renderer = SpokenRenderer(table)
        self.quiet = QuietInput(inp)  # (only when it is a terminal: a pipe's lines are all read)
        self.pause = CpuPause(delay, keys or key_within(self.quiet))
        self.round_told: tuple[str | None, int] | None = None  # the round whose whole table was said
        self.whole = False  # the next table is said whole (asked with `table`)
        self.prompt_open: str | None = None  # the prompt said, while its line waits for Enter
        self.held: object = None  # the decision whose only card the person took over (auto_play)
        self.wake: tuple[int, int] | None = None  # a pipe the shared table's news knocks on
        if self.news is not None and self.selectable():
            self.wake = os.pipe()
            self.news.wake(self.incoming)

    # ------------------------------------------------------------ output: appended, never redrawn

    def write(self, lines: Sequence[Line]) -> None:
        for line in lines:
            text = spoken(plain(line), self.table.lang)
            if text:
                self.end_prompt()
                self.out.write(text + "\n")
        self.out.flush()

    def end_prompt(self) -> None:
        """A prompt still open (the table's news came while it waited): its line ends first."""
        if self.prompt_open is not None:
            self.out.write("\n")
            self.prompt_open = None

    def say(self, text: str) -> None:
        self.write([[("", text)]])

    def event(self, ev: Event) -> None:
        self.write(self.renderer.event(ev))
        fast = self.table.auto_round is not None and not self.table.points_left()
        if not self.delay or fast:
            return
        if isinstance(ev, Play) and ev.by in ("cpu", "auto"):
            self.pause.after_card()
        elif isinstance(ev, TrickDone):
            self.pause.after_trick()

    def again(self, events: Sequence[Event]) -> None:
        for ev in events:
            self.write(self.renderer.event(ev))

    def tell_archived(self, text: str, path: str) -> None:
        self.write(self.renderer.archived(text, path))

    # ------------------------------------------------------------ input: the terminal's own line editing

    def selectable(self) -> bool:
        """Whether ``inp`` can be waited on with a timeout (a terminal: one line per read)."""
        try:
            return self.inp.isatty() and self.inp.fileno() >= 0
        except (AttributeError, ValueError, OSError):
            return False

    def incoming(self) -> None:
        """The shared table's news (from another thread): the line awaited gives way to it."""
        if self.wake is not None:
            os.write(self.wake[1], b".")

    def read_line(self, timeout: float | None) -> str:
        """One line; ``TimeUp`` after ``timeout`` seconds, ``Incoming`` when the table's news
        comes first, EOFError at the end of the input."""
        if self.selectable() and (timeout is not None or self.wake is not None):
            fds = [self.inp.fileno()] + ([self.wake[0]] if self.wake is not None else [])
            ready, _, _ = select.select(fds, [], [], timeout)
            if not ready:
                raise TimeUp()
            if self.wake is not None and self.wake[0] in ready:
                os.read(self.wake[0], 1024)
                raise Incoming()  # (the prompt stays open: its line ends when something is said)
        line = self.inp.readline()
        self.prompt_open = None  # (Enter ended its line)
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    def deciding(self) -> bool:
        """Whether the person has a decision to make (a game of one's own: whenever asked); at a
        shared table between them no prompt is said before each seat's move, which the table's
        lines say, and a line typed meanwhile is still read."""
        tb = self.table
        return tb.over or self.news is None or self.news.decision()

    def ask(self) -> str:
        """The prompt, appended, and one line: the turn timer and ``auto_play`` wait with it."""
        from .prompt import prompt_message

        tb = self.table
        if self.news is not None and self.news.pending():
            raise Incoming()
        timeout: float | None = None
        prompt = prompt_message(tb)
        if self.turn_timer and not tb.over:
            left = self.deadline(self.turn_timer) - self.clock()
            if left <= 0:
                raise TimeUp()
            timeout = left
            prompt += " (" + tb.say("timer_left", seconds=int(left + 0.999)) + ")"
        card = tb.forced_card() if self.auto_play is not None and self.selectable() else None
        forced = card is not None and self.held != self.decision()
        if card is not None and forced:
            self.say(tb.say("spoken_auto_play", card=card))
            timeout = min(timeout, self.auto_play or 0) if timeout is not None else self.auto_play
        said = spoken(prompt, tb.lang) + "> "
        if self.prompt_open != said and (self.deciding() or timeout is not None):
            self.end_prompt()
            self.out.write(said)
            self.prompt_open = said
        self.out.flush()
        try:
            line = self.read_line(timeout)
        except TimeUp:
            if card is not None and forced and (self.timed is None or self.clock() < self.timed[1]):
                self.out.write(spoken(card.face(), tb.lang).lower() + "\n")  # entered for them, as if typed
                self.prompt_open = None
                return card.face()
            raise
        if forced:
            self.held = self.decision()  # a line came first: this decision is the person's
        return line

    # ------------------------------------------------------------ the loop

    @staticmethod
    def asks_table(line: str) -> bool:
        """Whether ``line`` is the ``table`` command (the whole table is said then)."""
        from .commands import find

        head, _, rest = line.strip().partition(" ")
        found = find(head, rest) if head else None
        return found is not None and found[0].key == "table"

    # ------------------------------------------------------------ the loop (front.py's), as this mode runs it

    def draw_table(self) -> None:
        here = (self.table.code, self.table.round_number)
        self.write(self.renderer.table(whole=self.whole or here != self.round_told))
        self.round_told, self.whole = here, False

    def interrupted(self) -> None:
        self.out.write("\n")  # (after the ^C the terminal echoed)
        self.prompt_open = None

    def ended(self) -> None:
        self.out.write("\n")

    def timed_out(self) -> None:
        self.end_prompt()

    def took(self, line: str) -> None:
        self.whole = self.asks_table(line)

    def hold(self, decision: tuple[object, ...]) -> None:
        self.held = decision

    def close(self) -> None:
        if self.wake is not None:
            for fd in self.wake:
                os.close(fd)


def run_reader(table: Table, *, inp: TextIO, out: TextIO, delay: float, turn_timer: int | None,
               resumed: bool, notes: Sequence[Note], auto_play: float | None = None, play: bool = True,
               keys: KeyWithin | None = None) -> int:
    """The game in the screen-reader mode, reading ``inp`` and appending to ``out``; ``play``
    False: the table told, and nothing read."""
    loop = ReaderLoop(table, inp=inp, out=out, delay=delay, turn_timer=turn_timer, auto_play=auto_play,
                      keys=keys)
    table.attach(loop)
    for note in notes:
        if isinstance(note, tuple):
            loop.tell_archived(*note)
        else:
            loop.say(note)
    if play:
        loop.say(table.say("spoken_intro"))
    table.announce_start(resumed=resumed)
    if not play:
        loop.write(loop.renderer.table())
        table.dirty = False
        return 0
    return loop.run()
