"""Every path that plays cards agrees with the engine, on random positions.

The rules are written once (``hearts_cli.play.core``); the engine's step API asks
it, and the fast path's code is generated from it. This differential test is
what keeps the derived paths honest: for every preset at every player count
(3 to 6; two decks at 6 to 11, at the end), on random positions (whole deals, positions with a seat void in the
led suit on the first trick, positions anywhere in a round), it checks that

* ``Round.legal_mask`` and ``Round.why`` agree card by card (a refused card
  has a reason, a legal card has none);
* ``fast.Position.legal_mask`` and ``Position.play`` give the engine's legal
  sets, trick winners, taken cards, points and scores;
* ``fast.playout_steps`` (Hard's and ``replay --analyze``'s loop) offers the
  engine's legal set, seat and trick winner so far at every card, and ends
  with the engine's scores;
* the generated random loops (``fast.playout`` from a position, and
  ``fast.random_round``) end every round where the engine does, draw for draw.

``tests/mutation.py`` breaks each derived path in turn and shows that this
file notices (see docs/testing.md).
"""

from __future__ import annotations

import random

import pytest

from hearts_cli.model.cards import SUIT_MASKS, cards_of
from hearts_cli.model.rules import Rules, RulesError, load_preset, preset_names
from hearts_cli.play import core, fast
from hearts_cli.play.dealt import Phase
from hearts_cli.play.round import Round

# one-deck presets at 3 to 6 players (two-deck rule sets: the tests at the end of this file)
CONFIGS = [(name, n) for name in preset_names() if load_preset(name).decks == 1 for n in range(3, 7)]
# issue 26: the bonus for taking no trick, scored by core.score_round on every path
CONFIGS += [("quick+bonus", 4), ("omnibus+bonus", 4), ("no-moon+bonus", 5)]


def rules_for(name: str, players: int) -> Rules:
    name, _, bonus = name.partition("+")
    try:
        return load_preset(name).replace(players=players, **({"no_trick_bonus": -5} if bonus else {}))
    except RulesError:
        pytest.skip(f"{name} cannot be played by {players}")


def pick(mask: int, rng: random.Random) -> int:
    cards = cards_of(mask)
    return cards[fast.pick_index(rng, len(cards))]


def void_first_follower(rules: Rules, hands: list[int], leader: int, rng: random.Random) -> list[int]:
    """The same deal with the seat after ``leader`` made void in clubs (the first
    trick's suit under a lowest-club lead) by swapping its clubs for other seats'
    non-clubs: a first-trick discard is then certain to come up."""
    n = rules.players
    hands = list(hands)
    seat = (leader + 1) % n
    clubs = SUIT_MASKS[0]
    for c in cards_of(hands[seat] & clubs):
        if core.lead_card(hands) == c:
            continue  # the card that leads stays with its holder
        for other in rng.sample(range(n), n):
            if other in (seat, leader):
                continue
            spare = hands[other] & ~clubs
            if spare:
                x = pick(spare, rng)
                hands[seat] += (1 << x) - (1 << c)
                hands[other] += (1 << c) - (1 << x)
                break
    return hands


def position(rules: Rules, rng: random.Random, *, void: bool) -> Round:
    """A random round at its first lead (after the pass), sometimes with a void follower."""
    direction = rules.pass_cycle[fast.pick_index(rng, len(rules.pass_cycle))]
    hands, kitty, passes = fast.deal_with_passes(rules, rng)
    r = Round(rules, [cards_of(h) for h in hands], kitty=cards_of(kitty), direction=direction,
              dealer=rng.randrange(rules.players),
              scores=tuple(rng.randrange(0, 90) for _ in range(rules.players)))
    if r.phase is Phase.PASS:
        for seat in range(rules.players):
            r.pass_cards(cards_of(passes[seat]), seat)
    if void:
        hands = void_first_follower(rules, r.hands, r.leader, rng)
        r = Round(rules, [cards_of(h) for h in hands], kitty=cards_of(r.kitty_mask),
                  direction="none", dealer=r.dealer, scores=r.scores_before)
    return r


def check_step_api(r: Round, legal_too: bool = True) -> None:
    """``Round.legal_mask`` and ``Round.why`` agree on every card of the hand (``legal_too=False``:
    on every card it refuses; a legal card's verdict also weighs what it would do over sampled
    deals, which costs a hundred times more and is the same rule: judge asks legal_mask)."""
    legal = r.legal_mask()
    assert legal and legal & r.hands[r.turn] == legal
    for c in cards_of(r.hands[r.turn] if legal_too else r.hands[r.turn] & ~legal):
        v = r.why(c)
        assert v.legal == bool(legal >> c & 1), (c, v)
        if not v.legal:
            assert v.reason is not None and v.reason.code in REASONS


REASONS = {x.reason for x in core.RESTRICTIONS} | {"must_lead_two_clubs"}


def settle(r: Round) -> None:
    """A moon under the shooter's choice waits for it (Phase.MOON); the fast paths assume
    the better choice (core.score_round without one), so the engine is given that."""
    if r.phase is Phase.MOON:
        r.choose_moon(core.better_moon_choice(r.rules, r.turn, r.taken, r.scores_before))


@pytest.mark.parametrize("name,players", CONFIGS)
def test_position_and_step_api_match_the_engine_card_by_card(name, players):
    """fast.Position (legal_mask, play, result) beside the engine, on random plays."""
    rules = rules_for(name, players)
    firsts = 0
    for seed in range(12):
        rng = random.Random(seed)
        r = position(rules, rng, void=seed % 2 == 0)
        pos = fast.Position.start(rules, r.hands, kitty=r.kitty_mask, dealer=r.dealer,
                                  scores=r.scores_before)
        assert pos.leader == r.leader
        while r.phase is Phase.PLAY:
            check_step_api(r, legal_too=len(r.tricks) == seed % 4)  # legal cards too in one trick a round
            legal = r.legal_mask()
            assert pos.legal_mask() == legal, (seed, len(r.tricks), r.trick)
            if not r.tricks and r.trick and not r.hands[r.turn] & SUIT_MASKS[r.trick[0] // 13]:
                firsts += 1  # a first-trick discard
            c = pick(legal, rng)
            done = r.play(c)
            pos.play(c)
            if done is not None:
                assert pos.leader == done.winner  # the trick winner
                assert pos.taken == r.taken and pos.points == r.points
        settle(r)
        assert pos.over and pos.result() == r.result.scores
    assert firsts  # the first-trick discard rule was exercised


@pytest.mark.parametrize("name,players", CONFIGS)
def test_playout_steps_matches_the_engine_card_by_card(name, players):
    """fast.playout_steps: legal set, seat, trick winner so far, and scores are the engine's,
    from the first lead (void followers included) and from anywhere in a round."""
    rules = rules_for(name, players)
    discards = 0
    for seed in range(12):
        rng = random.Random(100 + seed)
        r = position(rules, rng, void=seed % 2 == 0)
        for _ in range(rng.randrange(rules.hand_size * players) if seed % 3 == 2 else 0):
            r.play(pick(r.legal_mask(), rng))
        if r.over:
            continue
        pos = fast.Position.from_round(r)

        def policy(legal, seat, win_card, win_seat, p):
            nonlocal discards
            assert seat == r.turn and p.hands == r.hands
            assert legal == r.legal_mask(), (seed, len(r.tricks), r.trick)
            if r.trick:
                i = core.trick_winner(r.trick)
                assert (win_card, win_seat) == (r.trick[i], (r.leader + i) % players)
                discards += not r.tricks and not legal & SUIT_MASKS[r.trick[0] // 13]
            else:
                assert win_card == win_seat == -1
            c = pick(legal, rng)
            done = r.play(c)
            if done is not None and r.phase is Phase.PLAY:
                assert r.leader == done.winner
            return c

        scores = fast.playout_steps(pos, policy)
        settle(r)
        assert r.over and scores == r.result.scores
        assert pos.taken == r.taken and pos.points == r.points
    assert discards  # first-trick discards were offered to the policy


@pytest.mark.parametrize("name,players", CONFIGS)
def test_generated_loops_end_where_the_engine_does(name, players):
    """fast.playout (the generated `play` loop) from the first lead, from a trick
    boundary and from mid-trick, and fast.random_round (the generated `round_`):
    the engine makes the same draws and ends with the same cards taken and scores."""
    rules = rules_for(name, players)
    for seed in range(12):
        rng = random.Random(200 + seed)
        r = position(rules, rng, void=seed % 2 == 0)
        for _ in range(rng.randrange(rules.hand_size * players) if seed % 3 else 0):
            r.play(pick(r.legal_mask(), rng))
        pos = fast.Position.from_round(r) if not r.over else None
        if pos is None:
            continue
        a, b = random.Random(seed), random.Random(seed)
        got = fast.playout(pos, a)
        while r.phase is Phase.PLAY:
            r.play(pick(r.legal_mask(), b))
        settle(r)
        assert got == r.result.scores and pos.taken == r.taken and pos.points == r.points
        assert a.random() == b.random()  # the same draws
    for seed in range(12):
        a, b = random.Random(seed), random.Random(seed)
        before = tuple(range(players))
        got = fast.random_round(rules, a, dealer=seed % players, scores=before)
        direction = rules.pass_cycle[fast.pick_index(b, len(rules.pass_cycle))]
        hands, kitty, passes = fast.deal_with_passes(rules, b)
        r = Round(rules, [cards_of(h) for h in hands], kitty=cards_of(kitty), direction=direction,
                  dealer=seed % players, scores=before)
        if r.phase is Phase.PASS:
            for seat in range(players):
                r.pass_cards(cards_of(passes[seat]), seat)
        while r.phase is Phase.PLAY:
            r.play(pick(r.legal_mask(), b))
        settle(r)
        assert got == r.result.scores
        assert a.random() == b.random()


def test_the_generated_loops_are_in_use():
    """Every preset at every count gets the generated chunk loops (the fallback through
    Position exists for rules of another shape, not for these)."""
    for name, players in CONFIGS:
        try:
            rules = load_preset(name).replace(players=players)
        except RulesError:
            continue
        kit = fast._kit(rules)
        assert kit.play is not None and kit.round_ is not None, (name, players)


def test_the_fallback_without_generated_loops_plays_the_same_rounds(monkeypatch):
    """When the chunk loops do not apply, fast.playout and fast.random_round play
    through Position: the same draws, the same rounds."""
    rules = load_preset("quick").replace(players=5, target=77)  # a rule set of its own
    with_loops = [fast.random_round(rules, random.Random(s)) for s in range(20)]
    fast._KITS.pop(id(rules), None)
    monkeypatch.setattr("hearts_cli.play.fast_gen.compile_loops", lambda *a, **k: None)
    without = [fast.random_round(rules, random.Random(s)) for s in range(20)]
    fast._KITS.pop(id(rules), None)
    assert with_loops == without


# ---------------------------------------------------------------- two decks (Cancellation Hearts)
#
# With two decks the chunk loops do not apply: fast.MultiPosition (the generic
# path Hard's two-deck search plays on) must agree with the engine card by card,
# from the engine's round and from a seat's view completed with the real hands.

TWO_DECKS = [("cancellation", {}), ("cancellation", {"set_aside_last": "second"}),
             ("cancellation", {"deck": "kitty", "passing": "none", "first_lead": "any"}),
             ("cancellation", {"jack_of_diamonds": True, "moon": "shooter_minus"}),
             ("cancellation", {"spot_hearts": True, "first_trick": "any", "hearts_break": "free"})]
TWO_CONFIGS = [(i, n) for i in range(len(TWO_DECKS)) for n in range(6, 12)]


def two_deck_round(rules: Rules, rng: random.Random) -> Round:
    from hearts_cli.model.codes import code_from_number

    r = Round.deal(rules, code_from_number(rng.randrange(10**9)), rng.randrange(4),
                   scores=tuple(rng.randrange(0, 90) for _ in range(rules.players)))
    if r.phase is Phase.PASS:
        for seat in range(rules.players):
            r.pass_cards(rng.sample(list(r.hand(seat)), rules.pass_count), seat)
    return r


@pytest.mark.parametrize("which,players", TWO_CONFIGS)
def test_two_deck_path_matches_the_engine_card_by_card(which, players):
    """fast.MultiPosition (legal sets, set-aside tricks, winners, taken cards, points,
    scores) beside the engine, from the first lead and from anywhere in a round."""
    name, changes = TWO_DECKS[which]
    rules = load_preset(name).replace(players=players, **changes)
    seen_aside = seen_cancel = 0
    for seed in range(10):
        rng = random.Random(300 + seed)
        r = two_deck_round(rules, rng)
        for _ in range(rng.randrange(rules.hand_size * players) if seed % 2 else 0):
            r.play(pick(r.legal_mask(), rng))
        if r.over:
            continue
        pos = fast.MultiPosition.from_round(r)
        real = (list(r.hands), list(r.twice))
        view_pos = fast.MultiPosition.from_view(
            r.view(r.turn), *real,
            kitty=() if r.kitty_taken else sorted(cards_of(r.kitty_mask) + cards_of(r.kitty_twice)))
        assert (view_pos.taken, view_pos.taken2, view_pos.points, view_pos.aside) == (
            r.taken, r.taken_twice, r.points, r.set_aside)
        while not r.over:
            check_step_api(r)
            legal = r.legal_mask()
            assert pos.legal_mask() == legal == view_pos.legal_mask()
            c = pick(legal, rng)
            done = r.play(c)
            pos.play(c)
            view_pos.play(c)
            if done is not None:
                seen_aside += done.winner is None
                seen_cancel += bool(core.cancelled(done.cards))
                assert pos.leader == view_pos.leader == r.leader or r.over
                assert pos.aside == view_pos.aside == r.set_aside
                assert pos.taken == r.taken and pos.taken2 == r.taken_twice and pos.points == r.points
            assert (pos.hands, pos.twice) == (r.hands, r.twice)
        assert pos.over and pos.result() == r.result.scores == view_pos.result()
        assert sum(r.result.taken) == rules.round_total
    assert seen_cancel  # cancellation came up


def test_two_deck_random_rounds_hand_out_every_point():
    rules = load_preset("cancellation")
    rng = random.Random(5)
    for _ in range(50):
        scores = fast.multi_random_round(rules, rng)
        assert sum(scores) in (52, 52 * 7)  # a moon gives the seven others 52
