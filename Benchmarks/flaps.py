"""The throwaway namespace's layout and the flaps of the counting scripts (per-change-counts.py,
instructions-per-change.py): the shared harness's layout, one veth `v0` with two addresses and a
default route; each flap is two steps, two changes."""

# `ip -n NS` arguments that make the layout, in order.
LAYOUT = [("link", "set", "lo", "up"), ("link", "add", "v0", "type", "veth", "peer", "name", "v1"),
          ("link", "set", "v0", "up"), ("link", "set", "v1", "up"),
          ("addr", "add", "10.77.0.1/24", "dev", "v0"), ("addr", "add", "10.77.9.1/24", "dev", "v0"),
          ("route", "add", "default", "via", "10.77.0.2")]

KINDS = ("link", "route", "addr", "quiet")


def flap(ip, kind, step):
    """Step 0 or 1 of a flap of `kind`, through `ip(*arguments)` (`ip -n NS ...`).

    quiet: a route to 198.51.100.0/24 added and deleted, which moves no answer of `*` or of an
    address outside that prefix (a turn that should print nothing)."""
    if kind == "link":
        ip("link", "set", "v0", "down" if step == 0 else "up")
        if step == 1:
            ip("route", "replace", "default", "via", "10.77.0.2")
    elif kind == "route":
        ip("route", "del" if step == 0 else "add", "default", "via", "10.77.0.2")
    elif kind == "addr":
        ip("addr", "del" if step == 0 else "add", "10.77.9.1/24", "dev", "v0")
    elif kind == "quiet":
        ip("route", "add" if step == 0 else "del", "198.51.100.0/24", "via", "10.77.0.2")
