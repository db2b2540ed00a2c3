"""The message catalog: every sentence a person reads, in English and Spanish.

Code never builds user-facing text itself; it names a message and its
parameters, and :func:`t` renders it in the chosen language. Cards passed as
parameters are shown with their suit symbols (``Q♠``) unless ``ascii`` is set,
in which case the canonical form is used (``QS``).
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from .cards import Card

LANGUAGES = ("en", "es")

CATALOG: dict[str, dict[str, str]] = {
    "en": {
        # card input
        "bad_card": "'{text}' is not a card.",
        "bad_card_hint": "'{text}' is not a card; did you mean {cards}?",
        # reasons a card cannot be played
        "not_in_hand": "You do not hold {card}.",
        "wrong_phase_pass": "Cards are being passed; no card can be played yet.",
        "wrong_phase_over": "The round is over; no card can be played.",
        "wrong_phase_play": "Passing is over; cards are now played one at a time.",
        "not_your_turn": "It is not seat {seat}'s turn; seat {turn} is to play.",
        "not_your_turn_card": "It is not your turn to play {card}.",
        "bad_seat": "There is no seat {seat}; seats are 0 to {players} minus one.",
        "must_lead_two_clubs": "The first trick must be led with {card}.",
        "must_lead_lowest_club": "The first trick must be led with the lowest club in play, {card}.",
        "must_follow_suit": "You must follow {suit}: you still hold {cards}.",
        "no_points_on_first_trick": "No points on the first trick: {card} scores, and you hold cards that don't.",
        "no_queen_on_first_trick": "No points on the first trick: hearts are not allowed, and you hold other cards.",
        "hearts_not_broken": "Hearts are not broken yet, and you hold cards of other suits.",
        # effects of a legal card
        "effect_wins_points": "{card} wins the trick and takes {points} points.",
        "effect_wins_so_far": "{card} wins the trick, with {points} points in it so far.",
        "effect_wins": "{card} wins the trick.",
        "effect_wins_no_points": "{card} wins the trick, with no points in it.",
        "effect_loses": "{card} does not win the trick.",
        "effect_unknown": "{card} may or may not win the trick.",
        "effect_breaks_hearts": "It breaks hearts.",
        # passing
        "pass_count": "Pass exactly {count} cards (you chose {given}).",
        "pass_twice": "Seat {seat} has already passed.",
        "pass_duplicate": "The same card is chosen twice: {card}.",
        "no_pass_round": "There is no passing this round.",
        # suits
        "suit_0": "clubs",
        "suit_1": "diamonds",
        "suit_2": "hearts",
        "suit_3": "spades",
        # directions
        "dir_left": "left",
        "dir_right": "right",
        "dir_across": "across",
        "dir_none": "no pass",
        # rules errors
        "rules_unknown_key": "Unknown rule '{key}'.",
        "rules_bad_type": "Rule '{key}' must be {expected}.",
        "rules_bad_choice": "Rule '{key}' must be one of: {choices}.",
        "rules_players": "Rule 'players' must be from 3 to 6.",
        "rules_target": "Rule 'target' must be a whole number above 0.",
        "rules_removal_divide": "Rule 'removal' for {players} players leaves {left} cards, which do not divide among {players}.",
        "rules_removal_points": "Rule 'removal' for {players} players removes {card}, which scores points.",
        "rules_removal_missing": "Rule 'removal' gives no cards to remove for {players} players, and 52 cards do not divide among {players}.",
        "rules_across_odd": "Rule 'passing' passes across, which needs an even number of players.",
        "rules_pass_count": "Rule 'pass_count' must leave cards in hand: at most {most} with {players} players.",
        "rules_unknown_preset": "Unknown preset '{name}'; the presets are: {names}.",
        "rules_bad_file": "Preset file {path} cannot be read: {problem}",
        "type_spec": "a preset name or a mapping of settings",
        "type_preset": "a preset name",
        "type_int": "a whole number",
        "type_bool": "true or false",
        "type_removal": "a mapping from a number of players to a list of cards",
        "type_removal_card": "a list of cards ('{text}' is not a card)",
        # engine protocol
        "proto_bad_json": "That line is not a JSON object.",
        "proto_unknown_cmd": "Unknown command '{cmd}'.",
        "proto_missing": "The command needs '{field}'.",
        "proto_bad_field": "Field '{field}' is not valid: {problem}",
        "proto_no_position": "There is no position yet; send a 'position' command first.",
        "proto_bad_hands": "The hands must be {players} lists of {size} different cards, none of them removed.",
        "proto_bad_code": "'{code}' is not a game code.",
        "proto_index": "{field}[{index}]: {problem}",
        # codes
        "code_length": "A game code has 8 characters; '{code}' has {length}.",
        "code_char": "'{char}' cannot appear in a game code.",
        "code_check": "'{code}' is not a game code: its last character does not match (a typo?).",
        # records
        "record_too_big": "{path} is larger than {limit} bytes; that is not a game record.",
        "record_bad_yaml": "{path} is not a readable game record: {problem}",
        "record_bad_field": "{path}: '{field}' {problem}",
        "record_bad_move": "{path}: round {round}, trick {trick}, card {position}: {card} cannot be played. {reason}",
        "record_bad_pass": "{path}: round {round}: seat {seat}'s pass is not valid. {reason}",
        "record_hands_mismatch": "{path}: round {round}: the hands do not match the deal of code {code}.",
        "record_score_mismatch": "{path}: round {round}: the recorded scores {recorded} do not match the play, which gives {actual}.",
    },
    "es": {
        "bad_card": "«{text}» no es una carta.",
        "bad_card_hint": "«{text}» no es una carta; ¿quizá {cards}?",
        "not_in_hand": "No tienes {card}.",
        "wrong_phase_pass": "Se están pasando cartas; todavía no se puede jugar ninguna.",
        "wrong_phase_over": "La ronda ha terminado; ya no se puede jugar ninguna carta.",
        "wrong_phase_play": "Los pases ya terminaron; ahora se juega carta a carta.",
        "not_your_turn": "No es el turno del asiento {seat}; juega el asiento {turn}.",
        "not_your_turn_card": "No es tu turno para jugar {card}.",
        "bad_seat": "No existe el asiento {seat}; los asientos van de 0 a {players} menos uno.",
        "must_lead_two_clubs": "La primera baza se abre con {card}.",
        "must_lead_lowest_club": "La primera baza se abre con el trébol más bajo en juego, {card}.",
        "must_follow_suit": "Tienes que seguir a {suit}: aún tienes {cards}.",
        "no_points_on_first_trick": "En la primera baza no van cartas de puntos: {card} puntúa y tienes cartas que no.",
        "no_queen_on_first_trick": "En la primera baza no van corazones, y tienes otras cartas.",
        "hearts_not_broken": "Los corazones aún no están rotos y tienes cartas de otros palos.",
        "effect_wins_points": "{card} gana la baza y se lleva {points} puntos.",
        "effect_wins_so_far": "{card} gana la baza, con {points} puntos en ella por ahora.",
        "effect_wins": "{card} gana la baza.",
        "effect_wins_no_points": "{card} gana la baza, sin puntos en ella.",
        "effect_loses": "{card} no gana la baza.",
        "effect_unknown": "{card} puede ganar la baza o no.",
        "effect_breaks_hearts": "Rompe los corazones.",
        "pass_count": "Pasa exactamente {count} cartas (has elegido {given}).",
        "pass_twice": "El asiento {seat} ya ha pasado.",
        "pass_duplicate": "La misma carta está elegida dos veces: {card}.",
        "no_pass_round": "En esta ronda no hay pases.",
        "suit_0": "tréboles",
        "suit_1": "diamantes",
        "suit_2": "corazones",
        "suit_3": "picas",
        "dir_left": "izquierda",
        "dir_right": "derecha",
        "dir_across": "enfrente",
        "dir_none": "sin pase",
        "rules_unknown_key": "Regla desconocida «{key}».",
        "rules_bad_type": "La regla «{key}» debe ser {expected}.",
        "rules_bad_choice": "La regla «{key}» debe ser una de: {choices}.",
        "rules_players": "La regla «players» debe estar entre 3 y 6.",
        "rules_target": "La regla «target» debe ser un número entero mayor que 0.",
        "rules_removal_divide": "La regla «removal» para {players} jugadores deja {left} cartas, que no se reparten entre {players}.",
        "rules_removal_points": "La regla «removal» para {players} jugadores quita {card}, que puntúa.",
        "rules_removal_missing": "La regla «removal» no dice qué cartas quitar con {players} jugadores, y 52 cartas no se reparten entre {players}.",
        "rules_across_odd": "La regla «passing» pasa enfrente, y eso necesita un número par de jugadores.",
        "rules_pass_count": "La regla «pass_count» debe dejar cartas en la mano: como mucho {most} con {players} jugadores.",
        "rules_unknown_preset": "No existe el preset «{name}»; los presets son: {names}.",
        "rules_bad_file": "No se puede leer el preset {path}: {problem}",
        "type_spec": "un nombre de preset o un mapa de ajustes",
        "type_preset": "un nombre de preset",
        "type_int": "un número entero",
        "type_bool": "true o false",
        "type_removal": "un mapa de número de jugadores a lista de cartas",
        "type_removal_card": "una lista de cartas («{text}» no es una carta)",
        "proto_bad_json": "Esa línea no es un objeto JSON.",
        "proto_unknown_cmd": "Orden desconocida «{cmd}».",
        "proto_missing": "La orden necesita «{field}».",
        "proto_bad_field": "El campo «{field}» no es válido: {problem}",
        "proto_no_position": "Aún no hay posición; envía antes una orden «position».",
        "proto_bad_hands": "Las manos deben ser {players} listas de {size} cartas distintas, ninguna retirada.",
        "proto_bad_code": "«{code}» no es un código de partida.",
        "proto_index": "{field}[{index}]: {problem}",
        "code_length": "Un código de partida tiene 8 caracteres; «{code}» tiene {length}.",
        "code_char": "«{char}» no puede aparecer en un código de partida.",
        "code_check": "«{code}» no es un código de partida: su último carácter no cuadra (¿una errata?).",
        "record_too_big": "{path} ocupa más de {limit} bytes; eso no es un registro de partida.",
        "record_bad_yaml": "{path} no es un registro de partida legible: {problem}",
        "record_bad_field": "{path}: «{field}» {problem}",
        "record_bad_move": "{path}: ronda {round}, baza {trick}, carta {position}: no se puede jugar {card}. {reason}",
        "record_bad_pass": "{path}: ronda {round}: el pase del asiento {seat} no es válido. {reason}",
        "record_hands_mismatch": "{path}: ronda {round}: las manos no coinciden con el reparto del código {code}.",
        "record_score_mismatch": "{path}: ronda {round}: las puntuaciones anotadas {recorded} no cuadran con el juego, que da {actual}.",
    },
}


def default_language() -> str:
    """``HEARTS_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    chosen = os.environ.get("HEARTS_LANG", "").lower()
    if chosen in LANGUAGES:
        return chosen
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            lang = value.split("_")[0].split(".")[0].lower()
            return lang if lang in LANGUAGES else "en"
    return "en"


def _show(value: Any, lang: str, ascii: bool) -> Any:
    if isinstance(value, Card):
        return str(value) if ascii else value.symbol
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Card) for v in value):
        return ", ".join(_show(v, lang, ascii) for v in value)
    return value


def t(message_id: str, lang: str | None = None, /, ascii: bool = False, **params: Any) -> str:
    """Render ``message_id`` in ``lang`` (default: :func:`default_language`)."""
    lang = lang if lang in LANGUAGES else default_language()
    template = CATALOG[lang].get(message_id) or CATALOG["en"][message_id]
    shown = {k: _show(v, lang, ascii) for k, v in params.items()}
    if "suit" in shown and isinstance(params["suit"], int):
        shown["suit"] = CATALOG[lang][f"suit_{int(params['suit'])}"]
    return template.format(**shown)


def card_list(cards: Iterable[Card], ascii: bool = False) -> str:
    return ", ".join(str(c) if ascii else c.symbol for c in cards)
