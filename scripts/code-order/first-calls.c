// Records which functions an agent runs once it is up, in the order it first runs them.
// Preloaded (LD_PRELOAD) by scripts/code-order.sh into relay-phone and relay-wearable; never
// part of a shipped build.
//
// The agents hand back their start-up code with madvise(MADV_PAGEOUT) right after "ready:"
// (Sources/RelaySystem/StartupPages.swift). This library wraps madvise: at that first call it
// puts a breakpoint (int3) on the first byte of every function listed in
// $RELAY_CODE_ORDER_DIR/<agent>.functions, one link-time address (hex) per line. The first time a
// function runs, the SIGTRAP handler appends its address to $RELAY_CODE_ORDER_DIR/<agent>.<pid>,
// puts the byte back and resumes the function, so each function costs one trap. Recording
// starts during that first madvise call, so the rest of StartupPages.release() is recorded too.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define PAGEOUT 21

struct patch { uintptr_t address; unsigned char original; int done; };

static struct patch *patches;
static size_t patch_count;
static int output = -1;
static uintptr_t bias;
static int armed;  // set once, atomically: the first MADV_PAGEOUT arms

static int compare(const void *a, const void *b) {
    uintptr_t x = ((const struct patch *)a)->address, y = ((const struct patch *)b)->address;
    return x < y ? -1 : x > y;
}

static struct patch *find(uintptr_t address) {
    size_t low = 0, high = patch_count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (patches[middle].address < address) low = middle + 1; else high = middle;
    }
    return low < patch_count && patches[low].address == address ? &patches[low] : NULL;
}

static void put_hex(uintptr_t value) {
    char text[20]; int at = sizeof text; text[--at] = '\n';
    do { text[--at] = "0123456789abcdef"[value & 15]; value >>= 4; } while (value);
    ssize_t ignored = write(output, text + at, sizeof text - at); (void)ignored;
}

static void trapped(int number, siginfo_t *info, void *context) {
    (void)number;
    ucontext_t *state = context;
    uintptr_t address = (uintptr_t)state->uc_mcontext.gregs[REG_RIP] - 1;
    // Ours only if an int3 raised it (not kill) at one of our breakpoints.
    struct patch *patch = info->si_code == SI_KERNEL ? find(address) : NULL;
    if (!patch) { signal(SIGTRAP, SIG_DFL); raise(SIGTRAP); return; }
    // Threads that hit it together: the first restores and records, every one resumes.
    if (!__atomic_exchange_n(&patch->done, 1, __ATOMIC_ACQ_REL)) {
        *(volatile unsigned char *)address = patch->original;
        put_hex(address - bias);
    }
    state->uc_mcontext.gregs[REG_RIP] = (greg_t)address;
}

// The executable's code mapping, found by its path in /proc/self/maps.
static int code_range(const char *exe, uintptr_t *low, uintptr_t *high, uintptr_t *base) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return -1;
    char line[8192]; int found = -1; *base = UINTPTR_MAX;
    while (fgets(line, sizeof line, maps)) {
        unsigned long from, to, offset; char perms[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &from, &to, perms, &offset, path) < 4) continue;
        if (strcmp(path, exe)) continue;
        if (from - offset < *base) *base = from - offset;
        if (perms[2] == 'x') { *low = from; *high = to; found = 0; }
    }
    fclose(maps);
    return found;
}

static void arm(void) {
    char exe[4096];
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *directory = getenv("RELAY_CODE_ORDER_DIR");
    if (length <= 0 || !directory) return;
    exe[length] = 0;
    const char *name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.functions", directory, name);
    FILE *list = fopen(path, "r");
    if (!list) return;
    uintptr_t low, high;
    if (code_range(exe, &low, &high, &bias)) { fclose(list); return; }
    size_t capacity = 1 << 16;
    patches = malloc(capacity * sizeof *patches);
    unsigned long address;
    while (patches && fscanf(list, "%lx", &address) == 1) {
        uintptr_t at = address + bias;
        if (at < low || at >= high) continue;
        if (patch_count == capacity) patches = realloc(patches, (capacity *= 2) * sizeof *patches);
        if (patches) patches[patch_count++] = (struct patch){ at, 0 };
    }
    fclose(list);
    if (!patches) return;
    qsort(patches, patch_count, sizeof *patches, compare);
    snprintf(path, sizeof path, "%s/%s.%d", directory, name, (int)getpid());
    output = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (output < 0) return;
    struct sigaction action = { .sa_sigaction = trapped, .sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER };
    sigemptyset(&action.sa_mask);
    sigaction(SIGTRAP, &action, NULL);
    if (mprotect((void *)low, high - low, PROT_READ | PROT_WRITE | PROT_EXEC)) {
        fprintf(stderr, "first-calls: mprotect: %s\n", strerror(errno));
        return;
    }
    for (size_t i = 0; i < patch_count; i++) {
        patches[i].original = *(unsigned char *)patches[i].address;
        // A breakpoint already there (padding) would be taken back as the original byte.
        if (patches[i].original == 0xCC) { patches[i].done = 1; continue; }
        *(volatile unsigned char *)patches[i].address = 0xCC;
    }
}

int madvise(void *address, size_t length, int advice) {
    static int (*real)(void *, size_t, int);
    if (!real) real = (int (*)(void *, size_t, int))dlsym(RTLD_NEXT, "madvise");
    int result = real(address, length, advice);
    if (advice == PAGEOUT && !__atomic_exchange_n(&armed, 1, __ATOMIC_ACQ_REL)) arm();
    return result;
}
