"""An outside program for the tests (tests/test_programs.py): it answers each view with the
first legal cards, as examples/first_legal.sh does, and misbehaves as its arguments say.

    slow      its first answer comes 0.6 s late
    junk      its first answer in each game is not a move (as a program started for each)
    illegal   its first card is one it does not hold
    mute      it reads every line and never answers (as a program that does not flush)
    twice     it answers every view twice, in one write
    twice-seq each answer echoes the view's seq, and is written again when the next view
              comes, before that view's answer (as a second answer to one view late may be)
    once      it exits at the end of its game (game_end), not of its input
    linger    it does not exit at the end of its input
    crash     it exits at its first view, status 3, saying why on its standard error
    late      it exits after its 5th answer, status 4, saying why on its standard error
    log:PATH  it writes every line it is told to PATH
    (none)    it never misbehaves
"""
import json
import sys
import time

modes = sys.argv[1:]
mode = modes[0] if modes else ""
log = next((open(m[4:], "a") for m in modes if m.startswith("log:")), None)  # noqa: SIM115
first = True
last = ""  # (twice-seq) the answer to the view before
answers = 0
for line in sys.stdin:
    if log:
        log.write(line)
        log.flush()
    msg = json.loads(line)
    if msg.get("event") == "game_end" and "once" in modes:
        sys.exit(0)
    if msg.get("event") == "welcome" and mode == "junk":
        first = True
    if msg.get("event") != "view" or msg["phase"] not in ("pass", "play", "moon") or "mute" in modes:
        continue
    legal = msg["legal"]
    if msg["phase"] == "moon":
        answer = {"cmd": "moon", "choice": "others"}
    elif msg["phase"] == "pass":
        answer = {"cmd": "pass", "cards": legal[:3]}
    else:
        answer = {"cmd": "play", "card": legal[0]}
    if first and mode == "crash":
        print("Traceback: my_bot.py line 12: KeyError 'legal'", file=sys.stderr, flush=True)
        sys.exit(3)
    if answers == 5 and mode == "late":
        print("giving up after five answers", file=sys.stderr, flush=True)
        sys.exit(4)
    answers += 1
    if first and mode == "slow":
        time.sleep(0.6)
    if first and mode == "junk":
        answer = {"say": "hello"}
    if first and mode == "illegal":
        answer = {"cmd": "play", "card": next(c for c in ("2C", "AS", "AH") if c not in msg["hand"])} \
            if msg["phase"] == "play" else {"cmd": "pass", "cards": ["2C", "2C", "2C"]}
    first = False
    text = json.dumps(answer) + "\n"
    if mode == "twice-seq":
        text = json.dumps({**answer, "seq": msg.get("seq")}) + "\n"
        text, last = last + text, text
    sys.stdout.write(text * 2 if mode == "twice" else text)
    sys.stdout.flush()
if "linger" in modes:
    time.sleep(60)
