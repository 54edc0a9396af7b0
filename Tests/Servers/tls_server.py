#!/usr/bin/env python3
"""An HTTPS server for the https:// probe tests: it answers 204 over TLS with the certificate
DIR/mode names, or plays a broken server, and counts what it saw.

    tls_server.py --address 10.88.0.2 --port 8443 --state DIR --certs CERTS

DIR/mode (read at each connection): `good` (back to normal; `204`, probe_server.py's word for
it, is taken too), `wrongname`, `expired`, `selfsigned` (TLS with CERTS/MODE.pem and .key, then 204), `stall` (accepts, never answers the handshake), `plain`
(plain HTTP on the TLS port: a 400 to the ClientHello). DIR/connections counts accepted
connections, DIR/requests requests read over TLS, DIR/sni holds the last SNI sent ("-" for none);
DIR/ready appears once the socket listens.
"""

import sys

import server_state
from server_state import State, serve

arguments = server_state.tls_arguments()

state = State(arguments.state, "good")


def remember_sni(_socket, name, _context):
    state.write("sni", name or "-")


contexts = {}
for name in ("good", "wrongname", "expired", "selfsigned"):
    context = server_state.tls_context(arguments.certs, name)
    context.sni_callback = remember_sni
    contexts[name] = context


class Handler(server_state.Handler):
    state = state

    def answer(self, behaviour, sock):
        if behaviour == "plain":
            sock.recv(4096)
            sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        behaviour = "good" if behaviour == "204" else behaviour
        if behaviour not in contexts:
            sys.stderr.write("tls_server.py: unknown mode %r in %s/mode: write good (normal), wrongname, "
                             "expired, selfsigned, stall or plain\n" % (behaviour, arguments.state))
            return
        self.state.write("sni", "-")
        with contexts[behaviour].wrap_socket(sock, server_side=True) as tls:
            if tls.recv(4096):
                self.state.count("requests")
                tls.sendall(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


serve(arguments.address, arguments.port, Handler, state, ["connections", "requests"])
