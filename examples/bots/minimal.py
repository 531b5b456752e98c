#!/usr/bin/env python3
"""The smallest complete bot: plays a random legal action, with no Bummerl import.

It needs only the standard library, so it also shows the protocol from scratch
(docs/protocol.md); a Python bot can instead call ``bummerl.protocol.serve``.
Every decision of every variant is one ``decide`` message whose ``legal`` list
names the actions, so the same loop plays Schnapsen, scharf, 66, Schnorps and,
one process per seat, the table games (cut or knock, the trump call, bids,
Kontra, the talon, the cards):

    bummerl arena --a "cmd:python3 examples/bots/minimal.py" --b random --deals 100
    bummerl arena --variant dreierschnapsen --a "cmd:python3 examples/bots/minimal.py" --b random --deals 5

The seed of each ``game_start`` reseeds the generator, so the bot plays the
same game the same way whichever process plays it.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": "bummerl-bot", "version": 1, "name": "minimal-py"}
        elif kind == "game_start":
            # message["players"] is 2, 3 or 4 and message["seat"] this process's seat; a random
            # player needs neither.
            rng.seed(message.get("seed", 0))
            continue
        elif kind == "decide":
            reply = {"type": "action", "id": message["id"], "action": rng.choice(message["legal"])}
        elif kind == "quit":
            break
        else:
            continue
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
