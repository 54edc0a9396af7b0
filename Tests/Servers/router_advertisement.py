#!/usr/bin/env python3
"""Sends one IPv6 Router Advertisement (RFC 4861, with RFC 4191's router preference) to all
nodes on a link, as a router's daemon would: a raw ICMPv6 socket, hop limit 255, the link-local
source the kernel picks for the interface. For the integration tests of routes that expire.

    router_advertisement.py --interface r0 --lifetime 4 [--preference high|medium|low]
                            [--prefix 2001:db8:1::/64 --prefix-lifetime 3600] [--rdnss 2001:db8::53]

Run it inside the router's namespace (`ip netns exec`). The interface's link-local address must
have finished duplicate address detection, or the kernel has no source to send from.
"""
import argparse
import socket
import struct

PREFERENCES = {"high": 0b01, "medium": 0b00, "low": 0b11}

parser = argparse.ArgumentParser()
parser.add_argument("--interface", required=True)
parser.add_argument("--lifetime", type=int, required=True, help="router lifetime in seconds (0: not a default router)")
parser.add_argument("--preference", choices=PREFERENCES, default="medium")
parser.add_argument("--prefix", help="a /64 to advertise on-link and for address autoconfiguration (SLAAC)")
parser.add_argument("--prefix-lifetime", type=int, default=3600, help="its valid and preferred lifetime in seconds")
parser.add_argument("--rdnss", help="a recursive DNS server (RFC 8106): the kernel hands the option to user space")
arguments = parser.parse_args()

with open(f"/sys/class/net/{arguments.interface}/address") as handle:
    mac = bytes.fromhex(handle.read().strip().replace(":", ""))

flags = PREFERENCES[arguments.preference] << 3
# Type 134, code 0, checksum (the kernel fills it for raw ICMPv6), current hop limit 64, flags,
# router lifetime, reachable time 0 and retransmission timer 0 (unspecified: the host keeps its own).
message = struct.pack("!BBHBBHII", 134, 0, 0, 64, flags, arguments.lifetime, 0, 0)
# Source link-layer address option: the host learns the router's neighbour entry from it.
message += struct.pack("!BB", 1, 1) + mac
if arguments.prefix:
    address, length = arguments.prefix.split("/")
    # Prefix information option: on-link (L) and autonomous (A) flags, valid and preferred lifetimes.
    message += struct.pack("!BBBBII4x", 3, 4, int(length), 0xC0, arguments.prefix_lifetime, arguments.prefix_lifetime)
    message += socket.inet_pton(socket.AF_INET6, address)

if arguments.rdnss:
    # RDNSS option: type 25, length 3 (units of 8 bytes), 2 reserved bytes, lifetime, one address.
    message += struct.pack("!BBHI", 25, 3, 0, 600) + socket.inet_pton(socket.AF_INET6, arguments.rdnss)

sender = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
sender.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)
sender.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_UNICAST_HOPS, 255)
index = socket.if_nametoindex(arguments.interface)
sender.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, index)
sender.sendto(message, ("ff02::1", 0, 0, index))
