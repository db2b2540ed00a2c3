"""``hearts explain``: why a card cannot be played now, or what it would do."""

from typing import TYPE_CHECKING, Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules, normal_code
from ..options import JsonOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, complete_card
from ..output import Out, echo, os_problem, refuse, setup, wrapped_for_terminal

if TYPE_CHECKING:
    from ...model.rules import Rules
    from ...records.explain import Moment

cli = one_command()


@cli.command(cls=Command, help="help_explain", epilog="epilog_explain")
def explain(
    ctx: typer.Context,
    card: Annotated[str, typer.Argument(metavar="CARD", autocompletion=complete_card,
                                        help="help_explain_card")],
    code: Annotated[str | None, typer.Option("--code", metavar="CODE", help="help_explain_code")] = None,
    moves: Annotated[str | None, typer.Option("--moves", metavar="MOVES", help="help_explain_moves")] = None,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    record: Annotated[str | None, typer.Option("--record", metavar="FILE", help="help_explain_record")] = None,
    at: Annotated[str | None, typer.Option("--at", metavar="POSITION",
                                              help="help_explain_at")] = None,
    position_text: Annotated[str | None, typer.Option("--position", metavar="TEXT",
                                                      help="help_explain_position")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Say why CARD cannot be played now, or what it would do if it can.

    The position is the saved game's (your seat), or --code with --moves, or
    --record with --at, or a position text (--position). The answer names the rule and the cards involved.
    """
    out = setup(ctx, lang, plain)
    if moves is not None and record is not None:  # --code names a move log's game, --moves no more
        refuse("cli_code_and_record")
    if moves is not None and code is None:
        refuse("cli_moves_need_code")
    if at is not None and record is None:
        refuse("cli_at_needs_record")
    if position_text is not None and (code is not None or record is not None):
        refuse("cli_position_alone")
    from ...model.cards import parse_card
    from ...records import explain as ex

    parse_card(card)  # a bad card is the first thing to say, whatever the position
    if position_text is not None:  # a position text (docs/position.md)
        position = ex.from_text(position_text)
    elif record is not None:  # a record, or a move log (with --code when it names no game)
        given = preset is not None or players is not None or bool(settings)
        position = _record_position(out, record, at, normal_code(code) if code is not None else None,
                                    load_rules(preset, players, settings=settings) if given else None)
    elif code is not None:
        rule_set = load_rules(preset, players, settings=settings)
        position = ex.Moment(ex.from_code(rule_set, normal_code(code), moves), None)
    else:
        from ...store.saves import Store

        position = ex.from_save(Store().save_path)
    verdict = ex.explain(position, card)
    if as_json:
        import json

        echo(json.dumps(ex.to_json(position, verdict, out.lang, out.ascii), ensure_ascii=False, indent=2))
        return
    echo(wrapped_for_terminal(ex.describe_position(position, out.lang, out.ascii)))
    echo(wrapped_for_terminal(ex.headline(verdict, out.lang, out.ascii)))
    echo(wrapped_for_terminal(verdict.message(out.lang, out.ascii)))


def _record_position(out: Out, path: str, at: str | None, code: str | None,
                     rules: "Rules | None") -> "Moment":
    """The position ``--at`` names in the record or move log at ``path`` (a file that cannot
    be read is refused)."""
    from ...records import explain as ex

    try:
        return ex.from_record(path, at, code, rules)
    except OSError as e:
        refuse("cli_bad_file", path=path, problem=os_problem(out, e))
