"""The message catalog: every sentence exists in both languages, with the same blanks."""

import re
import string
from pathlib import Path

import pytest

from hearts_cli.text.catalog import CATALOG, LANGUAGES, t

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


def test_counts_of_one_read_as_one_in_both_languages():
    """A count of one is said in the singular: "after 1 move", "the card played after it",
    "1 jugada, 1 ganada", "Tu última partida" (never "after 1 moves" or "Tus 1 últimas partida")."""
    from hearts_cli.text.catalog import t

    assert t("rp_stop", "en", moves=1, round=1) == "The moves end here, after 1 move, in round 1."
    assert t("rp_stop", "en", moves=2, round=1) == "The moves end here, after 2 moves, in round 1."
    assert t("rp_stop", "es", moves=1, round=1) == "Las jugadas acaban aquí, tras 1 jugada, en la ronda 1."
    assert "after 1 move:" in t("rp_at_over", "en", code="C", moves=1)
    assert "after 1 move:" in t("rp_at_pass", "en", code="C", round=1, moves=1, direction="left", seat="W")
    assert "(after 1 move)" in t("rp_at_play", "en", code="C", round=1, trick=1, card=2, moves=1, seat="W")
    assert "(tras 1 jugada)" in t("rp_at_play", "es", code="C", round=1, trick=1, card=2, moves=1, seat="W")
    assert t("cli_no_position", "en", text="9", moves=1).endswith("it holds 1 move.")
    assert t("cli_no_position", "es", text="9", moves=1).endswith("contiene 1 jugada.")
    one = t("undo_play", "en", card="QS", count=1, round=1, trick=2)
    assert "your QS, with the card played after it." in one
    assert "with the 3 cards played after it." in t("undo_play", "en", card="QS", count=3, round=1, trick=2)
    assert "with the card played after it." in t("undo_pass", "en", cards="QS", count=1, round=1)
    assert "con la carta jugada después." in t("undo_play", "es", card="QS", count=1, round=1, trick=2)
    assert "con las 3 cartas jugadas después." in t("undo_pass", "es", cards="QS", count=3, round=1)
    games = t("stats_games", "es", games=1, won=1, lost=0, rate="100 %")
    assert games.startswith("Partidas: 1 jugada, 1 ganada, 0 perdidas"), games
    games = t("stats_games", "es", games=2, won=0, lost=1, rate="0 %")
    assert games.startswith("Partidas: 2 jugadas, 0 ganadas, 1 perdida "), games
    assert t("stats_recent", "es", count=1).startswith("Tu última partida ("), t("stats_recent", "es", count=1)
    assert t("stats_recent", "es", count=5).startswith("Tus 5 últimas partidas (")
    assert t("stats_recent", "en", count=1).startswith("Your last game ("), t("stats_recent", "en", count=1)
    assert t("stats_recent", "en", count=5).startswith("Your last 5 games (")


@pytest.mark.parametrize(("mid", "fields", "one", "many"), [
    ("stats_row", {"games": 1, "rate": "50%"}, "1 ganada ", "2 ganadas"),
    ("net_count_refused", {}, "1 invitación equivocada", "2 invitaciones equivocadas"),
    ("net_count_too_fast", {}, "1 invitación presentada", "2 invitaciones presentadas"),
    ("net_count_dropped", {}, "1 cliente expulsado", "2 clientes expulsados"),
    ("net_count_crowded", {}, "1 conexión cerrada", "2 conexiones cerradas"),
    ("net_count_error", {}, "1 error interno", "2 errores internos"),
    ("net_count_save", {}, "1 guardado fallido", "2 guardados fallidos"),
])
def test_a_count_of_one_is_said_in_the_singular_in_spanish(mid, fields, one, many):
    """The stats tables and the host's summary said "1 ganadas", "1 invitaciones equivocadas"."""
    key = "won" if mid == "stats_row" else "n"
    assert one in t(mid, "es", **fields, **{key: 1})
    assert many in t(mid, "es", **fields, **{key: 2})


@pytest.mark.parametrize(("code", "es"), [("EADDRINUSE", "ese puerto ya está en uso"),
                                           ("ECONNREFUSED", "nadie escucha ahí"),
                                           ("EHOSTUNREACH", "esa dirección no es accesible desde aquí")])
def test_network_errors_of_the_system_are_said_in_the_persons_language(code, es):
    """`hearts host` on a busy port said the system's "Address already in use" in Spanish too;
    host and join read the reason from the one table of the system's errors."""
    import errno

    from hearts_cli.text.catalog import os_problem

    assert os_problem(OSError(getattr(errno, code), "English words"), "es") == es


def test_spanish_says_asistir_for_following_suit():
    """issue 33 §4: the Spanish verb of the game for following suit is *asistir*: "debes asistir
    a tréboles", not "tienes que seguir a"; every sentence about following suit says it."""
    from hearts_cli.model.cards import parse_card

    cards = [parse_card("7C"), parse_card("AC")]
    assert t("must_follow_suit", "es", suit=0, cards=cards) == "Debes asistir a tréboles: aún tienes 7♣, A♣."
    assert t("must_follow_suit_seat", "es", suit=0, cards=cards).startswith("Ese asiento debe asistir a tréboles")
    following = [mid for mid, text in CATALOG["en"].items()
                 if re.search(r"follow(s|ing)? (suit|\{suit\}|the suit)|cannot follow", text, re.IGNORECASE)]
    assert len(following) >= 7
    assert [mid for mid in following if "asist" not in CATALOG["es"][mid].lower()] == []
    assert [mid for mid, text in CATALOG["es"].items() if re.search(r"segu\w* (el palo|a \{suit\})", text)] == []


def test_spanish_welcomes_back_without_a_gender():
    """issue 33 §4: not "Bienvenido de nuevo" (nor "Bienvenido/a"): a welcome said to anyone."""
    assert [mid for mid, text in CATALOG["es"].items() if re.search(r"bienvenid", text, re.IGNORECASE)] == []
    assert t("resume_line", "es", round=2, trick=3) == "Hola de nuevo: ronda 2, baza 3, tal como lo dejaste."
    assert t("resume_line_pass", "es", round=2).startswith("Hola de nuevo: el pase de la ronda 2")
