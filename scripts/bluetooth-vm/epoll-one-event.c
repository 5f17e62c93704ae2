/*
 * Preloaded into btvirt by the Bluetooth rig (scripts/bluetooth.sh builds it, guest.sh loads it):
 * every epoll_wait returns at most one event.
 *
 * Why: BlueZ's mainloop (src/shared/mainloop.c, 5.66 as Debian 12 ships it, and upstream since)
 * runs the callbacks of one epoll_wait batch in turn, and a callback that removes another
 * descriptor frees that descriptor's data at once. When the removed descriptor is later in the
 * same batch, its freed data is called and btvirt crashes, taking every virtual controller with
 * it. The rig risks this on every `relayctl pair`: discovery stops as soon as the wearable is
 * found, and btvirt's Inquiry Cancel removes the inquiry's 100 ms timer, whose expiry may be in
 * the same batch on a busy guest. One CI run lost all three controllers 60 ms after an Inquiry
 * Cancel (Docs/BLUETOOTH.md); a loop of 300 discoveries stopped early did not reproduce it, so
 * this is the one hazard found in btvirt's code on that path, not a proven cause. With one
 * event a batch, a removed descriptor has left epoll before the next wait, so its data is never
 * called after it is freed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/epoll.h>

typedef int (*epoll_wait_function)(int, struct epoll_event *, int, int);

int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
    static epoll_wait_function real;

    if (!real)
        real = (epoll_wait_function)dlsym(RTLD_NEXT, "epoll_wait");
    return real(epfd, events, maxevents > 1 ? 1 : maxevents, timeout);
}
