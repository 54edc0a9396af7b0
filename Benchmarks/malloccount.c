// Counts malloc/calloc/realloc/posix_memalign/aligned_alloc calls; writes the count to the file
// named by MALLOCCOUNT_OUT on SIGUSR2 (async-signal-safe write) and at exit.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
static _Atomic unsigned long count;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *malloc(size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_realloc(p, n); }
int posix_memalign(void **p, size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); *p = __libc_memalign(a, n); return *p ? 0 : 12; }
void *aligned_alloc(size_t a, size_t n) { atomic_fetch_add_explicit(&count, 1, memory_order_relaxed); return __libc_memalign(a, n); }
static void dump(void) {
    const char *path = getenv("MALLOCCOUNT_OUT");
    if (!path) return;
    char buf[32]; int len = 0; unsigned long v = atomic_load(&count); char tmp[32]; int t = 0;
    do { tmp[t++] = '0' + v % 10; v /= 10; } while (v);
    while (t) buf[len++] = tmp[--t];
    buf[len++] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) { (void)!write(fd, buf, len); close(fd); }
}
static void onsig(int s) { (void)s; dump(); }
__attribute__((constructor)) static void init(void) { signal(SIGUSR2, onsig); }
__attribute__((destructor)) static void fini(void) { dump(); }
