"""``hearts rules``: the rules exactly as a preset (and any ``--set``) enforces them."""

from typing import Annotated

import typer

from ..command import PresetsCommand, one_command
from ..given import load_rules
from ..options import JsonOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, TargetOpt
from ..output import echo, setup, width

cli = one_command()


@cli.command(cls=PresetsCommand, help="help_rules", epilog="epilog_rules")
def rules(
    ctx: typer.Context,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    target: TargetOpt = None,
    settings: SetOpt = None,
    tips: Annotated[bool, typer.Option("--tips", help="help_rules_tips")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Print the rules exactly as a preset (and any --set) enforces them.

    The text is written from the rule set itself (the same values the engine
    plays by): deck and players, passing, leading and following, the first
    trick, breaking hearts, scoring, the moon, the end of the game and ties,
    and the variants switched on. --json prints the settings and what follows
    from them.
    """
    out = setup(ctx, lang, plain)
    rule_set = load_rules(preset, players, target, settings)
    from ...model import rules_text

    if as_json:
        import json

        data = rules_text.rules_json(rule_set)
        if tips:
            data["tips"] = [{"heading": h, "items": [p.removeprefix("- ") for p in ps]}
                            for h, ps in rules_text.tips(rule_set, out.lang, out.ascii)]
        echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    body = rules_text.sections(rule_set, out.lang, out.ascii)
    if tips:
        body += rules_text.tips(rule_set, out.lang, out.ascii)
    heading = (lambda s: typer.style(s, bold=True)) if out.color else (lambda s: s)
    echo(rules_text.render(rules_text.title(rule_set, out.lang, out.ascii), body, width(), heading),
          nl=False)
