"""Card input: every notation a player may type, in English or Spanish."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_cli.model.cards import CARDS, Card, CardParseError, Suit, parse_card

RANKS = "23456789TJQKA"
SUITS = "CDHS"
EN_RANKS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"]
ES_RANKS = ["dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "jota", "dama", "rey", "as"]
EN_SUITS = ["clubs", "diamonds", "hearts", "spades"]
ES_SUITS = ["tréboles", "diamantes", "corazones", "picas"]
SYMBOLS = "♣♦♥♠"


def card(rank: str, suit: str) -> Card:
    return CARDS[SUITS.index(suit) * 13 + RANKS.index(rank)]


def test_deck_order_is_suit_major_clubs_diamonds_hearts_spades_two_to_ace():
    names = [str(c) for c in CARDS]
    assert names[:13] == [r + "C" for r in RANKS]
    assert names[13:26] == [r + "D" for r in RANKS]
    assert names[26:39] == [r + "H" for r in RANKS]
    assert names[39:] == [r + "S" for r in RANKS]
    # the ace is high, the two is low (all sources)
    assert Card("AS").rank == 14 and Card("2S").rank == 2
    assert Card("QS").suit is Suit.SPADES


@pytest.mark.parametrize("text, expected", [
    ("QS", "QS"), ("qs", "QS"), ("Qs", "QS"),
    ("10h", "TH"), ("10H", "TH"), ("TH", "TH"), ("th", "TH"),
    ("Q♠", "QS"), ("q♠", "QS"), ("10♥", "TH"), ("A♣", "AC"), ("J♦", "JD"), ("2♣", "2C"),
    ("  QS  ", "QS"),
    ("queen of spades", "QS"), ("Queen Of Spades", "QS"), ("QUEEN OF SPADES", "QS"),
    ("ten of hearts", "TH"), ("ace of clubs", "AC"), ("jack of diamonds", "JD"),
    ("two of clubs", "2C"), ("10 of hearts", "TH"),
    ("dama de picas", "QS"), ("reina de picas", "QS"), ("Reina de Picas", "QS"),
    ("diez de corazones", "TH"), ("as de tréboles", "AC"), ("as de treboles", "AC"),
    ("AS DE TRÉBOLES", "AC"), ("jota de diamantes", "JD"), ("dos de tréboles", "2C"),
    ("rey de picas", "KS"), ("tres de tréboles", "3C"),
    ("dama  de   picas", "QS"),
])
def test_accepted_notations(text, expected):
    assert parse_card(text) == Card(expected)
    assert str(parse_card(text)) == expected


def test_accents_are_optional_both_ways():
    # "tréboles" with and without the accent, and an accent where none belongs
    assert parse_card("as de tréboles") == parse_card("as de treboles") == Card("AC")
    assert parse_card("dós de corazónes") == Card("2H")


@pytest.mark.parametrize("c", list(CARDS), ids=str)
def test_every_card_in_every_notation(c):
    r, s = c % 13, c // 13
    forms = [
        RANKS[r] + SUITS[s], (RANKS[r] + SUITS[s]).lower(), RANKS[r] + SYMBOLS[s],
        f"{EN_RANKS[r]} of {EN_SUITS[s]}", f"{ES_RANKS[r]} de {ES_SUITS[s]}",
    ]
    if r == 8:
        forms += ["10" + SUITS[s], "10" + SYMBOLS[s]]
    if r == 10:
        forms.append(f"reina de {ES_SUITS[s]}")
    for f in forms:
        assert parse_card(f) == c, f
    assert Card(str(c)) == c


@pytest.mark.parametrize("c", list(CARDS), ids=str)
def test_a_screen_shows_the_ten_as_10_with_symbols_or_letters(c):
    """``10♥`` on a screen, ``10H`` on a plain one (records keep ``TH``); either reads back."""
    r, s = c % 13, c // 13
    rank = "10" if r == 8 else RANKS[r]
    assert c.face() == c.symbol == rank + SYMBOLS[s]
    assert c.face(ascii=True) == rank + SUITS[s]
    assert len(c.face(ascii=True)) == len(c.face())  # no wider than the symbols: no width reason
    assert parse_card(c.face(ascii=True)) == parse_card(c.face()) == c
    assert str(c) == RANKS[r] + SUITS[s]


@settings(max_examples=60)
@given(st.sampled_from(CARDS), st.data())
def test_case_never_matters(c, data):
    r, s = c % 13, c // 13
    text = data.draw(st.sampled_from([
        f"{EN_RANKS[r]} of {EN_SUITS[s]}", f"{ES_RANKS[r]} de {ES_SUITS[s]}", str(c)]))
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    mixed = "".join(ch.upper() if f else ch.lower() for ch, f in zip(text, flips))
    assert parse_card(mixed) == c


@pytest.mark.parametrize("text", [
    "", "   ", "1S", "11S", "ZS", "Q", "queen", "queen of", "joker", "QSS", "QX",
    "queen of spdes", "reyna de picas", "15 of hearts", "of spades", "1♠",
])
def test_text_that_is_not_a_card_is_refused(text):
    with pytest.raises(CardParseError) as e:
        parse_card(text)
    assert isinstance(e.value, ValueError)
    assert isinstance(e.value.suggestions, tuple)
    assert all(isinstance(x, Card) for x in e.value.suggestions)


@pytest.mark.parametrize("text, expected", [
    ("queen of spdes", "QS"),
    ("qeen of spades", "QS"),
    ("reyna de picas", "QS"),
    ("dama de pikas", "QS"),
    ("ten of harts", "TH"),
    ("diez de corazons", "TH"),
    ("jota de diamante", "JD"),
    ("as de trebolles", "AC"),
])
def test_near_misses_suggest_the_card_meant(text, expected):
    try:
        got = parse_card(text)
    except CardParseError as e:
        assert Card(expected) in e.suggestions
        assert len(e.suggestions) <= 4
        assert text in str(e)
    else:  # forgiving enough to read it outright: it must then be the card meant
        assert got == Card(expected)


def test_a_readable_rank_with_an_unreadable_suit_offers_that_rank():
    with pytest.raises(CardParseError) as e:
        parse_card("QX")
    assert e.value.suggestions
    assert all(c.rank == 12 for c in e.value.suggestions)
    assert Card("QS") in e.value.suggestions


@pytest.mark.parametrize("text, rank", [("10", 8), ("ten", 8), ("diez", 8), ("queen", 10), ("dama", 10),
                                        ("Q", 10), ("t", 8)])
def test_a_rank_alone_offers_the_four_cards_of_that_rank(text, rank):
    """`10` used to get no suggestion at all, unlike `T` or `Q` (issue 26 §14)."""
    with pytest.raises(CardParseError) as e:
        parse_card(text)
    assert sorted(e.value.suggestions) == [Card(s * 13 + rank) for s in range(4)]


def test_ten_alone_is_answered_with_the_tens():
    with pytest.raises(CardParseError) as e:
        parse_card("10")
    assert e.value.message("en") == "'10' is not a card; did you mean 10♣, 10♦, 10♥, 10♠?"
    assert e.value.message("en", ascii=True) == "'10' is not a card; did you mean 10C, 10D, 10H, 10S?"


@pytest.mark.parametrize("text", ["xyzzy plugh", "joker", "zz"])
def test_gibberish_has_no_misleading_suggestion(text):
    with pytest.raises(CardParseError) as e:
        parse_card(text)
    assert e.value.suggestions == ()
    assert "closest" not in str(e.value)


def test_card_from_index_and_bad_index():
    assert Card(49) == Card("QS")
    with pytest.raises(ValueError):
        Card(52)


@pytest.mark.parametrize("text, expected", [
    ("as de oros", "AD"), ("dama de copas", "QH"), ("sota de bastos", "JC"), ("rey de espadas", "KS"),
    ("Siete de Oros", "7D"), ("diez de copas", "TH"),
])
def test_the_spanish_decks_suit_names_are_aliases(text, expected):
    # bastos = clubs, oros = diamonds, copas = hearts, espadas = spades
    assert parse_card(text) == Card(expected)


def test_a_line_of_cards_in_any_notation():
    from hearts_cli.model.cards import parse_card_list

    assert parse_card_list("as de oros") == [Card("AD")]
    assert parse_card_list("QS, as de oros 10h") == [Card("QS"), Card("AD"), Card("TH")]
    assert parse_card_list("queen of spades KS") == [Card("QS"), Card("KS")]


@pytest.mark.parametrize("text, quoted", [
    ("as de bolas", "as de bolas"),          # a card in words: the whole phrase, never 'de'
    ("dama de nada", "dama de nada"),
    ("queen of nothing", "queen of nothing"),
    ("QS XX KS", "XX"),                      # a list of short cards: the word that is not one
])
def test_a_line_that_is_no_card_quotes_what_was_meant_as_one(text, quoted):
    from hearts_cli.model.cards import parse_card_list

    with pytest.raises(CardParseError) as e:
        parse_card_list(text)
    assert e.value.text == quoted
