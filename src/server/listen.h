/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The addresses a daemon listens on, claimed before gRPC binds them (docs/daemon.md, "Sockets and ports"):
 *   unix sockets  one daemon per path: a lock file beside the socket (PATH.lock, flock) is held for the daemon's
 *                 life; a socket left by a dead daemon is removed, one that a live process answers on is never
 *                 taken over, and at exit the socket is unlinked only when it is still the one this daemon made.
 *   TCP ports     a port another process listens on is refused with a message that says so (gRPC alone says only
 *                 that it could not bind). */
#ifndef CUZK_SERVER_LISTEN_H
#define CUZK_SERVER_LISTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    char *path;      /* the socket */
    char *lock_path; /* path + ".lock" */
    int lock_fd;     /* held with flock(LOCK_EX) while the claim lasts; -1 when none */
    bool bound;      /* dev/ino identify the socket this daemon bound */
    dev_t dev;
    ino_t ino;
} cuzk_unix_claim;

/* Creates the socket's directory when missing, takes the lock (refusing, with the holder's pid, when another daemon
 * has it), then makes room for the socket: nothing there, or a stale socket that nobody answers on (removed). A live
 * socket without a lock holder, or a path that is not a socket, is refused. On failure nothing is held. */
bool cuzk_unix_claim_take(cuzk_unix_claim *c, const char *path, char *err, size_t errlen);
/* After the bind: remembers which file is this daemon's socket. */
void cuzk_unix_claim_bound(cuzk_unix_claim *c);
/* Unlinks the socket if it is still the one recorded by cuzk_unix_claim_bound, then the lock file, and releases the
 * lock. Harmless on a zeroed or released claim. */
void cuzk_unix_claim_release(cuzk_unix_claim *c);

/* For "host:port" (IPv6 hosts in brackets; port 0 and names that do not resolve are left to the caller's bind):
 * false with "host:port is already in use by another process" when a plain bind finds it taken. */
bool cuzk_tcp_port_free(const char *host_port, char *err, size_t errlen);

#endif
