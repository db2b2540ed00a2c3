"""``hearts help [TOPIC]``: what docs/ explains, for whoever installed the wheel and has no docs/.

Each topic is a text of the message catalog, in English and Spanish, wrapped to the terminal
(whole lines to a pipe); an indented line (an example) is kept as written.
"""

import sys
from typing import Annotated

import typer

from ..command import Command, one_command
from ..options import LangOpt, PlainOpt
from ..output import echo, refuse, setup

cli = one_command()

# topic -> (its text, its one line in the list); the words are the catalog's, in either language
TOPICS: dict[str, tuple[str, str]] = {
    "playing": ("topic_playing", "topic_playing_about"),
    "settings": ("topic_settings", "topic_settings_about"),
    "rules": ("topic_rules", "topic_rules_about"),
    "replay": ("topic_replay", "topic_replay_about"),
    "tables": ("topic_tables", "topic_tables_about"),
    "sim": ("topic_sim", "topic_sim_about"),
    "programs": ("topic_programs", "topic_programs_about"),
    "engine": ("topic_engine", "topic_engine_about"),
}
ALIASES = {"jugar": "playing", "ajustes": "settings", "reglas": "rules", "repeticion": "replay",
           "mesas": "tables", "torneos": "sim", "programas": "programs", "motor": "engine"}


@cli.command(cls=Command, help="help_help", epilog="epilog_help")
def help(
    ctx: typer.Context,
    topic: Annotated[str | None, typer.Argument(metavar="TOPIC", help="help_help_topic")] = None,
    lang: LangOpt = None,
    plain: PlainOpt = False,
) -> None:
    """What the documentation explains, by topic; without one, the topics."""
    out = setup(ctx, lang, plain)
    from ...base.wrapping import for_terminal
    from ...model.cards import fold
    from ...text.catalog import t

    if topic is None:
        lines = [t("topics_heading", out.lang)]
        lines += [f"  {name:<9} {t(about, out.lang)}" for name, (_, about) in TOPICS.items()]
        from ...base.version import docs_dir

        lines.append(t("topics_more", out.lang, docs=docs_dir()))
        echo(for_terminal("\n".join(lines), sys.stdout))
        return
    name = fold(topic.strip())
    name = ALIASES.get(name, name)
    if name not in TOPICS:
        refuse("help_no_topic", value=topic, topics=", ".join(TOPICS))
    echo(for_terminal(t(TOPICS[name][0], out.lang, ascii=out.ascii), sys.stdout))
