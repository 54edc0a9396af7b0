#!/usr/bin/env python3
"""Sends IPv6 Router Advertisements to ff02::1 on IFNAME, from its link-local address with hop
limit 255, carrying RFC 8910's captive-portal option (37) with URI, for the RA tests.

    send_ra.py IFNAME URI [--raw-length N] [--count N --interval S] [--report FILE]

--raw-length N writes N (in 8-byte units) as the option's length whatever its size (a malformed
option); the URI is sent as given (bytes, `\\xNN` escapes allowed), NUL-padded to 8 bytes.
--count N sends N RAs, one every S seconds (default 0), `{n}` in URI replaced by 0 to N-1 (a
storm of changing URIs); --report FILE then writes "SENT SECONDS LAST" there: how many went
out, the seconds from the first to the last, and when the last went (CLOCK_MONOTONIC seconds,
the clock of Swift's `DispatchTime` on Linux).
The router lifetime is 0: the RA makes no default route, so only the option matters.
"""
import argparse
import socket
import struct
import time

parser = argparse.ArgumentParser()
parser.add_argument("ifname")
parser.add_argument("uri")
parser.add_argument("--raw-length", type=int)
parser.add_argument("--count", type=int, default=1)
parser.add_argument("--interval", type=float, default=0)
parser.add_argument("--report")
arguments = parser.parse_args()


def advertisement(text):
    uri = text.encode().decode("unicode_escape").encode("latin-1")
    pad = (-(2 + len(uri))) % 8
    length = arguments.raw_length if arguments.raw_length is not None else (2 + len(uri) + pad) // 8
    option = struct.pack("BB", 37, length) + uri + b"\0" * pad
    # ICMPv6 type 134, code 0, checksum (the kernel fills it), cur hop limit 64, flags 0,
    # router lifetime 0, reachable time 0, retrans timer 0.
    return struct.pack("!BBHBBHII", 134, 0, 0, 64, 0, 0, 0, 0) + option


sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, arguments.ifname.encode())
destination = ("ff02::1", 0, 0, socket.if_nametoindex(arguments.ifname))
started = time.monotonic()
for n in range(arguments.count):
    if n and arguments.interval:
        time.sleep(arguments.interval)
    sock.sendto(advertisement(arguments.uri.replace("{n}", str(n))), destination)
last = time.monotonic()
if arguments.report:
    with open(arguments.report, "w") as handle:
        handle.write("%d %.6f %.6f\n" % (arguments.count, last - started, last))
