"""``hearts stats``: the person's record from the archived games."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..options import JsonOpt, LangOpt, PlainOpt, complete_preset, preset_value
from ..output import echo, refuse, screen_width, setup

cli = one_command()


@cli.command(cls=Command, help="help_stats", epilog="epilog_stats")
def stats(
    ctx: typer.Context,
    preset: Annotated[str | None, typer.Option(
        "--preset", "-p", metavar="PRESET", autocompletion=complete_preset, callback=preset_value,
        help="help_stats_preset")] = None,
    since: Annotated[str | None, typer.Option(
        "--since", metavar="DATE", help="help_stats_since")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Your record from the archived games: wins, streaks, points, moons, by preset and by CPU levels.

    Counts every finished game in the archive (the data directory's archive/,
    see docs/playing.md) and draws your recent final scores. An index
    (stats.sqlite3, next to the archive) keeps it fast; it is rebuilt from the
    archive whenever it is missing, out of date or damaged.
    """
    out = setup(ctx, lang, plain)
    from ...store import stats as st

    if preset is not None:
        from ...model.rules import preset_names

        names = preset_names()
        if preset not in names:
            refuse("stats_bad_preset", value=preset, presets=names)
    start = None
    if since is not None:
        start = st.parse_since(since)
        if start is None:
            refuse("stats_bad_since", value=since)
    from ...store.saves import home

    data = st.collect(home(), preset, start)
    if as_json:
        import json

        data["filters"] = {"preset": preset, "since": start}
        echo(json.dumps(data, ensure_ascii=False))
        return
    lines = st.render(data, out.lang, out.ascii, preset, start, screen_width())
    if out.color:
        st.print_rich(lines)
    else:
        echo(st.as_text(lines), nl=False)
