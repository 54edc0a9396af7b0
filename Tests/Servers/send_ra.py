#!/usr/bin/env python3
"""Sends one IPv6 Router Advertisement to ff02::1 on IFNAME, from its link-local address with hop
limit 255, carrying RFC 8910's captive-portal option (37) with URI, for the RA tests.

    send_ra.py IFNAME URI [--raw-length N] [--no-option]

--raw-length N writes N (in 8-byte units) as the option's length whatever its size (a malformed
option); the URI is sent as given (bytes, `\\xNN` escapes allowed), NUL-padded to 8 bytes.
The router lifetime is 0: the RA makes no default route, so only the option matters.
"""
import argparse
import socket
import struct

parser = argparse.ArgumentParser()
parser.add_argument("ifname")
parser.add_argument("uri")
parser.add_argument("--raw-length", type=int)
arguments = parser.parse_args()

uri = arguments.uri.encode().decode("unicode_escape").encode("latin-1")
pad = (-(2 + len(uri))) % 8
length = arguments.raw_length if arguments.raw_length is not None else (2 + len(uri) + pad) // 8
option = struct.pack("BB", 37, length) + uri + b"\0" * pad
# ICMPv6 type 134, code 0, checksum (the kernel fills it), cur hop limit 64, flags 0,
# router lifetime 0, reachable time 0, retrans timer 0.
message = struct.pack("!BBHBBHII", 134, 0, 0, 64, 0, 0, 0, 0) + option
sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
sock.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, arguments.ifname.encode())
sock.sendto(message, ("ff02::1", 0, 0, socket.if_nametoindex(arguments.ifname)))
