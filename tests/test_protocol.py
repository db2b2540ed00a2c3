"""The engine protocol (`hearts engine`): JSON lines in, JSON lines out.

Most tests drive :class:`hearts_cli.cli.protocol.Session` in-process for breadth;
a few run the real command as a subprocess to check the conversation itself
(one reply per line, flushed at once, exit status, no tracebacks).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from conftest import check_schema

from hearts_cli import __version__
from hearts_cli.cli.protocol import Session, serve
from hearts_cli.model.cards import Card
from hearts_cli.model.codes import new_code
from hearts_cli.model.rules import Rules, preset_names
from hearts_cli.play.round import Round

ROOT = Path(__file__).resolve().parent.parent
ENGINE = [sys.executable, "-m", "hearts_cli", "engine"]

# A hand-made deal (4 players, 13 each) that reaches every reason code:
# seat 0 holds the 2C; seat 1 can follow clubs; seat 2 has no clubs; seat 3
# wins the first trick with the AC and then holds clubs and hearts only.
HANDS = [
    ["2C", "3C", "4C", "5C", "2D", "3D", "4D", "5D", "2S", "3S", "4S", "5S", "2H"],
    ["6C", "7C", "8C", "6D", "7D", "8D", "9D", "6S", "7S", "8S", "9S", "3H", "4H"],
    ["TD", "JD", "QD", "KD", "AD", "TS", "JS", "QS", "KS", "AS", "5H", "6H", "7H"],
    ["9C", "TC", "JC", "QC", "KC", "AC", "8H", "9H", "TH", "JH", "QH", "KH", "AH"],
]

STATE_KEYS = {"ok", "seat", "phase", "turn", "legal", "hearts_broken", "leader", "trick", "last_trick", "points",
              "direction", "passes_made", "hand", "totals", "result"}


def hands(r: dict) -> list[list[str]]:
    """The revealed hands, seat 0 first (the reply keys them by seat)."""
    return [r["hands"][str(str(seat))] for seat in range(len(r["hands"]))]


def trick(r: dict) -> list[str]:
    """The cards of the trick on the table, in play order."""
    return [p["card"] for p in r["trick"]]


def last(r: dict) -> dict:
    """The last trick as leader, cards in play order, winner, points."""
    lt = r["last_trick"]
    return {"leader": lt["leader"], "cards": [p["card"] for p in lt["plays"]], "winner": lt["winner"],
            "points": lt["points"]}


def ask(session: Session, cmd: str, **fields) -> dict:
    reply = session.handle({"cmd": cmd, **fields})
    # every reply must survive the trip through JSON unchanged (no Card ints, no tuples)
    assert json.loads(json.dumps(reply)) == reply
    return reply


def ok(reply: dict) -> dict:
    assert reply["ok"] is True, reply
    return reply


def error(reply: dict, code: str) -> dict:
    assert reply["ok"] is False, reply
    assert reply["error"]["code"] == code, reply
    assert reply["error"]["message"], reply
    return reply["error"]


def card_order(cards: list[str]) -> list[str]:
    return [str(c) for c in sorted(Card(x) for x in cards)]


@pytest.fixture
def s() -> Session:
    return Session(lang="en")


@pytest.fixture
def play_pos(s: Session) -> Session:
    """The hand-made deal with no passing: seat 0 is to lead the 2C."""
    ok(ask(s, "position", hands=HANDS, direction="none"))
    return s


# ---------------------------------------------------------------- hello


def test_hello(s):
    r = ok(ask(s, "hello"))
    assert r["name"] == "hearts"
    assert r["protocol"] == 4
    assert r["version"] == __version__
    assert r["presets"] == preset_names()
    assert r["presets"][0] == "quick"  # the default preset first
    assert set(r["presets"]) >= {"standard", "omnibus", "kitty"}


# ---------------------------------------------------------------- position


def test_position_from_hands_gives_the_exact_state_shape(s):
    r = ok(ask(s, "position", hands=HANDS))
    assert set(r) >= STATE_KEYS
    assert r["phase"] == "pass" and r["direction"] == "left"  # round 1 of the cycle passes left
    assert r["turn"] == 0
    assert r["legal"] == card_order(HANDS[0])  # in the pass phase: the passing seat's hand
    assert r["leader"] is None and r["trick"] == [] and r["last_trick"] is None
    assert r["points"] == [0, 0, 0, 0] and r["hearts_broken"] is False
    assert "hands" not in r  # hands are only shown on request


def test_position_default_direction_follows_the_cycle(s):
    assert ok(ask(s, "position", hands=HANDS, round=2))["direction"] == "right"
    assert ok(ask(s, "position", hands=HANDS, round=3))["direction"] == "across"
    r = ok(ask(s, "position", hands=HANDS, round=4))
    assert r["direction"] == "none" and r["phase"] == "play" and r["turn"] == 0 and r["legal"] == ["2C"]
    assert ok(ask(s, "position", hands=HANDS, round=5))["direction"] == "left"


def test_position_from_code_and_round_is_one_based():
    code = new_code()
    rules = Rules.from_spec("standard")
    s = Session(lang="en")
    for number in (1, 2, 3, 4, 7):
        r = ok(ask(s, "position", code=code.lower(), round=number, rules="standard", reveal=True))
        dealt = Round.deal(rules, code, number - 1)  # the engine counts from 0
        assert hands(r) == [[str(c) for c in dealt.hand(seat)] for seat in range(4)]
        assert r["direction"] == dealt.direction.value and r["round"] == number
    # no round means round 1
    assert hands(ok(ask(s, "position", code=code, reveal=True))) == [
        [str(c) for c in Round.deal(Rules.from_spec("quick"), code, 0).hand(seat)] for seat in range(4)
    ]
    # an explicit direction overrides the cycle without changing the deal
    r = ok(ask(s, "position", code=code, round=4, reveal=True, **{"pass": "across"}))
    assert r["direction"] == "across" and r["phase"] == "pass"
    assert hands(r) == [[str(c) for c in Round.deal(rules, code, 3).hand(seat)] for seat in range(4)]
    error(ask(s, "position", code=code, round=0), "bad_field")


def test_position_rules_with_overrides(s):
    r = ok(ask(s, "position", code=new_code(), rules={"preset": "quick", "players": 3}, reveal=True))
    assert len(r["points"]) == 3 and all(len(h) == 17 for h in hands(r))
    assert r["direction"] == "left"
    e = error(ask(s, "position", code=new_code(), rules="no-such-preset"), "bad_rules")
    assert e["field"] == "rules"
    e = error(ask(s, "position", code=new_code(), rules={"preset": "quick", "players": 9}), "bad_rules")
    assert e["key"] == "players"
    error(ask(s, "position", code=new_code(), rules=[1, 2]), "bad_rules")
    e = error(ask(s, "position", code=new_code(), rules={"preset": "quick", "players": 3},
                  **{"pass": "across"}), "bad_field")
    assert e["field"] == "pass"


def test_position_field_errors(s):
    error(ask(s, "position"), "missing_field")
    error(ask(s, "position", hands=HANDS, code=new_code()), "bad_field")
    error(ask(s, "position", code="ABCDEFGH"), "bad_code")  # wrong check character
    error(ask(s, "position", code=12), "bad_code")
    error(ask(s, "position", hands=HANDS[:3]), "bad_field")
    dup = [list(h) for h in HANDS]
    dup[1][0] = "2C"  # two seats hold the 2C
    error(ask(s, "position", hands=dup), "bad_hands")
    e = error(ask(s, "position", hands=[HANDS[0], HANDS[1], HANDS[2], HANDS[3][:-1] + ["ZZ"]]), "bad_card")
    assert e["field"] == "hands" and e["index"] == 3
    error(ask(s, "position", hands=HANDS, **{"pass": "sideways"}), "bad_field")
    assert error(ask(s, "position", hands=HANDS, direction="sideways"), "bad_field")["field"] == "direction"


def test_position_with_passes_and_plays(s):
    passes = [["5S", "4S", "2H"], ["4H", "3H", "9S"], ["QS", "AS", "KS"], ["AH", "KH", "QH"]]
    r = ok(ask(s, "position", hands=HANDS, passes=passes, plays=["2c", "8C", "TD", "AC"], reveal=True))
    assert r["phase"] == "play"
    # left: seat s gives to seat s + 1
    assert {"QS", "AS", "KS"} <= set(r["hands"][str(3)])
    assert {"5S", "4S", "2H"} - set(r["hands"][str(0)]) == {"5S", "4S", "2H"}
    assert last(r) == {"leader": 0, "cards": ["2C", "8C", "TD", "AC"], "winner": 3, "points": 0}
    assert r["leader"] == 3 and r["turn"] == 3 and r["trick"] == []


def test_position_bad_pass_or_play_is_named_and_keeps_the_old_position(s):
    before = ok(ask(s, "position", hands=HANDS, reveal=True, **{"pass": "none"}))
    good = [["5S", "4S", "2H"], ["4H", "3H", "9S"], ["QS", "AS", "KS"], ["AH", "KH", "QH"]]

    bad = [list(p) for p in good]
    bad[2] = ["QS", "AS", "2C"]  # seat 2 does not hold the 2C
    e = error(ask(s, "position", hands=HANDS, passes=bad), "not_in_hand")
    assert (e["field"], e["index"]) == ("passes", 2)
    assert "2C" in e["message"]

    bad[2] = ["QS", "AS"]
    e = error(ask(s, "position", hands=HANDS, passes=bad), "pass_count")
    assert (e["field"], e["index"]) == ("passes", 2)

    e = error(ask(s, "position", hands=HANDS, passes=good[:3]), "bad_field")
    assert e["field"] == "passes"

    e = error(ask(s, "position", hands=HANDS, passes=good, **{"pass": "none"}), "wrong_phase")
    assert (e["field"], e["index"]) == ("passes", 0)

    e = error(ask(s, "position", hands=HANDS, plays=["2C", "8C", "6H"], **{"pass": "none"}),
              "no_points_on_first_trick")
    assert (e["field"], e["index"]) == ("plays", 2)

    e = error(ask(s, "position", hands=HANDS, plays=["2C", "6D"], **{"pass": "none"}), "must_follow_suit")
    assert (e["field"], e["index"]) == ("plays", 1)

    e = error(ask(s, "position", hands=HANDS, plays=["2C", "8X"], **{"pass": "none"}), "bad_card")
    assert (e["field"], e["index"]) == ("plays", 1)

    # plays while the cards are still to be passed
    e = error(ask(s, "position", hands=HANDS, plays=["2C"]), "wrong_phase")
    assert (e["field"], e["index"]) == ("plays", 0)

    assert ok(ask(s, "state", reveal=True)) == before


# ---------------------------------------------------------------- passing


def test_pass_in_any_order_then_exchange(s):
    ok(ask(s, "position", hands=HANDS))  # round 1: pass left
    passes = {2: ["QS", "AS", "KS"], 0: ["5S", "4S", "2H"], 3: ["ah", "kh", "qh"], 1: ["4H", "3H", "9S"]}
    r = ok(ask(s, "pass", seat=2, cards=passes[2]))
    assert r["phase"] == "pass" and r["turn"] == 0 and r["passes_made"] == [False, False, True, False]
    r = ok(ask(s, "pass", seat=0, cards=passes[0]))
    assert r["turn"] == 1 and r["legal"] == card_order(HANDS[1])  # the lowest seat still to pass
    r = ok(ask(s, "pass", seat=3, cards=passes[3], reveal=True))
    assert r["turn"] == 1 and r["phase"] == "pass"
    assert r["hands"][str(3)] == card_order(HANDS[3])  # nothing moves before everybody has passed
    r = ok(ask(s, "pass", seat=1, cards=passes[1], reveal=True))
    assert r["phase"] == "play"
    for seat in range(4):
        got = set(r["hands"][str((seat + 1) % 4)])
        assert {str(Card(c)) for c in passes[seat]} <= got
        assert not {str(Card(c)) for c in passes[seat]} & set(r["hands"][str(seat)])
    assert r["turn"] == r["leader"] == 0 and r["legal"] == ["2C"]


def test_pass_errors_leave_the_state_alone(s):
    ok(ask(s, "position", hands=HANDS))
    before = ok(ask(s, "state", reveal=True))
    error(ask(s, "pass", seat=0, cards=["2C", "3C"]), "pass_count")
    error(ask(s, "pass", seat=0, cards=["2C", "2c", "3C"]), "pass_duplicate")
    error(ask(s, "pass", seat=0, cards=["2C", "3C", "QS"]), "not_in_hand")
    error(ask(s, "pass", seat=4, cards=["2C", "3C", "4C"]), "bad_seat")
    error(ask(s, "pass", seat="0", cards=["2C", "3C", "4C"]), "bad_field")
    error(ask(s, "pass", seat=0, cards="2C 3C 4C"), "bad_field")
    error(ask(s, "pass", cards=["2C", "3C", "4C"]), "missing_field")
    error(ask(s, "pass", seat=0, cards=["2C", "3C", "4Q"]), "bad_card")
    assert ok(ask(s, "state", reveal=True)) == before
    ok(ask(s, "pass", seat=0, cards=["2C", "3C", "4C"]))
    error(ask(s, "pass", seat=0, cards=["5C", "2D", "3D"]), "pass_twice")


def test_pass_when_there_is_no_passing(play_pos):
    error(ask(play_pos, "pass", seat=0, cards=["2C", "3C", "4C"]), "wrong_phase")


# ---------------------------------------------------------------- playing


def test_play_a_trick(play_pos):
    s = play_pos
    r = ok(ask(s, "play", card="2c"))  # case-insensitive
    assert trick(r) == ["2C"] and r["turn"] == 1 and r["leader"] == 0
    assert r["legal"] == ["6C", "7C", "8C"]
    r = ok(ask(s, "play", card="eight of clubs"))  # any notation parse_card accepts
    r = ok(ask(s, "play", card="td"))
    assert trick(r) == ["2C", "8C", "TD"] and r["last_trick"] is None
    r = ok(ask(s, "play", card="A♣"))
    assert r["trick"] == [] and r["leader"] == 3 and r["turn"] == 3
    assert last(r) == {"leader": 0, "cards": ["2C", "8C", "TD", "AC"], "winner": 3, "points": 0}
    assert r["points"] == [0, 0, 0, 0]
    # hearts are not broken and seat 3 still has clubs: no heart may lead
    assert r["legal"] == ["9C", "TC", "JC", "QC", "KC"]


def test_illegal_play_is_the_engines_reason_and_changes_nothing(play_pos):
    s = play_pos
    ok(ask(s, "play", card="2C"))
    before = ok(ask(s, "state", reveal=True))
    e = error(ask(s, "play", card="6D"), "must_follow_suit")
    assert "8C" in e["message"] and "♣" not in e["message"]  # canonical ASCII cards in messages
    error(ask(s, "play", card="QS"), "not_in_hand")
    error(ask(s, "play", card="Q?"), "bad_card")
    error(ask(s, "play", card=50), "bad_field")
    error(ask(s, "play"), "missing_field")
    assert ok(ask(s, "state", reveal=True)) == before


def test_play_in_the_pass_phase_is_refused(s):
    ok(ask(s, "position", hands=HANDS))
    error(ask(s, "play", card="2C"), "wrong_phase")


def _play_out(s: Session) -> dict:
    r = ok(ask(s, "state"))
    while r["phase"] != "over":
        if r["phase"] == "pass":
            r = ok(ask(s, "pass", seat=r["turn"], cards=r["legal"][:3]))
            continue
        assert r["legal"] == card_order(r["legal"])
        before = sum(r["points"])
        r = ok(ask(s, "play", card=r["legal"][-1]))
        if r["trick"] == [] and r["phase"] == "play":
            assert sum(r["points"]) == before + r["last_trick"]["points"]
    return r


@pytest.mark.parametrize("preset", ["quick", "omnibus", "spot", "black-maria", "kitty", "cutthroat", "no-moon"])
@pytest.mark.parametrize("code", [None, "00000000"])  # a fresh code; one where the play shoots the moon
def test_full_round_to_over(s, preset, code):
    rules = Rules.from_spec(preset)
    r = ok(ask(s, "position", rules=preset, code=code or new_code()))
    r = _play_out(s)
    assert r["turn"] is None and r["leader"] is None and r["legal"] == [] and r["trick"] == []
    assert r["tricks_played"] == rules.hand_size
    res = r["result"]
    assert len(res["scores"]) == rules.players and r["points"] == res["taken"]
    if res["shooter"] is None:
        assert sum(res["scores"]) == rules.round_total
        assert res["scores"] == res["taken"]
    else:  # every preset here scores a moon as "others": each other seat gets the penalty total
        shooter = res["shooter"]
        assert rules.moon == "others"
        for seat, (p, took) in enumerate(zip(res["scores"], res["taken"])):
            if seat == shooter:
                assert p == took - rules.penalty_total  # 0, or the J♦'s -10
            else:
                assert p == rules.penalty_total + took  # took nothing, or the J♦
    # the round is over: nothing more can be played
    assert ask(s, "play", card="2C")["ok"] is False
    error(ask(s, "go"), "wrong_phase")


MOON_HANDS = [
    ["2C", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
    ["AH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD"],
    ["AD", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "KS", "AS"],
    ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC", "QS"],
]


def _moon_plays() -> list[str]:
    """Seat 3 wins every trick and so takes every heart and the QS."""
    plays = ["2C", "2D", "AD", "AC"]
    leads = ["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C", "4C", "3C"]
    hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"]
    diamonds = ["AH", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"]
    spades = ["AS", "KS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]
    for trick in zip(leads, hearts, diamonds, spades):
        plays += trick
    return plays + ["QS", "KH", "KD", "2S"]


@pytest.mark.parametrize("preset, final", [("quick", [26, 26, 26, 0]), ("no-moon", [0, 0, 0, 26]),
                                           ("shooter-minus", [0, 0, 0, -26])])
def test_moon_is_in_the_final_points(s, preset, final):
    r = ok(ask(s, "position", rules=preset, hands=MOON_HANDS, plays=_moon_plays()[:-1], **{"pass": "none"}))
    assert r["phase"] == "play" and r["points"] == [0, 0, 0, 12]  # completed tricks only: 11 hearts and the AH
    r = ok(ask(s, "play", card="2S"))
    assert r["phase"] == "over" and r["result"]["scores"] == final and r["points"] == [0, 0, 0, 26]
    assert last(r) == {"leader": 3, "cards": ["QS", "KH", "KD", "2S"], "winner": 3, "points": 14}


# ---------------------------------------------------------------- why


def test_why_every_reason_code_and_their_order(play_pos):
    s = play_pos

    def why(card, **kw):
        return ok(ask(s, "why", card=card, **kw))

    assert why("3C")["reason"]["code"] == "must_lead_two_clubs"
    assert why("QS")["reason"]["code"] == "not_in_hand"  # also not the 2C: not_in_hand comes first
    r = why("2c")
    assert r["legal"] is True and r["card"] == "2C" and "reason" not in r
    assert {"wins", "points", "exact", "breaks_hearts", "message"} <= set(r["effect"])
    ok(ask(s, "play", card="2C"))
    r = why("6D")
    assert r["legal"] is False and r["reason"]["code"] == "must_follow_suit"
    assert "8C" in r["reason"]["message"]
    # a heart on the first trick while holding clubs: following suit comes first
    assert why("3H")["reason"]["code"] == "must_follow_suit"
    ok(ask(s, "play", card="8C"))
    assert why("QS")["reason"]["code"] == "no_points_on_first_trick"
    assert why("5H")["reason"]["code"] == "no_points_on_first_trick"
    assert why("AD")["legal"] is True
    ok(ask(s, "play", card="TD"))
    ok(ask(s, "play", card="AC"))
    assert why("8H")["reason"]["code"] == "hearts_not_broken"
    assert why("9C")["legal"] is True
    # asking about another seat
    assert why("QS", seat=2)["reason"]["code"] == "wrong_phase"  # holds it, but not its turn
    error(ask(s, "why", card="QS", seat=9), "bad_seat")


def test_messages_write_cards_as_people_type_them_and_fields_stay_canonical(play_pos):
    # docs/engine-protocol.md: a card field is canonical (TD); a message, for people, writes
    # the card in ASCII as the --plain screen does and people type it (10D)
    s = play_pos
    ok(ask(s, "play", card="2C"))
    ok(ask(s, "play", card="8C"))
    r = ok(ask(s, "why", card="TD"))
    assert r["card"] == "TD" and r["effect"]["message"].startswith("10D does not win the trick: ")
    ok(ask(s, "play", card="TD"))
    said = error(ask(s, "play", card="TH"), "must_follow_suit")["message"]
    assert "10C" in said and "TC" not in said
    doc = (Path(__file__).parent.parent / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    assert "written in ASCII as people type them (`QS`, `10D`)" in doc


def test_why_in_the_pass_phase(s):
    ok(ask(s, "position", hands=HANDS))
    assert ok(ask(s, "why", card="2C"))["reason"]["code"] == "wrong_phase"
    assert ok(ask(s, "why", card="QS"))["reason"]["code"] == "not_in_hand"


def test_why_lowest_club_when_the_two_is_out(s):
    # three players, quick preset: the 2C is removed, so the 3C leads
    r = ok(ask(s, "position", code=new_code(), rules={"preset": "quick", "players": 3}, reveal=True,
               **{"pass": "none"}))
    leader = r["turn"]
    assert r["legal"] == ["3C"] and "3C" in r["hands"][str(leader)]
    other = next(c for c in r["hands"][str(leader)] if c != "3C")
    reason = ok(ask(s, "why", card=other))["reason"]
    assert reason["code"] == "must_lead_lowest_club" and "3C" in reason["message"]


def test_why_bad_card_names_the_closest_cards(play_pos):
    e = error(ask(play_pos, "why", card="QX"), "bad_card")
    assert "QX" in e["message"] and e["suggestions"] and all(c.startswith("Q") for c in e["suggestions"])
    assert e["suggestions"][0] in e["message"]
    error(ask(play_pos, "why", card="zzz"), "bad_card")
    error(ask(play_pos, "why"), "missing_field")


# ---------------------------------------------------------------- errors, ids, language


def test_strict_json_both_ways():
    """Only strict JSON comes in, so every reply is strict JSON going out: a number too large
    for a double (``1e999``, read as infinity) and a lone surrogate are refused as the table
    server refuses them, never echoed back as ``Infinity`` or as text no UTF-8 can carry."""
    import io

    lines = ['{"cmd": "hello", "id": 1e999}', '{"cmd": "hello", "id": "\\udc80"}',
             '{"cmd": "hello", "id": 2}']
    stdin = io.TextIOWrapper(io.BytesIO(("\n".join(lines) + "\n").encode("utf-8")), encoding="utf-8")
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8")
    assert serve(stdin, stdout) == 0
    replies = [json.loads(x, parse_constant=lambda name: pytest.fail(name))
               for x in raw.getvalue().decode("utf-8").splitlines()]
    assert [r.get("error", {}).get("code") for r in replies] == ["bad_json", "bad_json", None]
    assert replies[2]["id"] == 2


def test_bad_lines(s):
    bad = ["not json", "{", "[1, 2]", "42", '"hello"', '{"cmd": "hello", "id": NaN}', b"\xff\xfe{}", "{" * 100000]
    for line in bad:
        error(s.handle_line(line), "bad_json")
    assert s.handle_line("   \n") is None  # blank lines are ignored
    error(s.handle_line('{"id": 3}'), "missing_field")
    error(s.handle_line('{"cmd": 7}'), "bad_field")
    e = error(s.handle_line('{"cmd": "fly"}'), "unknown_cmd")
    assert "fly" in e["message"]
    assert s.handle_line(' {"cmd": "hello"} \r\n')["ok"] is True


def test_no_position_yet(s):
    for cmd, fields in [("state", {}), ("play", {"card": "2C"}), ("why", {"card": "2C"}),
                        ("pass", {"seat": 0, "cards": ["2C", "3C", "4C"]}), ("go", {})]:
        error(ask(s, cmd, **fields), "no_position")


def test_id_is_echoed(s):
    for ident in [1, "abc", {"x": [1]}, None]:
        assert s.handle({"cmd": "hello", "id": ident})["id"] == ident
        assert s.handle({"cmd": "nope", "id": ident})["id"] == ident
        assert s.handle({"cmd": "state", "id": ident})["id"] == ident  # an error: no position
    assert "id" not in s.handle({"cmd": "hello"})
    assert json.loads(json.dumps(s.handle_line('{"cmd":"hello","id":"q1"}')))["id"] == "q1"


def test_messages_follow_the_language(play_pos):
    s = play_pos
    ok(ask(s, "play", card="2C"))
    en = error(ask(s, "play", card="6D"), "must_follow_suit")["message"]
    es = error(ask(s, "play", card="6D", lang="es"), "must_follow_suit")["message"]
    assert en != es and "8C" in es and "tréboles" in es
    assert error(ask(s, "nope", lang="ES"), "unknown_cmd")["message"].startswith("Orden")
    error(ask(s, "state", lang="fr"), "bad_field")
    spanish = Session(lang="es")
    assert "posición" in error(ask(spanish, "state"), "no_position")["message"]


# ---------------------------------------------------------------- go


def test_go_without_bots_is_unsupported(play_pos, monkeypatch):
    monkeypatch.setitem(sys.modules, "hearts_cli.bots", None)  # as if the module did not exist
    error(ask(play_pos, "go", level="easy"), "unsupported")


def test_go_with_the_real_bots(s):
    ok(ask(s, "position", hands=HANDS))
    before = ok(ask(s, "state", reveal=True))
    r = ok(ask(s, "go", level="random", seed=3))
    assert r["seat"] == 0 and len(r["cards"]) == 3 and set(r["cards"]) <= set(HANDS[0])
    assert r["cards"] == card_order(r["cards"])
    assert ok(ask(s, "go", level="random", seed=3)) == r  # same seed, same answer
    assert ok(ask(s, "state", reveal=True)) == before
    ok(ask(s, "position", hands=HANDS, plays=["2C"], **{"pass": "none"}))
    r = ok(ask(s, "go", level="easy"))
    assert r["seat"] == 1 and r["card"] in ("6C", "7C", "8C")


def test_go_asks_the_bot_and_changes_nothing(s, monkeypatch):
    calls = []

    def suggest(view, level, seed, simulations=None):
        calls.append((view.seat, level, seed, simulations))
        if view.phase.value == "pass":
            return tuple(reversed(view.hand[:3]))
        return view.legal[-1]

    monkeypatch.setitem(sys.modules, "hearts_cli.bots", types.SimpleNamespace(suggest=suggest))
    ok(ask(s, "position", hands=HANDS))
    ok(ask(s, "pass", seat=0, cards=["2C", "3C", "4C"]))
    before = ok(ask(s, "state", reveal=True))
    r = ok(ask(s, "go", level="hard", seed=7, simulations=50))
    assert r["cards"] == ["6C", "7C", "8C"] and r["seat"] == 1  # lowest seat still to pass, sorted
    assert calls[-1] == (1, "hard", 7, 50)
    assert ok(ask(s, "state", reveal=True)) == before

    ok(ask(s, "position", hands=HANDS, plays=["2C"], **{"pass": "none"}))
    r = ok(ask(s, "go", level="Random"))
    assert r == {"ok": True, "seat": 1, "card": "8C", "level": "random"}  # the table server's hint's shape
    check_schema(r, "suggestion")
    assert calls[-1] == (1, "random", 0, None)  # seed defaults to 0
    error(ask(s, "go", level="expert"), "bad_field")
    error(ask(s, "go", seed="x"), "bad_field")
    error(ask(s, "go", simulations=0), "bad_field")


def test_the_state_reply_is_the_table_servers(s):
    """Issue 34 §9: one state reply on the engine and the table server, a ``view`` event beside
    ``ok`` (the engine's had no ``event``)."""
    r = ok(ask(s, "position", hands=HANDS, id=5, **{"pass": "none"}))
    assert list(r)[:3] == ["id", "ok", "event"] and r["event"] == "view"
    check_schema(r, "state_reply")
    assert ok(ask(s, "play", card="2C"))["event"] == "view"


def test_go_refuses_an_illegal_bot_move(s, monkeypatch):
    monkeypatch.setitem(sys.modules, "hearts_cli.bots",
                        types.SimpleNamespace(suggest=lambda view, level, seed, simulations=None: Card("QS")))
    ok(ask(s, "position", hands=HANDS, **{"pass": "none"}))
    error(ask(s, "go"), "internal_error")


# ---------------------------------------------------------------- the real command


def _engine(env_lang: str = "en") -> subprocess.Popen:
    env = dict(os.environ, HEARTS_LANG=env_lang, PYTHONPATH=str(ROOT))
    return subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, env=env)


def test_conversation_over_a_pipe():
    p = _engine()
    try:
        def say(obj) -> dict:
            # one line at a time, waiting for each reply: proves the engine flushes
            line = obj if isinstance(obj, str) else json.dumps(obj)
            p.stdin.write(line.encode() + b"\n")
            p.stdin.flush()
            return json.loads(p.stdout.readline())

        assert say({"cmd": "hello", "id": 1})["protocol"] == 4
        p.stdin.write(b"\n")  # a blank line gets no reply
        assert say("this is not json")["error"]["code"] == "bad_json"
        r = say({"cmd": "position", "hands": HANDS, "pass": "none", "id": "p"})
        assert r["id"] == "p" and r["legal"] == ["2C"]
        assert say({"cmd": "play", "card": "2c"})["trick"] == [{"seat": 0, "card": "2C"}]
        assert say({"cmd": "play", "card": "6d"})["error"]["code"] == "must_follow_suit"
        assert say({"cmd": "why", "card": "qs"})["reason"]["code"] == "not_in_hand"
        assert say({"cmd": "state"})["trick"] == [{"seat": 0, "card": "2C"}]
        assert say(b"\xff\xfe".decode("latin-1"))["error"]["code"] == "bad_json"
        assert say({"cmd": "quit", "id": 9}) == {"id": 9, "ok": True}
        try:  # after quit nothing more is read; the engine may already be gone
            p.stdin.write(b'{"cmd":"hello"}\n')
            p.stdin.close()
        except BrokenPipeError:
            pass
        assert p.stdout.read() == b""
        assert p.wait(timeout=10) == 0
        assert b"Traceback" not in p.stderr.read()
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_eof_exits_zero_and_spanish_from_the_environment():
    p = _engine("es")
    out, err = p.communicate(b'{"cmd":"state"}\n{"cmd":"position","code":"bad"}\n\xff\n', timeout=10)
    assert p.returncode == 0 and b"Traceback" not in err
    replies = [json.loads(line) for line in out.decode("utf-8").splitlines()]
    assert [r["error"]["code"] for r in replies] == ["no_position", "bad_code", "bad_json"]
    assert "posición" in replies[0]["error"]["message"]


def test_protocol_module_keeps_start_up_light():
    code = ("import sys, hearts_cli.cli.protocol; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'prompt_toolkit', 'typer'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=10,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.parametrize("lang, said", [("en", "seats are 0 to 2."), ("es", "van del 0 al 2.")])
def test_a_seat_out_of_range_names_the_last_seat(lang: str, said: str) -> None:
    """With three players a pass for seat 7 names the seats there are: 0 to 2 (not
    "0 to 3 minus one")."""
    session = Session(lang=lang)
    ok(ask(session, "position", code=new_code(), rules={"preset": "classic", "players": 3}))
    message = error(ask(session, "pass", seat=7, cards=["2C", "3C", "4C"]), "bad_seat")["message"]
    assert message.endswith(said), message
    assert "3" not in message


def test_a_round_waiting_for_the_moon_choice_counts_thirteen_tricks(s: Session) -> None:
    """All 13 tricks are played when the shooter is to choose: the trick number stays 13
    (there is no 14th trick), as it does once the round is over."""
    ok(ask(s, "position", rules="shooter-choice", hands=MOON_HANDS, plays=_moon_plays(), **{"pass": "none"}))
    r = ok(ask(s, "state"))
    assert r["phase"] == "moon" and r["tricks_played"] == 13
    assert r["trick_number"] == 13


def test_the_documented_hello_reply_is_the_engines() -> None:
    """docs/engine-protocol.md's worked session shows hello's reply as the engine gives it
    (a preset left out of the example would send a reader to the wrong list)."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    lines = doc.splitlines()
    asked = lines.index('> {"cmd":"hello","id":1}')
    shown = json.loads(lines[asked + 1].removeprefix("< "))
    assert shown == ask(Session(lang="en"), "hello") | {"id": 1}
