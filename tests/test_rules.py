"""Rules as data: the presets reproduce their sources, and bad rule sets are refused by key."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import R, cards

from hearts_cli.model.cards import Card
from hearts_cli.model.rules import (
    DEFAULT_PRESET,
    ENUMS,
    Direction,
    Moon,
    Passing,
    Rules,
    RulesError,
    load_preset,
    preset_info,
    preset_names,
)

L, RT, A, N = Direction.LEFT, Direction.RIGHT, Direction.ACROSS, Direction.NONE

# What every source agrees on (RULES.md "What all four agree on").
COMMON = {
    "players": 4, "deck": "remove", "passing": "standard", "pass_count": 3, "first_lead": "lowest_club",
    "first_trick": "no_points", "hearts_break": "heart", "jack_of_diamonds": False,
    "spot_hearts": False, "black_maria": False, "queen_penalty": True,
}

# RULES.md's table of differences, one column per source preset.
SOURCE_PRESETS = {
    # 000: target 50 quick (the default), shared first place, the Q♠ does not break hearts, others +26
    "quick": dict(COMMON, target=50, ties="share", moon="others"),
    # 000's standard game: the same at 100
    "standard": dict(COMMON, target=100, ties="share", moon="others"),
    # 001: 100, one more round on a tie, canonical moon, J♦ and negative moon off
    "classic": dict(COMMON, target=100, ties="one_more_round", moon="others"),
    # 003: 100, sudden-death rounds until nobody ties for lowest
    "reference": dict(COMMON, target=100, ties="until_single", moon="others"),
    # 004: 100, keep dealing until one player is clearly lowest; J♦ off by default
    "online": dict(COMMON, target=100, ties="until_single", moon="others"),
}

SOURCE_FILES = {
    "quick": "000_f74ddc346702af03.txt", "standard": "000_f74ddc346702af03.txt",
    "classic": "001_fcffb9e890067efd.txt", "reference": "003_f36c3ffb65dcc672.txt",
    "online": "004_688e52705a95b2a2.txt",
}


def test_the_default_is_the_quick_game():
    default = Rules.from_spec(None)
    assert DEFAULT_PRESET == "quick"
    assert default.preset == "quick"
    assert preset_names()[0] == "quick"
    assert default.target == 50
    assert default.ties == "share"
    assert default.hearts_break == "heart"  # the Q♠ does not break hearts
    # the dataclass defaults are the same game at four (the removal table only matters at 3, 5, 6)
    plain = {k: v for k, v in Rules().settings().items() if k != "removal"}
    assert plain == {k: v for k, v in default.settings().items() if k != "removal"}


@pytest.mark.parametrize("name", sorted(SOURCE_PRESETS))
def test_each_source_preset_reproduces_its_source(name):
    rules = load_preset(name)
    for key, value in SOURCE_PRESETS[name].items():
        assert getattr(rules, key) == value, key
    assert preset_info(name)["source"] == SOURCE_FILES[name]
    # every source: 13 cards each, 26 points a round, the four-round pass cycle
    assert rules.hand_size == 13 and rules.kitty_size == 0 and rules.removed == ()
    assert rules.round_total == 26 and rules.penalty_total == 26
    assert rules.pass_cycle == (L, RT, A, N)
    assert rules.points[Card("QS")] == 13
    assert all(rules.points[c] == 1 for c in cards(" ".join(r + "H" for r in "23456789TJQKA")))
    assert sum(1 for p in rules.points if p) == 14


def test_reference_removal_for_3_5_and_6_players():
    # 003: 3 -> remove 2♣ (17 each); 5 -> 2♣ and 2♦; 6 -> 2♣, 2♦, 2♠ and one more non-point card
    three, five, six = (R("reference", players=n) for n in (3, 5, 6))
    assert three.removed == tuple(cards("2C")) and three.hand_size == 17
    assert set(five.removed) == set(cards("2C 2D")) and five.hand_size == 10
    assert set(cards("2C 2D 2S")) <= set(six.removed) and len(six.removed) == 4
    assert six.hand_size == 8
    for r in (three, five, six):
        assert r.kitty_size == 0
        assert all(r.points[c] == 0 for c in r.removed)  # never a point card
        assert r.round_total == 26  # "un reparto siempre vale 26"


def test_online_removal_for_3_and_5_players():
    # 004: 3 -> the 2♦ goes (17 each); 5 -> the 2♦ and the 2♣ (10 each)
    three, five = R("online", players=3), R("online", players=5)
    assert three.removed == tuple(cards("2D")) and three.hand_size == 17
    assert set(five.removed) == set(cards("2D 2C")) and five.hand_size == 10
    assert three.round_total == five.round_total == 26


@pytest.mark.parametrize("n, hand, kitty", [(3, 17, 1), (4, 13, 0), (5, 10, 2), (6, 8, 4)])
def test_kitty_removes_nothing_and_leaves_the_odd_cards(n, hand, kitty):
    r = R("kitty", players=n)
    assert r.removed == ()
    assert r.hand_size == hand and r.kitty_size == kitty
    assert r.hand_size * n + r.kitty_size == 52
    assert r.round_total == 26


@pytest.mark.parametrize("n, cycle", [
    (3, (L, RT, N)), (4, (L, RT, A, N)), (5, (L, RT, N)),
])
def test_pass_cycle_by_player_count(n, cycle):
    # 004: with 3 or 5 there is no seat across: left, right, no pass
    assert R("online", players=n).pass_cycle == cycle
    assert R("reference", players=n).pass_cycle == cycle


def test_the_pass_cycle_never_restarts():
    four = R("quick")
    assert [four.pass_direction(i) for i in range(9)] == [L, RT, A, N, L, RT, A, N, L]
    assert four.pass_direction(4) is L  # round 5 is left again
    five = R("online", players=5)
    assert [five.pass_direction(i) for i in range(7)] == [L, RT, N, L, RT, N, L]
    three = R("online", players=3)
    assert three.pass_direction(3) is L  # "Cuarto: a la izquierda (repetir)"


def test_pass_receivers():
    # left is the next seat in play order (clockwise)
    assert [L.receiver(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert [RT.receiver(s, 4) for s in range(4)] == [3, 0, 1, 2]
    assert [A.receiver(s, 4) for s in range(4)] == [2, 3, 0, 1]
    assert [L.receiver(s, 3) for s in range(3)] == [1, 2, 0]
    assert [RT.receiver(s, 5) for s in range(5)] == [4, 0, 1, 2, 3]


# ---------------------------------------------------------------- variants


def _differences(name: str) -> set[str]:
    info = preset_info(name)
    base = load_preset(info["based_on"]).settings()
    mine = load_preset(name).settings()
    return {k for k in mine if mine[k] != base[k]}


@pytest.mark.parametrize("name", [n for n in preset_names() if preset_info(n).get("based_on")])
def test_a_variant_changes_only_what_it_says(name):
    stated = set(preset_info(name)["rules"])
    assert _differences(name) <= stated
    assert _differences(name), "a variant must change something"


def test_variant_contents():
    assert R("cutthroat").pass_cycle == (N,)
    assert R("always-left").pass_cycle == (L,)
    assert R("no-breaking").hearts_break == "free"
    assert R("queen-breaks").hearts_break == "heart_or_queen"
    assert R("first-trick-points").first_trick == "any"
    assert R("old-lead").first_lead == "any"
    assert R("no-moon").moon == "off"
    assert R("shooter-minus").moon == "shooter_minus"
    assert R("shooter-choice").moon == "shooter_choice"
    kitty = R("kitty")
    assert kitty.players == 3 and kitty.deck == "kitty" and kitty.kitty_size == 1


def test_omnibus_jack_of_diamonds_is_minus_ten():
    r = R("omnibus")
    assert r.points[Card("JD")] == -10
    assert r.penalty_total == 26  # a moon still needs the 13 hearts and the Q♠ only
    assert r.round_total == 16


def test_spot_hearts_score_face_value():
    r = R("spot")
    # 003: 2♥=2, J♥=11, Q♥=12, K♥=13, A♥=14; Q♠ = 13
    assert [r.points[c] for c in cards("2H JH QH KH AH QS")] == [2, 11, 12, 13, 14, 13]
    assert r.round_total == sum(range(2, 15)) + 13 == 117


def test_black_maria_for_three():
    r = R("black-maria")
    # 004: the Q♠ 13, the K♠ 10, the A♠ 7; hearts 1 each
    assert r.players == 3
    assert [r.points[c] for c in cards("QS KS AS 5H")] == [13, 10, 7, 1]
    assert r.round_total == 13 + 13 + 10 + 7


def test_british_three_player_queen_is_not_a_penalty():
    r = R("british")
    assert r.players == 3 and r.points[Card("QS")] == 0
    assert r.round_total == 13 and r.penalty_total == 13


# ---------------------------------------------------------------- refusals, each naming its key


def refused(spec) -> RulesError:
    with pytest.raises(RulesError) as e:
        Rules.from_spec(spec)
    return e.value


@pytest.mark.parametrize("spec, key", [
    # an unknown key
    ({"targt": 50}, "targt"),
    ({"player": 4}, "player"),
    ({"preset": "quick", "jack_of_spades": True}, "jack_of_spades"),
    # a wrong type
    ({"target": "50"}, "target"),
    ({"target": 50.5}, "target"),
    ({"players": "four"}, "players"),
    ({"players": True}, "players"),
    ({"pass_count": "3"}, "pass_count"),
    ({"jack_of_diamonds": "yes"}, "jack_of_diamonds"),
    ({"spot_hearts": 1}, "spot_hearts"),
    ({"moon": "sometimes"}, "moon"),
    ({"ties": "coin_flip"}, "ties"),
    ({"hearts_break": "queen"}, "hearts_break"),
    ({"first_lead": "2C"}, "first_lead"),
    ({"first_trick": "none"}, "first_trick"),
    ({"deck": "jokers"}, "deck"),
    ({"passing": "sideways"}, "passing"),
    ({"passing": ["left", "up"]}, "passing"),
    ({"passing": []}, "passing"),
    ({"removal": ["2C"]}, "removal"),
    ({"removal": {3: ["ZZ"]}}, "removal"),
    ({"preset": 4}, "preset"),
    ({"preset": "no-such-preset"}, "preset"),
    # impossible combinations
    ({"players": 7}, "players"),
    ({"players": 2}, "players"),
    ({"target": 0}, "target"),
    ({"target": -50}, "target"),
    ({"players": 6, "removal": {6: ["2C", "2D", "2S"]}}, "removal"),  # 49 cards among 6
    ({"players": 3, "removal": {3: ["2C", "2D"]}}, "removal"),  # 50 among 3
    ({"players": 5, "removal": {}}, "removal"),  # 52 among 5, nothing removed
    ({"players": 3, "removal": {3: ["2H"]}}, "removal"),  # removing a heart
    ({"players": 3, "removal": {3: ["QS"]}}, "removal"),  # removing the Q♠
    ({"players": 3, "removal": {3: ["2C", "2C", "2C"]}}, "removal"),  # one card three times
    ({"preset": "omnibus", "players": 5, "removal": {5: ["2C", "JD"]}}, "removal"),
    ({"players": 3, "passing": ["left", "across"]}, "passing"),  # no seat across with 3
    ({"pass_count": 0}, "pass_count"),
    ({"pass_count": 13}, "pass_count"),  # nothing would be left to keep
])
def test_bad_rule_sets_are_refused_naming_the_key(spec, key):
    err = refused(spec)
    assert err.key == key
    for lang in ("en", "es"):
        assert key in err.message(lang), err.message(lang)
    assert key in str(err)
    assert str(err).rstrip().endswith("."), "a sentence"


def test_a_refused_override_leaves_the_preset_untouched():
    refused({"preset": "quick", "players": 7})
    assert load_preset("quick").players == 4


def test_yaml_off_reads_as_the_moon_switched_off():
    # YAML 1.1 reads a bare `off` as false
    assert R("quick", moon=False).moon == "off"


@pytest.mark.parametrize("name", preset_names())
def test_every_choice_setting_is_an_enum_member(name):
    """Code compares members, never strings: every preset's choices load as members,
    and a member still reads back as its YAML spelling."""
    r = R(name)
    for key, enum in ENUMS.items():
        value = getattr(r, key)
        assert value.__class__ is enum, key
        assert r.settings()[key] == value.value and type(r.settings()[key]) is str
    assert isinstance(r.passing, (Passing, tuple))
    assert Rules(moon="shooter_minus").moon is Moon.SHOOTER_MINUS


@pytest.mark.parametrize("name", preset_names())
def test_derived_facts_live_on_rules_and_rules_facts_copies_them(name):
    """Every layer reads the derived facts from Rules (computed once, cached); the
    slotted Rules.facts the bots' loops read holds the same values."""
    from hearts_cli.model.rules import FACTS, SETTINGS

    r = R(name)
    f = r.facts
    assert r.facts is f  # computed once
    for key in FACTS + SETTINGS:
        assert getattr(f, key) == getattr(r, key), key
    assert r.breaks_mask >> 49 & 1 == (r.hearts_break == "heart_or_queen")
    assert r.queen_scores == (r.points[49] > 0)
    assert r.moon_keeps == tuple((c, p) for c, p in enumerate(r.points) if p < 0)


def test_every_fact_a_bot_reads_is_a_declared_typed_slot():
    """Rules.facts is the bots' most-read API: each slot is declared with the type Rules gives
    it, so a typo or a wrong use is caught by mypy, and a new fact cannot be left undeclared."""
    import typing

    from hearts_cli.model.rules import FACTS, SETTINGS, Facts

    declared = typing.get_type_hints(Facts)
    assert tuple(declared) == SETTINGS + FACTS + ("rules",) == Facts.__slots__
    given = typing.get_type_hints(Rules)
    for name in SETTINGS:
        assert declared[name] == given[name], name
    for name in FACTS:
        assert declared[name] == typing.get_type_hints(getattr(Rules, name).func)["return"], name


def test_a_bad_choice_given_directly_names_the_key():
    with pytest.raises(RulesError) as e:
        Rules(moon="sideways")
    assert e.value.key == "moon" and "shooter_choice" in str(e.value)
    with pytest.raises(RulesError) as e:
        Rules(passing="sideways")
    assert e.value.key == "passing"


def test_spec_round_trip_and_provenance():
    r = R("reference", players=5, moon="shooter_minus")
    assert r.spec() == {"preset": "reference", "players": 5, "moon": "shooter_minus"}
    assert Rules.from_spec(r.spec()) == r
    assert Rules.from_spec("standard") == R("quick", target=100)


def test_rules_are_immutable():
    r = R()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 10  # type: ignore[misc]


@pytest.mark.parametrize("count, words", [(0, "at least 1"), (-2, "at least 1"), (13, "at most 12")])
def test_a_pass_count_out_of_range_names_the_bound_it_breaks(count, words):
    # issue 18: pass_count=0 said "at most 12", when the minimum is what it breaks
    with pytest.raises(RulesError) as e:
        R(pass_count=count)
    assert words in e.value.message("en")
    assert e.value.message("es") != e.value.message("en")
