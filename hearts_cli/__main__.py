"""``python -m hearts_cli``: the same as the ``hearts`` command."""

from .cli import app

if __name__ == "__main__":
    app(prog_name="hearts")
