"""The program's version, in the one place every layer may read it from (a record's
``program:``, ``hearts --version``, the engine protocol's hello); the package's face
re-exports it as ``hearts_cli.__version__``."""

__version__ = "0.1.0"
