"""The program's version and address, in the one place every layer may read them from (a
record's ``program:``, ``hearts --version``, the engine protocol's hello, the help's pointer to
the docs); the package's face re-exports the version as ``hearts_cli.__version__``."""

__version__ = "0.1.0"

# Where the project, its docs/ and its issues live (pyproject.toml's [project.urls], the help's pointer):
# a pip user has no checkout, so the help names this instead of a path.
PROJECT_URL = "https://github.com/hearts-cli/hearts"
