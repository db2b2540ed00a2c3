"""The presets' registry is the YAML files in seeds/: every place that lists presets derives from them."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from hearts_cli.cli.app import app
from hearts_cli.cli.options import complete_preset
from hearts_cli.model.rules import DEFAULT_PRESET, RulesError, load_preset, preset_info, preset_names, seeds_dir
from hearts_cli.text.catalog import CATALOG, LANGUAGES

PRESETS = preset_names()


def _readme_tables() -> tuple[str, str]:
    """The README's preset table and its settings table."""
    text = (seeds_dir() / "README.md").read_text(encoding="utf-8")
    presets, _, settings = text.partition("## The settings")
    return presets, settings.partition("\n## ")[0]


def _readme_presets() -> list[str]:
    return re.findall(r"^\| `([a-z0-9-]+)`(?: \(default\))? \|", _readme_tables()[0], re.MULTILINE)


def test_the_readme_settings_table_lists_every_setting():
    from hearts_cli.model.rules import SETTINGS

    listed = re.findall(r"^\| `([a-z_]+)` \|", _readme_tables()[1], re.MULTILINE)
    assert listed == list(SETTINGS)


def test_the_readme_table_lists_exactly_the_preset_files():
    assert sorted(_readme_presets()) == sorted(PRESETS)
    assert _readme_presets()[0] == DEFAULT_PRESET == PRESETS[0]


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_file_is_complete(name):
    info = preset_info(name)
    description = info.get("description") or {}
    for lang in LANGUAGES:
        assert isinstance(description.get(lang), str) and description[lang].strip(), (name, lang)
    source = str(info.get("source", ""))
    assert all(f"rt_source_{source[:3]}" in CATALOG[lang] for lang in LANGUAGES), (name, source)
    for mid in (f"preset_name_{name}", f"preset_line_{name}"):  # the catalogued name and help line
        assert all(CATALOG[lang].get(mid, "").strip() for lang in LANGUAGES), mid
    based_on = info.get("based_on")
    assert based_on is None or based_on in PRESETS
    assert load_preset(name).preset == name


def test_every_preset_is_offered_and_unknown_ones_are_refused_with_the_list():
    completed = complete_preset("")
    names = [c[0] if isinstance(c, tuple) else c for c in completed]
    assert set(PRESETS) <= set(names)
    with pytest.raises(RulesError) as e:
        load_preset("nope")
    assert all(name in e.value.message("en") for name in PRESETS)
    result = CliRunner().invoke(app, ["rules", "--preset", "nope"])
    assert result.exit_code == 2 and all(name in result.stderr for name in PRESETS)
    from hearts_cli.cli.protocol import Session

    assert Session().handle({"cmd": "hello"})["presets"] == PRESETS
    for command in ("new", "rules"):
        text = CliRunner().invoke(app, [command, "--help"]).stdout
        listed = [line.split()[0] for line in text.splitlines() if line.startswith("  ") and line.split()]
        assert set(PRESETS) <= set(listed), command
