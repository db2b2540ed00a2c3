"""A whole hearts bot, standard library only: hearts sim --seats "exec:python3 examples/simple_bot.py,easy,normal,hard"

It reads the table's lines (JSON, one a line) and answers each `view` (docs/programs.md): it
passes its highest cards; it ducks under the trick when it can follow, discards its
highest card when it cannot, and leads its lowest. Each answer echoes the view's `seq` and
is flushed at once (an answer left in a buffer is never read: the move time runs out).
"""
import json
import sys

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("event") != "view" or msg["phase"] not in ("pass", "play", "moon"):
        continue  # the story of the game (deal, play, trick, new_game...): this bot decides from the view alone
    legal: list[str] = sorted(msg["legal"], key=rank)
    trick: list[str] = [play["card"] for play in msg["trick"]]
    answer: dict[str, object] = {"seq": msg.get("seq")}
    if msg["phase"] == "moon":
        answer |= {"cmd": "moon", "choice": "others"}
    elif msg["phase"] == "pass":
        answer |= {"cmd": "pass", "cards": legal[-3:]}
    elif not trick:
        answer |= {"cmd": "play", "card": legal[0]}
    else:
        high = max(rank(c) for c in trick if c[1] == trick[0][1])
        under = [c for c in legal if c[1] == trick[0][1] and rank(c) < high]
        answer |= {"cmd": "play", "card": under[-1] if under else legal[-1]}
    print(json.dumps(answer), flush=True)  # flush: the table reads the line now
