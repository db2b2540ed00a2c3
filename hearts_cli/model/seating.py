"""Where each seat sits and what it is called: one table, for every surface.

Seats are counted clockwise (in play order) from the person, who sits at the
bottom (South). Up to eight players the seats are the compass points (the
eight points cover eight seats); with nine to eleven there are more seats than
points, so each is named by where it sits from you: ``Left 1`` on your left,
``Left 2`` next, ..., ``Across`` opposite (an even count), ..., ``Right 1`` on
your right. The table, the replay narrative, records, move logs and stats all
name a place through :func:`place_name`; records write :func:`record_name`
(English, whatever the language) and read it back with :func:`place_of`.
"""

from __future__ import annotations

from ..text.catalog import t

# the fewest and most players any rule set seats (rules.PLAYER_LIMITS says which, by decks)
FEWEST, MOST = 3, 11
_COMPASS: dict[int, tuple[str, ...]] = {
    3: ("you", "west", "east"),
    4: ("you", "west", "north", "east"),
    5: ("you", "west", "northwest", "northeast", "east"),
    6: ("you", "west", "northwest", "north", "northeast", "east"),
    7: ("you", "southwest", "west", "northwest", "northeast", "east", "southeast"),
    8: ("you", "southwest", "west", "northwest", "north", "northeast", "east", "southeast"),
}


def _by_side(players: int) -> tuple[str, ...]:
    """Left 1 .. Left k, Across (an even count), Right k .. Right 1: the seats after yours."""
    side = (players - 1) // 2
    across = ("across",) if (players - 1) % 2 else ()
    return (("you",) + tuple(f"left{i}" for i in range(1, side + 1)) + across
            + tuple(f"right{i}" for i in range(side, 0, -1)))


# each seat's place, clockwise from the person's (place 0)
PLACES: dict[int, tuple[str, ...]] = {n: _COMPASS.get(n) or _by_side(n) for n in range(FEWEST, MOST + 1)}

# the compass names as records write them (and older records' "You": the person, South)
_RECORDED = {"you": "South", "south": "South", "southwest": "South-West", "west": "West",
             "northwest": "North-West", "north": "North", "northeast": "North-East", "east": "East",
             "southeast": "South-East", "across": "Across"}
_READ = {"You": "south", **{name: place for place, name in _RECORDED.items() if place != "you"}}


def places(players: int) -> tuple[str, ...]:
    """The places of ``players`` seats, clockwise from the person's; a count no rule set
    seats gets numbered players (``player1``...)."""
    return PLACES.get(players) or tuple(f"player{i + 1}" for i in range(players))


def place_name(place: str, lang: str | None = None) -> str:
    """A place as the table and every sentence name it, in ``lang``: the one function that
    names a seat (``you`` is the person at the table: "You"; ``south`` is the person told
    in the third person, as a replay does)."""
    side = place.rstrip("0123456789")
    number = int(place[len(side):]) if side != place else 0
    if side == "left":
        return t("seat_left", lang, number=number)
    if side == "right":
        return t("seat_right", lang, number=number)
    if side == "player":
        return t("seat_player", lang, number=number)
    return t(_IDS[place], lang)


_IDS = {"you": "seat_you", "south": "seat_south", "southwest": "seat_southwest", "west": "seat_west",
        "northwest": "seat_northwest", "north": "seat_north", "northeast": "seat_northeast",
        "east": "seat_east", "southeast": "seat_southeast", "across": "seat_across"}


def record_name(place: str) -> str:
    """The name a record writes for a place (English, whatever the language shown)."""
    side = place.rstrip("0123456789")
    if side != place:
        return f"{side.capitalize()} {place[len(side):]}"
    return _RECORDED[place]


def place_of(name: str) -> str | None:
    """The place a recorded name stands for (``South-West`` -> ``southwest``,
    ``Left 2`` -> ``left2``, ``Player 3`` -> ``player3``), or None for a person's own name."""
    place = _READ.get(name)
    if place is not None:
        return place
    side, _, number = name.partition(" ")
    if side in ("Left", "Right", "Player") and number.isdigit() and number.isascii():
        return f"{side.lower()}{int(number)}"
    return None


def seat_place(seat: int, me: int, players: int) -> str:
    """Where ``seat`` sits, seen from the person at ``me``."""
    return places(players)[(seat - me) % players]


def recorded_names(players: int) -> tuple[str, ...]:
    """Seats 0.. named by place, seat 0 at the bottom (South): a record without seats, a move log."""
    return tuple(record_name(p) for p in places(players))


def table_names(players: int) -> tuple[str, ...]:
    """The names a shared table gives its seats, seat 0 at the bottom (South): what its
    record writes for a seat whose person gave no name (and for every CPU seat)."""
    return recorded_names(players)


def shown_name(name: str, seat: int, me: int | None, players: int, lang: str | None = None) -> str:
    """How one person's screen names ``seat`` of a shared table: their own seat "You"; a
    seat still called by its place in the record (:func:`table_names`) by where it sits from
    them (``me``; from seat 0, South, when None), in their language; a name a person gave,
    as given (already cleaned by the host)."""
    if me is not None and seat == me:
        return place_name("you", lang)
    if 0 <= seat < players and name == table_names(players)[seat]:
        place = seat_place(seat, me, players) if me is not None else places(players)[seat]
        return place_name("south" if place == "you" else place, lang)
    return name
