"""The fast playout path plays exactly the engine's rules.

Every test drives ``hearts_cli.play.fast`` and ``round.Round`` with the same
random choices (each one ``fast.pick_index`` into the legal cards in
canonical order) and checks they agree: the legal set at every position,
what each seat took, the points and the final scores, for every preset and
every player count from 3 to 6 (kitty decks included).
"""

from __future__ import annotations

import random

import pytest

from hearts_cli.model.cards import cards_of
from hearts_cli.model.rules import Rules, load_preset, preset_names
from hearts_cli.play import fast
from hearts_cli.play.dealt import Phase, better_moon_choice
from hearts_cli.play.round import Round

# the one-deck presets (the mask paths); two decks: tests/test_core_paths.py (fast.MultiPosition)
ONE_DECK = [name for name in preset_names() if load_preset(name).decks == 1]
CONFIGS = [(name, n) for name in ONE_DECK for n in range(3, 7)]


def rules_for(name: str, players: int) -> Rules:
    return load_preset(name).replace(players=players)


def pick(cards, rng: random.Random):
    return cards[fast.pick_index(rng, len(cards))]


def engine_round(rules: Rules, rng: random.Random, scores=None) -> Round:
    """The engine's round after the same draws as ``fast.random_round``: direction, deal and passes."""
    cycle = rules.pass_cycle
    direction = cycle[fast.pick_index(rng, len(cycle))]
    hands, kitty, passes = fast.deal_with_passes(rules, rng)
    r = Round(rules, [cards_of(h) for h in hands], kitty=cards_of(kitty),
              direction=direction, dealer=0, scores=scores)
    if r.phase is Phase.PASS:
        for seat in range(rules.players):
            r.pass_cards(cards_of(passes[seat]), seat)
    return r


def play_engine(r: Round, rng: random.Random) -> None:
    while r.phase is Phase.PLAY:
        r.play(pick(r.legal_cards(), rng))
    if r.phase is Phase.MOON:  # the fast path assumes the better choice (dealt.score_round)
        r.choose_moon(better_moon_choice(r.rules, r.turn, r.taken, r.scores_before))


def random_scores(rng: random.Random, n: int) -> tuple[int, ...]:
    return tuple(rng.randrange(0, 90) for _ in range(n))


@pytest.mark.parametrize("name,players", CONFIGS)
def test_random_rounds_match_engine(name: str, players: int) -> None:
    """The inlined random loop ends every round exactly where the engine does."""
    rules = rules_for(name, players)
    for seed in range(40):
        before = random_scores(random.Random(-seed), players)
        a, b = random.Random(seed), random.Random(seed)
        got = fast.random_round(rules, a, scores=before)
        r = engine_round(rules, b, scores=before)
        play_engine(r, b)
        assert got == r.result.scores, (name, players, seed)
        assert a.random() == b.random()  # the same number of draws: the same choices


@pytest.mark.parametrize("name,players", CONFIGS)
def test_legal_sets_match_engine_at_every_position(name: str, players: int) -> None:
    """Step by step: ``Position.legal_mask`` equals ``Round.legal_mask`` everywhere."""
    rules = rules_for(name, players)
    for seed in range(25):
        rng = random.Random(1000 + seed)
        r = engine_round(rules, rng, scores=random_scores(rng, players))
        pos = fast.Position.from_round(r)
        start = fast.Position.start(rules, r.hands, kitty=r.kitty_mask, dealer=r.dealer,
                                    scores=r.scores_before)
        assert (start.leader, start.hands, start.kitty) == (pos.leader, pos.hands, pos.kitty)
        seen = []

        def policy(legal: int, p: fast.Position) -> int:
            assert p.turn == r.turn
            assert legal == r.legal_mask(), (name, players, seed, len(r.tricks), r.trick)
            assert p.hearts_broken == r.hearts_broken
            seen.append(legal)
            c = pick(cards_of(legal), rng)
            r.play(c)
            return c

        scores = fast.playout(pos, rng, policy)
        assert r.over and pos.over
        assert len(seen) == rules.hand_size * players
        assert pos.taken == r.taken
        assert pos.points == r.points
        assert scores == r.result.scores


@pytest.mark.parametrize("name", ONE_DECK)
def test_playout_from_mid_round_matches_engine(name: str) -> None:
    """A bot's playout can start anywhere: mid-trick, after the first trick, near the end."""
    for players in (3, 4, 5, 6):
        rules = rules_for(name, players)
        total = rules.hand_size * players
        for seed in range(20):
            rng = random.Random(5000 + seed)
            r = engine_round(rules, rng)
            for _ in range(rng.randrange(total)):
                r.play(pick(r.legal_cards(), rng))
            pos = fast.Position.from_round(r)
            a, b = random.Random(seed), random.Random(seed)
            keep = pos.copy()
            got = fast.playout(pos, a)
            e = r.copy()
            play_engine(e, b)
            assert got == e.result.scores
            assert pos.taken == e.taken and pos.points == e.points
            assert a.random() == b.random()
            # the copy was untouched, and a seat's view plus the true hands rebuilds it
            assert keep.hands == list(r.hands) and keep.trick == list(r.trick)
            view = r.view(r.turn)
            rebuilt = fast.Position.from_view(view, r.hands, 0 if r.kitty_taken else r.kitty_mask)
            for slot in fast.Position.__slots__:
                assert getattr(rebuilt, slot) == getattr(keep, slot), slot


def greedy_moon(legal: int, p: fast.Position) -> int:
    """Seat 0 plays its highest legal card, everyone else their lowest: moons happen."""
    cards = cards_of(legal)
    return cards[-1] if p.turn == 0 else cards[0]


@pytest.mark.parametrize("name", ["quick", "omnibus", "shooter-choice", "shooter-minus",
                                  "spot", "black-maria", "kitty", "no-moon", "queen-breaks"])
def test_moon_and_scoring_with_a_policy(name: str) -> None:
    """A moon-prone heuristic policy: scores (moon, J♦, spot, black maria) match ``score_round``."""
    moons = 0
    for players in (3, 4, 5, 6):
        rules = rules_for(name, players)
        for seed in range(60):
            rng = random.Random(9000 + seed)
            r = engine_round(rules, rng, scores=random_scores(rng, players))
            pos = fast.Position.from_round(r)

            def policy(legal: int, p: fast.Position) -> int:
                assert legal == r.legal_mask()
                c = greedy_moon(legal, p)
                r.play(c)
                return c

            scores = fast.playout(pos, rng, policy)
            if r.phase is Phase.MOON:  # the fast path assumes the shooter's better choice
                r.choose_moon(better_moon_choice(r.rules, r.turn, r.taken, r.scores_before))
            assert scores == r.result.scores
            moons += r.result.shooter is not None
    if name != "no-moon":
        assert moons > 0  # the moon rules really were exercised


def test_deal_is_a_partition_of_the_cards_in_play() -> None:
    rng = random.Random(7)
    for name, players in CONFIGS:
        rules = rules_for(name, players)
        hands, kitty = fast.deal(rules, rng)
        assert len(hands) == players
        assert all(h.bit_count() == rules.hand_size for h in hands)
        assert kitty.bit_count() == rules.kitty_size
        union = kitty
        for h in hands:
            assert not union & h
            union |= h
        assert union == rules.in_play_mask


def test_deal_with_passes_passes_part_of_each_hand() -> None:
    """The same draws as ``deal``; each pass is ``pass_count`` cards of the seat's own hand."""
    for name, players in CONFIGS:
        rules = rules_for(name, players)
        for seed in range(5):
            hands, kitty, passes = fast.deal_with_passes(rules, random.Random(seed))
            assert (hands, kitty) == fast.deal(rules, random.Random(seed))
            for h, p in zip(hands, passes):
                assert p & h == p and p.bit_count() == rules.pass_count


def test_passes_are_uniform_enough() -> None:
    """Each dealt card is passed about pass_count / hand_size of the time, whatever the card."""
    rules = load_preset("quick")
    rng = random.Random(12)
    passed = [0] * 52
    rounds = 4000
    for _ in range(rounds):
        _, _, passes = fast.deal_with_passes(rules, rng)
        for p in passes:
            for c in cards_of(p):
                passed[c] += 1
    expected = rounds * rules.pass_count / rules.hand_size  # about 923
    assert all(abs(x - expected) < 150 for x in passed), passed


def test_random_pass_is_what_the_engine_does() -> None:
    """``random_pass``: held.pop(pick_index) per card, seat 0 first, as a Round caller would."""
    for name, players in CONFIGS:
        rules = rules_for(name, players)
        direction = next((d for d in rules.pass_cycle if d.value != "none"), None)
        if direction is None:
            continue
        for seed in range(5):
            hands, kitty = fast.deal(rules, random.Random(seed))
            a, b = random.Random(seed), random.Random(seed)
            after = fast.random_pass(rules, hands, direction, a)
            r = Round(rules, [cards_of(h) for h in hands], kitty=cards_of(kitty), direction=direction)
            for seat in range(players):
                held = list(r.hand(seat))
                r.pass_cards([held.pop(fast.pick_index(b, len(held)))
                              for _ in range(rules.pass_count)], seat)
            assert after == r.hands


def test_deal_is_uniform_enough() -> None:
    """Each card lands in each seat about equally often (a gross-bias check, not a proof)."""
    rules = load_preset("quick")
    rng = random.Random(11)
    counts = [[0] * 4 for _ in range(52)]
    for _ in range(2000):
        hands, _ = fast.deal(rules, rng)
        for s, h in enumerate(hands):
            for c in cards_of(h):
                counts[c][s] += 1
    for row in counts:
        assert all(380 < x < 620 for x in row), row


def test_random_card_and_points_of() -> None:
    rng = random.Random(3)
    rules = load_preset("omnibus").replace(spot_hearts=True, black_maria=True)
    for _ in range(500):
        mask = rng.getrandbits(52) or 1
        assert mask >> fast.random_card(mask, rng) & 1
        assert fast.points_of(rules, mask) == sum(rules.points[c] for c in cards_of(mask))


def test_policy_must_be_given_the_position_to_move() -> None:
    """A policy is called with the position being played, up to date, and its legal cards;
    the random policy function and the inlined loop make the same choices."""
    rules = load_preset("quick")
    for seed in range(30):
        hands, kitty = fast.deal(rules, random.Random(seed))
        p1 = fast.Position.start(rules, hands, kitty=kitty)
        p2 = p1.copy()
        a, b = random.Random(seed), random.Random(seed)
        inner = fast.random_policy(b)
        calls = []

        def policy(legal: int, p: fast.Position) -> int:
            assert p is p2  # the position itself, not a copy or another one
            assert legal == p.legal_mask() and legal & p.hands[p.turn] == legal and legal
            assert len(p.trick) == len(calls) % rules.players  # every earlier card already played
            calls.append(legal)
            return inner(legal, p)

        assert fast.playout(p1, a) == fast.playout(p2, b, policy)
        assert p1.taken == p2.taken
        assert len(calls) == rules.hand_size * rules.players


@pytest.mark.parametrize("name", ONE_DECK)
def test_playout_from_the_first_lead_matches_engine(name: str) -> None:
    """The generated loop's first trick (forced or free lead, first-trick rules, kitty)."""
    for players in (3, 4, 5, 6):
        rules = rules_for(name, players)
        for seed in range(10):
            rng = random.Random(7000 + seed)
            r = engine_round(rules, rng)
            pos = fast.Position.start(rules, r.hands, kitty=r.kitty_mask, dealer=r.dealer)
            a, b = random.Random(seed), random.Random(seed)
            got = fast.playout(pos, a)
            play_engine(r, b)
            assert got == r.result.scores
            assert pos.taken == r.taken and pos.points == r.points and pos.over
            assert a.random() == b.random()
