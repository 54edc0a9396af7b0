"""What the test servers share: their state directory (the mode a test writes, the counts and the
`ready` file they write back) and a threaded TCP server that serves until killed."""
import argparse
import os
import socketserver
import ssl
import threading
import time


def tls_arguments():
    """The command line of the TLS servers: --address, --port, --state DIR, --certs DIR."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--certs", required=True)
    return parser.parse_args()


def tls_context(certs, name):
    """A TLS 1.2+ server context for CERTS/NAME.pem and .key (make_test_certs.sh makes them)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(os.path.join(certs, name + ".pem"), os.path.join(certs, name + ".key"))
    return context


class State:
    def __init__(self, directory, default_mode):
        self.directory = directory
        self.default_mode = default_mode
        self.lock = threading.Lock()
        self.counts = {}
        self.times = {}

    def write(self, name, text):
        """Writes DIR/name atomically (a test may read it at any moment)."""
        path = os.path.join(self.directory, name)
        with open(path + ".tmp", "w") as handle:
            handle.write(text)
        os.replace(path + ".tmp", path)

    def mode(self):
        """DIR/mode as the test last wrote it, read at each connection."""
        try:
            with open(os.path.join(self.directory, "mode")) as handle:
                return handle.read().strip() or self.default_mode
        except FileNotFoundError:
            return self.default_mode

    def count(self, name):
        """Adds one to the count DIR/name, and the moment (CLOCK_MONOTONIC seconds, one clock for
        every namespace) to DIR/name-times, one a line, so a test can tell how far apart they came."""
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + 1
            self.times.setdefault(name, []).append("%.6f" % time.monotonic())
            self.write(name + "-times", "\n".join(self.times[name]) + "\n")
            self.write(name, str(self.counts[name]))


class Handler(socketserver.BaseRequestHandler):
    """Counts the connection, then plays DIR/mode: `silent` or `stall` read and never answer;
    any other mode is the subclass's `answer(behaviour, sock)`. A socket error ends the connection."""
    state = None

    def handle(self):
        self.state.count("connections")
        behaviour = self.state.mode()
        sock = self.request
        sock.settimeout(30)
        try:
            if behaviour in ("silent", "stall"):
                while sock.recv(4096):
                    pass
                return
            self.answer(behaviour, sock)
        except OSError:  # ssl.SSLError too
            pass


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


def serve(address, port, handler, state, counts):
    """Listens, writes each of `counts` as 0 and DIR/ready, then serves until killed."""
    server = Server((address, port), handler)
    for name in counts:
        state.write(name, "0")
    state.write("ready", "1")
    server.serve_forever()
