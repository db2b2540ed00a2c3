"""Game codes and the deal: same code, same deal, card by card; a mistyped code is refused."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import yaml
from conftest import CROCKFORD, R, codes, play_out, ref_check_char, ref_code
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_cli.model.cards import CARDS
from hearts_cli.model.codes import (
    ALPHABET,
    CodeError,
    Stream,
    deal,
    first_dealer,
    is_code,
    new_code,
    normalize_code,
    seed_for,
    shuffled,
)
from hearts_cli.model.rules import Rules
from hearts_cli.play.dealt import Phase
from hearts_cli.play.game import Game
from hearts_cli.play.round import Round

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = yaml.safe_load((ROOT / "fixtures" / "deals.yaml").read_text(encoding="utf-8"))


def _reference_module():
    spec = importlib.util.spec_from_file_location(
        "make_deal_fixtures", Path(__file__).with_name("make_deal_fixtures.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def names(cs) -> str:
    return " ".join(str(c) for c in cs)


# ---------------------------------------------------------------- code format


def test_alphabet_is_crockford_base_32():
    assert ALPHABET == CROCKFORD
    assert not set("ILOU") & set(ALPHABET)


def test_new_codes_are_valid_and_fresh():
    made = {new_code() for _ in range(50)}
    assert len(made) == 50
    for c in made:
        assert len(c) == 8 and set(c) <= set(ALPHABET)
        assert normalize_code(c) == c


@settings(max_examples=200)
@given(st.text(alphabet=CROCKFORD, min_size=7, max_size=7))
def test_check_character_is_luhn_mod_32(payload):
    code = ref_code(payload)
    assert normalize_code(code) == code
    assert is_code(code)


def test_typing_is_forgiving_about_case_spaces_hyphens_and_look_alikes():
    assert normalize_code("hearts0n") == "HEARTS0N"
    assert normalize_code("HEAR-TS0N") == "HEARTS0N"
    assert normalize_code(" hear ts0n ") == "HEARTS0N"
    assert normalize_code("HEARTSON") == "HEARTS0N"  # O read as 0
    code = ref_code("1111111")
    assert normalize_code(code.replace("1", "I")) == code
    assert normalize_code(code.replace("1", "l")) == code


@pytest.mark.parametrize("text, why", [
    ("HEARTS0", "code_length"), ("HEARTS0NN", "code_length"), ("", "code_length"),
    ("HEARTSUN", "code_char"), ("HEARTS!N", "code_char"),
    ("HEARTS0P", "code_check"),
])
def test_bad_codes_are_refused_saying_why(text, why):
    with pytest.raises(CodeError) as e:
        normalize_code(text)
    assert e.value.message_id == why
    assert not is_code(text)


@settings(max_examples=40)
@given(codes)
def test_any_single_mistyped_character_is_refused(code):
    for i in range(8):
        for ch in ALPHABET:
            if ch == code[i]:
                continue
            typo = code[:i] + ch + code[i + 1:]
            with pytest.raises(CodeError):
                normalize_code(typo)


@settings(max_examples=60)
@given(codes)
def test_adjacent_swaps_are_refused_where_luhn_catches_them(code):
    for i in range(7):
        a, b = code[i], code[i + 1]
        if a == b:
            continue
        swapped = code[:i] + b + a + code[i + 2:]
        if {a, b} == {"0", "Z"}:  # values 0 and 31: Luhn mod 32's one blind spot
            assert ref_check_char(swapped[:7]) == swapped[7]
            assert is_code(swapped)  # the engine checks exactly Luhn mod 32, blind spot included
            continue
        with pytest.raises(CodeError):
            normalize_code(swapped)


def test_a_mistyped_code_never_deals_a_game():
    with pytest.raises(CodeError):
        Game(R(), "HEARTS0P")
    with pytest.raises(CodeError):
        Round.deal(R(), "HAERTS0N")


# ---------------------------------------------------------------- golden deals


def test_golden_codes_are_valid():
    for code in FIXTURE["codes"]:
        assert normalize_code(code) == code


@pytest.mark.parametrize("entry", FIXTURE["streams"], ids=lambda e: e["labels"][0])
def test_golden_stream_words(entry):
    s = Stream(*entry["labels"])
    assert [s._word() for _ in range(len(entry["words"]))] == entry["words"]


@pytest.mark.parametrize("entry", FIXTURE["deals"],
                         ids=lambda e: f"{e['code']}-{e['rules']['preset']}-{e['players']}p-r{e['round']}")
def test_golden_deals(entry):
    rules = Rules.from_spec(entry["rules"])
    assert rules.players == entry["players"]
    code, rnd = entry["code"], entry["round"]
    in_play = [c for c in range(52) if c not in rules.removed]
    assert names(CARDS[c] for c in shuffled(code, rnd, in_play)) == entry["order"]
    assert first_dealer(code, rules.players) == entry["first_dealer"]
    hands, kitty, dealer = deal(code, in_play, rules.players, rules.hand_size, rnd)
    assert [names(h) for h in hands] == entry["hands"]
    assert names(kitty) == entry["kitty"]
    assert dealer == entry["dealer"]
    # and the engine deals the same round from the code
    r = Round.deal(rules, code, rnd)
    assert [names(r.hand(s)) for s in range(rules.players)] == entry["hands"]
    assert r.dealer == entry["dealer"]
    assert names(CARDS[c] for c in range(52) if r.kitty_mask >> c & 1) == entry["kitty"]
    assert r.direction == rules.pass_direction(rnd)


def test_golden_file_covers_what_it_must():
    deals = FIXTURE["deals"]
    assert {d["players"] for d in deals} >= {3, 4, 5, 6}
    assert any(d["kitty"] for d in deals)
    assert len({d["round"] for d in deals}) >= 3
    assert len({d["code"] for d in deals}) >= 4


def test_the_written_algorithm_matches_the_engine():
    """``make_deal_fixtures.py`` reimplements docs/deal.md; it must agree beyond the fixture too."""
    ref = _reference_module()
    for payload in ("ABCDEFG", "7777777", "XYZ0123"):
        code = ref_code(payload)
        for spec in ({"preset": "quick"}, {"preset": "online", "players": 5},
                     {"preset": "kitty", "players": 6}):
            rules = Rules.from_spec(spec)
            for rnd in (0, 5):
                expected = ref.ref_deal(code, rules, rnd)
                r = Round.deal(rules, code, rnd)
                assert [names(r.hand(s)) for s in range(rules.players)] == expected["hands"]
                assert r.dealer == expected["dealer"]


# ---------------------------------------------------------------- deal properties


@settings(max_examples=40)
@given(codes, st.sampled_from([R("quick"), R("online", players=3), R("reference", players=5),
                               R("reference", players=6), R("kitty"), R("kitty", players=5)]),
       st.integers(0, 20))
def test_a_deal_hands_out_every_card_in_play_once(code, rules, rnd):
    r = Round.deal(rules, code, rnd)
    seen = 0
    for s in range(rules.players):
        h = r.hand(s)
        assert len(h) == rules.hand_size
        for c in h:
            assert not seen >> c & 1
            seen |= 1 << c
    assert not seen & r.kitty_mask
    assert seen | r.kitty_mask == rules.in_play_mask
    assert bin(r.kitty_mask).count("1") == rules.kitty_size
    assert not any(rules.in_play_mask >> c & 1 for c in rules.removed)


@settings(max_examples=30)
@given(codes)
def test_the_dealer_rotates_clockwise(code):
    rules = R()
    d0 = Round.deal(rules, code, 0).dealer
    assert [Round.deal(rules, code, k).dealer for k in range(6)] == [(d0 + k) % 4 for k in range(6)]


def test_same_code_same_deal_other_code_or_round_other_deal():
    rules = R()
    a = Round.deal(rules, "HEARTS0N", 0)
    assert Round.deal(rules, "hearts-0n", 0).dealt == a.dealt
    assert Round.deal(rules, "HEARTS0N", 1).dealt != a.dealt
    assert Round.deal(rules, ref_code("HEARTS1"), 0).dealt != a.dealt


def test_a_rounds_deal_never_depends_on_what_was_played_before():
    rules = R("quick", target=10_000)  # nobody reaches it: rounds keep coming
    code = "QSPADE7B"

    def run(choose):
        g = Game(rules, code)
        for _ in range(3):
            rnd = g.round
            if rnd.phase is Phase.PASS:
                for s in range(4):
                    hand = rnd.hand(s)
                    rnd.pass_cards(hand[:3] if choose is None else hand[-3:], s)
            play_out(rnd, choose, play=g.push)
        return g

    low, high = run(None), run(lambda r, s, legal: legal[-1])
    assert len(low.rounds) == len(high.rounds) == 4
    assert [rd.dealt for rd in low.rounds] == [rd.dealt for rd in high.rounds]
    assert low.totals != high.totals or low.results != high.results
    for k, rd in enumerate(low.rounds):
        assert rd.dealt == Round.deal(rules, code, k).dealt


def test_seeds_are_reproducible_and_separate_by_purpose():
    # reproducible anywhere: docs/deal.md section 7, read by the reference implementation
    ref = _reference_module()
    for code, purpose in (("HEARTS0N", ("cpu", 1)), ("QSPADE7B", ("cpu", 3)), ("K7Q2MXA7", ())):
        stream = ref.RefStream("hearts/seed/v1", code, *purpose)
        assert seed_for(code, *purpose) == stream.word() << 32 | stream.word()
    assert seed_for("HEARTS0N", "cpu", 1) != seed_for("HEARTS0N", "cpu", 2)
    assert seed_for("HEARTS0N", "cpu", 1) != seed_for("00000000", "cpu", 1)
    assert 0 <= seed_for("HEARTS0N") < 2**64


@pytest.mark.slow
@settings(max_examples=50)
@given(st.integers(1, 2**32), st.text(min_size=1, max_size=8))
def test_below_stays_in_range(n, label):
    s = Stream(label)
    for _ in range(5):
        assert 0 <= s.below(n) < n
