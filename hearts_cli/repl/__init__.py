"""The game loop of ``hearts play``, ``hearts new`` and ``hearts join``: the person's seat at a
table, its commands, its text and its front ends (docs/architecture.md names each module).
A game of one's own is opened in :mod:`.start`; a new one is checked once in :mod:`.new_game`.
"""
