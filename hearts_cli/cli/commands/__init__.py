"""One module per ``hearts`` command, each a Typer app of one command that ``cli/app.py`` joins
into the ``hearts`` group when the command is asked for."""
