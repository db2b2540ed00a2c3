"""The one family of errors a person can cause: a message id, its parameters, a sentence.

Every error that comes from what somebody typed, wrote in a file or sent
over the protocol (a card, a code, a rule setting, a record, a move log, a
pass, a move, a request) is a :class:`HeartsError`. Lower layers raise it with
a message id and parameters, never prose; the command line catches the base
class in one place and prints :meth:`HeartsError.message` as one sentence,
exit status 2 (see ``cli._Command``).

Parameters that quote the person's own input (named in ``echoed``) are
shortened and escaped when the sentence is made, so a long or hostile input
can neither flood the terminal nor drive it.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base.untrusted import ECHO_CHARS as ECHO_LIMIT  # characters of a person's input quoted back
from ..base.untrusted import shown  # the one helper that escapes and shortens what is quoted back

__all__ = ["ECHO_LIMIT", "HeartsError", "shown"]



class HeartsError(ValueError):
    """Something a person gave that cannot be used: one sentence in either language.

    ``message_id`` names the sentence in :mod:`hearts_cli.text.catalog`; ``params``
    fill its blanks. Subclasses add where the problem is (a round, a line, a
    field) and may say it differently, but always through :meth:`message`;
    ``str(e)`` is that sentence in the language of the moment, cards as symbols
    (``7♣``), as :meth:`Game.why <hearts_cli.play.game.Game.why>` says it.
    """

    # parameters that quote the person's input: shortened and escaped when shown
    echoed: tuple[str, ...] = ("text", "value")

    def __init__(self, message_id: str, /, **params: object):
        self.message_id = message_id
        self.params = params
        super().__init__(self.message())  # str(e): the sentence as the library says it (why's own)

    def shown_params(self) -> dict[str, object]:
        """``params`` with every echoed one shortened, and every text escaped (a file name too)."""
        params = dict(self.params)
        for name, value in params.items():
            if isinstance(value, str):
                params[name] = shown(value, ECHO_LIMIT if name in self.echoed else None)
        return params

    def message(self, lang: str | None = None, ascii: bool = False) -> str:
        """The sentence in ``lang`` (cards as ``QS`` with ``ascii``)."""
        from ..text.catalog import t  # not at the top: the catalog imports cards, which imports this

        return t(self.message_id, lang, ascii=ascii, **self.shown_params())

    def body(self, lang: str | None = None) -> Mapping[str, object]:
        """The one error object, ``{"code", "message"}``: the message id is the stable code, the
        sentence has cards in ASCII (``QS``), as every JSON surface writes it (``--json``)."""
        return {"code": self.message_id, "message": self.message(lang, ascii=True)}
