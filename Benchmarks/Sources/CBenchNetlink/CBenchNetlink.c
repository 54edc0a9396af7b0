#define _GNU_SOURCE
#include "CBenchNetlink.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

int nrxb_rtnl_open_in(const char *path) {
    int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (self < 0) return -errno;
    int target = open(path, O_RDONLY | O_CLOEXEC);
    if (target < 0) { int e = errno; close(self); return -e; }
    if (setns(target, CLONE_NEWNET) != 0) { int e = errno; close(self); close(target); return -e; }
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    int e = errno;
    /* Back to the thread's own namespace, whatever happened. */
    if (setns(self, CLONE_NEWNET) != 0) { /* cannot happen for our own ns; make it loud */ _exit(99); }
    close(self);
    close(target);
    if (fd < 0) return -e;
    struct sockaddr_nl local = { .nl_family = AF_NETLINK };
    if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0) { e = errno; close(fd); return -e; }
    int size = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    return fd;
}

static uint32_t sequence = 1;

static void put_attr(struct nlmsghdr *n, int type, const void *data, int len) {
    struct rtattr *rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
    rta->rta_type = type;
    rta->rta_len = RTA_LENGTH(len);
    memcpy(RTA_DATA(rta), data, len);
    n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

int nrxb_route4_nowait(int fd, int add, uint32_t dst, int plen, uint32_t gateway, int blackhole) {
    struct {
        struct nlmsghdr n;
        struct rtmsg r;
        char attrs[64];
    } req;
    memset(&req, 0, sizeof req);
    req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    req.n.nlmsg_type = add ? RTM_NEWROUTE : RTM_DELROUTE;
    req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (add ? (NLM_F_CREATE | NLM_F_EXCL) : 0);
    req.n.nlmsg_seq = ++sequence;
    req.r.rtm_family = AF_INET;
    req.r.rtm_dst_len = (unsigned char)plen;
    req.r.rtm_table = RT_TABLE_MAIN;
    req.r.rtm_protocol = RTPROT_STATIC;
    req.r.rtm_scope = blackhole ? RT_SCOPE_UNIVERSE : (gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK);
    req.r.rtm_type = blackhole ? RTN_BLACKHOLE : RTN_UNICAST;
    if (!add) {
        /* As `ip route del`: zero fields match any route. */
        req.r.rtm_scope = RT_SCOPE_NOWHERE;
        req.r.rtm_protocol = 0;
        req.r.rtm_type = 0;
    }
    if (plen > 0) put_attr(&req.n, RTA_DST, &dst, 4);
    if (gateway && !blackhole) put_attr(&req.n, RTA_GATEWAY, &gateway, 4);
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    ssize_t sent = sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel);
    return sent < 0 ? -errno : 0;
}

int nrxb_drain_acks(int fd, int count) {
    char buffer[8192];
    int first = 0;
    while (count > 0) {
        ssize_t got = recv(fd, buffer, sizeof buffer, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        int remaining = (int)got;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; NLMSG_OK(h, remaining); h = NLMSG_NEXT(h, remaining)) {
            if (h->nlmsg_type == NLMSG_ERROR) {
                struct nlmsgerr *err = NLMSG_DATA(h);
                if (err->error != 0 && first == 0) first = err->error;
                count--;
            }
        }
    }
    return first;
}

int nrxb_route4(int fd, int add, uint32_t dst, int plen, uint32_t gateway, int blackhole) {
    int rc = nrxb_route4_nowait(fd, add, dst, plen, gateway, blackhole);
    if (rc != 0) return rc;
    return nrxb_drain_acks(fd, 1);
}

int64_t nrxb_realtime_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t nrxb_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t nrxb_process_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t nrxb_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
}

void nrxb_malloc_trim(void) {
    malloc_trim(0);
}

/* ---- namespace cleanup on every exit path ---------------------------------------------- */

#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>

#define NRXB_MAX_NETNS 32
static char registered[NRXB_MAX_NETNS][128];

int nrxb_netns_delete(const char *name) {
    char path[192];
    size_t n = strlen(name);
    if (n == 0 || n > 120 || strchr(name, '/')) return -EINVAL;
    memcpy(path, "/run/netns/", 11);
    memcpy(path + 11, name, n + 1);
    umount2(path, MNT_DETACH);
    if (unlink(path) != 0) return -errno;
    return 0;
}

int nrxb_register_netns(const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof registered[0]) return -EINVAL;
    for (int i = 0; i < NRXB_MAX_NETNS; i++) {
        if (registered[i][0] == 0) {
            memcpy(registered[i], name, n + 1);
            return 0;
        }
    }
    return -ENOSPC;
}

void nrxb_unregister_netns(const char *name) {
    for (int i = 0; i < NRXB_MAX_NETNS; i++) {
        if (registered[i][0] != 0 && strcmp(registered[i], name) == 0) registered[i][0] = 0;
    }
}

int nrxb_delete_registered_netns(void) {
    int deleted = 0;
    for (int i = 0; i < NRXB_MAX_NETNS; i++) {
        if (registered[i][0] != 0) {
            if (nrxb_netns_delete(registered[i]) == 0) deleted++;
            registered[i][0] = 0;
        }
    }
    return deleted;
}

static void cleanup_at_exit(void) { nrxb_delete_registered_netns(); }

static void cleanup_on_signal(int sig) {
    nrxb_delete_registered_netns();
    signal(sig, SIG_DFL);
    raise(sig);
}

void nrxb_install_cleanup_handlers(void) {
    static int installed = 0;
    if (installed) return;
    installed = 1;
    atexit(cleanup_at_exit);
    int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP };
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = cleanup_on_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(signals[i], &action, NULL);
    }
}

/* ---- the kernel's floor: one route lookup ---------------------------------------------- */

int nrxb_route_get4(int fd, uint32_t destination) {
    struct {
        struct nlmsghdr n;
        struct rtmsg r;
        char attrs[16];
    } req;
    memset(&req, 0, sizeof req);
    req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
    req.n.nlmsg_type = RTM_GETROUTE;
    req.n.nlmsg_flags = NLM_F_REQUEST;
    req.n.nlmsg_seq = ++sequence;
    req.r.rtm_family = AF_INET;
    req.r.rtm_dst_len = 32;
    put_attr(&req.n, RTA_DST, &destination, 4);
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) return -errno;
    char buffer[4096];
    for (;;) {
        ssize_t got = recv(fd, buffer, sizeof buffer, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        int remaining = (int)got;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; NLMSG_OK(h, remaining); h = NLMSG_NEXT(h, remaining)) {
            if (h->nlmsg_seq != req.n.nlmsg_seq) continue;
            if (h->nlmsg_type == NLMSG_ERROR) return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
            if (h->nlmsg_type == RTM_NEWROUTE) return 0;
        }
    }
}

void nrxb_sleep_until_ns(int64_t ns) {
    struct timespec ts = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

/* ---- link and address changes (the harness's link-flap and addr-flap) ------------------ */

#include <net/if.h>
#include <linux/if_addr.h>

int nrxb_link_set_up(int fd, int ifindex, int up) {
    struct {
        struct nlmsghdr n;
        struct ifinfomsg i;
    } req;
    memset(&req, 0, sizeof req);
    req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
    req.n.nlmsg_type = RTM_NEWLINK;
    req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
    req.n.nlmsg_seq = ++sequence;
    req.i.ifi_family = AF_UNSPEC;
    req.i.ifi_index = ifindex;
    req.i.ifi_change = IFF_UP;
    req.i.ifi_flags = up ? IFF_UP : 0;
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) return -errno;
    return nrxb_drain_acks(fd, 1);
}

int nrxb_addr4(int fd, int add, int ifindex, uint32_t address, int plen) {
    struct {
        struct nlmsghdr n;
        struct ifaddrmsg a;
        char attrs[32];
    } req;
    memset(&req, 0, sizeof req);
    req.n.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg));
    req.n.nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
    req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (add ? (NLM_F_CREATE | NLM_F_EXCL) : 0);
    req.n.nlmsg_seq = ++sequence;
    req.a.ifa_family = AF_INET;
    req.a.ifa_prefixlen = (unsigned char)plen;
    req.a.ifa_index = ifindex;
    put_attr(&req.n, IFA_LOCAL, &address, 4);
    put_attr(&req.n, IFA_ADDRESS, &address, 4);
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    if (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) return -errno;
    return nrxb_drain_acks(fd, 1);
}

int nrxb_ifindex_in(const char *path, const char *name) {
    int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    if (self < 0) return -errno;
    int target = open(path, O_RDONLY | O_CLOEXEC);
    if (target < 0) { int e = errno; close(self); return -e; }
    if (setns(target, CLONE_NEWNET) != 0) { int e = errno; close(self); close(target); return -e; }
    unsigned index = if_nametoindex(name);
    int e = errno;
    if (setns(self, CLONE_NEWNET) != 0) _exit(99);
    close(self);
    close(target);
    return index > 0 ? (int)index : -e;
}
