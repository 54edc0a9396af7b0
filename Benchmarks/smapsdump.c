// At exit, copies /proc/self/status and /proc/self/smaps to $SMAPSDUMP_OUT.status and .smaps:
// the peak RSS (VmHWM) and the mappings of a command that exits too soon to be read from outside
// (`reachability check`). Build: gcc -O2 -shared -fPIC -o smapsdump.so smapsdump.c
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void copy(const char *from, const char *to) {
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char buffer[65536];
    ssize_t count;
    while (in >= 0 && out >= 0 && (count = read(in, buffer, sizeof buffer)) > 0) (void)!write(out, buffer, count);
    if (in >= 0) close(in);
    if (out >= 0) close(out);
}

__attribute__((destructor)) static void dump(void) {
    const char *prefix = getenv("SMAPSDUMP_OUT");
    if (!prefix) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.status", prefix);
    copy("/proc/self/status", path);
    snprintf(path, sizeof path, "%s.smaps", prefix);
    copy("/proc/self/smaps", path);
}
