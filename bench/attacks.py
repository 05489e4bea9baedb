#!/usr/bin/env python3
"""Four attacks on a running junqi server, measured from outside: real HTTP and
WebSocket clients against the binary, as an outside tester would run them.

    attacks.py sockets|logins|replay|computer --binary PATH [--label NAME] [--port N]

Each run starts the server on a fresh SQLite file, runs one scenario, stops the server,
prints one summary line (prefixed "SUMMARY") and writes every figure as JSON to
/tmp/atk-results/<scenario>-<label>.json. Client sockets are bound to different
addresses of 127/8 (all local on Linux) to play several source addresses.
Floods whose own CPU would disturb a timing run in a child process
(`attacks.py _flood ...`), so that the measuring event loop is not starved by them.
"""
import argparse, asyncio, json, os, random, statistics, subprocess, sys, time
import aiohttp

HOST = "127.0.0.1"
TICK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- server and helpers

class Server:
    """The binary under test, on a fresh database and port, logging to a file."""

    def __init__(self, binary, label, scenario, port, extra):
        self.db = f"/tmp/atk-{label}-{scenario}.db"
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(self.db + suffix):
                os.remove(self.db + suffix)
        self.log = f"/tmp/atk-{label}-{scenario}.log"
        self.port = port
        self.base = f"http://{HOST}:{port}"
        cmd = [binary, "--bind", f"{HOST}:{port}", "--database-url", self.db] + extra
        self.cmd = " ".join(cmd)
        self.proc = subprocess.Popen(cmd, stdout=open(self.log, "wb"), stderr=subprocess.STDOUT)

    async def ready(self):
        async with aiohttp.ClientSession() as s:
            for _ in range(200):
                if self.proc.poll() is not None:  # e.g. the port was taken
                    raise RuntimeError("server exited: see " + self.log)
                try:
                    async with s.get(self.base + "/healthz") as r:
                        if r.status == 200:
                            return
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
        raise RuntimeError("server did not start: see " + self.log)

    def cpu_seconds(self):
        # utime + stime (fields 14 and 15 of /proc/PID/stat, after the parenthesised name)
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(p / 100 * len(xs)))], 1)


def stats(ms):
    return {"n": len(ms), "median": pct(ms, 50), "p90": pct(ms, 90),
            "max": round(max(ms), 1) if ms else None}


class Client:
    """One browser: its own cookie jar (unsafe=True: cookies from an IP host are kept,
    junqi_device included) and its own source address."""

    def __init__(self, base, addr=HOST):
        self.base = base
        self.ws_base = base.replace("http", "ws", 1)
        # limit=0: every open WebSocket holds a connection of its own.
        self.s = aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            connector=aiohttp.TCPConnector(local_addr=(addr, 0), limit=0, force_close=False))

    async def call(self, method, path, body=None):
        async with self.s.request(method, self.base + path, json=body) as r:
            text = await r.text()
            try:
                data = json.loads(text) if text else None
            except ValueError:
                data = text
            return r.status, data

    async def register(self, name, password="correct horse 42"):
        st, data = await self.call("POST", "/api/register", {"username": name, "password": password})
        assert st == 201, (st, data)

    async def new_game(self, computer=None, rated=False):
        body = {"variant": "flip", "seconds_per_action": 30, "rated": rated}
        if computer:
            body["computer"] = computer
        st, data = await self.call("POST", "/api/games", body)
        assert st == 201, (st, data)
        return data["id"]

    async def close(self):
        await self.s.close()


async def open_ws(client, game_id):
    """A game socket, or the HTTP status that refused its upgrade."""
    try:
        # identity: aiohttp cannot read the compressed body of a refused upgrade
        return await client.s.ws_connect(f"{client.ws_base}/ws/game/{game_id}", heartbeat=None,
                                         headers={"Accept-Encoding": "identity"}), 101
    except aiohttp.WSServerHandshakeError as e:
        return None, e.status
    except aiohttp.ClientError:
        return None, -1


async def drain(ws):
    # A socket that is never read falls behind and is closed by the server (1013).
    try:
        async for _ in ws:
            pass
    except Exception:
        pass


def command(action):
    """A `legal` entry as the socket command that plays it."""
    if "flip" in action:
        return {"t": "flip", "d": {"at": action["flip"]}}
    return {"t": "move", "d": action["move"]}


class Seat:
    """A player's game socket: keeps `legal`, resolves acks by their id, and tells
    listeners about every event (the computer's replies are timed from them)."""

    def __init__(self, ws):
        self.ws, self.legal, self.warn, self.you = ws, [], [], None
        self.turn, self.over = asyncio.Event(), asyncio.Event()
        self.acks, self.next_a, self.on_event = {}, 1, None
        self.task = asyncio.create_task(self.read())

    async def read(self):
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            m = json.loads(msg.data)
            t, d = m.get("t"), m.get("d") or {}
            if t == "state":
                self.you = d.get("you")
                view = d.get("view") or {}
                self.set_legal(view.get("legal") or [], view.get("repetition_warnings") or [])
                if d.get("result") or (d.get("game") or {}).get("status") in ("finished", "cancelled"):
                    self.end()
            elif t == "event":
                self.set_legal(d.get("legal") or [], d.get("repetition_warnings") or [])
                if self.on_event:
                    self.on_event(d)
                if d.get("result") or d.get("outcome"):
                    self.end()
            elif t in ("ack", "error") and m.get("a") in self.acks:
                self.acks.pop(m["a"]).set_result(t)
        self.end()

    def end(self):
        for fut in self.acks.values():  # acks that will never come
            if not fut.done() and self.ws.closed:
                fut.set_result("closed")
        self.over.set()
        self.turn.set()  # wake anyone waiting for a turn that will not come

    def set_legal(self, legal, warn):
        self.legal, self.warn = legal, warn
        (self.turn.set if legal else self.turn.clear)()

    async def act(self, action=None):
        """Plays a random legal action (avoiding repetition losses); returns
        (ack or error, milliseconds until it came)."""
        if action is None:
            safe = [a for a in self.legal if a not in self.warn] or self.legal
            action = random.choice(safe)
        self.set_legal([], [])
        a, self.next_a = self.next_a, self.next_a + 1
        fut = asyncio.get_running_loop().create_future()
        self.acks[a] = fut
        t0 = time.perf_counter()
        try:
            await self.ws.send_json({**command(action), "a": a})
        except (ConnectionError, RuntimeError):
            return "closed", 0
        try:
            what = await asyncio.wait_for(fut, 30)
        except asyncio.TimeoutError:
            what = "timeout"
        return what, (time.perf_counter() - t0) * 1000

    async def resign(self):
        a, self.next_a = self.next_a, self.next_a + 1
        await self.ws.send_json({"t": "resign", "a": a})


async def play_pair(base, a, b, pace, seconds, acks):
    """Two accounts play casual flip games against each other for `seconds`, each
    acting `pace` s after its turn comes, new game after each end; ack times in `acks`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        gid = await a.new_game()
        st, _ = await b.call("POST", f"/api/games/{gid}/join")
        seats = [Seat((await open_ws(c, gid))[0]) for c in (a, b)]

        async def player(seat):
            while time.monotonic() < end and not seat.over.is_set():
                try:  # the other seat may stop at the end without moving again
                    await asyncio.wait_for(seat.turn.wait(), max(0.1, end - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if seat.over.is_set() or not seat.legal:
                    continue
                await asyncio.sleep(pace)
                what, ms = await seat.act()
                if what == "ack":
                    acks.append(ms)
        await asyncio.gather(*(player(s) for s in seats))
        for s in seats:
            await s.ws.close()


# ---------------------------------------------------------------- 1. socket caps

async def outcome(client, gid):
    """[status, winner's username, reason] from the game summary."""
    _, g = await client.call("GET", f"/api/games/{gid}")
    winner = (g["players"].get(g["result"]) or {}).get("username") if g["result"] in ("south", "north") else g["result"]
    return [g["status"], winner, g["reason"]]


async def sockets(srv, args):
    out, grace = {}, args.grace
    addrs = [f"127.0.1.{i}" for i in range(1, 40)]
    attackers = {ad: Client(srv.base, ad) for ad in addrs}

    async def fill(gid):
        """Spectator sockets from one address after another until the game is full."""
        held, per, refusals = [], {}, {}
        for ad in addrs:
            while True:
                ws, st = await open_ws(attackers[ad], gid)
                if ws is None:
                    refusals[st] = refusals.get(st, 0) + 1
                    break
                held.append((ws, asyncio.create_task(drain(ws))))
                per[ad] = per.get(ad, 0) + 1
            if st == 503:
                return held, per, refusals, ad
        return held, per, refusals, None

    # Case 1: A holds an open rated game; the crowd fills it; B joins and connects.
    a, b = Client(srv.base), Client(srv.base)
    await a.register("alice"); await b.register("bobby")
    gid = await a.new_game(rated=True)
    sa = Seat((await open_ws(a, gid))[0])
    held, per, refusals, _ = await fill(gid)
    out["case1_spectators"] = len(held)
    out["case1_per_address"] = sorted(per.values(), reverse=True)
    out["case1_refusals"] = refusals
    st, _ = await b.call("POST", f"/api/games/{gid}/join")
    ws_b, out["case1_b_upgrade"] = await open_ws(b, gid)
    out["case1_b_acks"] = []
    if ws_b:
        sb = Seat(ws_b)
        for _ in range(4):  # two actions each, whoever is to move
            done, _p = await asyncio.wait([asyncio.create_task(s.turn.wait()) for s in (sa, sb)],
                                          timeout=10, return_when=asyncio.FIRST_COMPLETED)
            mover = sa if sa.legal else sb if sb.legal else None
            if mover is None:
                break
            what, ms = await mover.act()
            out["case1_b_acks"].append(("A" if mover is sa else "B", what, round(ms, 1)))
    await asyncio.sleep(grace + 4)  # past the escape grace
    out["case1_game"] = await outcome(a, gid)
    for ws, t in held:
        await ws.close()
    await asyncio.sleep(1)

    # Case 2: a running game C-D with every place taken; C reloads its page while the
    # attacker's spare socket retries as fast as it can from an address with room.
    c, d = Client(srv.base), Client(srv.base)
    await c.register("carol"); await d.register("dave0")
    gid = await c.new_game(rated=True)
    wc, _ = await open_ws(c, gid)
    await d.call("POST", f"/api/games/{gid}/join")
    wd, _ = await open_ws(d, gid)
    drains = [asyncio.create_task(drain(w)) for w in (wc, wd)]
    held, per, refusals, last = await fill(gid)
    out["case2_spectators"] = len(held)
    out["case2_per_address"] = sorted(per.values(), reverse=True)
    out["case2_refusals"] = refusals
    if last is None:
        raise RuntimeError(f"case 2 never filled the game: {out}")
    spare_addr = addrs[addrs.index(last) + 1]
    spare = {"ws": None, "tries": 0, "statuses": {}}

    async def grab():
        while spare["ws"] is None:
            ws, st = await open_ws(attackers[spare_addr], gid)
            spare["tries"] += 1
            spare["statuses"][st] = spare["statuses"].get(st, 0) + 1
            if ws:
                spare["ws"] = ws
                spare["at"] = time.monotonic()
                asyncio.create_task(drain(ws))
            else:
                await asyncio.sleep(0.002)
    grabber = asyncio.create_task(grab())
    await asyncio.sleep(1)
    await wc.close()
    closed = time.monotonic()
    await asyncio.sleep(0.25)  # a page reload
    tries = []
    for _ in range(20):
        wc, st = await open_ws(c, gid)
        tries.append(st)
        if wc:
            break
        await asyncio.sleep(0.5)
    out["case2_c_reopen"] = tries
    out["case2_c_back"] = wc is not None
    out["case2_spare_got_place_after_ms"] = (
        round((spare["at"] - closed) * 1000) if spare["ws"] else None)
    out["case2_spare_statuses"] = spare["statuses"]
    grabber.cancel()
    await asyncio.sleep(grace + 4)
    out["case2_game"] = await outcome(c, gid)
    for cl in list(attackers.values()) + [a, b, c, d]:
        await cl.close()
    line = (f"spectators {out['case1_spectators']} {out['case1_per_address'][:3]}..; "
            f"B upgrade {out['case1_b_upgrade']}, B acks {[x[1] for x in out['case1_b_acks'] if x[0]=='B']}; "
            f"game {out['case1_game']} | reload: C back {out['case2_c_back']} {tries}, "
            f"spare got place {out['case2_spare_got_place_after_ms']} ms; game {out['case2_game']}")
    return out, line


# ---------------------------------------------------------------- 2. login lockout

async def owner_tries(browser, name, n, every):
    """The owner logs in n times, one every `every` s, from their own browser."""
    seen, ms = [], []
    for _ in range(n):
        t0 = time.monotonic()
        st, _ = await browser.call("POST", "/api/login", {"username": name, "password": "correct horse 42"})
        seen.append(st)
        if st == 200:
            ms.append((time.monotonic() - t0) * 1000)
        await asyncio.sleep(max(0, every - (time.monotonic() - t0)))
    return seen, ms


async def raw_request(reader, writer, req):
    """One HTTP/1.1 exchange on a kept-alive connection: (status, body bytes, headers)."""
    writer.write(req)
    await writer.drain()
    line = await reader.readline()
    if not line:
        raise ConnectionError("closed")
    status = int(line.split()[1])
    headers = {}
    while True:
        h = await reader.readline()
        if h in (b"\r\n", b""):
            break
        k, _, v = h.decode("latin-1").partition(":")
        headers[k.strip().lower()] = v.strip()
    size = 0
    if "content-length" in headers:
        size = int(headers["content-length"])
        await reader.readexactly(size)
    elif headers.get("transfer-encoding") == "chunked":
        while True:
            n = int((await reader.readline()).split(b";")[0], 16)
            await reader.readexactly(n + 2)
            size += n
            if n == 0:
                break
    return status, size, headers


def login_req(name, password):
    body = json.dumps({"username": name, "password": password}).encode()
    return (f"POST /api/login HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def logins(srv, args):
    out, counts = {}, {}
    port = srv.port

    async def guesser(addr_of, name, stop):
        """Wrong passwords, back at once after a 401 and after 0.05 s when refused:
        polling faster than any allowance refills, so no token is left unused."""
        i = 0
        while not stop.is_set():
            addr = addr_of(i); i += 1
            try:
                r, w = await asyncio.open_connection(HOST, port, local_addr=(addr, 0))
                who = name() if callable(name) else name
                st, _, _ = await raw_request(r, w, login_req(who, f"wrong guess {i}"))
                w.close()
            except (OSError, ConnectionError, ValueError):
                st = -1
            counts[st] = counts.get(st, 0) + 1
            if st != 401:
                await asyncio.sleep(0.05)

    async def phase(key, owner_addr, guessers, n, target=None):
        name = f"owner{key}"
        browser = Client(srv.base, owner_addr)
        await browser.register(name)
        # ... and logs in once: the jar now holds the session (and, after the fix, device) cookie
        out[f"{key}_first_login"] = (await browser.call(
            "POST", "/api/login", {"username": name, "password": "correct horse 42"}))[0]
        out[f"{key}_device_cookie"] = any(ck.key == "junqi_device" for ck in browser.s.cookie_jar)
        counts.clear()
        stop = asyncio.Event()
        tasks = [asyncio.create_task(guesser(g, target or name, stop)) for g in guessers]
        await asyncio.sleep(4 if guessers else 0)  # the account's burst is gone by then
        t0 = time.monotonic()
        seen, ok_ms = await owner_tries(browser, name, n, 2.0)
        elapsed = time.monotonic() - t0
        stop.set()
        await asyncio.gather(*tasks)
        await browser.close()
        out[key] = {"owner_ok": seen.count(200), "owner_tries": n, "owner_statuses": seen, "owner_ok_ms": stats(ok_ms),
                    "guesses": dict(counts), "guesses_per_s": round(sum(counts.values()) / max(elapsed, 1), 1),
                    "wrong_password_checked": counts.get(401, 0)}
        counts.clear()

    # Baseline: no attack at all (does the owner's own pace of 1 every 2 s pass?).
    if not args.only_c:
        await phase("baseline", "127.0.0.10", [], 30)
    # A: 25 addresses, two loops each.
    addrs = [f"127.0.2.{i}" for i in range(1, 26)]
    if not args.only_c:
        await phase("A", "127.0.0.11", [(lambda i, ad=ad: ad) for ad in addrs for _ in range(2)], 30)
    # B: a fresh address for every guess (16 loops over 127.16.0.0/12).
    fresh = iter(range(1, 1 << 20))
    def nxt(_i):
        n = next(fresh)
        return f"127.{16 + (n >> 16)}.{(n >> 8) & 255}.{n & 255 or 1}"
    if not args.only_c:
        await phase("B", "127.0.0.12", [nxt] * 16, 20)
    # C (not in the tester's report): no account at all, a fresh address and a fresh
    # unknown name per guess, so no per-account ceiling applies and every guess is
    # hashed (against the dummy hash): 64 loops keep the hashing queue full.
    if args.pool:  # the same from a pool of that many addresses, each used in turn
        pool = [nxt(0) for _ in range(args.pool)]
        turn = iter(range(1 << 30))
        await phase("C", "127.0.0.13", [lambda _i: pool[next(turn) % len(pool)]] * 64, 20,
                    target=lambda: "ghost%08x" % random.getrandbits(32))
    else:
        await phase("C", "127.0.0.13", [nxt] * 64, 20,
                    target=lambda: "ghost%08x" % random.getrandbits(32))
    if args.only_c:
        return out, f"C from {args.pool or 'fresh'} addresses: owner {out['C']['owner_ok']}/20 {out['C']['owner_statuses']}, {out['C']['wrong_password_checked']} hashed, {out['C']['guesses']}"
    line = "; ".join(f"{k}: owner {out[k]['owner_ok']}/{out[k]['owner_tries']} "
                     f"{ {s: out[k]['owner_statuses'].count(s) for s in set(out[k]['owner_statuses'])} }, "
                     f"guesses {out[k]['guesses_per_s']}/s {out[k]['guesses']}"
                     for k in ("baseline", "A", "B", "C"))
    line += f"; device cookie {out['A_device_cookie']}"
    return out, line


# ---------------------------------------------------------------- floods (child process)

async def flood_replay(port, path, seconds, conns, etag):
    """GETs of one replay on `conns` kept-alive connections as fast as they answer."""
    counts, stop_at = {}, time.monotonic() + seconds
    cond = f"If-None-Match: {etag}\r\n" if etag else ""
    req = (f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept-Encoding: br, gzip\r\n{cond}\r\n").encode()

    async def one():
        r = w = None
        while time.monotonic() < stop_at:
            try:
                if w is None:
                    r, w = await asyncio.open_connection(HOST, port)
                st, _, h = await raw_request(r, w, req)
                if h.get("connection") == "close":
                    w.close(); w = None
            except (OSError, ConnectionError, asyncio.IncompleteReadError):
                st, w = -1, None
            counts[st] = counts.get(st, 0) + 1
    await asyncio.gather(*(one() for _ in range(conns)))
    return {"statuses": counts, "per_s": round(sum(counts.values()) / seconds, 1)}


async def flood_computer(base, accounts, games, spread, seconds, prefix):
    """`accounts` players, each keeping `games` hard computer games going, moving as
    soon as it is their turn. spread: one source address each, else all from one."""
    clients = [Client(base, f"127.0.3.{i + 1}" if spread else "127.0.3.1") for i in range(accounts)]
    await asyncio.gather(*(c.register(f"{prefix}{i}") for i, c in enumerate(clients)))
    print("READY", flush=True)
    stop_at, moves, started, refused = time.monotonic() + seconds, [0], [0], {}

    async def keep_game(c):
        while time.monotonic() < stop_at:
            st, data = await c.call("POST", "/api/games", {"variant": "flip", "seconds_per_action": 30,
                                                           "rated": False, "computer": "hard"})
            if st != 201:
                await asyncio.sleep(1); continue
            started[0] += 1
            ws, st = await open_ws(c, data["id"])
            if ws is None:  # a socket cap: this slot stays idle (its game times out)
                refused[st] = refused.get(st, 0) + 1
                await asyncio.sleep(max(0, stop_at - time.monotonic()))
                break
            seat = Seat(ws)
            while time.monotonic() < stop_at and not seat.over.is_set():
                try:
                    await asyncio.wait_for(seat.turn.wait(), max(0.1, stop_at - time.monotonic()))
                except asyncio.TimeoutError:
                    break
                if seat.legal:
                    what, _ = await seat.act(); moves[0] += 1
                    if what != "ack":
                        refused[what] = refused.get(what, 0) + 1
            if seat.ws.closed and seat.ws.close_code not in (None, 1000):
                refused[f"closed {seat.ws.close_code}"] = refused.get(f"closed {seat.ws.close_code}", 0) + 1
            await seat.ws.close()
    await asyncio.gather(*(keep_game(c) for c in clients for _ in range(games)))
    for c in clients:
        await c.close()
    return {"moves": moves[0], "games_started": started[0], "sockets_refused": refused,
            "moves_per_s": round(moves[0] / seconds, 1)}


async def start_flood(kind, *params):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, os.path.abspath(__file__), "_flood", kind, *map(str, params),
        stdout=subprocess.PIPE)
    return proc


async def flood_result(proc):
    out, _ = await proc.communicate()
    return json.loads(out.decode().strip().splitlines()[-1])


def child_cpu(proc):
    fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# ---------------------------------------------------------------- 3. replay flood

async def replay(srv, args):
    out = {}
    p = [Client(srv.base) for _ in range(4)]
    for i, c in enumerate(p):
        await c.register(f"player{i}")

    async def long_game(finish):
        """p0 and p1 play 150 steps of random legal actions, paced under the socket's
        budget of 100 frames in 20 s; then resign (finish) or keep the game going with
        an action every 20 s (a running game whose record is built for each request)."""
        gid = await p[0].new_game()
        await p[1].call("POST", f"/api/games/{gid}/join")
        seats = [Seat((await open_ws(c, gid))[0]) for c in p[:2]]
        steps = 0
        while not any(s.over.is_set() for s in seats) and steps < 150:
            await asyncio.wait([asyncio.create_task(s.turn.wait()) for s in seats],
                               return_when=asyncio.FIRST_COMPLETED)
            mover = next((s for s in seats if s.legal), None)
            if mover is None:
                continue
            await asyncio.sleep(0.12)
            await mover.act(); steps += 1
        mover = next((s for s in seats if s.legal), seats[0])
        if finish:
            if not mover.over.is_set():
                await mover.resign(); await asyncio.wait_for(mover.over.wait(), 10)
            return gid, steps, None

        async def keep_alive():
            while True:
                for s in seats:
                    if s.legal and not s.over.is_set():
                        await asyncio.sleep(20); await s.act()
                await asyncio.sleep(0.5)
        return gid, steps, asyncio.create_task(keep_alive())

    gid, steps, _ = await long_game(True)
    await asyncio.sleep(0.5)
    path = f"/api/games/{gid}/replay"
    # As the flood will ask for it (raw: aiohttp would insist on decoding brotli).
    r, w = await asyncio.open_connection(HOST, srv.port)
    st, size, h = await raw_request(r, w, (f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n"
                                          "Accept-Encoding: br, gzip\r\n\r\n").encode())
    w.close()
    out["replay_status"], out["replay_bytes"], out["etag"] = st, size, h.get("etag")
    out["replay_encoding"] = h.get("content-encoding")
    st, rec = await p[0].call("GET", f"/api/games/{gid}/record")
    out["record_status"], out["finished_steps"] = st, steps

    async def window(label, flood_args, target=path):
        acks, flood = [], None
        if flood_args:
            flood = await start_flood("replay", srv.port, target, args.seconds + 4, 32, *flood_args)
            await asyncio.sleep(2)  # let the flood reach its pace
        c0, t0 = srv.cpu_seconds(), time.monotonic()
        await play_pair(srv.base, p[2], p[3], 0.2, args.seconds, acks)
        cpu = (srv.cpu_seconds() - c0) / (time.monotonic() - t0) * 100
        res = {"acks_ms": stats(acks), "server_cpu_pct": round(cpu)}
        if flood:
            res["flood_client_cpu_pct"] = round(child_cpu(flood) / (time.monotonic() - t0 + 2) * 100)
            res["flood"] = await flood_result(flood)
        out[label] = res

    await window("no_flood", None)
    await window("flood", ("",))
    if out["etag"]:
        await window("flood_if_none_match", (out["etag"],))
    # Not in the tester's report: the record of a game still running is built for each
    # request (it is never kept).
    live, out["running_steps"], keep = await long_game(False)
    await window("flood_running_record", ("",), f"/api/games/{live}/record")
    keep.cancel()
    for c in p:
        await c.close()
    parts = []
    for k in ("no_flood", "flood", "flood_if_none_match", "flood_running_record"):
        if k in out:
            w = out[k]
            f = f"{w['flood']['per_s']} req/s {w['flood']['statuses']} (client {w['flood_client_cpu_pct']}% CPU), " if "flood" in w else ""
            parts.append(f"{k}: {f}server {w['server_cpu_pct']}% CPU, ack ms median/p90/max "
                         f"{w['acks_ms']['median']}/{w['acks_ms']['p90']}/{w['acks_ms']['max']} (n={w['acks_ms']['n']})")
    return out, f"replay {out['replay_status']} {size} B {out['replay_encoding']} etag={bool(out['etag'])}; " + "; ".join(parts)


# ---------------------------------------------------------------- 4. computer under a flood

async def computer(srv, args):
    out = {}
    victim = Client(srv.base, "127.0.0.200")
    await victim.register("victim")

    async def measure(seconds):
        """The victim plays hard computer games: from each action sent to the
        computer's reply event, in ms."""
        replies, end = [], time.monotonic() + seconds
        while time.monotonic() < end:
            gid = await victim.new_game(computer="hard")
            seat = Seat((await open_ws(victim, gid))[0])
            sent = [None]

            def on_event(d):
                if sent[0] and seat.you and d.get("seat") not in (None, seat.you) and d.get("kind") in ("flip", "move"):
                    replies.append((time.perf_counter() - sent[0]) * 1000); sent[0] = None
            seat.on_event = on_event
            while time.monotonic() < end and not seat.over.is_set():
                try:
                    await asyncio.wait_for(seat.turn.wait(), 15)
                except asyncio.TimeoutError:
                    break
                if not seat.legal:
                    continue
                await asyncio.sleep(0.3)  # a person's pause; also lets the flood refill the queue
                sent[0] = time.perf_counter()
                await seat.act()
            await seat.ws.close()
        return replies

    out["no_flood"] = stats(await measure(args.seconds / 2))
    for spread in (0, 1):
        flood = await start_flood("computer", srv.base, 40, 3, spread, args.seconds + 10, f"fl{spread}x")
        await flood.stdout.readline()  # READY: the accounts exist
        await asyncio.sleep(6)         # the games are open and the pool is busy
        c0, t0 = srv.cpu_seconds(), time.monotonic()
        replies = await measure(args.seconds)
        cpu = (srv.cpu_seconds() - c0) / (time.monotonic() - t0) * 100
        key = "flood_40_addresses" if spread else "flood_1_address"
        out[key] = {**stats(replies), "server_cpu_pct": round(cpu), "flood": await flood_result(flood)}
        await asyncio.sleep(args.grace + 4)  # abandoned flood games end by escape
    await victim.close()
    log = open(srv.log, errors="replace").read()
    out["search_lines_logged"] = sum(1 for l in log.splitlines() if "nodes" in l or "depth" in l)
    line = "; ".join(f"{k}: reply ms median/p90/max {out[k]['median']}/{out[k]['p90']}/{out[k]['max']} (n={out[k]['n']})"
                     + (f", server {out[k]['server_cpu_pct']}% CPU, flood {out[k]['flood']['moves_per_s']} moves/s"
                        if "flood" in out[k] else "")
                     for k in ("no_flood", "flood_1_address", "flood_40_addresses"))
    return out, line + f"; search figures logged: {out['search_lines_logged']} lines"


# ---------------------------------------------------------------- main

SCENARIOS = {
    # name: (function, server flags)
    "sockets": (sockets, lambda a: ["--no-rate-limits", "--grace-seconds", str(a.grace)]),
    "logins": (logins, lambda a: []),  # rate limits on
    "replay": (replay, lambda a: ["--no-rate-limits"]),
    "computer": (computer, lambda a: ["--no-rate-limits", "--grace-seconds", str(a.grace)]),
}


async def main(args):
    fn, flags = SCENARIOS[args.scenario]
    srv = Server(args.binary, args.label, args.scenario, args.port, flags(args))
    try:
        await srv.ready()
        out, line = await fn(srv, args)
    finally:
        srv.stop()
    out["server_command"] = srv.cmd
    os.makedirs("/tmp/atk-results", exist_ok=True)
    with open(f"/tmp/atk-results/{args.scenario}-{args.label}.json", "w") as f:
        json.dump(out, f, indent=1)
    print(f"SUMMARY {args.scenario} {args.label}: {line}", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["_flood"]:
        kind, rest = sys.argv[2], sys.argv[3:]
        if kind == "replay":
            port, path, secs, conns, etag = rest
            r = asyncio.run(flood_replay(int(port), path, float(secs), int(conns), etag))
        else:
            base, accounts, games, spread, secs, prefix = rest
            r = asyncio.run(flood_computer(base, int(accounts), int(games), int(spread) == 1, float(secs), prefix))
        print(json.dumps(r), flush=True)
        sys.exit(0)
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario", choices=SCENARIOS)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--label", default="run")
    ap.add_argument("--port", type=int, default=18931)
    ap.add_argument("--grace", type=int, default=10, help="--grace-seconds for the sockets scenario")
    ap.add_argument("--pool", type=int, default=0, help="logins: attack C from this many addresses")
    ap.add_argument("--only-c", action="store_true", help="logins: attack C alone")
    ap.add_argument("--seconds", type=float, default=60, help="measuring window of replay/computer")
    asyncio.run(main(ap.parse_args()))
