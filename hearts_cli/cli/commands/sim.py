"""``hearts sim``: a tournament between CPU levels (the games run in :mod:`hearts_cli.cli.sim`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules
from ..options import MAX_WORKERS, JsonOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, complete_levels
from ..output import echo, refuse, setup

cli = one_command()
MOVE_TIMES = (0.01, 3600.0)  # --move-time: seconds an outside program may take for one decision


@cli.command(cls=Command, help="help_sim", epilog="epilog_sim")
def sim(
    ctx: typer.Context,
    seats: Annotated[str | None, typer.Option(
        "--seats", metavar="LEVELS", autocompletion=complete_levels,
        help="help_sim_seats")] = None,
    deals: Annotated[int, typer.Option("--deals", metavar="N",
                                       help="help_sim_deals")] = 100,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="help_sim_duplicate")] = False,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    seed: Annotated[str | None, typer.Option(
        "--seed", metavar="S", help="help_sim_seed")] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help="help_sim_workers")] = 1,
    simulations: Annotated[int | None, typer.Option(
        "--simulations", metavar="N", help="help_sim_simulations")] = None,
    gauntlet: Annotated[str | None, typer.Option(
        "--gauntlet", metavar="PLAYER,FIELD...", help="help_sim_gauntlet")] = None,
    round_robin: Annotated[str | None, typer.Option(
        "--round-robin", metavar="PLAYERS", help="help_sim_round_robin")] = None,
    sprt: Annotated[str | None, typer.Option(
        "--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]", help="help_sim_sprt")] = None,
    results: Annotated[str | None, typer.Option(
        "--results", metavar="FILE", help="help_sim_results")] = None,
    export: Annotated[str | None, typer.Option(
        "--export", metavar="pbn:FILE|openspiel:FILE", help="help_sim_export")] = None,
    move_time: Annotated[float | None, typer.Option(
        "--move-time", metavar="SECONDS", help="help_sim_move_time")] = None,
    faults: Annotated[str | None, typer.Option(
        "--faults", metavar="FILE", help="help_sim_faults")] = None,
    cluster: Annotated[str | None, typer.Option(
        "--cluster", metavar="auto|local|ray://HOST:PORT", help="help_sim_cluster")] = None,
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
    if move_time is not None and not MOVE_TIMES[0] <= move_time <= MOVE_TIMES[1]:
        refuse("sim_bad_move_time", value=move_time, low=MOVE_TIMES[0], high=MOVE_TIMES[1])
    if cluster is not None:
        from ..cluster import check_cluster

        cluster = check_cluster(cluster)
    from ...bots import check_level

    if gauntlet is not None or round_robin is not None or sprt is not None or results is not None:
        from .. import sim as simulation

        tournament = simulation.tournament_of(rule_set, seats, gauntlet, round_robin, sprt, deals, seed,
                                              simulations, results, duplicate, move_time)
        if workers < 1:
            refuse("sim_at_least_one", option="--workers", value=workers)
        if workers > MAX_WORKERS:
            refuse("cli_too_many", option="--workers", most=MAX_WORKERS, value=workers)
        raise typer.Exit(simulation.run_tournament_command(tournament, results, workers, out, as_json,
                                                           simulation.export_of(export, rule_set), cluster,
                                                           faults))

    n = rule_set.players
    chosen = (["hard"] + ["normal"] * (n - 1) if seats is None
              else [check_level(x, hook=True) for x in seats.split(",")])
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

    exporting = simulation.export_of(export, rule_set)
    try:
        result = simulation.run(rule_set, chosen, deals, seed, duplicate=duplicate, simulations=simulations,
                                workers=workers, lang=out.lang,
                                show_progress=not as_json and simulation.stderr_is_terminal(),
                                export=exporting, move_time=move_time, cluster=cluster, faults=faults)
    except KeyboardInterrupt:  # Ctrl-C: where the games finished are (no results file here)
        echo(simulation.interrupted(None, exporting, out.lang), err=True)
        raise typer.Exit(130) from None
    if as_json:
        import json

        echo(json.dumps(simulation.to_json(result), ensure_ascii=False))
    else:
        echo(simulation.render(result, out.lang, out.color), nl=False)
    if result.stopped is not None:  # a program that never answered: said once the report is out
        raise result.stopped
