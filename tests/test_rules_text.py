"""`hearts rules` text: generated from the rule set, in English and Spanish.

The text must follow the settings (change a setting, the sentence changes),
agree with what the engine does, and never show a raw message id.
"""

from __future__ import annotations

import re

import pytest
from conftest import PLAYABLE, R

from hearts_cli.model import rules_text as rt
from hearts_cli.model.codes import new_code
from hearts_cli.model.rules import Direction, Rules, preset_names
from hearts_cli.play.game import Game
from hearts_cli.text.catalog import CATALOG


def text(rules: Rules, lang: str = "en", ascii: bool = False, tips: bool = False) -> str:
    body = rt.sections(rules, lang, ascii)
    if tips:
        body += rt.tips(rules, lang, ascii)
    return rt.render(rt.title(rules, lang, ascii), body, width=10_000)


def section(rules: Rules, heading_id: str, lang: str = "en") -> str:
    heading = CATALOG[lang][heading_id]
    for name, paragraphs in rt.sections(rules, lang) + rt.tips(rules, lang):
        if name == heading:
            return " ".join(paragraphs)
    raise AssertionError(f"no section {heading_id}")


OUR_PREFIXES = ("rt_", "cli_", "explain_", "rule_")
# messages whose words are the same in both languages ("Error" is Spanish too)
SAME_IN_BOTH = frozenset({"cli_click_error"})


def test_every_message_of_ours_is_translated():
    en, es = CATALOG["en"], CATALOG["es"]
    ours = [k for k in en if k.startswith(OUR_PREFIXES)]
    assert ours
    missing = [k for k in ours if k not in es]
    assert missing == []
    # a translation that is the English text again is not a translation
    same = [k for k in ours if es[k] == en[k] and len(en[k]) > 12 and k not in SAME_IN_BOTH]
    assert same == []
    # the same placeholders on both sides
    for k in ours:
        assert set(re.findall(r"{(\w+)}", en[k])) == set(re.findall(r"{(\w+)}", es[k])), k


@pytest.mark.parametrize("name", preset_names())
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_preset_renders_fully(name, lang):
    rules = R(name)
    out = text(rules, lang, tips=True)
    assert not re.search(r"\b(rt|cli|rule|explain)_[a-z_]+\b", out), "a raw message id leaked"
    assert "{" not in out and "}" not in out, "a placeholder was left unfilled"
    for heading_id in ("rt_h_deck", "rt_h_passing", "rt_h_play", "rt_h_first_trick", "rt_h_hearts",
                       "rt_h_scoring", "rt_h_moon", "rt_h_end", "rt_h_variants"):
        assert CATALOG[lang][heading_id] in out


@pytest.mark.parametrize("name", ["quick", "online", "black-maria", "kitty", "spot"])
def test_spanish_is_not_english(name):
    en = text(R(name), "en", tips=True)
    es = text(R(name), "es", tips=True)
    assert en != es
    assert "Shooting the moon" in en and "Tirar a la luna" in es
    assert "the" not in es.split() and "player" not in es


def test_ascii_has_no_suit_symbols():
    out = text(R("omnibus", players=5), "en", ascii=True, tips=True)
    assert not set("♣♦♥♠−") & set(out)
    assert "QS" in out and "2C" in out


# ------------------------------------------------ each sentence follows its setting


def test_target_changes_the_end_sentence():
    assert "reaches or passes 50 points" in section(R("quick"), "rt_h_end")
    assert "reaches or passes 100 points" in section(R("standard"), "rt_h_end")
    assert "reaches or passes 75 points" in section(R("quick", target=75), "rt_h_end")


def test_each_tie_policy_has_its_own_sentence():
    texts = {ties: section(R("quick", ties=ties), "rt_h_end") for ties in
             ("share", "one_more_round", "until_single")}
    assert len(set(texts.values())) == 3
    assert "share first place" in texts["share"]
    assert "one more round" in texts["one_more_round"]
    assert "until one player alone" in texts["until_single"]


@pytest.mark.parametrize("rules", PLAYABLE, ids=lambda r: f"{r.preset}-{r.players}")
def test_deck_and_passing_follow_every_playable_rule_set(rules):
    deck = section(rules, "rt_h_deck")
    assert f"{rules.players} players" in deck
    assert f"{rules.hand_size} " in deck
    for card in rules.removed:
        assert card.symbol in deck
    if rules.kitty_size:
        assert "kitty" in deck
    passing = section(rules, "rt_h_passing")
    cycle = rules.pass_cycle
    if cycle == (Direction.NONE,):
        assert "no passing" in passing
    else:
        assert f"passes {rules.pass_count} cards" in passing
        if len(cycle) > 1:
            assert ", ".join(CATALOG["en"][f"dir_{d.value}"] for d in cycle) in passing
    moon = section(rules, "rt_h_moon")
    assert str(rules.penalty_total) in moon


def test_removed_cards_and_first_lead_agree_with_the_engine():
    for rules in (R("online", players=5), R("reference", players=3), R("quick", players=6)):
        game = Game(rules, new_code())
        for seat in range(rules.players):
            game.push_pass(game.round.hand(seat)[:rules.pass_count], seat)
        (lead,) = game.round.legal_cards()
        play = section(rules, "rt_h_play")
        assert f"the {lead.symbol}" in play, (rules.preset, rules.players, lead)


NO_CLUBS = {"removal": {3: [r + "C" for r in "23456789TJQKA"]}}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_with_no_club_in_play_the_lowest_card_in_play_leads(lang):
    # seeds/README.md: with no club in play, the lowest card in play (clubs, diamonds,
    # hearts, spades) leads; the text, the refusal and the engine agree
    rules = R("reference", players=3, **NO_CLUBS)
    game = Game(rules, new_code())
    for seat in range(rules.players):
        game.push_pass(game.round.hand(seat)[:rules.pass_count], seat)
    (lead,) = game.round.legal_cards()
    assert str(lead) == "2D"
    play = section(rules, "rt_h_play", lang)
    assert "2♦" in play and "2♣" not in play
    other = next(c for c in game.round.hand(game.round.turn) if c != lead)
    said = game.round.why(other).message(lang)
    assert "2♦" in said
    # the refusal names the rule truly: not "the lowest club in play"
    assert ("lowest club" not in said) if lang == "en" else ("trébol más bajo" not in said)


def test_the_first_trick_rule_reads_as_the_engine_plays_a_free_first_lead():
    # spades led to a free first trick: the Q♠ may not follow while another spade can
    ft = section(R("old-lead"), "rt_h_first_trick")
    assert "follow" in ft and "another card it may play" in ft


def test_old_lead_names_the_player_left_of_the_dealer():
    assert "left of the dealer leads the first trick with any card" in section(R("old-lead"), "rt_h_play")
    assert "2♣" not in section(R("old-lead"), "rt_h_play")


def test_first_trick_lists_exactly_the_forbidden_cards():
    assert section(R("quick"), "rt_h_first_trick").endswith("every heart and Q♠.")
    bm = section(R("black-maria"), "rt_h_first_trick")
    assert "Q♠, K♠ and A♠" in bm
    hearts_only = section(R("quick", first_trick="no_hearts"), "rt_h_first_trick")
    assert "every heart." in hearts_only and "allowed on it: Q♠" in hearts_only
    assert "Any card may be played" in section(R("first-trick-points"), "rt_h_first_trick")
    # the J♦ bonus is not a penalty: allowed on the first trick, and said so
    assert "allowed on it: J♦" in section(R("omnibus"), "rt_h_first_trick")


def test_breaking_hearts_follows_the_setting():
    assert "until a heart has been played" in section(R("quick"), "rt_h_hearts")
    assert "Playing the Q♠ does not break hearts" in section(R("quick"), "rt_h_hearts")
    assert "until a heart or the Q♠ has been played" in section(R("queen-breaks"), "rt_h_hearts")
    assert "at any time" in section(R("no-breaking"), "rt_h_hearts")


def test_scoring_comes_from_the_point_values():
    quick = section(R("quick"), "rt_h_scoring")
    assert "Each heart scores 1 point" in quick and "The Q♠ scores 13" in quick
    assert "exactly 26 penalty points" in quick
    spot = section(R("spot"), "rt_h_scoring")
    assert "face value" in spot and "(104 in all)" in spot and "exactly 117" in spot
    bm = section(R("black-maria"), "rt_h_scoring")
    assert "The K♠ scores 10" in bm and "The A♠ scores 7" in bm and "exactly 43" in bm
    british = section(R("british"), "rt_h_scoring")
    assert "The Q♠ scores nothing" in british and "exactly 13" in british
    omnibus = section(R("omnibus"), "rt_h_scoring")
    assert "J♦ is worth −10" in omnibus and "16 in all" in omnibus


def test_each_moon_mode_has_its_own_sentence_and_value():
    modes = {m: section(R("reference", moon=m), "rt_h_moon")
             for m in ("off", "others", "shooter_minus", "shooter_choice")}
    assert len(set(modes.values())) == 4
    assert "There is no moon" in modes["off"] and "simply scores 26" in modes["off"]
    assert "every other player scores 26" in modes["others"]
    assert "subtracts 26" in modes["shooter_minus"]
    assert "The shooter chooses" in modes["shooter_choice"]
    assert "scores 43" in section(R("black-maria"), "rt_h_moon")
    assert "still applies with a moon" in section(R("omnibus"), "rt_h_moon")


def test_variants_name_what_is_switched_on():
    assert "None" in section(R("quick"), "rt_h_variants")
    assert "Cutthroat" in section(R("cutthroat"), "rt_h_variants")
    assert "always to the left" in section(R("always-left"), "rt_h_variants")
    both = section(R("omnibus", spot_hearts=True), "rt_h_variants")
    assert "Omnibus" in both and "Spot Hearts" in both
    assert "Kitty" in section(R("kitty"), "rt_h_variants")


def test_overrides_are_named_in_the_title():
    out = text(R("online", players=5))
    assert "Changed from the preset: players=5." in out
    assert "Changed" not in text(R("online"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_title_says_the_players_the_rules_have(lang):
    """issue 26 §3: `hearts rules --players 3` opened with the preset's "quick game: 4 players",
    and its source "against three CPU players"; the preset as it is keeps its own line."""
    head = "\n".join(rt.title(R("quick", players=3), lang))
    assert "players=3" in head
    assert not re.search(r"\b(4|four|three|cuatro|tres)\b", head), head
    assert ("4 players" if lang == "en" else "4 jugadores") in "\n".join(rt.title(R("quick"), lang))


# ------------------------------------------------ tips fit the rules


def test_tips_follow_the_rules():
    quick = section(R("quick"), "rt_h_tips")
    assert "When passing" in quick and "Watch for the moon" in quick
    assert "When passing" not in section(R("cutthroat"), "rt_h_tips")
    assert "With no passing" in section(R("cutthroat"), "rt_h_tips")
    assert "moon" not in section(R("no-moon"), "rt_h_tips")
    assert "moon" not in section(R("no-moon"), "rt_h_mistakes")
    assert "Q♠" not in section(R("british"), "rt_h_tips")
    assert "letting 43 land" in section(R("black-maria"), "rt_h_tips")
    assert "Errores típicos" in text(R("quick"), "es", tips=True)


def test_json_carries_the_settings_and_derived_facts():
    rules = R("online", players=5)
    data = rt.rules_json(rules)
    assert data["settings"] == rules.settings()
    assert data["preset"] == "online" and data["overrides"] == {"players": 5}
    assert sorted(data["derived"]["removed"]) == ["2C", "2D"]
    assert data["derived"]["first_lead_card"] == "3C"
    assert data["derived"]["penalty_total"] == 26
    assert data["derived"]["pass_cycle"] == ["left", "right", "none"]
    assert rt.rules_json(R("quick"))["derived"]["points"]["QS"] == 13
    assert rt.rules_json(R("omnibus"))["derived"]["variants"] == ["omnibus"]


@pytest.mark.parametrize("name", preset_names())
@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_source_is_said_in_words_not_as_a_file_name(name, lang):
    from hearts_cli.model.rules import preset_info

    source = preset_info(name)["source"]
    line = next(ln for ln in rt.title(Rules.from_spec(name), lang)
                if ln.startswith(("Source:", "Fuente:")))
    assert ".txt" not in line and source[:3] not in line, line
    assert CATALOG[lang][f"rt_source_{source[:3]}"] in line


@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_mistake_is_one_the_rules_make_impossible(lang):
    """issue 26 §3: "Voiding a suit and then winning a trick in that suit again": a player void
    in a suit has no card of it left to win with, so the mistake cannot be made. Keeping a lone
    high card of a suit one meant to be rid of can."""
    impossible = {"en": "winning a trick in that suit again", "es": "volver a ganar una baza de ese palo"}[lang]
    for name in preset_names():
        mistakes = section(R(name), "rt_h_mistakes", lang)
        assert impossible not in mistakes, (name, mistakes)
        assert CATALOG[lang]["rt_mis_lone_card"] in mistakes, name


def test_tips_speak_of_a_pass_only_where_there_is_one():
    """Cutthroat has no passing: no tip may speak of a pass (issue 10)."""
    for lang in ("en", "es"):
        body = section(R("cutthroat"), "rt_h_tips", lang) + section(R("cutthroat"), "rt_h_mistakes", lang)
        # saying that there is no passing is right; speaking of a pass is not
        body = body.lower().replace("with no passing", "").replace("sin pase", "")
        words = ("pass", "planned") if lang == "en" else ("pase", "pasa")
        assert not any(w in body for w in words), body
    assert "a pass planned" in section(R("reference"), "rt_h_tips")


def test_omnibus_has_a_jack_of_diamonds_tip():
    assert "J♦ is worth -10" in section(R("omnibus"), "rt_h_tips")
    assert "J♦ vale -10" in section(R("omnibus"), "rt_h_tips", "es")
    assert "J♦" not in section(R("reference"), "rt_h_tips")


def test_never_pass_the_queen_across_where_a_pass_goes_across():
    """003: "never pass it across (it comes straight back into play against you)"."""
    assert any(d is Direction.ACROSS for d in R("reference").pass_cycle)
    assert "never pass the Q♠" in section(R("reference"), "rt_h_tips")
    assert "no pases nunca la Q♠" in section(R("reference"), "rt_h_tips", "es")
    assert Direction.ACROSS not in R("always-left").pass_cycle
    assert "across" not in section(R("always-left"), "rt_h_tips")


# ---------------------------------------------------------------- Cancellation Hearts tips


def tips_text(rules: Rules, lang: str = "en") -> str:
    return section(rules, "rt_h_tips", lang) + " " + section(rules, "rt_h_mistakes", lang)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_cancellation_has_its_own_tips(lang):
    """Two decks: a card whose twin is out may be cancelled, duplicating the winner
    hands the trick to the next card, a set-aside trick's points go to the next winner."""
    two = tips_text(R("cancellation"), lang)
    one = tips_text(R("reference"), lang)
    mids = ("rt_tip2_twin", "rt_tip2_duplicate", "rt_tip2_aside", "rt_tip2_count_spades",
            "rt_mis2_once", "rt_mis2_aside")
    for mid in mids:
        words = max(CATALOG[lang][mid].split("{"), key=len).split("}")[-1]  # its longest fixed text
        assert words in two, mid
        assert words not in one, mid
    # the one-deck counting tip is replaced, not repeated, and speaks of both queens
    assert max(CATALOG[lang]["rt_tip_count_spades"].split("{"), key=len) not in two
    assert ("both Q♠" if lang == "en" else "las dos Q♠") in two
    assert "26" in two  # two Q♠ on one trick: their winner takes 26
    # `--set decks=2` on a one-deck preset gets the same advice
    assert CATALOG[lang]["rt_tip2_twin"].split(":")[0] in tips_text(R("reference", decks=2, players=8), lang)


def test_cancellation_tips_name_the_cards_in_play_once():
    """The cards a removal list leaves once cannot be cancelled: the tip lists exactly them."""
    for players, single in ((6, "2♣ and 2♦"), (9, "2♣, 3♣, 2♦, 3♦ and 2♠"), (10, "2♣, 3♣, 2♦ and 2♠")):
        rules = R("cancellation", players=players)
        assert sorted(int(c) for c in rules.removed) == [c for c in range(52) if rules.copies[c] == 1]
        assert f"in play only once ({single})" in tips_text(rules)
    # 8 players remove nothing, and a kitty removes nothing: no card is in play once
    for rules in (R("cancellation"), R("cancellation", players=9, deck="kitty")):
        assert set(rules.copies) == {2}
        body = tips_text(rules)
        assert "Nobody can cancel a card whose twin is in your hand" in body
        assert "in play only once" not in body


def test_cancellation_tips_follow_the_last_trick_setting():
    leader = tips_text(R("cancellation"))
    second = tips_text(R("cancellation", set_aside_last="second"))
    assert "the player who led it takes it" in leader and "second copy" not in leader
    assert "second copy of the highest card" in second and "the player who led it takes it" not in second
    assert "la segunda copia" in tips_text(R("cancellation", set_aside_last="second"), "es")


def test_cancellation_tips_follow_the_kitty_and_the_first_lead():
    kitty = tips_text(R("cancellation", players=9, deck="kitty"))
    assert R("cancellation", players=9, deck="kitty").kitty_size == 5
    assert "also takes the 5 cards of the kitty" in kitty
    assert "kitty" not in tips_text(R("cancellation", players=9))
    # 8 players: both 2♣ are dealt, and the second may cancel the lead
    assert "With both 2♣ in play" in tips_text(R("cancellation"))
    assert "With both 2♣ in play" not in tips_text(R("cancellation", players=6))  # one 2♣ removed
    assert "With both" not in kitty  # with a kitty one of them may be face down
    free = tips_text(R("cancellation", first_lead="any"))
    assert "The first lead is free: a lead card whose twin you hold is the only one" in free
    assert "With both 2♣" not in free
    assert "in play once (2♣ and 2♦)" in tips_text(R("cancellation", players=6, first_lead="any"))
    assert "first lead is free" not in tips_text(R("cancellation"))


def test_cancellation_tips_are_true_to_the_engine():
    """What the tips claim about a cancelled trick is what core.winner does."""
    from hearts_cli.model.cards import parse_card
    from hearts_cli.play import core

    def idx(text: str) -> list[int]:
        return [int(parse_card(x)) for x in text.split()]

    rules = R("cancellation")
    # duplicating the winning A♠ hands the trick to the next highest spade (the K♠, index 1)
    assert core.winner(rules, idx("5S KS AS 2H AS 3S 4S 6S")) == 1
    # every spade cancelled: set aside (None), and on the last trick the leader takes it
    trick = idx("KS 2H KS 3D 4D 5D 6D 7D")
    assert core.winner(rules, trick) is None
    assert core.winner(rules, trick, last=True) == 0
    assert core.winner(R("cancellation", set_aside_last="second"), trick, last=True) == 2


@pytest.mark.parametrize("setting", [{"sun": -52}, {"no_trick_bonus": -5}])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_round_total_is_not_promised_when_the_sun_or_the_bonus_can_change_it(setting, lang):
    """Issue 33 §2: with the sun or the no-trick bonus on, a round does not always hand out 26
    points, and the rules do not say it does."""
    from conftest import run

    out = run("--lang", lang, "rules", "--set", ",".join(f"{k}={v}" for k, v in setting.items())).stdout
    flat = " ".join(out.split())
    assert "exactly 26" not in flat and "exactamente 26" not in flat
    assert ("The penalty cards are worth 26 points in all" in flat
            or "Las cartas de castigo valen 26 puntos en total" in flat)
