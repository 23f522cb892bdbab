#!/usr/bin/env python3
"""make bench row (h), the connection flood: one client, from
many loopback addresses (127.0.1.N: direct peers, not exempt from the
per-client cap as 127.0.0.1 is), opens and holds connections of three kinds
until it is stopped (SIGTERM):
  - idle keep-alive: one GET /, its answer read, then silence;
  - slowloris: a request head sent a few bytes at a time, never finished;
  - slow readers: GET / (112 KB uncompressed) and nothing read.
It opens again (0.2 s later, at most CONNFLOOD_REOPEN_RATE a second, default
100) what the edge closes, and prints one line when stopped:
  connflood held=<connections open at the end> opened=<connects that
  succeeded> refused=<closed by the edge before an answer> peak=<most open at once>
Usage: connflood.py HOST PORT ADDRESSES PER_ADDRESS_IDLE PER_ADDRESS_SLOWLORIS PER_ADDRESS_SLOWREAD
"""
import os, selectors, signal, socket, sys, time

host, port = sys.argv[1], int(sys.argv[2])
addrs = [f"127.0.1.{i + 1}" for i in range(int(sys.argv[3]))]
kinds = [("idle", int(sys.argv[4])), ("slowloris", int(sys.argv[5])), ("slowread", int(sys.argv[6]))]
sel = selectors.DefaultSelector()
stats = {"opened": 0, "refused": 0, "peak": 0}
conns = {}  # socket -> [kind, src, state]
stop = False


def on_term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGINT, on_term)


def open_one(kind, src):
    s = socket.socket()
    if kind == "slowread":
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((src, 0))
    s.setblocking(False)
    try:
        s.connect((host, port))
    except BlockingIOError:
        pass
    except OSError:
        s.close()
        return
    conns[s] = [kind, src, "connecting"]
    sel.register(s, selectors.EVENT_WRITE)


def close(s, refused):
    kind, src, state = conns.pop(s)
    if refused and state != "answered":
        stats["refused"] += 1
    try:
        sel.unregister(s)
    except (KeyError, ValueError):
        pass
    s.close()
    return kind, src


for kind, n in kinds:
    for src in addrs:
        for _ in range(n):
            open_one(kind, src)

reopen = []  # (when, kind, src): what the edge closed, opened again 0.2 s later (no busy loop)


def again(s):
    kind, src = close(s, True)
    reopen.append((time.monotonic() + 0.2, kind, src))


REOPEN_RATE = int(os.environ.get("CONNFLOOD_REOPEN_RATE", "100"))
last_trickle = last_reopen = time.monotonic()
while not stop:
    for key, ev in sel.select(timeout=0.2):
        s = key.fileobj
        kind, src, state = conns[s]
        if state == "connecting":
            if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                again(s)
                continue
            stats["opened"] += 1
            head = b"GET / HTTP/1.1\r\nHost: bench\r\n"
            try:
                s.send(head if kind == "slowloris" else head + b"Accept-Encoding: identity\r\n\r\n")
            except OSError:
                again(s)
                continue
            conns[s][2] = "sent"
            if kind == "slowread":
                sel.unregister(s)  # never read again: the edge's write stalls on a full window
                conns[s][2] = "answered"
            else:
                sel.modify(s, selectors.EVENT_READ)
            continue
        try:
            data = s.recv(65536)
        except OSError:
            data = b""
        if not data:
            again(s)
        elif kind == "idle":
            conns[s][2] = "answered"
    now = time.monotonic()
    # At most REOPEN_RATE new connections a second: the row measures what
    # held connections do to the clean client, not how fast this process can
    # connect (at full speed it re-opened ~600 a second and took a CPU).
    budget = int((now - last_reopen) * REOPEN_RATE)
    if budget > 0:
        last_reopen = now
    while reopen and reopen[0][0] <= now and budget > 0:
        _, kind, src = reopen.pop(0)
        open_one(kind, src)
        budget -= 1
    if now - last_trickle > 2:
        last_trickle = now
        for s, (kind, src, state) in list(conns.items()):
            if kind == "slowloris" and state == "sent":
                try:
                    s.send(b"X-a: b\r\n")
                except OSError:
                    again(s)
    stats["peak"] = max(stats["peak"], len(conns))

print(f"connflood held={len(conns)} opened={stats['opened']} refused={stats['refused']} peak={stats['peak']}", flush=True)
