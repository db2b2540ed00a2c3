"""Golden transcripts of the hearts command, run from the outside (see harness.py)."""
