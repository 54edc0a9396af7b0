// Counts malloc/calloc/realloc/posix_memalign/aligned_alloc calls, in all and by the object that
// called the allocator (libnl's libraries; the Swift runtime or the executable; anything else),
// and writes "total libnl swift" as one line to the file named by MALLOCCOUNT_OUT on SIGUSR2
// (async-signal-safe write) and at exit. The caller is the allocator's return address, matched
// against the objects' text ranges found once at load (every NEEDED library is mapped by then).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdio.h>
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
static _Atomic unsigned long count, libnl_count, swift_count;
struct range { uintptr_t start, end; };
static struct range libnl_ranges[8], swift_ranges[8];
static int libnl_n, swift_n;
static int in_ranges(const struct range *r, int n, uintptr_t a) {
    for (int i = 0; i < n; i++) if (a >= r[i].start && a < r[i].end) return 1;
    return 0;
}
static void note(void *caller) {
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    uintptr_t a = (uintptr_t)caller;
    if (in_ranges(libnl_ranges, libnl_n, a)) atomic_fetch_add_explicit(&libnl_count, 1, memory_order_relaxed);
    else if (in_ranges(swift_ranges, swift_n, a)) atomic_fetch_add_explicit(&swift_count, 1, memory_order_relaxed);
}
static int collect(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    const char *name = info->dlpi_name;
    int is_libnl = name && strstr(name, "libnl-");
    // The executable has an empty name; the Swift runtime's libraries are libswift*.
    int is_swift = name && (name[0] == 0 || strstr(name, "libswift"));
    if (!is_libnl && !is_swift) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        struct range r = { info->dlpi_addr + ph->p_vaddr, info->dlpi_addr + ph->p_vaddr + ph->p_memsz };
        if (is_libnl && libnl_n < 8) libnl_ranges[libnl_n++] = r;
        else if (is_swift && swift_n < 8) swift_ranges[swift_n++] = r;
    }
    return 0;
}
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *malloc(size_t n) { note(__builtin_return_address(0)); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { note(__builtin_return_address(0)); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { note(__builtin_return_address(0)); return __libc_realloc(p, n); }
int posix_memalign(void **p, size_t a, size_t n) { note(__builtin_return_address(0)); *p = __libc_memalign(a, n); return *p ? 0 : 12; }
void *aligned_alloc(size_t a, size_t n) { note(__builtin_return_address(0)); return __libc_memalign(a, n); }
static void dump(void) {
    const char *path = getenv("MALLOCCOUNT_OUT");
    if (!path) return;
    char buf[96]; int len = 0;
    unsigned long values[3] = { atomic_load(&count), atomic_load(&libnl_count), atomic_load(&swift_count) };
    for (int k = 0; k < 3; k++) {
        unsigned long v = values[k]; char tmp[32]; int t = 0;
        do { tmp[t++] = '0' + v % 10; v /= 10; } while (v);
        while (t) buf[len++] = tmp[--t];
        buf[len++] = k < 2 ? ' ' : '\n';
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) { (void)!write(fd, buf, len); close(fd); }
}
static void onsig(int s) { (void)s; dump(); }
__attribute__((constructor)) static void init(void) { dl_iterate_phdr(collect, NULL); signal(SIGUSR2, onsig); }
__attribute__((destructor)) static void fini(void) { dump(); }
