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

// Function-like macros that Swift cannot import.
static inline void *CNetlink_RTA_DATA(struct rtattr *rta) { return RTA_DATA(rta); }

#endif
