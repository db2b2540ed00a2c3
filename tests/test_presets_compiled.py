"""The pre-parsed presets must say exactly what the YAML files say."""

import json

from hearts_cli.model.rules import PRESETS_JSON, compile_presets, load_preset, preset_names, seeds_dir


def test_presets_json_matches_the_yaml_files():
    committed = (seeds_dir() / PRESETS_JSON).read_text(encoding="utf-8")
    assert json.loads(committed) == json.loads(compile_presets()), (
        "seeds/presets.json is stale: run `make presets` after editing seeds/*.yaml"
    )


def test_every_yaml_preset_is_in_the_compiled_file():
    compiled = json.loads((seeds_dir() / PRESETS_JSON).read_text(encoding="utf-8"))
    assert sorted(compiled) == sorted(preset_names())
    for name in preset_names():
        assert load_preset(name).preset == name
