#ifndef CBENCHNETLINK_H
#define CBENCHNETLINK_H

#include <stdint.h>

/// Opens a NETLINK_ROUTE socket inside the network namespace named by the nsfs file `path`
/// (the calling thread enters it only for the socket(2) call and returns to its own).
/// Returns the descriptor, or -errno.
int nrxb_rtnl_open_in(const char *path);

/// Adds (add != 0) or deletes an IPv4 route `dst/plen` in the main table and waits for the
/// kernel's ACK. `gateway` is an IPv4 address in network order (0: none); `blackhole` makes
/// the route `type blackhole`. Returns 0 or -errno.
int nrxb_route4(int fd, int add, uint32_t dst, int plen, uint32_t gateway, int blackhole);

/// The same, without waiting for the ACK: call nrxb_drain_acks later. Returns 0 or -errno.
int nrxb_route4_nowait(int fd, int add, uint32_t dst, int plen, uint32_t gateway, int blackhole);

/// Reads `count` ACKs (NLMSG_ERROR messages). Returns the first nonzero error, or 0.
int nrxb_drain_acks(int fd, int count);

/// The index of link `name` inside the namespace of nsfs file `path`, or -errno.
int nrxb_ifindex_in(const char *path, const char *name);

/// Sets link `ifindex` up or down (RTM_NEWLINK, IFF_UP) and waits for the ACK. Returns 0 or -errno.
int nrxb_link_set_up(int fd, int ifindex, int up);

/// Adds or deletes the IPv4 address `address/plen` (network order) on `ifindex`; waits for the ACK.
int nrxb_addr4(int fd, int add, int ifindex, uint32_t address, int plen);

/// One RTM_GETROUTE round trip for an IPv4 destination (network order), what `ip route get`
/// asks: the kernel's floor under a library lookup. Returns 0 (a route), -errno the kernel refused with.
int nrxb_route_get4(int fd, uint32_t destination);

/// Sleeps until CLOCK_MONOTONIC reaches `ns` (absolute), restarting after signals.
void nrxb_sleep_until_ns(int64_t ns);

/// CLOCK_REALTIME in microseconds.
int64_t nrxb_realtime_us(void);
/// CLOCK_MONOTONIC in nanoseconds.
int64_t nrxb_monotonic_ns(void);
/// CPU time of the whole process (all threads), nanoseconds, from CLOCK_PROCESS_CPUTIME_ID.
int64_t nrxb_process_cpu_ns(void);
/// Heap bytes in use according to glibc's mallinfo2 (uordblks + hblkhd).
int64_t nrxb_heap_in_use(void);
/// Gives free heap pages back to the kernel (malloc_trim(0)).
void nrxb_malloc_trim(void);

/// Namespaces this process made: deleted (umount2 + unlink, what `ip netns del` does, both
/// async-signal-safe) by nrxb_delete_registered_netns, at exit, and on a fatal signal.
int nrxb_register_netns(const char *name);
void nrxb_unregister_netns(const char *name);
/// Deletes every registered namespace that still exists. Returns how many it deleted.
int nrxb_delete_registered_netns(void);
/// Installs an atexit hook and handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGSEGV,
/// SIGBUS that delete the registered namespaces, then let the signal take its normal course.
void nrxb_install_cleanup_handlers(void);
/// Deletes one namespace by name (umount2 + unlink). Returns 0 or -errno.
int nrxb_netns_delete(const char *name);

#endif
