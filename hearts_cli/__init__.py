"""hearts: the card game Hearts (Corazones) in a terminal, and a library to script it.

``import hearts_cli`` is all a script needs (docs/library.md)::

    game = hearts_cli.Game("quick", "K7Q2MXA7")   # a preset (or a Rules) and a game code
    game.push_pass(hearts_cli.cpu_pass(game))      # the seat to move passes as the CPU would
    "2C" in game.legal_moves, game.why("QH"), game.push("2C"), game.pop()

Every error it raises is a ``HeartsError`` with its sentence; ``read_record(path)`` and
``read_movelog(path)`` read files, ``parse_record(text)`` and ``parse_movelog(text)`` texts;
``hearts_cli.fast`` is the fast path for Monte Carlo work (docs/speed.md).

Every name below is imported when first asked for (PEP 562), so the command line's
start-up is what it was: ``import hearts_cli`` loads nothing but this file and the
version. The type checker sees them all (the ``TYPE_CHECKING`` imports).
"""

from .base.version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing here (mypy reads it as True)

if TYPE_CHECKING:
    from .bots import LEVELS as LEVELS
    from .bots import LevelError as LevelError
    from .bots import cpu_moon as cpu_moon
    from .bots import cpu_move as cpu_move
    from .bots import cpu_pass as cpu_pass
    from .bots import cpu_play as cpu_play
    from .bots import suggest_moon as suggest_moon
    from .bots import suggest_pass as suggest_pass
    from .bots import suggest_play as suggest_play
    from .model.cards import Card as Card
    from .model.cards import CardParseError as CardParseError
    from .model.cards import Suit as Suit
    from .model.cards import parse_card as parse_card
    from .model.codes import CodeError as CodeError
    from .model.codes import new_code as new_code
    from .model.errors import HeartsError as HeartsError
    from .model.rules import Moon as Moon
    from .model.rules import Rules as Rules
    from .model.rules import RulesError as RulesError
    from .play import fast as fast
    from .play.dealt import IllegalMove as IllegalMove
    from .play.dealt import MoonChoiceError as MoonChoiceError
    from .play.dealt import PassError as PassError
    from .play.dealt import Phase as Phase
    from .play.dealt import PhaseError as PhaseError
    from .play.dealt import RoundResult as RoundResult
    from .play.dealt import Trick as Trick
    from .play.game import Game as Game
    from .play.game import LegalMoves as LegalMoves
    from .play.game import Move as Move
    from .play.game import NoMoveError as NoMoveError
    from .play.game import Outcome as Outcome
    from .play.game import SeatError as SeatError
    from .play.game import Step as Step
    from .play.round import SeatView as SeatView
    from .play.verdicts import Reason as Reason
    from .play.verdicts import Verdict as Verdict
    from .records.games import parse_movelog as parse_movelog
    from .records.games import parse_record as parse_record
    from .records.games import read_movelog as read_movelog
    from .records.games import read_record as read_record
    from .records.movelog import MoveLogError as MoveLogError
    from .records.record_parts import RecordError as RecordError

# each public module (the fast playout path, for Monte Carlo work: docs/speed.md), imported on first use
_MODULES = {"fast": "play.fast"}

# each public name, and the module it lives in (imported on first use)
_WHERE = {
    "LEVELS": "bots", "LevelError": "bots", "cpu_moon": "bots", "cpu_move": "bots", "cpu_pass": "bots",
    "cpu_play": "bots", "suggest_moon": "bots", "suggest_pass": "bots", "suggest_play": "bots",
    "Card": "model.cards", "CardParseError": "model.cards", "Suit": "model.cards", "parse_card": "model.cards",
    "CodeError": "model.codes", "new_code": "model.codes",
    "HeartsError": "model.errors",
    "Moon": "model.rules", "Rules": "model.rules", "RulesError": "model.rules",
    "Game": "play.game", "LegalMoves": "play.game", "Move": "play.game", "NoMoveError": "play.game",
    "Outcome": "play.game", "SeatError": "play.game", "Step": "play.game", "SeatView": "play.round",
    "IllegalMove": "play.dealt", "MoonChoiceError": "play.dealt", "PassError": "play.dealt", "Phase": "play.dealt",
    "PhaseError": "play.dealt", "RoundResult": "play.dealt", "Trick": "play.dealt",
    "Reason": "play.verdicts", "Verdict": "play.verdicts",
    "read_record": "records.games", "read_movelog": "records.games", "parse_record": "records.games",
    "parse_movelog": "records.games",
    "MoveLogError": "records.movelog",
    "RecordError": "records.record_parts",
}

__all__ = [
    "LEVELS",
    "Card",
    "CardParseError",
    "CodeError",
    "Game",
    "HeartsError",
    "IllegalMove",
    "LegalMoves",
    "LevelError",
    "Moon",
    "MoonChoiceError",
    "Move",
    "MoveLogError",
    "NoMoveError",
    "Outcome",
    "PassError",
    "Phase",
    "PhaseError",
    "Reason",
    "RecordError",
    "RoundResult",
    "Rules",
    "RulesError",
    "SeatError",
    "SeatView",
    "Step",
    "Suit",
    "Trick",
    "Verdict",
    "__version__",
    "cpu_moon",
    "cpu_move",
    "cpu_pass",
    "cpu_play",
    "fast",
    "new_code",
    "parse_card",
    "parse_movelog",
    "parse_record",
    "read_movelog",
    "read_record",
    "suggest_moon",
    "suggest_pass",
    "suggest_play",
]


if not TYPE_CHECKING:  # the checker reads the imports above, and a misspelt name stays an error

    def __getattr__(name: str) -> object:
        """A public name, imported now (and kept, so the next use is a plain lookup)."""
        from importlib import import_module

        module = _MODULES.get(name)
        if module is not None:
            value: object = import_module(f"{__name__}.{module}")
            globals()[name] = value
            return value
        where = _WHERE.get(name)
        if where is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{__name__}.{where}"), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(globals()) | set(_WHERE) | set(_MODULES))
