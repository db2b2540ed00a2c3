"""OpenSpiel's Hearts against ours (differential): for every preset OpenSpiel can play, the
same cards are legal at every play, and every round's exported actions, replayed in
``pyspiel``, score what we scored. Rounds are played at random and by a greedy shooter,
so that moons (with the J♦ where the rules have it) come up too."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import run

from hearts_cli import Game, Phase
from hearts_cli.model.codes import code_from_number
from hearts_cli.model.rules import Rules, preset_names
from hearts_cli.records.openspiel import NotOpenSpiel, action, openspiel_game, round_actions

pyspiel = pytest.importorskip("pyspiel")  # the test extra installs it (open-spiel)

ROOT = Path(__file__).resolve().parent.parent
TOTAL = 26  # OpenSpiel's returns are 26 minus the points


def _playable() -> list[str]:
    out = []
    for name in preset_names():
        try:
            openspiel_game(Rules.from_spec({"preset": name}))
        except NotOpenSpiel:
            continue
        out.append(name)
    return out


PLAYABLE = _playable()
# issue 26: OpenSpiel's avoid_all_tricks_bonus (-5 to a seat that takes no trick) is no_trick_bonus
BONUS = "quick+no_trick_bonus=-5"


def _rules(preset: str) -> Rules:
    name, _, extra = preset.partition("+")
    spec: dict[str, object] = {"preset": name}
    if extra:
        key, _, value = extra.partition("=")
        spec[key] = int(value)
    return Rules.from_spec(spec)


def test_the_presets_openspiel_cannot_play_are_named_by_the_setting_that_stops_them():
    assert {"standard", "quick", "omnibus", "no-breaking", "queen-breaks", "first-trick-points"} <= set(PLAYABLE)
    stopped = {name: None for name in preset_names() if name not in PLAYABLE}
    for name in stopped:
        with pytest.raises(NotOpenSpiel) as caught:
            openspiel_game(Rules.from_spec({"preset": name}))
        stopped[name] = caught.value.setting
    assert stopped["cancellation"] == "players" and stopped["spot"] == "spot_hearts"
    assert stopped["no-moon"] == "moon" and stopped["old-lead"] == "first_lead"


def _state(game_string: str, actions: list[int]):
    state = pyspiel.load_game(game_string).new_initial_state()
    for a in actions:
        assert a in state.legal_actions(), (a, state.legal_actions())
        state.apply_action(a)
    return state


def _points(card) -> bool:
    return card.suit == 2 or str(card) == "QS"


def _moon_deals(rules: Rules, rng: random.Random, count: int) -> list[str]:
    """Codes whose seat 0 holds the most high cards, of 3,000 dealt: with :func:`_shooter`'s
    play, about one in three is a moon."""
    codes = [code_from_number(rng.getrandbits(35)) for _ in range(3000)]
    return sorted(codes, key=lambda code: sum(c.rank for c in Game(rules, code).round.hand(0) if c.rank > 10))[-count:]


def _shooter(game: Game) -> tuple:
    """Seat 0 passes its lowest cards and plays its highest; the others pass their highest,
    play their lowest, and dump points when they cannot follow."""
    seat = game.turn
    if game.phase is Phase.PASS:
        hand = sorted(game.round.hand(seat), key=lambda c: c.rank)
        return tuple(hand[:3]) if seat == 0 else tuple(hand[-3:])
    legal = sorted(game.legal_moves, key=lambda c: c.rank)
    if seat == 0:
        return (legal[-1],)
    dump = [c for c in legal if _points(c)]
    void = game.round.trick and all(c.suit != game.round.trick[0].suit for c in legal)
    return (dump[-1],) if dump and void else (legal[0],)


@pytest.mark.parametrize("preset", [*PLAYABLE, BONUS])
def test_every_legal_move_and_every_score_agree_with_openspiel(preset):
    rules = _rules(preset)
    name = openspiel_game(rules)
    assert ("avoid_all_tricks_bonus=true" in name) is (preset == BONUS)
    rng = random.Random(preset)
    codes = [code_from_number(rng.getrandbits(35)) for _ in range(12)] + _moon_deals(rules, rng, 12)
    moons = bonuses = 0
    for n, code in enumerate(codes):
        game = Game(rules, code)
        shooting = n >= 12
        while not game.results:
            if game.phase is Phase.PASS:
                hand = list(game.round.hand(game.turn))
                cards = _shooter(game) if shooting else tuple(rng.sample(hand, rules.pass_count))
                game.push_pass(cards, game.turn)
                continue
            state = _state(name, round_actions(game.round))
            assert sorted(action(c) for c in game.legal_moves) == sorted(state.legal_actions()), game.position()
            game.push(_shooter(game)[0] if shooting else rng.choice(list(game.legal_moves)))
        state = _state(name, round_actions(game.rounds[0]))
        assert state.is_terminal()
        assert [TOTAL - int(r) for r in state.returns()] == list(game.results[0].scores), game.position()
        moons += game.results[0].shooter is not None
        bonuses += game.results[0].shooter is None and 0 in game.rounds[0].taken
    assert moons >= 1  # the moon's scoring was compared too
    assert bonuses >= 1 or preset != BONUS  # and, with the bonus, a seat that took no trick


def test_the_exported_lines_replay_in_openspiel_to_the_recorded_points():
    path = ROOT / "fixtures/replays/omnibus-jd.yaml"  # the J♦ counts: OpenSpiel's jd_bonus
    result = run("replay", str(path), "--export", "openspiel")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [item["round"] for item in lines] == list(range(1, len(lines) + 1)) and len(lines) >= 2
    for item in lines:
        assert "jd_bonus=true" in item["game"]
        state = _state(item["game"], item["actions"])
        assert state.is_terminal()
        assert [TOTAL - int(r) for r in state.returns()] == item["points"]


def test_a_tournament_exports_every_round_of_every_game_for_openspiel(tmp_path):
    path = tmp_path / "games.jsonl"
    result = run("sim", "--gauntlet", "normal,easy", "--deals", "4", "--seed", "o", "--export", f"openspiel:{path}")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len({(x["code"], tuple(x["seats"])) for x in lines}) == 8  # a pair of halves, 4 rotations each
    for item in lines:
        state = _state(item["game"], item["actions"])
        assert [TOTAL - int(r) for r in state.returns()] == item["points"]
    cancellation = run("sim", "--seats", ",".join(["easy"] * 6), "--preset", "cancellation", "--players", "6",
                       "--export", f"openspiel:{tmp_path / 'no.jsonl'}", "--lang", "en")
    assert cancellation.exit_code == 2 and "OpenSpiel" in cancellation.stderr
