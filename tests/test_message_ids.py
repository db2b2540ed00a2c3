"""Every message id the code can ask for exists in both languages, including ids built at run time.

Three nets, from the narrowest to the widest:

* every literal id handed to a renderer (``t``, ``say``, ``w``) or to an
  error of the family (its ``message_id`` argument) is in the catalog;
* every id built at run time from a value (``f"rules_break_{value}"``) belongs
  to a family listed in ``FAMILIES`` below, and the family is checked for every
  value its enum or registry can hold; a new f-string id fails until it is
  listed here;
* every value of every setting is rendered for real, in both languages, by
  ``hearts rules`` (text and tips), the game's ``rules`` command and the
  table: a missing sentence or an unmapped value fails here, not in a game.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from hearts_cli.bots import REGISTRY
from hearts_cli.model import errors
from hearts_cli.model.rules import CHOICES, FLAGS, SETTINGS, Direction, Rules, preset_info, preset_names
from hearts_cli.play.game import Game
from hearts_cli.play.position import FIELDS
from hearts_cli.play.verdicts import REASON_ORDER, THIRD_PERSON
from hearts_cli.store.saves import SETTING_KEYS
from hearts_cli.table.game import TAKEOVER_LEVEL
from hearts_cli.text.catalog import CATALOG, LANGUAGES

PACKAGE = Path(__file__).resolve().parent.parent / "hearts_cli"
SOURCES = {p: p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}
ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")


def _in_both(mid: str) -> bool:
    return all(mid in CATALOG[lang] for lang in LANGUAGES)


# ---------------------------------------------------------------- literal ids


def _error_classes() -> dict[str, int]:
    """Each error class's name -> the position of its ``message_id`` argument in a call."""
    import importlib
    import pkgutil

    import hearts_cli

    for info in pkgutil.walk_packages(hearts_cli.__path__, "hearts_cli."):
        if not info.name.endswith(("session", "__main__")):
            importlib.import_module(info.name)
    out = {}
    todo = [errors.HeartsError]
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        names = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
        if "message_id" in names:
            out[cls.__name__] = names.index("message_id")
    return out


@pytest.mark.slow  # every source file read: two seconds
def test_every_literal_message_id_exists_in_both_languages():
    positions = {"t": 0, "say": 0, "w": 0} | _error_classes()
    missing, seen = [], 0
    for path, text in SOURCES.items():
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            index = positions.get(name)
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and ID.fullmatch(arg.value):
                seen += 1
                if not _in_both(arg.value):
                    missing.append(f"{path.name}:{node.lineno}: {arg.value}")
    assert missing == []
    assert seen > 250  # the scan does find the code's ids (299 when written)


# ---------------------------------------------------------------- ids built at run time

DIRECTIONS = [d.value for d in Direction]
PASSING = [d for d in DIRECTIONS if d != "none"]
SOURCES_OF_PRESETS = sorted({str(preset_info(n).get("source", ""))[:3] for n in preset_names()} - {""})

# the f-string as written in the code -> every id it can produce
REFUSED_KINDS = ("descriptors", "waiting", "crowded", "silent", "too_fast", "refused", "dropped", "error", "save")

FAMILIES: dict[str, list[str]] = {
    # play/position.py: what each field of a position text must be (rules: its own sentences)
    "position_expect_{self.field}": [f"position_expect_{f}" for f in FIELDS if f != "rules"],
    # hearts host: the first refusal of each kind, and the summary (table/server.py Server.count)
    "net_host_refusing_{kind}": [f"net_host_refusing_{k}" for k in REFUSED_KINDS],
    "net_count_{kind}": [f"net_count_{k}" for k in REFUSED_KINDS],
    "passing_{direction.value}": [f"passing_{d}" for d in PASSING],
    "moon_{who}_others": [f"moon_{w}_others" for w in ("you", "other")],
    "brief2_so_far_{caveat}": [f"brief2_so_far_{c}" for c in ("twin", "higher", "both")],
    "moon_{who}_minus": [f"moon_{w}_minus" for w in ("you", "other")],
    "ties_{settings['ties']}": [f"ties_{v}" for v in CHOICES["ties"]],
    "rules_first_{settings['first_trick']}": [f"rules_first_{v}" for v in CHOICES["first_trick"]],
    "rules_break_{settings['hearts_break']}": [f"rules_break_{v}" for v in CHOICES["hearts_break"]],
    "rules_moon_{settings['moon']}": [f"rules_moon_{v}" for v in CHOICES["moon"]],
    "level_{lvl}": [lv.message_id for lv in REGISTRY],
    "level_{hint.level}": ["level_normal", "level_hard"],
    "level_{TAKEOVER_LEVEL}": [f"level_{TAKEOVER_LEVEL}"],
    "hint_{kind}": ["hint_play", "hint_pass"],
    "hint_{kind}_level": ["hint_play_level", "hint_pass_level"],
    "hint_{kind}_close": ["hint_play_close", "hint_pass_close"],
    "hint_{kind}_margin": ["hint_play_margin", "hint_pass_margin"],
    "level_{self.name}": [lv.message_id for lv in REGISTRY],
    "level_{self.name}_about": [lv.about_id for lv in REGISTRY],
    "dir_{d['direction']}": [f"dir_{d}" for d in DIRECTIONS],
    "dir_{table['direction']}": [f"dir_{d}" for d in DIRECTIONS],
    "dir_{direction}": [f"dir_{d}" for d in DIRECTIONS],
    "dir_{d.value}": [f"dir_{d}" for d in DIRECTIONS],
    "dir_{rd.direction.value}": [f"dir_{d}" for d in DIRECTIONS],
    "suit_{x}": [f"suit_{s}" for s in range(4)],
    # play/verdicts.py: a suit as a noun for one card or several, and the chance of a cover
    "suit_kind_{many}_{int(suit)}": [f"suit_kind_{n}_{s}" for n in ("one", "many") for s in range(4)],
    "cover_{bucket}": [f"cover_{b}" for b in ("sure", "4", "3", "2", "1", "0")],
    "sim_dead_{first['kind']}": ["sim_dead_junk", "sim_dead_illegal"],
    "higher_{many}_{int(suit)}": [f"higher_{n}_{s}" for n in ("one", "many") for s in range(4)],
    "suit_{int(suit)}": [f"suit_{s}" for s in range(4)],
    "rule_{verdict.reason.code}": [f"rule_{c}" for c in REASON_ORDER],
    "rt_source_{source[:3]}": [f"rt_source_{s}" for s in SOURCES_OF_PRESETS],
    "rt_to_{cycle[0].value}": [f"rt_to_{d}" for d in PASSING],
    "rt_cancel_last_{r.set_aside_last}": [f"rt_cancel_last_{v}" for v in CHOICES["set_aside_last"]],
    "rt_tip2_last_{r.set_aside_last}": [f"rt_tip2_last_{v}" for v in CHOICES["set_aside_last"]],
    "rp_cancel_last_{set_aside_last}": [f"rp_cancel_last_{v}" for v in CHOICES["set_aside_last"]],
    "cli_not_{self.kind.__name__}": [f"cli_not_{k.__name__}" for k in (str, int, float, bool)],
    "cli_click_missing_{kind}": [f"cli_click_missing_{k}" for k in ("argument", "option", "parameter")],
    "set_values_{key}": [f"set_values_{k}" for k in SETTINGS if k not in CHOICES and k not in FLAGS],
    "settings_bad_{key}": [f"settings_bad_{k}" for k in SETTING_KEYS],
    "stats_streak_{which}_{cur['kind']}": [f"stats_streak_{w}_{k}" for w in ("now", "last")
                                            for k in ("win", "loss")],
    "tally_{kind}": [f"tally_{k}" for k in ("win", "loss")],
    "tally_{kind}_after": [f"tally_{k}_after" for k in ("win", "loss")],
    "tally_{kind}_run": [f"tally_{k}_run" for k in ("win", "loss")],
    "tally_{kind}_run_longest": [f"tally_{k}_run_longest" for k in ("win", "loss")],
    "preset_name_{pid}": [f"preset_name_{p}" for p in preset_names()],
    "preset_line_{pid}": [f"preset_line_{p}" for p in preset_names()],
    "preset_name_{preset}": [f"preset_name_{p}" for p in preset_names()],
    "preset_line_{preset}": [f"preset_line_{p}" for p in preset_names()],
    "tie_{outcome}": [f"tie_{o}" for o in ("shared", "still_tied", "one_more_round", "until_single",
                                           "until_single_again")],
    "tie_{d['outcome']}": [f"tie_{o}" for o in ("shared", "still_tied", "one_more_round", "until_single",
                                                "until_single_again")],
}
# f-strings that are not message ids: method names, or tried in turn (movelog.rule_name)
NOT_IDS = {"ev_{ev.kind}", "cmd_{cmd}", "rule_{code}", "movelog_rule_{code}"}


def _fstring_ids() -> set[str]:
    found = set()
    for text in SOURCES.values():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant) \
                    and re.fullmatch(r"[a-z][a-z0-9_]*_", str(node.values[0].value)):
                found.add(ast.unparse(node)[2:-1])
    return found


@pytest.mark.slow  # every source file read: two seconds
def test_every_id_built_at_run_time_belongs_to_a_listed_family():
    unknown = sorted(_fstring_ids() - set(FAMILIES) - NOT_IDS)
    assert unknown == [], "list each new f-string message id in FAMILIES with the values it can take"


# ids the code builds by adding to another id (not an f-string)
BUILT = {
    **dict.fromkeys(THIRD_PERSON.values(), "verdicts.THIRD_PERSON: a reason said of another seat"),
    "rt_removed_one_copy": "rules_text: + '_copy' with two decks",
    "rt_removed_many_copy": "rules_text: + '_copy' with two decks",
    **dict.fromkeys([f"moon_{w}_{m}_chosen" for w in ("you", "other") for m in ("others", "minus")],
                    "event_lines: + '_chosen' when the shooter chose"),
    **dict.fromkeys(["trick_lead_numbered", "trick_follow_numbered"],
                    "catalog.trick_plays: + '_numbered' where a name ends in a number"),
    **dict.fromkeys([mid for mid in CATALOG["en"] if mid.startswith("movelog_rule_")],
                    "movelog.rule_name: tried after rule_{code}, for the codes only a move log meets"),
}


@pytest.mark.slow  # every source file read
def test_every_message_of_the_catalog_is_asked_for():
    """A sentence no code asks for is a translation kept up for nothing (and often the trace of
    a message that was replaced): each id is a string in the code, a family's, or built."""
    strings: set[str] = set()
    for path, text in SOURCES.items():
        if path.parent.name == "text" and path.stem in LANGUAGES:  # the catalog itself
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
    families = {mid for ids in FAMILIES.values() for mid in ids}
    unasked = sorted(set(CATALOG["en"]) - strings - families - set(BUILT))
    assert unasked == []
    assert set(CATALOG["es"]) == set(CATALOG["en"])


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_each_family_is_in_both_languages_for_every_value(family):
    ids = FAMILIES[family]
    assert ids, family
    assert [mid for mid in ids if not _in_both(mid)] == []


def test_a_reason_has_its_rule_name_and_third_person_sentence():
    from hearts_cli.records.movelog import rule_name

    for code in REASON_ORDER:
        assert _in_both(f"rule_{code}") or _in_both(f"movelog_rule_{code}"), code
        assert rule_name(code, "es") != code
    assert [m for m in list(THIRD_PERSON) + list(THIRD_PERSON.values()) if not _in_both(m)] == []


# ---------------------------------------------------------------- every value, rendered


def _rule_sets() -> list[Rules]:
    """A playable rule set for every value of every setting (and every player count)."""
    base = Rules.from_spec("quick")
    out = [base.replace(players=n) for n in range(3, 7)]
    for key, values in CHOICES.items():
        for value in values:
            players = 3 if key == "deck" else 4
            out.append(base.replace(players=players, **{key: value}))
    for flag in FLAGS:
        for value in (True, False):
            out.append(base.replace(**{flag: value}))
    for passing in ("standard", "left", "none", (Direction.RIGHT,), (Direction.ACROSS,),
                    (Direction.LEFT, Direction.NONE)):
        out.append(base.replace(passing=passing))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_setting_value_is_said_by_rules_and_the_game(lang):
    from hearts_cli.model import rules_text
    from hearts_cli.repl.render import Renderer
    from hearts_cli.repl.table import Table, make_seats

    for rules in _rule_sets():
        body = rules_text.sections(rules, lang, False) + rules_text.tips(rules, lang, False)
        text = rules_text.render(rules_text.title(rules, lang, False), body, 78, lambda s: s)
        assert text.strip()
        rules_text.rules_json(rules)
        table = Table(Game(rules, "K7Q2MXA7"), make_seats(rules.players, 0, "normal"), lang=lang)
        renderer = Renderer(table, plain=True)
        table.announce_start()
        table.handle("rules")
        lines = [line for ev in table.events for line in renderer.event(ev)]
        assert not table.failed
        assert any(ev.kind == "rules" for ev in table.events) and lines
