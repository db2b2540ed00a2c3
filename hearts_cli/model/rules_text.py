"""The rules, written out from a :class:`~hearts_cli.model.rules.Rules` value.

Every sentence is generated from the rule set's own settings and derived facts
(``removed``, ``kitty_size``, ``pass_cycle``, ``points``, ``penalty_mask``,
``first_trick_forbidden``, ``penalty_total``...), the same values the engine
reads, so the text cannot say something the engine does not enforce. All the
words come from the message catalog (English and Spanish).

:func:`sections` returns ``[(heading, [paragraph, ...]), ...]``;
:func:`tips` the strategy advice and typical mistakes of the sources that
apply to the rule set; :func:`render` lays either out as plain text.
"""

from __future__ import annotations

from collections.abc import Callable

from ..text.catalog import CATALOG, preset_name, t
from .cards import CARDS, HEARTS_MASK, SUIT_MASKS, Card
from .rules import (
    DEFAULT_PRESET,
    Deck,
    Direction,
    FirstLead,
    FirstTrick,
    HeartsBreak,
    Moon,
    Passing,
    Rules,
    Ties,
    preset_info,
)

Sections = list[tuple[str, list[str]]]

TWO_OF_CLUBS = CARDS[0]
QUEEN_OF_SPADES = CARDS[49]
JACK_OF_DIAMONDS = CARDS[22]

# What all four sources agree on; anything else is a variant worth naming.
_STANDARD = {
    "deck": Deck.REMOVE, "passing": Passing.STANDARD, "pass_count": 3,
    "first_lead": FirstLead.LOWEST_CLUB, "first_trick": FirstTrick.NO_POINTS,
    "hearts_break": HeartsBreak.HEART, "moon": Moon.OTHERS,
    "jack_of_diamonds": False, "spot_hearts": False, "black_maria": False, "queen_penalty": True,
}


def _cards(mask: int) -> list[Card]:
    """The cards of a mask in canonical order (cheap for the few masks a text needs)."""
    return [CARDS[c] for c in range(52) if mask >> c & 1]


class _Writer:
    """Renders catalog messages for one language, cards with symbols or ASCII."""

    def __init__(self, lang: str, ascii: bool):
        self.lang = lang
        self.ascii = ascii

    def __call__(self, message_id: str, **params: object) -> str:
        text = t(message_id, self.lang, ascii=self.ascii, **params)
        return _ascii_suits(text) if self.ascii else text

    def card(self, c: Card) -> str:
        return c.face(self.ascii)

    def join(self, items: list[str], word: str = "rt_and") -> str:
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + " " + self(word) + " " + items[-1]

    def number(self, n: int) -> str:
        return str(n).replace("-", "−")

    def describe(self, mask: int, rules: Rules) -> str:
        """A set of cards in words: "hearts, Q♠" when it holds every heart in play."""
        parts = []
        hearts = HEARTS_MASK & rules.in_play_mask
        if hearts and mask & hearts == hearts:
            parts.append(self("rt_hearts"))
            mask &= ~hearts
        parts += [self.card(c) for c in _cards(mask)]
        return self.join(parts)


# ---------------------------------------------------------------- the rules


def sections(rules: Rules, lang: str, ascii: bool = False) -> Sections:
    """The whole rule set as headed paragraphs, in ``lang``."""
    w = _Writer(lang, ascii)
    return [
        (w("rt_h_deck"), _deck(rules, w)),
        (w("rt_h_passing"), _passing(rules, w)),
        (w("rt_h_play"), _play(rules, w)),
        (w("rt_h_first_trick"), _first_trick(rules, w)),
        (w("rt_h_hearts"), _hearts(rules, w)),
        (w("rt_h_scoring"), _scoring(rules, w)),
        (w("rt_h_moon"), _moon(rules, w)),
        (w("rt_h_end"), _end(rules, w)),
        (w("rt_h_variants"), _variants(rules, w)),
    ]


def title(rules: Rules, lang: str, ascii: bool = False) -> list[str]:
    """The heading lines: the preset, its description and source, any overrides.

    The description ("4 players, target 50...") is the preset's: with overrides it is
    left out, since it would contradict them (``--players 3``); the changes say what differs.
    """

    w = _Writer(lang, ascii)
    name = rules.preset or DEFAULT_PRESET
    lines = [w("rt_title", preset=preset_name(name, lang))]
    try:
        info = preset_info(name)
    except Exception:  # a preset file that vanished: the rules still stand
        info = {}
    desc = info.get("description")
    if isinstance(desc, dict) and not rules.overrides:  # with --set, the preset's line tells other rules
        text = desc.get(lang) or desc.get("en")
        if text:
            lines.append(_ascii_suits(text) if ascii else text)
    if rules.overrides:
        lines.append(w("rt_changed", changes=changes(rules)))
    source = _source_id(info.get("source"))
    if source is not None:
        lines.append(w("rt_source", source=w(source)))
    return lines


def changes(rules: Rules) -> str:
    """What ``rules`` change from their preset, as ``--set`` takes it: ``players=3, jack_of_diamonds=true``."""
    from .overrides import format_set  # only when asked for: start-up of the commands that do not

    return ", ".join(format_set(rules))


def _source_id(source: object) -> str | None:
    """The message that says what a preset's source is (its file name means nothing to a player)."""

    if not isinstance(source, str):
        return None
    mid = f"rt_source_{source[:3]}"
    return mid if mid in CATALOG["en"] else None


def _ascii_suits(text: str) -> str:
    for sym, letter in zip("♣♦♥♠", "CDHS"):
        text = text.replace(sym, letter)
    return text.replace("−", "-")


def _deck(r: Rules, w: _Writer) -> list[str]:
    out = [w("rt_deck", players=r.players) if r.decks == 1 else w("rt_deck_two", players=r.players)]
    if r.removed:
        removed = [w.card(c) for c in r.removed]
        mid = "rt_removed_one" if len(removed) == 1 else "rt_removed_many"
        if r.decks > 1:
            mid += "_copy"
        out.append(w(mid, cards=w.join(removed), left=sum(r.copies), hand=r.hand_size))
    elif r.kitty_size:
        mid = "rt_kitty_one" if r.kitty_size == 1 else "rt_kitty_many"
        out.append(w(mid, hand=r.hand_size, kitty=r.kitty_size))
    else:
        out.append(w("rt_full", hand=r.hand_size))
    out.append(w("rt_deal"))
    return out


def _passing(r: Rules, w: _Writer) -> list[str]:
    cycle = r.pass_cycle
    if all(d is Direction.NONE for d in cycle):
        return [w("rt_pass_none")]
    out = [w("rt_pass", count=r.pass_count)]
    if len(cycle) == 1:
        out.append(w("rt_pass_fixed", direction=w(f"rt_to_{cycle[0].value}")))
    else:
        names = [w(f"dir_{d.value}") for d in cycle]
        out.append(w("rt_pass_cycle", n=len(cycle), directions=", ".join(names)))
    return out


def lowest_club_in_play(r: Rules) -> Card:
    """The card a first lead of ``lowest_club`` names: the lowest club in play or,
    with no club in play, the lowest card in play, clubs to spades (core.lead_card
    over the whole deal; seeds/README.md)."""
    pool = r.in_play_mask & SUIT_MASKS[0] or r.in_play_mask
    return CARDS[(pool & -pool).bit_length() - 1]


def _play(r: Rules, w: _Writer) -> list[str]:
    out = []
    if r.first_lead is FirstLead.ANY:
        out.append(w("rt_lead_any"))
    else:
        low = lowest_club_in_play(r)
        if low == TWO_OF_CLUBS:
            out.append(w("rt_lead_two_clubs", card=TWO_OF_CLUBS))
            if r.kitty_size:
                out.append(w("rt_lead_kitty", two=TWO_OF_CLUBS))
        elif low.suit:
            out.append(w("rt_lead_no_club", card=low))
        else:
            out.append(w("rt_lead_lowest", two=TWO_OF_CLUBS, card=low))
        if low is not None and r.twice_mask >> low & 1 and not r.kitty_size:
            out.append(w("rt_lead_twice", card=low))
    out.append(w("rt_follow"))
    if r.decks > 1:
        out.append(w("rt_cancel"))
        out.append(w("rt_cancel_aside"))
        out.append(w(f"rt_cancel_last_{r.set_aside_last}"))
    return out


def _first_trick(r: Rules, w: _Writer) -> list[str]:
    forbidden = r.first_trick_forbidden & r.in_play_mask
    if not forbidden:
        return [w("rt_ft_any")]
    out = [w("rt_ft_forbid", cards=w.describe(forbidden, r))]
    scoring = [c for c in range(52) if r.points[c] and not forbidden >> c & 1 and r.in_play_mask >> c & 1]
    if scoring:
        out.append(w("rt_ft_allowed", cards=", ".join(w.card(CARDS[c]) for c in scoring)))
    return out


def _hearts(r: Rules, w: _Writer) -> list[str]:
    if r.hearts_break is HeartsBreak.FREE:
        return [w("rt_hb_free")]
    if r.hearts_break is HeartsBreak.HEART_OR_QUEEN:
        return [w("rt_hb_queen", queen=QUEEN_OF_SPADES)]
    return [w("rt_hb_heart"), w("rt_hb_queen_no", queen=QUEEN_OF_SPADES)]


def _scoring(r: Rules, w: _Writer) -> list[str]:
    pts = r.points
    out = [w("rt_sc_intro")]
    hearts = [c for c in range(26, 39) if r.in_play_mask >> c & 1]
    values = [pts[c] for c in hearts]
    if len(set(values)) == 1:
        v = values[0]
        out.append(w("rt_sc_hearts_one") if v == 1 else w("rt_sc_hearts_same", points=v))
    elif values == [CARDS[c].rank for c in hearts]:
        out.append(w("rt_sc_hearts_face", total=sum(values)))
    else:
        listed = ", ".join(f"{w.card(CARDS[c])} {pts[c]}" for c in hearts)
        out.append(w("rt_sc_hearts_list", values=listed))
    bonus = []
    for c in range(52):
        if c // 13 == 2 or not r.in_play_mask >> c & 1 or not pts[c]:
            continue
        if pts[c] > 0:
            out.append(w("rt_sc_card", card=CARDS[c], points=pts[c]))
        else:
            out.append(w("rt_sc_bonus", card=CARDS[c], points=w.number(pts[c])))
            bonus.append(c)
    if not pts[QUEEN_OF_SPADES]:
        out.append(w("rt_sc_zero", card=QUEEN_OF_SPADES))
    out.append(w("rt_sc_other"))
    if r.sun or r.no_trick_bonus:  # a round's total is no longer fixed: say only what the cards hold
        out.append(w("rt_sc_total_cards", total=r.penalty_total))
    elif bonus:
        out.append(w("rt_sc_total_bonus", total=r.penalty_total,
                     cards=w.join([w.card(CARDS[c]) for c in bonus]),
                     net=w.number(r.round_total)))
    else:
        out.append(w("rt_sc_total", total=r.penalty_total))
    return out


def _moon(r: Rules, w: _Writer) -> list[str]:
    cards = w.describe(r.penalty_mask, r)
    total = r.penalty_total
    mid = {Moon.OFF: "rt_moon_off", Moon.OTHERS: "rt_moon_others",
           Moon.SHOOTER_MINUS: "rt_moon_minus", Moon.SHOOTER_CHOICE: "rt_moon_choice"}[r.moon]
    out = [w(mid, cards=cards, total=total)]
    if r.moon is not Moon.OFF and r.twice_mask & r.penalty_mask:
        out.append(w("rt_moon_twice"))
    if r.moon is not Moon.OFF:
        bonus = [c for c in range(52) if r.points[c] < 0 and r.in_play_mask >> c & 1]
        for c in bonus:
            out.append(w("rt_moon_bonus", card=CARDS[c], points=w.number(r.points[c])))
    return out


def _end(r: Rules, w: _Writer) -> list[str]:
    tie = {Ties.SHARE: "rt_tie_share", Ties.ONE_MORE_ROUND: "rt_tie_one_more",
           Ties.UNTIL_SINGLE: "rt_tie_until"}[r.ties]
    return [w("rt_end", target=r.target), w(tie)]


def variant_ids(r: Rules) -> list[tuple[str, dict[str, object]]]:
    """The variants switched on, as ``(message_id, params)``, in a fixed order."""
    out: list[tuple[str, dict[str, object]]] = []
    if r.deck is Deck.KITTY and r.kitty_size:
        out.append(("rt_var_kitty", {}))
    cycle = r.pass_cycle
    if all(d is Direction.NONE for d in cycle):
        out.append(("rt_var_cutthroat", {}))
    elif len(cycle) == 1:
        out.append(("rt_var_fixed_pass", {"to": f"rt_to_{cycle[0].value}"}))
    elif isinstance(r.passing, tuple):
        out.append(("rt_var_custom_cycle", {}))
    if r.pass_count != _STANDARD["pass_count"] and not all(d is Direction.NONE for d in cycle):
        out.append(("rt_var_pass_count", {"count": r.pass_count}))
    if r.first_lead is FirstLead.ANY:
        out.append(("rt_var_old_lead", {}))
    if r.first_trick is FirstTrick.NO_HEARTS:
        out.append(("rt_var_ft_hearts", {}))
    elif r.first_trick is FirstTrick.ANY:
        out.append(("rt_var_ft_any", {}))
    if r.hearts_break is HeartsBreak.HEART_OR_QUEEN:
        out.append(("rt_var_queen_breaks", {}))
    elif r.hearts_break is HeartsBreak.FREE:
        out.append(("rt_var_free", {}))
    moon = {Moon.OFF: "rt_var_no_moon", Moon.SHOOTER_MINUS: "rt_var_shooter_minus",
            Moon.SHOOTER_CHOICE: "rt_var_shooter_choice"}.get(r.moon)
    if moon:
        out.append((moon, {"total": r.penalty_total}))
    if r.jack_of_diamonds:
        out.append(("rt_var_omnibus", {}))
    if r.spot_hearts:
        out.append(("rt_var_spot", {}))
    if r.black_maria:
        out.append(("rt_var_black_maria", {}))
    if not r.queen_penalty:
        out.append(("rt_var_british", {}))
    if r.no_trick_bonus:
        out.append(("rt_var_no_trick_bonus", {"points": r.no_trick_bonus}))
    if r.sun:
        out.append(("rt_var_sun_minus" if r.sun < 0 else "rt_var_sun_others", {"points": abs(r.sun)}))
    return out


def _variants(r: Rules, w: _Writer) -> list[str]:
    found = variant_ids(r)
    if not found:
        return [w("rt_var_none")]
    out = []
    for mid, params in found:
        to = params.get("to")
        if isinstance(to, str):  # (a direction's message id)
            params = {"direction": w(to)}
        out.append("- " + w(mid, **params))
    return out


# ---------------------------------------------------------------- tips


def tips(rules: Rules, lang: str, ascii: bool = False) -> Sections:
    """Strategy advice and typical mistakes from the sources (000, 003, 004).

    Only what applies to the rule set: no passing advice without a pass, no
    moon advice without a moon, no Q♠ advice when the Q♠ scores nothing.
    """
    w = _Writer(lang, ascii)
    r = rules
    passing = not all(d is Direction.NONE for d in r.pass_cycle)
    queen = bool(r.points[QUEEN_OF_SPADES] > 0)
    moon = r.moon is not Moon.OFF
    first_safe = bool(r.first_trick_forbidden)
    advice = []
    across = Direction.ACROSS in r.pass_cycle
    jack = r.points[JACK_OF_DIAMONDS]
    if passing:
        if queen:
            advice.append("rt_tip_pass_candidates")
            advice.append("rt_tip_pass_queen")
            if across:  # 003: never pass the Q♠ across
                advice.append("rt_tip_pass_queen_across")
            advice.append("rt_tip_pass_spades")
        advice.append("rt_tip_pass_void")
    else:
        advice.append("rt_tip_no_pass")
    advice.append("rt_tip_follow_low")
    if r.decks > 1:
        advice += _two_deck_tips(r)
    advice.append("rt_tip_high_early")
    if first_safe:
        advice.append("rt_tip_first_trick")
    advice.append("rt_tip_no_tricks")
    if queen:
        advice.append("rt_tip_lead_spades")
        advice.append("rt_tip_count_spades" if r.decks == 1 else "rt_tip2_count_spades")
    advice.append("rt_tip_voids")
    if jack < 0:  # Omnibus: the J♦ is worth taking
        advice.append("rt_tip_jack")
    if moon:
        advice.append("rt_tip_moon_watch")
        advice.append("rt_tip_moon_shoot" if passing else "rt_tip_moon_shoot_no_pass")
    mistakes = []
    if moon:
        mistakes.append("rt_mis_moon")
    if queen:
        mistakes.append("rt_mis_big_spades")
    mistakes.append("rt_mis_lone_card")
    if first_safe:
        mistakes.append("rt_mis_first_small")
    if r.decks > 1:
        mistakes += ["rt_mis2_once", "rt_mis2_aside"]
    singles = [w.card(CARDS[c]) for c in range(52) if r.copies[c] == 1]
    params = {"total": r.penalty_total, "queen": QUEEN_OF_SPADES, "jack": JACK_OF_DIAMONDS,
              "bonus": -jack, "ace": CARDS[51], "king": CARDS[50], "single": w.join(singles),
              "kitty": r.kitty_size, "queens": 2 * r.points[QUEEN_OF_SPADES],
              "card": lowest_club_in_play(r)}
    return [
        (w("rt_h_tips"), ["- " + w(m, **params) for m in advice]),
        (w("rt_h_mistakes"), ["- " + w(m, **params) for m in mistakes]),
    ]


def _two_deck_tips(r: Rules) -> list[str]:
    """Cancellation Hearts advice, true to the settings in force: which cards are in
    play once, the kitty, the first lead, and who takes a cancelled last trick."""
    out = ["rt_tip2_twin", "rt_tip2_twin_safe_single" if 1 in r.copies else "rt_tip2_twin_safe",
           "rt_tip2_duplicate", "rt_tip2_aside", f"rt_tip2_last_{r.set_aside_last}"]
    if r.kitty_size:
        out.append("rt_tip2_kitty")
    if r.first_lead is FirstLead.ANY:
        out.append("rt_tip2_lead_any_single" if 1 in r.copies else "rt_tip2_lead_any")
    else:
        low = lowest_club_in_play(r)
        if r.twice_mask >> low & 1 and not r.kitty_size:
            out.append("rt_tip2_lead_twice")
    return out


# ---------------------------------------------------------------- layout


def render(head: list[str], body: Sections, width: int = 78,
           heading: Callable[[str], str] = lambda s: s) -> str:
    """Plain text: the title lines, then each heading and its wrapped paragraphs."""
    lines = [wrapped for line in head for wrapped in _wrap(line, width, "", "")]
    for name, paragraphs in body:
        lines.append("")
        lines.append(heading(name))
        for p in paragraphs:
            later = "    " if p.startswith("- ") else "  "
            lines.extend(_wrap(p, width, "  ", later))
    return "\n".join(lines) + "\n"


def _wrap(text: str, width: int, first: str, later: str) -> list[str]:
    """Greedy word wrap (textwrap's import alone costs more than the whole text), a name
    kept with its number (:func:`~hearts_cli.base.wrapping.units`)."""
    from ..base.wrapping import units  # only when asked for: start-up of the commands that do not

    out: list[str] = []
    line = first
    empty = True
    for word in units(text):
        if not empty and len(line) + 1 + len(word) > width:
            out.append(line)
            line, empty = later, True
        line += word if empty else " " + word
        empty = False
    if not empty:
        out.append(line)
    return out


def rules_json(rules: Rules) -> dict[str, object]:
    """The settings and the facts derived from them, as plain JSON data."""

    return {
        "preset": rules.preset or DEFAULT_PRESET,
        "overrides": dict(rules.overrides),
        "settings": rules.settings(),
        "derived": {
            "removed": [str(c) for c in rules.removed],
            "hand_size": rules.hand_size,
            "kitty_size": rules.kitty_size,
            "pass_cycle": [d.value for d in rules.pass_cycle],
            "first_lead_card": (str(lowest_club_in_play(rules))
                                if rules.first_lead is FirstLead.LOWEST_CLUB else None),
            "points": {str(CARDS[c]): p for c, p in enumerate(rules.points) if p},
            "first_trick_forbidden": [str(c) for c in _cards(rules.first_trick_forbidden)],
            "penalty_cards": [str(c) for c in _cards(rules.penalty_mask)],
            "penalty_total": rules.penalty_total,
            "round_total": rules.round_total,
            "variants": [mid.removeprefix("rt_var_") for mid, _ in variant_ids(rules)],
        },
    }
