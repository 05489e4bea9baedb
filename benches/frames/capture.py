#!/usr/bin/env python3
"""Captures the socket frames that benches/frames.rs reads.

Plays one flip game and one standard game over the real protocol against a running
server (`junqi --no-rate-limits --bind 127.0.0.1:PORT --database-url /tmp/x.db`) and
writes, into this folder, the first state frame each seat receives, the state a seat
gets when it reconnects 40 actions into the flip game, and every frame one seat's
socket received through 40 actions (one frame a line). Needs `pip install websockets`.

    python3 benches/frames/capture.py http://127.0.0.1:PORT
"""
import asyncio
import http.cookiejar
import json
import os
import random
import sys
import urllib.request

import websockets

BASE = sys.argv[1].rstrip("/")
OUT = os.path.dirname(os.path.abspath(__file__))
ACTIONS = 40
rng = random.Random(11)


class Player:
    def __init__(self, name):
        self.jar = http.cookiejar.CookieJar()
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.name = name

    def post(self, path, body=None):
        data = json.dumps(body if body is not None else {}).encode()
        req = urllib.request.Request(BASE + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Origin": BASE})
        with self.http.open(req) as r:
            text = r.read()
            return json.loads(text) if text else None

    def cookie(self):
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Sock:
    """One socket: every frame it receives, and what it last learnt."""

    def __init__(self, player, game):
        self.player, self.game = player, game
        self.frames, self.legal, self.version, self.seat = [], [], -1, None
        self.acks = {}
        self.changed = asyncio.Condition()

    async def open(self):
        url = BASE.replace("http", "ws", 1) + f"/ws/game/{self.game}"
        self.ws = await websockets.connect(url, additional_headers={
            "Cookie": self.player.cookie(), "Origin": BASE}, compression=None,
            max_size=None)
        self.task = asyncio.create_task(self.read())

    async def read(self):
        async for text in self.ws:
            self.frames.append(text)
            m = json.loads(text)
            async with self.changed:
                if m["t"] == "state":
                    self.version = m["v"]
                    self.seat = m["d"]["you"]
                    view = m["d"]["view"]
                    self.legal = view["legal"] if view else []
                elif m["t"] == "event":
                    self.version = m["v"]
                    self.legal = m["d"].get("legal", [])
                elif m["t"] in ("ack", "error") and m.get("a") is not None:
                    self.acks[m["a"]] = m
                self.changed.notify_all()

    async def until(self, pred, timeout=15):
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(pred), timeout)

    async def send(self, msg):
        await self.ws.send(json.dumps(msg, separators=(",", ":")))

    async def close(self):
        await self.ws.close()
        await self.task


def first_state(sock):
    return next(f for f in sock.frames if json.loads(f)["t"] == "state")


def save(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")
    print(f"{name}: {len(text.rstrip().encode())} bytes")


async def play(socks, n, ack0):
    """Plays n random legal actions; returns the next ack id."""
    a = ack0
    for _ in range(n):
        await asyncio.gather(*(s.until(lambda s=s: s.version >= socks[0].version) for s in socks))
        mover = next((s for s in socks if s.legal), None)
        if mover is None:
            break  # the game ended
        act = rng.choice(mover.legal)
        if "flip" in act:
            msg = {"t": "flip", "d": {"at": act["flip"]}, "a": a}
        else:
            msg = {"t": "move", "d": act["move"], "a": a}
        await mover.send(msg)
        await mover.until(lambda: a in mover.acks)
        ack = mover.acks[a]
        assert ack["t"] == "ack", ack
        await asyncio.gather(*(s.until(lambda s=s: s.version >= ack["v"]) for s in socks))
        a += 1
    return a


def role(sock):
    return "mover" if sock.legal else "waiting"


async def main():
    tag = f"{rng.randrange(10**6):06d}"
    south, north = Player("fa" + tag), Player("fb" + tag)
    for p in (south, north):
        p.post("/api/register", {"username": p.name, "password": "capture-password-1"})

    # Flip chess: the state each seat gets on opening its socket after the deal.
    game = south.post("/api/games", {"variant": "flip", "seconds_per_action": 30,
                                     "rated": False})["id"]
    north.post(f"/api/games/{game}/join")
    socks = [Sock(south, game), Sock(north, game)]
    for s in socks:
        await s.open()
        await s.until(lambda s=s: s.version >= 0)
    for s in socks:
        save(f"flip_start_{role(s)}.json", first_state(s))
    await play(socks, ACTIONS, 1)
    save("flip_stream.jsonl", "\n".join(socks[0].frames))
    # Reloads 40 actions in: a fresh socket per seat.
    for s in socks:
        again = Sock(s.player, game)
        await again.open()
        await again.until(lambda: again.version >= 0)
        save(f"flip_40_{role(again)}.json", first_state(again))
        await again.close()
    for s in socks:
        await s.close()

    # Standard 军棋: both seats ready on their random layouts; the state at v = 1.
    game = south.post("/api/games", {"variant": "standard", "seconds_per_action": 30,
                                     "rated": False})["id"]
    north.post(f"/api/games/{game}/join")
    socks = [Sock(south, game), Sock(north, game)]
    for s in socks:
        await s.open()
        await s.until(lambda s=s: s.version >= 0)
    save("standard_deploying.json", first_state(socks[0]))
    for i, s in enumerate(socks):
        await s.send({"t": "ready", "a": 100 + i})
        await s.until(lambda s=s, i=i: 100 + i in s.acks)
    for s in socks:
        await s.until(lambda s=s: s.version >= 1)
        states = [f for f in s.frames if json.loads(f)["t"] == "state"]
        save(f"standard_start_{role(s)}.json", states[-1])
    await play(socks, ACTIONS, 1)
    save("standard_stream.jsonl", "\n".join(socks[0].frames))
    for s in socks:
        await s.close()


asyncio.run(main())
