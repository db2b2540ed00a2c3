"""``hearts sim``: a tournament between CPU levels (its options read and its report printed:
:mod:`hearts_cli.cli.sim`; the games: :mod:`hearts_cli.sim`)."""

from typing import Annotated

import typer

from ..command import Command, one_command
from ..given import load_rules
from ..options import JsonOpt, LangOpt, PlainOpt, PlayersOpt, PresetOpt, SetOpt, complete_levels
from ..output import refuse, setup

cli = one_command()
MOVE_TIMES = (0.01, 3600.0)  # --move-time: seconds an outside program may take for one decision

# the options of hearts sim (each help is the message help_sim_<name>)
SeatsOpt = Annotated[str | None, typer.Option("--seats", metavar="LEVELS", autocompletion=complete_levels,
                                              help="help_sim_seats")]
DealsOpt = Annotated[int, typer.Option("--deals", metavar="N", help="help_sim_deals")]
DuplicateOpt = Annotated[bool, typer.Option("--duplicate", help="help_sim_duplicate")]
SeedOpt = Annotated[str | None, typer.Option("--seed", metavar="S", help="help_sim_seed")]
WorkersOpt = Annotated[int, typer.Option("--workers", metavar="N", help="help_sim_workers")]
SimulationsOpt = Annotated[int | None, typer.Option("--simulations", metavar="N", help="help_sim_simulations")]
GauntletOpt = Annotated[str | None, typer.Option("--gauntlet", metavar="PLAYER,FIELD...", help="help_sim_gauntlet")]
RoundRobinOpt = Annotated[str | None, typer.Option("--round-robin", metavar="PLAYERS", help="help_sim_round_robin")]
SprtOpt = Annotated[str | None, typer.Option("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]", help="help_sim_sprt")]
ResultsOpt = Annotated[str | None, typer.Option("--results", metavar="FILE", help="help_sim_results")]
ExportOpt = Annotated[str | None, typer.Option("--export", metavar="pbn:FILE|openspiel:FILE",
                                               help="help_sim_export")]
MoveTimeOpt = Annotated[float | None, typer.Option("--move-time", metavar="SECONDS", help="help_sim_move_time")]
FaultsOpt = Annotated[str | None, typer.Option("--faults", metavar="FILE", help="help_sim_faults")]
ClusterOpt = Annotated[str | None, typer.Option("--cluster", metavar="auto|local|ray://HOST:PORT",
                                                help="help_sim_cluster")]


@cli.command(cls=Command, help="help_sim", epilog="epilog_sim")
def sim(
    ctx: typer.Context,
    seats: SeatsOpt = None,
    deals: DealsOpt = 100,
    duplicate: DuplicateOpt = False,
    preset: PresetOpt = None,
    players: PlayersOpt = None,
    settings: SetOpt = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = 1,
    simulations: SimulationsOpt = None,
    gauntlet: GauntletOpt = None,
    round_robin: RoundRobinOpt = None,
    sprt: SprtOpt = None,
    results: ResultsOpt = None,
    export: ExportOpt = None,
    move_time: MoveTimeOpt = None,
    faults: FaultsOpt = None,
    cluster: ClusterOpt = None,
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
    from .. import sim as simulation  # (the run's modules: imported once the command runs)

    asked = simulation.Options(
        rules=rule_set, seats=seats, deals=deals, duplicate=duplicate, seed=seed, workers=workers,
        simulations=simulations, gauntlet=gauntlet, round_robin=round_robin, sprt=sprt, results=results,
        export=export, move_time=move_time, cluster=None if cluster is None else simulation.check_cluster(cluster),
        faults=faults, as_json=as_json)
    if asked.tournament:
        raise typer.Exit(simulation.tournament_command(asked, out))
    simulation.seats_command(asked, out)
