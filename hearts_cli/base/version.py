"""The program's version and where its documentation is, in the one place every layer may read
them from (a record's ``program:``, ``hearts --version``, the engine protocol's hello, the help's
pointer to the docs); the package's face re-exports the version as ``hearts_cli.__version__``."""

from __future__ import annotations

import os

__version__ = "0.1.0"

# The project has no public home yet, so no document, help text or schema names an address
# (issue 34 §10): the docs/ files ship inside the wheel (pyproject.toml's force-include), and
# `hearts help` names the folder they were installed in.


def docs_dir() -> str:
    """The folder of the docs/ files: inside the package when installed from a wheel, the
    checkout's ``docs/`` otherwise."""

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    installed = os.path.join(package, "docs")
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(package), "docs")
