"""One vocabulary: `hearts play --json`, `hearts replay --json`, `hearts engine` (and the table
server, in test_tables.py) describe the same game with the same events and the same seat view.

A whole game is played through the JSON batch loop; the archived record is then replayed from
the person's seat, and every position the person decided in is rebuilt by the replay and by the
engine protocol. Every event must be a valid event of its kind (docs/events.md), the story events
the two streams share must be equal, and the three seat views must be equal field for field.
"""

from __future__ import annotations

import json

import pytest
from conftest import check_schema, whole_game
from typer.testing import CliRunner

from hearts_cli.cli.app import app
from hearts_cli.cli.protocol import Session
from hearts_cli.model.cards import Card
from hearts_cli.play.events import KINDS, SCHEMA, VIEW_FIELDS, Event, view_json
from hearts_cli.records import replay as rp
from hearts_cli.records.record_reader import read_record

CODE = "JYR35SWD"
# the events both a live game and its replay tell, and must tell alike
SHARED = ("deal", "pass", "receive", "lead", "trick", "hearts_broken", "round_end", "game_end")


@pytest.fixture(scope="module")
def played():
    game = whole_game(CODE)  # conftest: played once per process
    return game.events, read_record(game.record)


def _moves_before(events: list[dict], i: int) -> int:
    return sum(1 for ev in events[:i] if ev["event"] in ("pass", "play"))


def _view_only(obj: dict) -> dict:
    return {k: obj[k] for k in VIEW_FIELDS}


@pytest.mark.slow
def test_every_event_of_every_stream_is_a_valid_event_of_its_kind(played):
    events, record = played
    kinds = set()
    for ev in events:
        typed = Event.from_json(ev)  # raises on a missing or unknown field
        check_schema(ev)
        assert type(typed) is KINDS[ev["event"]]
        kinds.add(ev["event"])
    assert {"start", "view", *SHARED} <= kinds
    for seat in (None, 0, 2):
        for ev in rp.narrate(record, seat):
            data = json.loads(json.dumps(ev.to_json()))
            assert Event.from_json(data).to_json() == data
            check_schema(data)
    assert events[0]["schema"] == SCHEMA == rp.narrate(record)[0].data["schema"]
    assert Session().handle({"cmd": "hello"})["schema"] == SCHEMA


def test_a_kind_refuses_missing_and_unknown_fields():
    with pytest.raises(ValueError):
        Event("play", {"seat": 1, "card": Card("QS")})
    with pytest.raises(ValueError):
        Event("lead", {"round": 1, "seat": 0, "trick": 1})
    with pytest.raises(ValueError):
        Event("no_such_kind", {})


def test_an_event_is_its_typed_class():
    """Each kind is declared once, as a class whose fields are typed attributes (no catch-all
    ``__getattr__``): built by kind or by class, the same event, and one JSON form."""
    from hearts_cli.model.cards import Suit
    from hearts_cli.play.events import Error, Play, Void

    by_kind = Event("play", {"round": 1, "trick": 2, "seat": 3, "card": Card("QS"), "by": None})
    by_class = Play(round=1, trick=2, seat=3, card=Card("QS"), by=None)
    assert type(by_kind) is Play and by_kind == by_class and by_kind.card == Card("QS")
    assert by_kind.to_json() == {"event": "play", "round": 1, "trick": 2, "seat": 3, "card": "QS", "by": None}
    assert "__getattr__" not in vars(Event)
    with pytest.raises(AttributeError):
        by_kind.suit  # noqa: B018  # a field of another kind
    void = Void(round=1, trick=1, seat=3, suit=Suit.CLUBS, card=Card("KS"))
    assert void.to_json()["suit"] == "C"  # a suit is a letter on every surface
    assert Error.FIELDS == ("code", "message")


def test_every_teller_reads_a_field_as_its_class_types_it():
    """A teller's method names the fields it reads (checked when the class is made); here, each
    with the type the kind's class declares, so the type checker's view of a teller is the
    vocabulary's (the classes' annotations and the methods' are compared as written)."""
    from hearts_cli.play.events import Teller
    from hearts_cli.records.sentences import StoryTeller
    from hearts_cli.repl.event_lines import EventLines

    assert {EventLines, StoryTeller} <= set(_subclasses(Teller))
    wrong = []
    for teller in _subclasses(Teller):
        for name in dir(teller):
            if name.startswith("ev_"):
                kind = KINDS[name[3:]]
                declared = vars(kind)["__annotations__"] if kind.FIELDS or kind.OPTIONAL else {}
                for field, said in getattr(teller, name).__annotations__.items():
                    if field != "return" and declared[kind._ATTR_OF.get(field, field)] != said:
                        wrong.append(f"{teller.__name__}.{name}: {field}: {said}, not {declared[field]}")
    assert not wrong, "\n".join(wrong)


def _subclasses(cls: type) -> list[type]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


def test_the_live_game_and_its_replay_tell_the_same_story(played):
    events, record = played
    replayed = [ev.to_json() for ev in rp.narrate(record, seat=0)]
    for kind in SHARED:
        live = [ev for ev in events if ev["event"] == kind]
        again = [ev for ev in replayed if ev["event"] == kind]
        if kind in ("pass", "play"):  # who moved is known live ("cpu", "you"), not in a record
            assert all(ev["by"] in ("you", "cpu") for ev in live)
            live = [ev | {"by": None} for ev in live]
        if kind == "game_end":  # how it changes the person's record comes from the archive, live only
            assert all("record" in ev for ev in live)
            live = [{k: v for k, v in ev.items() if k != "record"} for ev in live]
        assert live and live == again, kind
    start_live, start_again = events[0], replayed[0]
    for key in ("schema", "code", "preset", "rules", "players", "target", "you"):
        assert start_live[key] == start_again[key], key


def test_the_seat_view_is_the_same_in_play_replay_and_the_engine(played):
    events, record = played
    views = [(i, ev) for i, ev in enumerate(events) if ev["event"] == "view"]
    assert len(views) > 20
    rules = record.rules.spec()
    engine = Session(lang="en")
    compared = 0
    for i, ev in views:
        made = _moves_before(events, i)
        # hearts replay --json --at: the same position, from the same seat
        game, _ = rp.game_at(record, str(made + 1))
        again = rp.view_event(game, 0, False, made)
        assert set(again) <= {"event", *VIEW_FIELDS, "code", "moves"}
        assert _view_only(again) == _view_only(ev)
        # hearts engine: the round rebuilt from the code, its passes and its plays
        rd = game.round
        if rd.turn != 0:
            continue
        request = {"cmd": "position", "code": record.code, "rules": rules, "round": rd.round_index + 1,
                   "totals": list(rd.scores_before)}
        if rd.phase.value == "play" and rd.direction.value != "none":
            request["passes"] = [[str(c) for c in p] for p in rd.passes]
        played_cards = [str(c) for tr in rd.tricks for c in tr.cards] + [str(c) for c in rd.trick]
        request["plays"] = played_cards
        state = engine.handle(request)
        assert state["ok"], state
        check_schema(request, "request")
        check_schema(state)
        assert set(state) <= {"ok", "event", *VIEW_FIELDS, "passes_made"}  # a view event beside ok
        assert _view_only(state) == _view_only(ev)
        compared += 1
    assert compared > 20


def test_the_replay_command_prints_the_same_view(played):
    events, record = played
    i, ev = next((i, ev) for i, ev in enumerate(events) if ev["event"] == "view" and ev["trick"])
    runner = CliRunner()
    made = _moves_before(events, i)
    game, _ = rp.game_at(record, str(made + 1))
    assert _view_only(rp.view_event(game, 0)) == _view_only(ev)
    out = runner.invoke(app, ["replay", "--code", record.code, "--moves", _log(record, made), "--preset",
                              record.rules.preset, "--target", str(record.rules.target), "--json"])
    assert out.exit_code == 0, out.output
    last = json.loads(out.stdout.splitlines()[-1])
    assert last["event"] == "view" and last["moves"] == made
    # without --seat, the view is the seat to move's: the person's here
    assert _view_only(last) == _view_only(ev)


def _log(record, made: int) -> str:
    from hearts_cli.records.movelog import format_log

    game, _ = rp.game_at(record, str(made + 1))
    return "\n".join(format_log(game))


def test_view_json_is_what_the_seat_may_see_only(played):
    _, record = played
    game, _ = rp.game_at(record, "20")
    rd = game.round
    for seat in range(rd.players):
        v = view_json(rd.view(seat))
        others = set()
        for s in range(rd.players):
            if s != seat:
                others |= {str(c) for c in rd.hand(s)}
        others -= {str(c) for c in rd.passes[seat] or ()}  # what it passed, it knows
        assert others
        text = json.dumps(v)
        assert not any(f'"{c}"' in text for c in others)


# ---------------------------------------------------------------- one dispatch over the kinds


def test_a_teller_is_given_only_the_fields_its_method_names():
    from hearts_cli.play.events import Teller

    class Echo(Teller[str]):
        def ev_lead(self, seat: int) -> list[str]:
            return [f"lead {seat}"]

    teller = Echo()
    assert teller.tell(Event("lead", {"round": 3, "seat": 2})) == ["lead 2"]
    assert teller.tell(Event("saved", {})) == []  # a kind it does not tell: nothing


def test_a_teller_that_drifts_from_the_vocabulary_is_refused_when_written():
    from hearts_cli.play.events import Teller

    with pytest.raises(TypeError, match="lead event has no card"):
        class Misspelt(Teller[str]):
            def ev_lead(self, seat: int, card: Card) -> list[str]:
                return []
    with pytest.raises(TypeError, match="no event is 'leads'"):
        class Unknown(Teller[str]):
            def ev_leads(self, seat: int) -> list[str]:
                return []


def test_the_replay_story_and_the_table_log_share_the_dispatch():
    """Both tell through Teller (so both are checked against the vocabulary), and the story's
    kinds that a person sees in either are worded by both."""
    from hearts_cli.play.events import Teller
    from hearts_cli.records.sentences import StoryTeller
    from hearts_cli.repl.render import Renderer

    assert issubclass(StoryTeller, Teller) and issubclass(Renderer, Teller)
    assert {"start", "deal", "trick", "round_end", "game_end", "tie"} <= set(StoryTeller._wanted) \
        & set(Renderer._wanted)


def test_an_event_is_frozen_and_replace_makes_another():
    """Issue 34 §9: an event told to many clients (encoded once) cannot change behind them: its
    fields are set when it is made; ``replace`` makes another."""
    from dataclasses import FrozenInstanceError

    from hearts_cli.play.events import RoundEnd

    end = RoundEnd(round=1, taken=[0, 26, 0, 0], scores=[0, 26, 0, 0], totals=[0, 26, 0, 0], shooter=None,
                   moon=None)
    with pytest.raises(FrozenInstanceError):
        end.sun = True
    with pytest.raises(FrozenInstanceError):
        del end.round
    sun = end.replace(sun=True)
    assert type(sun) is RoundEnd and sun.sun is True and "sun" not in end.to_json()
    assert sun.to_json() == end.to_json() | {"sun": True}


def test_a_reply_is_its_typed_class():
    """Issue 34 §9: each reply a class beside the events, with one to_json; a missing or unknown
    field refused when it is made."""
    from hearts_cli.play.replies import OK, REPLIES, ErrorReply, Ok, Suggestion

    assert set(REPLIES) == {"ok_reply", "state_reply", "verdict_reply", "suggestion", "hello_reply", "error_reply"}
    assert Suggestion(seat=1, card=Card("QS"), level="normal").to_json() == \
        {"ok": True, "seat": 1, "card": "QS", "level": "normal"}
    assert OK.to_json() == {"ok": True} and Ok(bye=True).to_json() == {"ok": True, "bye": True}
    assert ErrorReply(error={"code": "x", "message": "y"}).to_json() == {"ok": False, "error": {"code": "x",
                                                                                                  "message": "y"}}
    with pytest.raises(ValueError):
        Suggestion(seat=1, level="normal", whatever=1)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Suggestion(card=Card("QS"))  # type: ignore[call-arg]
    from dataclasses import FrozenInstanceError

    with pytest.raises(FrozenInstanceError):
        OK.bye = True  # type: ignore[misc]  # the one OK every request shares
