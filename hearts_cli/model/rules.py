"""Rule sets as data: every point where the sources disagree is a setting.

A :class:`Rules` value is immutable and checked when it is made; presets are
YAML files in the project's ``seeds/`` folder (see ``seeds/README.md``), and a
rule set is always "a preset plus overrides", so a game record can name it
briefly and exactly.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import FrozenInstanceError
from enum import Enum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypedDict, TypeVar, Unpack, cast

from ..base.untrusted import DEPTH, YamlRefused, load_yaml
from ..text.catalog import t
from .cards import (
    ACE_OF_SPADES,
    CARDS,
    HEARTS_MASK,
    JACK_OF_DIAMONDS,
    KING_OF_SPADES,
    QUEEN_OF_SPADES,
    SUIT_MASKS,
    Card,
    CardParseError,
    mask_of,
    parse_card,
)
from .errors import HeartsError

# a setting as plain YAML/JSON data: a name, a number, a flag, a list of directions, the removal
Plain: TypeAlias = "str | int | bool | list[str] | dict[int, list[str]]"
_E = TypeVar("_E", bound=StrEnum)


class RulesError(HeartsError):
    """A rule set that cannot be played; ``key`` names the setting at fault."""

    echoed = ("key", "name", "text", "value")

    def __init__(self, setting: str, message_id: str, **params: object):
        self.key = setting
        super().__init__(message_id, **params)

    def message(self, lang: str | None = None, ascii: bool = True) -> str:
        params = self.shown_params()
        expected = params.get("expected")
        if isinstance(expected, str):  # the message id of what the setting takes
            params["expected"] = t(expected, lang, ascii=False, **params)
        return t(self.message_id, lang, ascii=ascii, **params)


class Direction(str, Enum):
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    NONE = "none"

    def receiver(self, seat: int, players: int) -> int:
        """Who gets ``seat``'s pass; left is the next seat in play order."""
        offset = {"left": 1, "right": players - 1, "across": players // 2, "none": 0}[self.value]
        return (seat + offset) % players


# ---------------------------------------------------------------- the settings' types
#
# Each setting that is a choice is a StrEnum: code compares members
# (``rules.moon is Moon.OFF``), never strings, and a member still equals,
# hashes and formats as its YAML spelling, so records, JSON and message ids
# built from a value (``f"rt_tie_{rules.ties}"``) read the same as before.


class Deck(StrEnum):
    """What happens to the cards that do not divide evenly: removed, or a kitty."""
    REMOVE = "remove"
    KITTY = "kitty"


class FirstLead(StrEnum):
    """Who leads the first trick: the holder of the lowest club (it must be led), or
    the player left of the dealer with any card."""
    LOWEST_CLUB = "lowest_club"
    ANY = "any"


class FirstTrick(StrEnum):
    """Which cards a lead or a discard may not put on the first trick."""
    NO_POINTS = "no_points"
    NO_HEARTS = "no_hearts"
    ANY = "any"


class HeartsBreak(StrEnum):
    """What lets hearts be led: a heart played, a heart or the Q♠, or nothing needed."""
    HEART = "heart"
    HEART_OR_QUEEN = "heart_or_queen"
    FREE = "free"


class Moon(StrEnum):
    """Shooting the moon: off, the others take the moon's value, the shooter
    subtracts it, or the shooter's choice."""
    OFF = "off"
    OTHERS = "others"
    SHOOTER_MINUS = "shooter_minus"
    SHOOTER_CHOICE = "shooter_choice"


class Ties(StrEnum):
    """A tie for lowest at the end: shared, one more round, or rounds until one is lowest."""
    SHARE = "share"
    ONE_MORE_ROUND = "one_more_round"
    UNTIL_SINGLE = "until_single"


class SetAside(StrEnum):
    """Two decks: who takes a last trick whose every card of the led suit is cancelled
    (an earlier one goes to the winner of the next trick): the player who led it, or
    the second-played copy of the highest cancelled pair of the led suit."""
    LEADER = "leader"
    SECOND = "second"


class Passing(StrEnum):
    """A named pass cycle (a setting may also be a tuple of :class:`Direction`)."""
    STANDARD = "standard"
    LEFT = "left"
    NONE = "none"


# setting name -> the enum of its values
ENUMS: dict[str, type[StrEnum]] = {
    "deck": Deck, "first_lead": FirstLead, "first_trick": FirstTrick,
    "hearts_break": HeartsBreak, "moon": Moon, "ties": Ties, "set_aside_last": SetAside,
}
# setting name -> allowed spellings (a tuple), for messages and checks
CHOICES: dict[str, tuple[str, ...]] = {k: tuple(m.value for m in e) for k, e in ENUMS.items()}
FLAGS = ("jack_of_diamonds", "spot_hearts", "black_maria", "queen_penalty")
INTS = ("players", "decks", "pass_count", "no_trick_bonus", "sun", "target")
SUN = (-104, 104)  # sun: a round with every trick taken (0: off; below 0 the taker's, above each other's)
NO_TRICK_BONUS = (-26, 26)  # no_trick_bonus: points for a seat that takes no trick (OpenSpiel's -5)
PASSING_NAMES = tuple(m.value for m in Passing)


_DEFAULT_REMOVAL = (
    (3, (CARDS[0],)), (5, (CARDS[0], CARDS[13])), (6, (CARDS[0], CARDS[13], CARDS[39], CARDS[14])),
)

class _Settings:
    """The settings, names and types, in order: what makes two rule sets the same.

    Declared once, here: :class:`Rules` holds them and :class:`Facts` copies them
    into slots; :data:`SETTINGS` is their names in this order.
    """

    __slots__ = ()

    players: int
    decks: int
    deck: Deck
    removal: tuple[tuple[int, tuple[Card, ...]], ...]
    passing: Passing | tuple[Direction, ...]
    pass_count: int
    first_lead: FirstLead
    first_trick: FirstTrick
    hearts_break: HeartsBreak
    moon: Moon
    jack_of_diamonds: bool
    spot_hearts: bool
    black_maria: bool
    queen_penalty: bool
    no_trick_bonus: int
    sun: int
    target: int
    ties: Ties
    set_aside_last: SetAside


SETTINGS: tuple[str, ...] = tuple(_Settings.__annotations__)

# How many can sit at a table, by the number of decks: one deck seats 3 to 6, two decks
# (Cancellation Hearts) 6 to 11. Every cap on players reads Rules.player_limits or these.
PLAYER_LIMITS: dict[int, tuple[int, int]] = {1: (3, 6), 2: (6, 11)}
FEWEST_PLAYERS = min(lo for lo, _ in PLAYER_LIMITS.values())
MOST_PLAYERS = max(hi for _, hi in PLAYER_LIMITS.values())


# the derived facts (cached properties of Rules), copied into Rules.facts
FACTS = ("removed", "copies", "in_play_mask", "twice_mask", "min_players", "max_players",
         "hand_size", "kitty_size", "points", "penalty_mask", "penalty_total", "penalty_count",
         "round_total", "bonus_mask", "queen_scores", "uneven_penalties", "moon_keeps", "breaks_mask",
         "lead_card", "pass_cycle", "first_trick_forbidden")


class Rules(_Settings):
    """One complete rule set. Defaults are the single-seat table's quick game.

    Immutable, and compared and hashed by its settings (``preset`` is
    provenance only). A plain class rather than a frozen dataclass: it is much
    cheaper to define at import, which every scripted command's start-up pays.
    The settings are declared (names and types) on :class:`_Settings`.
    """

    # provenance: the preset these rules are described against; not part of what they are
    preset: str

    def __init__(
        self,
        players: int = 4,
        decks: int = 1,
        deck: Deck | str = Deck.REMOVE,
        removal: tuple[tuple[int, tuple[Card, ...]], ...] = _DEFAULT_REMOVAL,
        passing: Passing | str | tuple[Direction, ...] = Passing.STANDARD,
        pass_count: int = 3,
        first_lead: FirstLead | str = FirstLead.LOWEST_CLUB,
        first_trick: FirstTrick | str = FirstTrick.NO_POINTS,
        hearts_break: HeartsBreak | str = HeartsBreak.HEART,
        moon: Moon | str = Moon.OTHERS,
        jack_of_diamonds: bool = False,
        spot_hearts: bool = False,
        black_maria: bool = False,
        queen_penalty: bool = True,
        no_trick_bonus: int = 0,
        sun: int = 0,
        target: int = 50,
        ties: Ties | str = Ties.SHARE,
        set_aside_last: SetAside | str = SetAside.LEADER,
        preset: str = "",
    ):
        self.__dict__.update(
            players=players, decks=decks, deck=_member(Deck, "deck", deck), removal=removal,
            passing=passing if isinstance(passing, tuple) else _member(Passing, "passing", passing),
            pass_count=pass_count, first_lead=_member(FirstLead, "first_lead", first_lead),
            first_trick=_member(FirstTrick, "first_trick", first_trick),
            hearts_break=_member(HeartsBreak, "hearts_break", hearts_break),
            moon=_member(Moon, "moon", moon), jack_of_diamonds=jack_of_diamonds,
            spot_hearts=spot_hearts, black_maria=black_maria, queen_penalty=queen_penalty,
            no_trick_bonus=no_trick_bonus, sun=sun, target=target, ties=_member(Ties, "ties", ties),
            set_aside_last=_member(SetAside, "set_aside_last", set_aside_last), preset=preset,
        )
        _check(self)

    def _key(self) -> tuple[object, ...]:
        d: dict[str, object] = self.__dict__
        return tuple([d[k] for k in SETTINGS])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        d: dict[str, object] = self.__dict__
        body = ", ".join(f"{k}={d[k]!r}" for k in SETTINGS + ("preset",))
        return f"{self.__class__.__qualname__}({body})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    # ------------------------------------------------------------ derived facts

    @functools.cached_property
    def removed(self) -> tuple[Card, ...]:
        """Cards taken out of the deck for this number of players."""
        if self.deck is Deck.KITTY:
            return ()
        return dict(self.removal).get(self.players, ())

    @functools.cached_property
    def copies(self) -> tuple[int, ...]:
        """How many copies of each card index are in play: ``decks``, less one for
        each time ``removed`` names it (two decks: a card named once loses one copy)."""
        n = [self.decks] * 52
        for c in self.removed:
            n[c] = max(0, n[c] - 1)
        return tuple(n)

    @functools.cached_property
    def in_play_mask(self) -> int:
        """Cards with at least one copy in play."""
        return mask_of(c for c in range(52) if self.copies[c])

    @functools.cached_property
    def twice_mask(self) -> int:
        """Cards with two copies in play (0 with one deck)."""
        return mask_of(c for c in range(52) if self.copies[c] > 1)

    @property
    def player_limits(self) -> tuple[int, int]:
        """The fewest and the most players these rules' deck seats."""
        return PLAYER_LIMITS.get(self.decks, PLAYER_LIMITS[1])

    @functools.cached_property
    def min_players(self) -> int:
        return PLAYER_LIMITS.get(self.decks, (3, 6))[0]

    @functools.cached_property
    def max_players(self) -> int:
        return PLAYER_LIMITS.get(self.decks, (3, 6))[1]

    @functools.cached_property
    def hand_size(self) -> int:
        return sum(self.copies) // self.players

    @functools.cached_property
    def kitty_size(self) -> int:
        return sum(self.copies) - self.hand_size * self.players

    @functools.cached_property
    def points(self) -> tuple[int, ...]:
        """Points of each card index (0 for cards out of play too)."""
        pts = [0] * 52
        for c in range(26, 39):
            pts[c] = (c - 26 + 2) if self.spot_hearts else 1
        if self.queen_penalty:
            pts[QUEEN_OF_SPADES] = 13
        if self.black_maria:
            pts[KING_OF_SPADES] = 10
            pts[ACE_OF_SPADES] = 7
        if self.jack_of_diamonds:
            pts[JACK_OF_DIAMONDS] = -10
        for c in range(52):
            if not self.copies[c]:
                pts[c] = 0
        return tuple(pts)

    @functools.cached_property
    def penalty_mask(self) -> int:
        """Cards that score against their taker: all must be taken to shoot the moon."""
        return mask_of(c for c in range(52) if self.points[c] > 0) & self.in_play_mask

    @functools.cached_property
    def penalty_total(self) -> int:
        """What a moon is worth: the sum of every penalty card in play, each copy
        (26 by default, 52 with two decks)."""
        return sum(p * n for p, n in zip(self.points, self.copies) if p > 0)

    @functools.cached_property
    def round_total(self) -> int:
        """What a round hands out when nobody shoots the moon."""
        return sum(p * n for p, n in zip(self.points, self.copies))

    @functools.cached_property
    def penalty_count(self) -> int:
        """How many penalty cards are in play, each copy (14 by default, 28 with two decks)."""
        return sum(self.copies[c] for c in range(52) if self.penalty_mask >> c & 1)

    @functools.cached_property
    def bonus_mask(self) -> int:
        """Cards that score below zero (the J♦ under ``jack_of_diamonds``)."""
        return mask_of(c for c in range(52) if self.points[c] < 0)

    @functools.cached_property
    def queen_scores(self) -> bool:
        """Whether the Q♠ is a penalty card (not under ``queen_penalty: false``)."""
        return self.points[QUEEN_OF_SPADES] > 0

    @functools.cached_property
    def uneven_penalties(self) -> bool:
        """Whether the penalty cards other than the Q♠ are worth different points
        (Spot Hearts, Black Maria): a discard then goes by points, not by rank."""
        return len({p for c, p in enumerate(self.points) if p > 0 and c != QUEEN_OF_SPADES}) > 1

    @functools.cached_property
    def moon_keeps(self) -> tuple[tuple[int, int], ...]:
        """``(card, points)`` of the cards that score below zero (the J♦): a moon does not
        cancel them, so a shooter who took the J♦ still gets its -10."""
        return tuple((c, p) for c, p in enumerate(self.points) if p < 0)

    @functools.cached_property
    def breaks_mask(self) -> int:
        """Cards whose play breaks hearts: every heart, and the Q♠ under ``heart_or_queen``."""
        if self.hearts_break is HeartsBreak.HEART_OR_QUEEN:
            return HEARTS_MASK | 1 << QUEEN_OF_SPADES
        return HEARTS_MASK

    @functools.cached_property
    def lead_card(self) -> int | None:
        """The card that must lead the first trick, when the rules alone decide it (the
        lowest club in play, with no kitty to hide it); None otherwise."""
        if self.first_lead is not FirstLead.LOWEST_CLUB or self.kitty_size:
            return None
        pool = self.in_play_mask & SUIT_MASKS[0] or self.in_play_mask
        return (pool & -pool).bit_length() - 1

    @functools.cached_property
    def pass_cycle(self) -> tuple[Direction, ...]:
        if isinstance(self.passing, tuple):
            return self.passing
        if self.passing is Passing.NONE:
            return (Direction.NONE,)
        if self.passing is Passing.LEFT:
            return (Direction.LEFT,)
        if self.players % 2:
            return (Direction.LEFT, Direction.RIGHT, Direction.NONE)
        return (Direction.LEFT, Direction.RIGHT, Direction.ACROSS, Direction.NONE)

    def pass_direction(self, round_index: int) -> Direction:
        """Direction of round ``round_index`` (0-based); the cycle never restarts."""
        cycle = self.pass_cycle
        return cycle[round_index % len(cycle)]

    @functools.cached_property
    def first_trick_forbidden(self) -> int:
        """Cards that may not be played to the first trick while the hand holds others."""
        if self.first_trick is FirstTrick.NO_POINTS:
            return self.penalty_mask
        if self.first_trick is FirstTrick.NO_HEARTS:
            return self.penalty_mask & HEARTS_MASK
        return 0

    @functools.cached_property
    def facts(self) -> Facts:
        """Every setting and derived fact in one slotted record, for hot loops (a bot's
        playout policy reads a :class:`Facts` attribute about twice as fast as a
        ``Rules`` one). Nothing is computed there: it copies what ``Rules`` computed."""
        return Facts(self)

    # ------------------------------------------------------------ making and naming

    def replace(self, **changes: Unpack[SettingValues]) -> Rules:
        """A copy with some settings changed (and checked again), described against the same preset."""
        d = self.__dict__
        merged = {k: d[k] for k in SETTINGS + ("preset",)}
        merged.update(changes)
        return Rules(**merged)

    def spec(self) -> dict[str, Plain]:
        """``{"preset": name, setting: value, ...}``: the preset plus what differs from it.

        This is how a record names a rule set; ``Rules.from_spec(r.spec()) == r``.
        """
        name = self.preset or DEFAULT_PRESET
        base = load_preset(name).settings()
        return {"preset": name} | {k: v for k, v in self.settings().items() if base[k] != v}

    @property
    def overrides(self) -> tuple[tuple[str, Plain], ...]:
        """The settings that differ from the preset, as ``(name, value)`` pairs."""
        return tuple((k, v) for k, v in self.spec().items() if k != "preset")

    def settings(self) -> dict[str, Plain]:
        """Every setting as plain YAML/JSON data."""
        d: dict[str, object] = self.__dict__
        return {k: _plain(d[k]) for k in SETTINGS}

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, object] | Rules | None) -> Rules:
        """A preset name, a rules text as positions and records write it (``quick+target=30``:
        :func:`rules_text`), or ``{"preset": name, setting: value, ...}``, or None for the default."""
        if isinstance(spec, Rules):
            return spec
        if spec is None:
            return load_preset(DEFAULT_PRESET)
        if isinstance(spec, str):  # a preset's name, or a rules text (quick+target=30, quick target=30)
            return read_rules_text(spec) if "+" in spec or "=" in spec else load_preset(spec)
        if not isinstance(spec, Mapping):
            raise RulesError("rules", "rules_bad_type", key="rules", expected="type_spec")
        spec = dict(spec)
        name = spec.pop("preset", DEFAULT_PRESET)
        if not isinstance(name, str):
            raise RulesError("preset", "rules_bad_type", key="preset", expected="type_preset")
        base = load_preset(name)
        if not spec:
            return base
        return base.replace(**coerce_settings(spec))


_PASSING_CHOICES = "standard, left, none, or a list of left/right/across/none"


def _member(enum: type[_E], key: str, value: object) -> _E:
    """``value`` as a member of the setting's enum, or a :class:`RulesError` naming the key."""
    if value.__class__ is enum:
        return value
    try:
        if isinstance(value, str):  # (anything else is no member either)
            return enum(value)
    except ValueError:
        pass
    choices = _PASSING_CHOICES if enum is Passing else ", ".join(m.value for m in enum)
    raise RulesError(key, "rules_bad_choice", key=key, choices=choices) from None


class Facts(_Settings):
    """A snapshot of a :class:`Rules`' settings and derived facts (see ``Rules.facts``).

    Every slot is declared and typed, so code that reads a fact is checked: the
    settings on :class:`_Settings` (as for ``Rules``), the derived facts here, then
    the rule set they come from; ``tests/test_rules.py`` holds the slots equal to
    ``SETTINGS + FACTS + ("rules",)``, in that order.
    """

    __slots__ = SETTINGS + FACTS + ("rules",)

    removed: tuple[Card, ...]
    copies: tuple[int, ...]
    in_play_mask: int
    twice_mask: int
    min_players: int
    max_players: int
    hand_size: int
    kitty_size: int
    points: tuple[int, ...]
    penalty_mask: int
    penalty_total: int
    penalty_count: int
    round_total: int
    bonus_mask: int
    queen_scores: bool
    uneven_penalties: bool
    moon_keeps: tuple[tuple[int, int], ...]
    breaks_mask: int
    lead_card: int | None
    pass_cycle: tuple[Direction, ...]
    first_trick_forbidden: int
    rules: Rules

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        for name in SETTINGS + FACTS:
            value: object = getattr(rules, name)
            setattr(self, name, value)


def _plain(value: object) -> Plain:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):  # removal
        return {n: [str(c) for c in cards] for n, cards in value}
    if isinstance(value, tuple):  # passing: a list of directions
        return [str(_plain(v)) for v in value]
    assert isinstance(value, (str, int)), value  # (a bool is an int)
    return value


if TYPE_CHECKING:  # types only: nothing to build at start-up
    class SettingValues(TypedDict, total=False):
        """Settings given by name (:meth:`Rules.replace`, :func:`coerce_settings`)."""

        players: int
        decks: int
        deck: Deck | str
        removal: tuple[tuple[int, tuple[Card, ...]], ...]
        passing: Passing | str | tuple[Direction, ...]
        pass_count: int
        first_lead: FirstLead | str
        first_trick: FirstTrick | str
        hearts_break: HeartsBreak | str
        moon: Moon | str
        jack_of_diamonds: bool
        spot_hearts: bool
        black_maria: bool
        queen_penalty: bool
        no_trick_bonus: int
        sun: int
        target: int
        ties: Ties | str
        set_aside_last: SetAside | str
        preset: str


def coerce_settings(raw: Mapping[str, object]) -> SettingValues:
    """Turn YAML/JSON values into setting values, naming the key at fault."""
    fields = set(SETTINGS)
    out: dict[str, object] = {}
    for key, value in raw.items():
        if key not in fields:
            raise RulesError(str(key), "rules_unknown_key", key=key, keys=", ".join(SETTINGS))
        if key in INTS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(key, "rules_bad_type", key=key, expected="type_int")
        elif key in FLAGS:
            if not isinstance(value, bool):
                raise RulesError(key, "rules_bad_type", key=key, expected="type_bool")
        elif key in CHOICES:
            if value is False and "off" in CHOICES[key]:
                value = "off"  # YAML 1.1 reads a bare `off` as false
            value = _member(ENUMS[key], key, value)
        elif key == "passing":
            if isinstance(value, list):
                try:
                    value = tuple(Direction(v) for v in value)
                except ValueError:
                    value = None
                if not value:
                    raise RulesError(key, "rules_bad_choice", key=key, choices=_PASSING_CHOICES)
            else:
                value = _member(Passing, key, value)
        elif key == "removal":
            value = _coerce_removal(value)
        out[key] = value
    return cast("SettingValues", out)  # each value checked against its setting above


def _coerce_removal(value: object) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    if not isinstance(value, Mapping):
        raise RulesError("removal", "rules_bad_type", key="removal",
                         expected="type_removal")
    pairs = []
    for n, cards in value.items():
        try:
            n = int(n)
        except (TypeError, ValueError):
            n = None
        if n is None or not isinstance(cards, list):
            raise RulesError("removal", "rules_bad_type", key="removal",
                             expected="type_removal")
        try:
            pairs.append((n, tuple(parse_card(str(c)) for c in cards)))
        except CardParseError as e:
            raise RulesError("removal", "rules_bad_type", key="removal",
                             expected="type_removal_card", text=e.text) from None
    return tuple(sorted(pairs))


def _check(r: Rules) -> None:
    if isinstance(r.decks, bool) or r.decks not in PLAYER_LIMITS:
        raise RulesError("decks", "rules_decks")
    low, high = PLAYER_LIMITS[r.decks]
    if isinstance(r.players, bool) or not isinstance(r.players, int) or not low <= r.players <= high:
        two_low, two_high = PLAYER_LIMITS[2]
        if r.decks == 1 and isinstance(r.players, int) and not isinstance(r.players, bool) \
                and two_low <= r.players <= two_high:  # 7 to 11 players: the two-deck preset
            raise RulesError("players", "rules_players_two_decks", count=r.players, fewest=two_low,
                             most=two_high)
        raise RulesError("players", "rules_players", fewest=low, most=high, decks=r.decks)
    if isinstance(r.target, bool) or not isinstance(r.target, int) or r.target <= 0:
        raise RulesError("target", "rules_target")
    low_bonus, high_bonus = NO_TRICK_BONUS
    if isinstance(r.no_trick_bonus, bool) or not isinstance(r.no_trick_bonus, int) \
            or not low_bonus <= r.no_trick_bonus <= high_bonus:
        raise RulesError("no_trick_bonus", "rules_no_trick_bonus", low=low_bonus, high=high_bonus)
    if isinstance(r.sun, bool) or not isinstance(r.sun, int) or not SUN[0] <= r.sun <= SUN[1]:
        raise RulesError("sun", "rules_sun", low=SUN[0], high=SUN[1])
    n = r.players
    if r.deck is Deck.REMOVE:
        removed = dict(r.removal).get(n, ())
        cards = 52 * r.decks
        if not removed and cards % n:
            raise RulesError("removal", "rules_removal_missing", players=n)
        most = max((removed.count(c) for c in removed), default=0)
        if most > r.decks or (cards - len(removed)) % n:
            raise RulesError("removal", "rules_removal_divide", players=n,
                             left=cards - len(set(removed)) if most > r.decks else cards - len(removed))
        for c in removed:
            if c // 13 == 2 or (c == QUEEN_OF_SPADES and r.queen_penalty) or (
                c in (KING_OF_SPADES, ACE_OF_SPADES) and r.black_maria
            ) or (c == JACK_OF_DIAMONDS and r.jack_of_diamonds):
                raise RulesError("removal", "rules_removal_points", players=n, card=c)
    if Direction.ACROSS in r.pass_cycle and n % 2:
        raise RulesError("passing", "rules_across_odd")
    most = r.hand_size - 1
    if isinstance(r.pass_count, bool) or not isinstance(r.pass_count, int) or r.pass_count < 1:
        raise RulesError("pass_count", "rules_pass_count_min")  # no passing is passing=none
    if r.pass_count > most:
        raise RulesError("pass_count", "rules_pass_count", most=most, players=n)


# ---------------------------------------------------------------- presets

DEFAULT_PRESET = "quick"


@functools.cache
def seeds_dir() -> Path:
    """Presets ship inside the package when installed; in a checkout they sit in ``seeds/``."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "seeds", package.parent / "seeds"):
        if candidate.is_dir():
            return candidate
    return package.parent / "seeds"


@functools.cache
def _preset_files() -> dict[str, Path]:
    folder = seeds_dir()
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".yaml"))  # a glob costs more
    except OSError:
        names = []
    return {p.stem: p for p in (folder / name for name in names)}


def preset_names() -> list[str]:
    """Every preset, the default first."""
    names = sorted(_preset_files())
    if DEFAULT_PRESET in names:
        names.remove(DEFAULT_PRESET)
        names.insert(0, DEFAULT_PRESET)
    return names


PRESETS_JSON = "presets.json"


@functools.cache
def _compiled() -> dict[str, object]:
    """``seeds/presets.json``: the YAML presets, parsed ahead of time.

    Loading PyYAML costs more than a whole ``hearts rules`` should, so the
    presets ship pre-parsed too; ``make presets`` writes the file and a test
    keeps it equal to the YAML.
    """

    try:
        data: object = json.loads((seeds_dir() / PRESETS_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_preset_file(path: Path) -> dict[object, object]:
    """Parse one preset YAML file (what ``make presets`` compiles)."""
    import yaml  # PyYAML only where YAML is read: start-up

    try:
        data = load_yaml(path.read_text(encoding="utf-8"), DEPTH["record"])
    except (OSError, yaml.YAMLError, YamlRefused) as e:
        raise RulesError("preset", "rules_bad_file", path=str(path), problem=str(e).splitlines()[0]) from None
    if not isinstance(data, dict) or not isinstance(data.get("rules", {}), dict):
        raise RulesError("preset", "rules_bad_file", path=str(path), problem="no 'rules' mapping")
    return data


def compile_presets() -> str:
    """The text of ``seeds/presets.json`` for the YAML files as they are now."""

    data = {name: read_preset_file(path) for name, path in _preset_files().items()}
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


@functools.cache
def preset_info(name: str) -> dict[object, object]:
    """The whole preset: ``description``, ``source``, ``based_on``, ``rules``."""
    files = _preset_files()
    if name not in files:
        raise RulesError("preset", "rules_unknown_preset", name=name, presets=preset_names())
    compiled = _compiled().get(name)
    if isinstance(compiled, dict):
        return compiled
    return read_preset_file(files[name])


@functools.cache
def load_preset(name: str) -> Rules:
    info = preset_info(name)
    rules = info.get("rules")
    raw = dict(rules) if isinstance(rules, dict) else {}
    base_name = info.get("based_on")
    if isinstance(base_name, str) and base_name:
        base = load_preset(base_name)
        settings = {k: getattr(base, k) for k in SETTINGS}
    else:
        settings = {}
    settings |= coerce_settings(raw)
    return Rules(**settings, preset=name)


# ---------------------------------------------------------------- settings as text: KEY=VALUE
# (model/overrides.py names these for --set; here so that Rules reads a rules text itself)

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def valid_values(key: str, lang: str | None = None) -> str:
    """What ``key`` may be set to, in words (``one of off, others, ...``)."""
    if key in CHOICES:
        return t("set_values_choice", lang, choices=", ".join(CHOICES[key]))
    if key in FLAGS:
        return t("set_values_flag", lang)
    return t(f"set_values_{key}", lang)


class SetError(RulesError):
    """A ``--set`` value its setting cannot take: the sentence lists the valid ones in the same language."""

    def message(self, lang: str | None = None, ascii: bool = True) -> str:
            return t(self.message_id, lang, ascii=ascii, values=valid_values(self.key, lang), **self.shown_params())


def _bad(key: str, value: str) -> RulesError:
    return SetError(key, "rules_set_bad_value", key=key, value=value)


def _read(key: str, text: str) -> object:
    """``text`` as the plain value of ``key`` (not yet checked against the setting)."""
    word = text.strip().lower()
    if key in ("passing", "removal") and word[:1] in ("[", "{"):
        return _flow(key, text)
    if key in INTS:
        try:
            return int(word)
        except ValueError:
            raise _bad(key, text) from None
    if key in FLAGS:
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
        raise _bad(key, text)
    if key == "passing":
        parts = [p.strip() for p in word.replace(" ", ",").split(",") if p.strip()]
        directions = {d.value for d in Direction}
        if len(parts) > 1 or (parts and parts[0] in directions - {"left", "none"}):
            return parts
        return word
    if key == "removal":
        removal: dict[int, list[str]] = {}
        for group in filter(None, (g.strip() for g in word.split(";"))):
            count, sep, cards = group.partition(":")
            try:
                n = int(count)
            except ValueError:
                raise _bad(key, text) from None
            if not sep:
                raise _bad(key, text)
            removal[n] = [c.strip().upper() for c in cards.replace(" ", ",").split(",") if c.strip()]
        return removal
    return word


def _flow(key: str, text: str) -> object:
    """A YAML flow list or mapping (``[right, left]``, ``{3: [2D]}``); YAML is loaded only for these."""
    import yaml  # PyYAML only where YAML is read: start-up

    try:
        return load_yaml(text, DEPTH["value"])  # no aliases, shallow: what a setting can need
    except (yaml.YAMLError, YamlRefused):
        raise _bad(key, text) from None


def format_set(rules: Rules) -> list[str]:
    """``rules``' overrides of its preset as ``KEY=VALUE`` items that :func:`parse_set` reads back."""
    out = []
    for key, value in rules.overrides:
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif key == "passing" and isinstance(value, list):
            text = ",".join(value)
        elif key == "removal" and isinstance(value, dict):
            text = ";".join(f"{n}:{','.join(cards)}" for n, cards in value.items())
        else:
            text = str(value)
        out.append(f"{key}={text}")
    return out


def parse_set(items: Iterable[str]) -> dict[str, object]:
    """``["moon=off", "players=3"]`` -> ``{"moon": "off", "players": 3}``, every item checked.

    The result is plain data (as a record keeps overrides); a later item for the
    same key wins.
    """
    out: dict[str, object] = {}
    for item in items:
        raw_key, sep, text = item.partition("=")
        key = raw_key.strip().lower().replace("-", "_")
        if not sep and key in SETTINGS:  # a setting without its value: say what it takes
            raise SetError(key, "rules_set_no_value", key=key)
        if not sep or not key:
            raise RulesError("set", "rules_set_syntax", text=item, keys=", ".join(SETTINGS))
        if key not in SETTINGS:
            raise RulesError(key, "rules_set_unknown_key", key=raw_key.strip(), keys=", ".join(SETTINGS))
        value = _read(key, text)
        try:
            coerce_settings({key: value})
        except RulesError:
            raise _bad(key, text.strip()) from None
        out[key] = value
    return out


def rules_text(rules: Rules) -> str:
    """``rules`` as one word, the preset and its overrides (``quick+target=30``): how a
    position, a PBN record and the move log's header write a rule set; :meth:`Rules.from_spec`
    and ``Game()`` read it back."""
    return "+".join([str(rules.spec()["preset"]), *format_set(rules)])


def read_rules_text(text: str) -> Rules:
    """The rule set of a rules text, or :class:`RulesError`: the preset and each setting it
    changes, joined by ``+`` as a position and PBN write it (``quick+target=30+moon=off``) or
    by spaces as the move log's ``rules`` line does (``quick target=30 moon=off``)."""
    name, *items = text.replace("+", " ").split()
    return Rules.from_spec({"preset": name, **parse_set(items)})
