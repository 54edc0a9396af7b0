#!/usr/bin/env python3
"""A captive-portal API (RFC 8908) over TLS for the API tests, answering as DIR/mode says.

    captive_api_server.py --address 10.88.0.2 --port 8444 --state DIR --certs CERTS

TLS with CERTS/good.pem and .key, then, by DIR/mode (read at each connection):
`captive` ({"captive": true, a user-portal-url, ...}), `open` ({"captive": false}),
`wrongtype` (the `open` JSON as text/html), `garbage` (application/captive+json that is not
JSON), `huge` (a 1 MiB body, without a Content-Length), `stallbody` (the head, then nothing); `stall` never answers the handshake.
A request for /as/MODE (or /as/MODE/ANYTHING) answers as MODE whatever DIR/mode says: two
announced URIs, two answers; a storm of URIs, each its own.
DIR/connections counts accepted connections, DIR/requests requests read over TLS, DIR/accept
holds the last request's Accept header; DIR/ready appears once the socket listens.
"""
import json
import time

import server_state
from server_state import State, serve

arguments = server_state.tls_arguments()
state = State(arguments.state, "captive")
context = server_state.tls_context(arguments.certs, "good")

CAPTIVE = json.dumps({
    "captive": True, "user-portal-url": "https://portal.nrx.test/login",
    "venue-info-url": "https://venue.nrx.test/", "seconds-remaining": 300, "bytes-remaining": 1000000,
    "can-extend-session": True,
}).encode()
OPEN = json.dumps({"captive": False, "seconds-remaining": 120}).encode()


def head(content_type, length=None):
    lines = ["HTTP/1.1 200 OK", "Content-Type: " + content_type, "Connection: close", "Cache-Control: private"]
    if length is not None:
        lines.append("Content-Length: %d" % length)
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class Handler(server_state.Handler):
    state = state

    def answer(self, behaviour, sock):
        with context.wrap_socket(sock, server_side=True) as tls:
            request = tls.recv(4096).decode("latin-1")
            if not request:
                return
            self.state.count("requests")
            accept = [line.split(":", 1)[1].strip() for line in request.split("\r\n") if line.lower().startswith("accept:")]
            self.state.write("accept", accept[0] if accept else "-")
            target = request.split(" ", 2)[1] if request.count(" ") >= 2 else ""
            if target.startswith("/as/"):
                behaviour = target[len("/as/"):].split("/")[0].split("?")[0]
            if behaviour == "captive":
                tls.sendall(head("application/captive+json", len(CAPTIVE)) + CAPTIVE)
            elif behaviour == "open":
                tls.sendall(head("application/captive+json; charset=utf-8", len(OPEN)) + OPEN)
            elif behaviour == "wrongtype":
                tls.sendall(head("text/html", len(OPEN)) + OPEN)
            elif behaviour == "garbage":
                tls.sendall(head("application/captive+json", 9) + b"<html>no}")
            elif behaviour == "huge":
                tls.sendall(head("application/captive+json") + b'{"captive": true, "x": "')
                chunk = b"a" * 65536
                for _ in range(16):
                    tls.sendall(chunk)
                tls.sendall(b'"}')
            elif behaviour == "stallbody":
                tls.sendall(head("application/captive+json", len(OPEN)))
                time.sleep(30)


serve(arguments.address, arguments.port, Handler, state, ["connections", "requests"])
