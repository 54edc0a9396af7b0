#!/usr/bin/env python3
"""A small HTTP server for the connectivity-probe tests: it plays a working uplink, a captive
portal, or a hostile or broken server, and counts the connections it accepted.

    probe_server.py --address 10.88.0.2 --port 8080 --state DIR

DIR/mode (read at each connection) picks the behaviour; DIR/connections is the count of accepted
connections (rewritten after each accept); DIR/ready appears once the socket listens.
"""
import argparse
import socket
import struct
import time

import server_state
from server_state import State, serve

parser = argparse.ArgumentParser()
parser.add_argument("--address", required=True)
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--state", required=True)
arguments = parser.parse_args()

state = State(arguments.state, "204")


def respond(status, headers=(), body=b""):
    head = "HTTP/1.1 %s\r\n" % status
    for name, value in headers:
        head += "%s: %s\r\n" % (name, value)
    if not any(name.lower() in ("content-length", "transfer-encoding") for name, _ in headers):
        head += "Content-Length: %d\r\n" % len(body)
    return head.encode() + b"Connection: close\r\n\r\n" + body


ANSWERS = {
    "204": respond("204 No Content"),
    "200ok": respond("200 OK", [("Content-Type", "text/plain")], b"hello: connected-ok\n"),
    "200chunked": respond("200 OK", [("Transfer-Encoding", "chunked")],
                          b"6\r\nhello \r\n" + b"C\r\nconnected-ok\r\n" + b"0\r\n\r\n"),
    "302": respond("302 Found", [("Location", "/login?from=probe")], b""),
    # A hostile portal: redirects whose Location an application must never be handed to open.
    "302js": respond("302 Found", [("Location", "javascript:alert(document.cookie)")], b""),
    "302data": respond("302 Found", [("Location", "data:text/html,<script>alert(document.cookie)</script>")], b""),
    "302file": respond("302 Found", [("Location", "file:///etc/passwd")], b""),
    "login": respond("200 OK", [("Content-Type", "text/html")], b"<html><form>Log in to the hotel</form></html>"),
    "511": respond("511 Network Authentication Required", [], b"<html>log in</html>"),
    "garbage": b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n",
}


class Handler(server_state.Handler):
    state = state

    def answer(self, behaviour, sock):
        sock.recv(4096)
        if behaviour == "reset":
            # SO_LINGER with a zero timeout: close sends a RST, not a FIN.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
            return
        if behaviour in ANSWERS:
            sock.sendall(ANSWERS[behaviour])
        elif behaviour == "bigheader":
            sock.sendall(b"HTTP/1.1 200 OK\r\nX-Big: ")
            chunk = b"a" * 65536
            for _ in range(16):
                sock.sendall(chunk)
            sock.sendall(b"\r\n\r\n")
        elif behaviour == "endless":
            sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
            chunk = b"x" * 4096
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                sock.sendall(chunk)
        elif behaviour == "slowloris":
            for byte in b"HTTP/1.1 200 OK\r\nX-Slow: 1\r\n":
                sock.sendall(bytes([byte]))
                time.sleep(0.5)


serve(arguments.address, arguments.port, Handler, state, ["connections"])
