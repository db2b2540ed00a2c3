"""``hearts sim``: a tournament between CPU levels (the games run in :mod:`hearts_cli.cli.sim`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules
from ..options import MAX_WORKERS, JsonOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, complete_levels
from ..output import echo, refuse, setup

cli = one_command()


@cli.command(cls=Command, epilog=(
    "\b\nExamples:\n"
    "  hearts sim --seats hard,normal,normal,normal --deals 500 --duplicate\n"
    "  hearts sim --seats easy,random,random,random --deals 200 --seed bench --json\n"
    "  hearts sim --seats normal,easy,easy --preset reference --players 3 --workers 2\n"
    "  hearts sim --seats hard,normal,normal,normal --simulations 40 --duplicate --workers 4\n"
    "  hearts sim --seats hard,normal,normal,normal --set moon=off --set target=100\n"
    "\b\n"
    "Levels:\n{level_lines}\n"
    "\b\n"
    "Benchmark seats (sim only: not offered at the table):\n{bench_lines}\n"
    "\b\n"
    "The same --seed plays the same games and gives the same results (but the times)."
))
def sim(
    ctx: typer.Context,
    seats: Annotated[str | None, typer.Option(
        "--seats", metavar="LEVELS", autocompletion=complete_levels,
        help="Comma-separated levels, one per seat: {levels} (or the benchmark seats {bench_levels}). Default: hard, then normal.")] = None,
    deals: Annotated[int, typer.Option("--deals", metavar="N",
                                       help="Deals to play at least; games are always played whole.")] = 100,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="Play each game once per rotation of the seats, so that luck cancels out.")] = False,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="S", help="Any text; the games' codes derive from it. Default: a fresh one, printed.")] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="Worker processes.")] = 1,
    simulations: Annotated[int | None, typer.Option(
        "--simulations", metavar="N", help="Hard's budget: deals sampled per decision (default 120; with two decks, worlds per decision, default 64).")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """Play a tournament between CPU levels and report how each level did.

    Whole games to the preset's target, with its tie policy: points per round
    with a 95% confidence interval, games won, moons shot and stopped, and the
    time each level takes per decision. See docs/sim.md.
    """
    out = setup(ctx, lang, plain)
    rule_set = load_rules(preset, players, settings=settings)
    from ...bots import check_level

    n = rule_set.players
    chosen = ["hard"] + ["normal"] * (n - 1) if seats is None else [check_level(x, bench=True) for x in seats.split(",")]
    if len(chosen) != n:
        low, high = rule_set.min_players, rule_set.max_players
        refuse("sim_seat_count" if low <= len(chosen) <= high else "sim_seat_range",
                given=len(chosen), players=n, low=low, high=high)
    for option, value in (("--deals", deals), ("--workers", workers), ("--simulations", simulations)):
        if value is not None and value < 1:
            refuse("sim_at_least_one", option=option, value=value)
    if workers > MAX_WORKERS:
        refuse("cli_too_many", option="--workers", most=MAX_WORKERS, value=workers)
    if seed is None:
        from ...model.codes import new_code

        seed = new_code()
    from .. import sim as simulation

    result = simulation.run(rule_set, chosen, deals, seed, duplicate=duplicate, simulations=simulations,
                            workers=workers, lang=out.lang,
                            show_progress=not as_json and simulation.stderr_is_terminal())
    if as_json:
        import json

        echo(json.dumps(simulation.to_json(result), ensure_ascii=False))
        return
    echo(simulation.render(result, out.lang, out.color), nl=False)
