"""`hearts help TOPIC` (issue 26, "Docs for pip users"): what docs/ explains, in both
languages, from the package alone, wrapped to any terminal, and true to the settings."""

from __future__ import annotations

import pytest
from conftest import assert_user_error, run

from hearts_cli.base.wrapping import text_width, wrap_text
from hearts_cli.cli.commands.help import ALIASES, TOPICS
from hearts_cli.store.saves import SETTING_KEYS
from hearts_cli.text.catalog import t

pytestmark = pytest.mark.usefixtures("isolated")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_topic_is_listed_and_said_in_each_language(lang):
    listed = run("--lang", lang, "help").stdout
    for name, (text_id, about_id) in TOPICS.items():
        assert f"  {name}" in listed and t(about_id, lang) in listed
        said = run("--lang", lang, "help", name).stdout
        assert said.strip() == t(text_id, lang).strip() and len(said.splitlines()) >= 5
    for alias, name in ALIASES.items():  # a topic's Spanish name reads it too
        assert run("--lang", lang, "help", alias).stdout == run("--lang", lang, "help", name).stdout
    assert t("topic_playing", "en") != t("topic_playing", "es")


@pytest.mark.parametrize("columns", [40, 80])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_no_line_of_a_topic_is_wider_than_the_terminal(lang, columns):
    width = text_width(columns)
    for text_id, about_id in TOPICS.values():
        for line in [*t(text_id, lang).split("\n"), "  x " + t(about_id, lang)]:
            assert all(len(row) <= width for row in wrap_text(line, width)), (text_id, line)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_settings_topic_names_every_key_settings_yaml_knows(lang):
    said = t("topic_settings", lang)
    assert [key for key in SETTING_KEYS if f"  {key}: " not in said] == []


def test_an_unknown_topic_is_one_sentence_naming_the_topics():
    assert_user_error(run("help", "moon"), "'moon' is not a topic", "playing, settings")
