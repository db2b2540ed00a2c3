"""Seat names for every table from 3 to 11 players, in both languages, through one function."""

from __future__ import annotations

import pytest

from hearts_cli.model.rules import FEWEST_PLAYERS, MOST_PLAYERS, PLAYER_LIMITS, Rules, RulesError
from hearts_cli.model.seating import PLACES, place_name, place_of, places, record_name, recorded_names
from hearts_cli.records.record_parts import default_name, default_seats, display_name
from hearts_cli.text.catalog import LANGUAGES

COUNTS = range(3, 12)  # one deck seats 3-6, two decks (Cancellation) 6-11


def test_every_count_any_rule_set_allows_has_names():
    assert set(range(FEWEST_PLAYERS, MOST_PLAYERS + 1)) <= set(PLACES)
    for fewest, most in PLAYER_LIMITS.values():
        assert set(range(fewest, most + 1)) <= set(PLACES)
    assert set(COUNTS) <= set(PLACES)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", COUNTS)
def test_names_unique_whole_and_short(players, lang):
    shown = [place_name(p, lang) for p in places(players)]
    assert len(shown) == players
    assert len(set(shown)) == players  # no two seats share a name
    for name in shown:
        # a name is never split by wrapping (no ordinary space in it) and fits a 40-column line
        # with its level, points and card: "▶ Izquierda 5 (Normal) 13 pts: Q♠"
        assert " " not in name and name.strip() == name and name
        assert len(name) <= 12
    # the person sits at place 0 and is "You"; the rest go clockwise from the left
    assert shown[0] == place_name("you", lang)


@pytest.mark.parametrize("players", COUNTS)
def test_records_write_and_read_back_every_place(players):
    names = recorded_names(players)
    assert names[0] == "South" and len(set(names)) == players
    for place, name in zip(places(players), names):
        assert name.isascii()  # records are written in English whatever the language shown
        back = place_of(name)
        assert back == ("south" if place == "you" else place)
        assert record_name(place) == name
        for lang in LANGUAGES:  # a record's narrative says the place in the reader's language
            assert display_name(name, lang) == place_name(back, lang)
    assert tuple(s.name for s in default_seats(players)) == names
    # a move log's seats are named by place too, in the language asked for
    assert [default_name(s, "es", players) for s in range(players)] == [
        place_name("south" if p == "you" else p, "es") for p in places(players)]


def test_names_by_count():
    """The names docs/playing.md lists: compass points up to 8, then by side."""
    en = {n: [place_name(p, "en") for p in places(n)] for n in COUNTS}
    assert en[4] == ["You", "West", "North", "East"]
    assert en[7] == ["You", "South-West", "West", "North-West", "North-East", "East", "South-East"]
    assert en[8][4] == "North" and en[8][-1] == "South-East"
    nb = "\u00a0"
    assert en[9] == ["You"] + [f"Left{nb}{i}" for i in range(1, 5)] + [f"Right{nb}{i}" for i in range(4, 0, -1)]
    assert en[10][5] == "Across"
    assert [place_name(p, "es") for p in places(10)][1:6:4] == [f"Izquierda{nb}1", "Enfrente"]
    assert place_name("southwest", "es") == "Suroeste"


def test_other_names_stay_names():
    assert display_name("Ana") == "Ana"
    assert display_name("Left") == "Left"  # no number: a name someone chose
    assert display_name("Player 3", "es") == "Jugador 3"
    assert display_name("You", "en") == "South"  # older records


def test_players_capped_by_the_rules_deck():
    fewest, most = Rules.from_spec(None).player_limits
    assert (fewest, most) == PLAYER_LIMITS[1]
    with pytest.raises(RulesError) as e:
        Rules(players=fewest - 1)
    assert f"from {fewest} to {most}" in e.value.message("en")
    with pytest.raises(RulesError) as e:  # more than one deck seats: the two-deck preset is named (issue 33)
        Rules(players=most + 1)
    assert "--preset cancellation" in e.value.message("en")


def test_a_shared_table_names_its_seats_by_place_from_each_persons_seat():
    from hearts_cli.model.seating import shown_name, table_names
    from hearts_cli.table.shared import make_seats

    assert table_names(4) == ("South", "West", "North", "East")
    seats = make_seats(4, 2, None)
    assert [s.name for s in seats] == ["South", "West", "North", "East"]
    names = [s.name for s in seats]
    # seen from seat 1 (West's person): they are "You", South is on their right...
    assert [shown_name(n, i, 1, 4, "en") for i, n in enumerate(names)] == ["East", "You", "West", "North"]
    assert [shown_name(n, i, 1, 4, "es") for i, n in enumerate(names)] == ["Este", "Tú", "Oeste", "Norte"]
    # ... and a name a person gave stays theirs, in every language
    assert shown_name("Ana", 0, 1, 4, "es") == "Ana"
    # the host's own screen names the places from seat 0, which it calls South
    assert [shown_name(n, i, None, 4, "es") for i, n in enumerate(names)] == ["Sur", "Oeste", "Norte", "Este"]
    # a name is cleaned and shortened before anybody sees it
    from hearts_cli.table.shared import NAME_MAX, clean_name

    named = clean_name("\x1b[31mAna\x07  de \tla Mancha" + "x" * 40, "West")
    assert named == ("[31mAna de la Mancha" + "x" * 40)[:NAME_MAX]
    assert clean_name("\x07\x1b", "West") == "West"
