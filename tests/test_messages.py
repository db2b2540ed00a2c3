"""The message catalog: every sentence exists in both languages, with the same blanks."""

import re
import string
from pathlib import Path

from hearts_cli.text.catalog import CATALOG, LANGUAGES

PACKAGE = Path(__file__).resolve().parent.parent / "hearts_cli"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_english_and_spanish_have_the_same_messages():
    en, es = set(CATALOG["en"]), set(CATALOG["es"])
    assert sorted(en - es) == [], "missing in Spanish"
    assert sorted(es - en) == [], "missing in English"


def test_each_translation_fills_the_same_blanks():
    for key, template in CATALOG["en"].items():
        assert _fields(template) == _fields(CATALOG["es"][key]), key


def test_spanish_is_not_a_copy_of_english():
    same = [k for k, v in CATALOG["en"].items() if v == CATALOG["es"][k] and re.search(r"[a-z]{4}", v)]
    # a few words are the same in both languages (names, symbols); sentences are not
    assert len(same) < len(CATALOG["en"]) * 0.05, same


def test_every_message_id_the_code_names_exists():
    named = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"""\bt\(\s*["']([a-z][a-z0-9_]+)["']""", text))
    missing = sorted(k for k in named if k not in CATALOG["en"])
    assert missing == []
    assert set(LANGUAGES) == set(CATALOG)


def test_the_ascii_fallback_reaches_cards_written_into_sentences():
    from hearts_cli.text.catalog import t

    for lang in LANGUAGES:
        for key in ("rp_queen", "rt_var_black_maria", "an_queen_on_self"):
            plain = t(key, lang, ascii=True, seat="A", by="B", best="3S", diff=2)
            assert not set("♣♦♥♠") & set(plain), plain
            assert "QS" in plain
            assert "Q♠" in t(key, lang, seat="A", by="B", best="3S", diff=2)
