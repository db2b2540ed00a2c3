"""``python -m hearts_cli``: the same as the ``hearts`` command."""

from .cli.app import main

if __name__ == "__main__":
    main()
