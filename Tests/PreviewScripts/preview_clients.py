#!/usr/bin/env python3
"""Clients of hfr's live preview, for Tests/RealTimeTests/PreviewTests.swift.

readers PORT N SECONDS [TOKEN]
                        N clients read /stream.mjpg for SECONDS while one more connects, asks for it
                        and never reads; prints JSON: the JPEG parts each reader got, whether the
                        stalled client stayed connected.
get PORT PATH           prints the status line, then the body (a whole response: not for streams).
request PORT METHOD PATH [HEADER...]
                        one request with those header lines (a Content-Length header sends that many
                        bytes of body); prints the status line, the header lines, an empty line and
                        the body (a whole response: not for streams that are served).
fuzz PORT COUNT [TOKEN] COUNT bounded malformed, oversized and unknown requests, one connection each
                        (the unknown paths and other methods with ?token=TOKEN when given); prints
                        JSON: responses by status code ("closed": the library closed the connection
                        without a response), and a sample of anything else.
limit PORT N TOKEN      opens N streams (/stream.mjpg and /events in turn) and reads their status
                        lines, then asks for one more; prints JSON: the N statuses and the last one's.
All traffic goes to 127.0.0.1 only; every socket has a timeout, so the script always ends.
"""
import json
import random
import socket
import sys
import threading
import time

HOST = "127.0.0.1"


def query(token):
    return f"?token={token}" if token else ""


def read_stream(port, seconds, result, index, token=None):
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall(f"GET /stream.mjpg{query(token)} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    data = b""
    parts = 0
    deadline = time.time() + seconds
    try:
        while time.time() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            # Count complete parts: boundary, headers with Content-Length, the image.
            while True:
                start = data.find(b"Content-Length: ")
                if start < 0:
                    break
                end = data.find(b"\r\n\r\n", start)
                if end < 0:
                    break
                length = int(data[start + 16:data.find(b"\r\n", start)])
                if len(data) < end + 4 + length:
                    break
                image = data[end + 4:end + 4 + length]
                if image[:2] == b"\xff\xd8" and image[-2:] == b"\xff\xd9":
                    parts += 1
                data = data[end + 4 + length:]
    finally:
        sock.close()
    result[index] = parts


def readers(port, count, seconds, token=None):
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.settimeout(5)
    stalled.connect((HOST, port))
    stalled.sendall(f"GET /stream.mjpg{query(token)} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    result = [0] * count
    threads = [threading.Thread(target=read_stream, args=(port, seconds, result, i, token)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Still connected: the server neither closed nor reset it while it never read.
    stalled.setblocking(False)
    try:
        stalled.send(b"")
        connected = True
    except OSError:
        connected = False
    stalled.close()
    print(json.dumps({"parts": result, "stalledConnected": connected}))


def fuzz_requests(count, token=None):
    rng = random.Random(15)
    q = "&token=" + token if token else ""
    paths = ["/", "/status", "/events", "/stream.mjpg"]
    kinds = []
    for i in range(count):
        k = i % 8
        if k == 0:  # unknown paths
            kinds.append(("unknown", f"GET /{rng.randrange(10**6)}/x?y={i}{q} HTTP/1.1\r\nHost: h\r\n\r\n".encode()))
        elif k == 1:  # other methods on the served paths
            method = rng.choice(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"])
            body = b"x" * rng.randrange(0, 64)
            kinds.append(("method", f"{method} {rng.choice(paths)}{query(token)} HTTP/1.1\r\nHost: h\r\n"
                          f"Content-Length: {len(body)}\r\n\r\n".encode() + body))
        elif k == 2:  # random bytes
            kinds.append(("garbage", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\r\n\r\n"))
        elif k == 3:  # broken request lines
            line = rng.choice(["GET", "GET  HTTP/1.1", "/ HTTP/1.1", "GET / HTTP/1.1 extra", "GET / HTTP/x",
                               "G\x00T / HTTP/1.1", "GET /\x7f HTTP/1.1"])
            kinds.append(("malformed", (line + "\r\nHost: h\r\n\r\n").encode()))
        elif k == 4:  # oversized headers
            kinds.append(("oversized", b"GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + b"a" * rng.randrange(40000, 90000)
                          + b"\r\n\r\n"))
        elif k == 5:  # oversized URL
            kinds.append(("oversized", b"GET /" + b"b" * rng.randrange(40000, 90000) + b" HTTP/1.1\r\nHost: h\r\n\r\n"))
        elif k == 6:  # broken headers
            kinds.append(("malformed", b"GET / HTTP/1.1\r\nHost: h\r\nNo colon here\r\n: empty name\r\n\r\n"))
        else:  # an unsupported protocol version
            kinds.append(("malformed", f"GET {rng.choice(paths)} HTTP/{rng.choice(['2.0', '3.1', '0.8', 'x'])}\r\n"
                          "Host: h\r\n\r\n".encode()))
    return kinds


def read_until(sock, done):
    """What the socket gives until `done(data)` holds or the server closes, resets or goes quiet."""
    data = b""
    try:
        while not done(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    return data


def first_line(sock):
    """The bytes up to the first CRLF (or what came before the server closed, reset or went quiet)."""
    return read_until(sock, lambda data: b"\r\n" in data)


def status_of(data):
    """The status code of a response's first bytes; "closed" when there were none."""
    if not data:
        return "closed"
    fields = data.split(b"\r\n")[0].split(b" ")
    return fields[1].decode() if len(fields) > 1 and fields[0].startswith(b"HTTP/") else "other"


def send_one(port, payload):
    sock = socket.create_connection((HOST, port), timeout=3)
    try:
        try:
            sock.sendall(payload)
        except OSError:
            pass  # the server may stop reading an oversized request and answer or close
        return status_of(first_line(sock))
    finally:
        sock.close()


def fuzz(port, count, token=None):
    statuses = {}
    by_kind = {}
    for kind, payload in fuzz_requests(count, token):
        status = send_one(port, payload)
        statuses[status] = statuses.get(status, 0) + 1
        by_kind.setdefault(kind, {}).setdefault(status, 0)
        by_kind[kind][status] += 1
    print(json.dumps({"statuses": statuses, "byKind": by_kind}))


def get(port, path):
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    print(head.split(b"\r\n")[0].decode())
    sys.stdout.write(body.decode("utf-8", "replace"))


def request(port, method, path, headers):
    body = b""
    for h in headers:
        name, _, value = h.partition(":")
        if name.strip().lower() == "content-length":
            body = b"x" * int(value)
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
    sock = socket.create_connection((HOST, port), timeout=5)
    sock.sendall((head + "".join(h + "\r\n" for h in headers) + "\r\n").encode() + body)
    data = read_until(sock, lambda data: False)
    sock.close()
    sys.stdout.write(data.decode("utf-8", "replace").replace("\r\n", "\n"))


def limit(port, count, token):
    socks = []
    statuses = []
    try:
        for i in range(count + 1):
            path = ["/stream.mjpg", "/events"][i % 2]
            sock = socket.create_connection((HOST, port), timeout=5)
            socks.append(sock)
            sock.sendall(f"GET {path}?token={token} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            statuses.append(status_of(first_line(sock)))
    finally:
        for sock in socks:
            sock.close()
    print(json.dumps({"opened": statuses[:count], "oneMore": statuses[count]}))


if __name__ == "__main__":
    if sys.argv[1] == "get":
        get(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "readers":
        readers(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), *sys.argv[5:6])
    elif sys.argv[1] == "request":
        request(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
    elif sys.argv[1] == "limit":
        limit(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        fuzz(int(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:5])
