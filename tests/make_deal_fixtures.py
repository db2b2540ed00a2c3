"""Regenerate ``fixtures/deals.yaml``: ``python tests/make_deal_fixtures.py``.

This is an independent implementation of ``docs/deal.md`` (it does not import
``hearts_cli.model.codes``); only the rule sets (which cards are in play, hand size)
come from ``hearts_cli.model.rules``. Run it only when the deal algorithm changes on
purpose: the tests compare the engine against the committed file.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from hearts_cli.model.rules import Rules  # noqa: E402

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
NAMES = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def check_char(payload: str) -> str:
    total, factor = 0, 2
    for ch in reversed(payload):
        addend = factor * ALPHABET.index(ch)
        total += addend // 32 + addend % 32
        factor = 3 - factor
    return ALPHABET[(32 - total % 32) % 32]


class RefStream:
    def __init__(self, *labels: object):
        self.key = "|".join(str(x) for x in labels).encode("utf-8")
        self.words: list[int] = []
        self.block = 0

    def word(self) -> int:
        if not self.words:
            digest = hashlib.sha256(self.key + b"|" + str(self.block).encode("ascii")).digest()
            self.block += 1
            self.words = [int.from_bytes(digest[i:i + 4], "big") for i in range(0, 32, 4)]
        return self.words.pop(0)

    def below(self, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while True:
            w = self.word()
            if w < limit:
                return w % n


def ref_deal(code: str, rules: Rules, round_index: int) -> dict:
    n = rules.players
    deck = [c for c in range(52) if c not in set(rules.removed)]
    m = len(deck)
    stream = RefStream("hearts/deal/v1", code, m, round_index)
    for i in range(m - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    first = RefStream("hearts/dealer/v1", code, n).below(n)
    dealer = (first + round_index) % n
    h = rules.hand_size
    hands: list[list[int]] = [[] for _ in range(n)]
    for k in range(n * h):
        hands[(dealer + 1 + k) % n].append(deck[k])
    return {
        "first_dealer": first,
        "dealer": dealer,
        "order": " ".join(NAMES[c] for c in deck),
        "hands": [" ".join(NAMES[c] for c in sorted(hand)) for hand in hands],
        "kitty": " ".join(NAMES[c] for c in sorted(deck[n * h:])),
    }


PAYLOADS = ["HEARTS0", "0000000", "ZZZZZZZ", "QSPADE7", "1234567", "CARD5X9"]

CASES = [  # (payload index, rule spec, round)
    (0, {"preset": "quick"}, 0),
    (0, {"preset": "quick"}, 1),
    (0, {"preset": "quick"}, 4),
    (1, {"preset": "quick"}, 0),
    (2, {"preset": "standard"}, 3),
    (3, {"preset": "classic"}, 0),
    (0, {"preset": "reference", "players": 3}, 0),
    (4, {"preset": "reference", "players": 5}, 2),
    (5, {"preset": "reference", "players": 6}, 0),
    (0, {"preset": "online", "players": 3}, 1),
    (3, {"preset": "online", "players": 5}, 0),
    (0, {"preset": "kitty"}, 0),
    (4, {"preset": "kitty", "players": 5}, 1),
    (5, {"preset": "kitty", "players": 6}, 7),
    (2, {"preset": "black-maria"}, 0),
]

STREAMS = [
    ("hearts/deal/v1", "HEARTS0N", 52, 0),
    ("hearts/dealer/v1", "HEARTS0N", 4),
    ("hearts/seed/v1", "HEARTS0N", "cpu", 1),
]


def build() -> dict:
    codes = [p + check_char(p) for p in PAYLOADS]
    deals = []
    for i, spec, rnd in CASES:
        rules = Rules.from_spec(spec)
        deals.append({"code": codes[i], "rules": spec, "players": rules.players,
                      "round": rnd, **ref_deal(codes[i], rules, rnd)})
    streams = []
    for labels in STREAMS:
        s = RefStream(*labels)
        streams.append({"labels": list(labels), "words": [s.word() for _ in range(10)]})
    return {"codes": codes, "streams": streams, "deals": deals}


HEADER = """\
# Golden deals: a game code and rule set give these hands, card by card,
# on every machine and Python version. The algorithm is docs/deal.md.
# Written by tests/make_deal_fixtures.py (an independent implementation);
# regenerate only when the deal algorithm changes on purpose.
# order: the shuffled deck; hands: seat 0 first, sorted; dealer: seat index.
"""


def main() -> None:
    out = ROOT / "fixtures" / "deals.yaml"
    text = HEADER + yaml.safe_dump(build(), sort_keys=False, allow_unicode=True, width=4096,
                                    default_flow_style=None)
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
