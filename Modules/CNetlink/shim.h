#ifndef CNETLINK_SHIM_H
#define CNETLINK_SHIM_H

// libnl-3 and libnl-route-3, and the few kernel constants that their headers
// do not make visible to Swift. <linux/if.h> clashes with glibc's <net/if.h>,
// so the link-state constants are spelled out here.

#include <netlink/netlink.h>
#include <netlink/socket.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/cache.h>
#include <netlink/errno.h>
#include <netlink/addr.h>
#include <netlink/route/rtnl.h>
#include <netlink/route/link.h>
#include <netlink/route/addr.h>
#include <netlink/route/route.h>
#include <netlink/route/nexthop.h>
#include <linux/rtnetlink.h>
#include <linux/netlink.h>
#include <linux/filter.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

// <linux/if.h>: net_device_flags beyond glibc's <net/if.h>.
static const unsigned int CNetlink_IFF_LOWER_UP = 1u << 16;
static const unsigned int CNetlink_IFF_DORMANT = 1u << 17;

// <linux/if.h>: RFC 2863 operational states.
static const unsigned char CNetlink_IF_OPER_UNKNOWN = 0;
static const unsigned char CNetlink_IF_OPER_NOTPRESENT = 1;
static const unsigned char CNetlink_IF_OPER_DOWN = 2;
static const unsigned char CNetlink_IF_OPER_LOWERLAYERDOWN = 3;
static const unsigned char CNetlink_IF_OPER_TESTING = 4;
static const unsigned char CNetlink_IF_OPER_DORMANT = 5;
static const unsigned char CNetlink_IF_OPER_UP = 6;

// setns(2) is declared by glibc only under _GNU_SOURCE, which Swift's Glibc module lacks.
extern int setns(int fd, int nstype);
static inline int CNetlink_enterNetworkNamespace(int fd) { return setns(fd, 0x40000000 /* CLONE_NEWNET */); }

// unshare(2) and mount(2) for the resolver threads of a named namespace, which bind
// /etc/netns/NAME/* over /etc/* in a mount namespace of their own, as `ip netns exec` does.
extern int unshare(int flags);
static inline int CNetlink_unshareMountNamespace(void) { return unshare(0x00020000 /* CLONE_NEWNS */); }

// Link facts that sysfs would give, asked instead with ioctls on a socket made inside the
// namespace (another namespace's devices are not in this process's sysfs). ioctl is variadic.

/// 1 when the kernel's wireless extensions know the interface (SIOCGIWNAME), else 0.
static inline int CNetlink_isWireless(int fd, const char *name) {
    struct ifreq request; /* struct iwreq starts the same way and fits in it */
    memset(&request, 0, sizeof request);
    strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    return ioctl(fd, 0x8B01 /* SIOCGIWNAME */, &request) == 0 ? 1 : 0;
}

/// SIOCETHTOOL with `command` (an ethtool struct whose `cmd` is set) for `name`. Returns ioctl's result.
static inline int CNetlink_ethtool(int fd, const char *name, void *command) {
    struct ifreq request;
    memset(&request, 0, sizeof request);
    strncpy(request.ifr_name, name, IFNAMSIZ - 1);
    request.ifr_data = (char *)command;
    return ioctl(fd, SIOCETHTOOL, &request);
}

/// The driver's name (ETHTOOL_GDRVINFO) into `driver`, NUL-terminated. Returns 0 or -1.
static inline int CNetlink_driverName(int fd, const char *name, char *driver, size_t capacity) {
    struct ethtool_drvinfo info;
    memset(&info, 0, sizeof info);
    info.cmd = ETHTOOL_GDRVINFO;
    if (CNetlink_ethtool(fd, name, &info) != 0 || capacity == 0) return -1;
    strncpy(driver, info.driver, capacity - 1);
    driver[capacity - 1] = 0;
    return 0;
}

/// The negotiated speed in Mb/s and duplex (ETHTOOL_GSET, what `ethtool IF` prints): 0 with
/// `*speed` (0xFFFFFFFF unknown) and `*duplex` (0 half, 1 full, 0xFF unknown), or -1.
static inline int CNetlink_linkSpeed(int fd, const char *name, unsigned int *speed, unsigned char *duplex) {
    struct ethtool_cmd command;
    memset(&command, 0, sizeof command);
    command.cmd = ETHTOOL_GSET;
    if (CNetlink_ethtool(fd, name, &command) != 0) return -1;
    *speed = ethtool_cmd_speed(&command);
    *duplex = command.duplex;
    return 0;
}

/// pidfd_open(2): a descriptor that becomes readable when the process exits (syscall is variadic).
static inline int CNetlink_pidfdOpen(int pid) { return (int)syscall(434 /* SYS_pidfd_open */, pid, 0); }

/// `struct mmsghdr` and `recvmmsg`, which glibc declares only under _GNU_SOURCE: several
/// datagrams of the event socket in one system call (the kernel's layout: a `msghdr`, then the
/// length received).
struct CNetlink_mmsghdr {
    struct msghdr msg_hdr;
    unsigned int msg_len;
};
static inline int CNetlink_recvmmsg(int fd, struct CNetlink_mmsghdr *messages, unsigned int count, int flags) {
    return (int)syscall(SYS_recvmmsg, fd, messages, count, flags, (void *)0);
}

/// Attaches a classic BPF program to `fd` (SO_ATTACH_FILTER), replacing the one before it; the
/// kernel runs it on each datagram before queueing it. Returns 0 or -errno.
static inline int CNetlink_attachFilter(int fd, struct sock_filter *code, unsigned short count) {
    struct sock_fprog program = { .len = count, .filter = code };
    return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &program, sizeof program) == 0 ? 0 : -errno;
}

/// Removes the program `CNetlink_attachFilter` attached (SO_DETACH_FILTER). Returns 0 or -errno.
static inline int CNetlink_detachFilter(int fd) {
    int unused = 0;
    return setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &unused, sizeof unused) == 0 ? 0 : -errno;
}

// Function-like macros that Swift cannot import.
static inline void *CNetlink_RTA_DATA(struct rtattr *rta) { return RTA_DATA(rta); }

#endif
