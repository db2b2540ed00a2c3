"""hearts: the card game Hearts (Corazones) in a terminal."""

__version__ = "0.1.0"
