// request-latency SECONDS: asks, in turn and for SECONDS, the two requests the engine sends after a
// kernel change, and prints the longest each took:
//   RTM_GETQDISC of the loopback's root qdisc, with an ACK: handled under the routing lock (RTNL),
//     so it cannot be answered while another operation holds it (NetlinkEngine.settle);
//   RTM_GETROUTE of 127.0.0.1: a route lookup, which takes no lock.
// Build: gcc -O2 -o request-latency request-latency.c
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/pkt_sched.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static void drain_until_done(int fd) { char buf[8192]; for (;;) { int n = recv(fd, buf, sizeof buf, 0); struct nlmsghdr *h = (struct nlmsghdr *)buf; for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == RTM_NEWROUTE) return; } }
int main(int argc, char **argv) {
    int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE); double maxq = 0, maxr = 0; double end = now() + atof(argv[1]) * 1000;
    while (now() < end) {
        struct { struct nlmsghdr n; struct tcmsg t; } q = {0};
        q.n.nlmsg_len = sizeof q; q.n.nlmsg_type = RTM_GETQDISC; q.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK; q.t.tcm_ifindex = 1; q.t.tcm_parent = TC_H_ROOT;
        double t0 = now(); send(fd, &q, sizeof q, 0); drain_until_done(fd); double t1 = now(); if (t1 - t0 > maxq) maxq = t1 - t0;
        struct { struct nlmsghdr n; struct rtmsg r; struct rtattr a; char d[4]; } r = {0};
        r.n.nlmsg_len = sizeof r; r.n.nlmsg_type = RTM_GETROUTE; r.n.nlmsg_flags = NLM_F_REQUEST; r.r.rtm_family = AF_INET; r.r.rtm_dst_len = 32;
        r.a.rta_type = RTA_DST; r.a.rta_len = RTA_LENGTH(4); inet_pton(AF_INET, "127.0.0.1", r.d);
        t0 = now(); send(fd, &r, sizeof r, 0); drain_until_done(fd); t1 = now(); if (t1 - t0 > maxr) maxr = t1 - t0;
    }
    printf("max GETQDISC %.1f ms, max GETROUTE %.1f ms\n", maxq, maxr);
}
