/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Claims on listening addresses (see listen.h). */
#include "listen.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"

/* The pid written in a lock file, or 0. */
static long listen_lock_pid(int fd)
{
    char buf[32];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return strtol(buf, NULL, 10);
}

/* Opens and locks path + ".lock". The file may be unlinked by its previous holder between our open and our flock:
 * the lock then sits on a file nobody else will open, so the path must still name the locked file. */
static int listen_lock(const char *lock_path, char *err, size_t errlen)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EACCES) fd = open(lock_path, O_RDONLY | O_CLOEXEC); /* flock needs no write access */
        if (fd < 0) {
            snprintf(err, errlen, "cannot open the lock file %s: %s", lock_path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            long pid = listen_lock_pid(fd);
            close(fd);
            if (e == EWOULDBLOCK) {
                char who[48] = "another cuzk-daemon";
                if (pid > 0) snprintf(who, sizeof who, "another cuzk-daemon (pid %ld)", pid);
                snprintf(err, errlen, "%s serves this socket: its lock %s is held", who, lock_path);
            } else {
                snprintf(err, errlen, "cannot lock %s: %s", lock_path, strerror(e));
            }
            return -1;
        }
        struct stat held, named;
        if (fstat(fd, &held) == 0 && stat(lock_path, &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino)
            return fd;
        close(fd); /* unlinked under us: lock the file that is there now */
    }
    snprintf(err, errlen, "cannot lock %s: it keeps being replaced", lock_path);
    return -1;
}

/* 1 when a process accepts connections on the socket at path, 0 when nobody does (a stale socket), -1 on any other
 * error (errno set). */
static int listen_unix_live(const char *path)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(a.sun_path, path, strlen(path));
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) return -1;
    int rc = connect(s, (struct sockaddr *)&a, sizeof a);
    int e = errno;
    close(s);
    if (rc == 0) return 1;
    if (e == ECONNREFUSED || e == ENOENT) return 0;
    errno = e;
    return -1;
}

bool cuzk_unix_claim_take(cuzk_unix_claim *c, const char *path, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->lock_fd = -1;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
            return false;
        }
    }
    size_t n = strlen(path);
    c->path = strdup(path);
    c->lock_path = malloc(n + 6);
    if (c->path == NULL || c->lock_path == NULL) {
        snprintf(err, errlen, "out of memory");
        cuzk_unix_claim_release(c);
        return false;
    }
    snprintf(c->lock_path, n + 6, "%s.lock", path);
    char why[512];
    if ((c->lock_fd = listen_lock(c->lock_path, why, sizeof why)) < 0) {
        snprintf(err, errlen, "unix://%s: %s", path, why);
        free(c->lock_path); /* another daemon's lock file: not ours to remove */
        c->lock_path = NULL;
        cuzk_unix_claim_release(c);
        return false;
    }
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            snprintf(err, errlen, "unix://%s: the path exists and is not a socket", path);
            cuzk_unix_claim_release(c);
            return false;
        }
        int live = listen_unix_live(path);
        if (live != 0) {
            if (live > 0)
                snprintf(err, errlen,
                         "unix://%s: a live process answers on this socket without holding its lock "
                         "%s (another daemon of an older version?); not taking it over",
                         path, c->lock_path);
            else
                snprintf(err, errlen, "unix://%s: cannot tell whether the socket is in use: %s", path, strerror(errno));
            cuzk_unix_claim_release(c);
            return false;
        }
        if (unlink(path) != 0 && errno != ENOENT) {
            snprintf(err, errlen, "unix://%s: cannot remove the stale socket: %s", path, strerror(errno));
            cuzk_unix_claim_release(c);
            return false;
        }
        cuzk_log_msg(CUZK_LOG_INFO, "unix://%s: removed the stale socket of a daemon that is gone", path);
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(c->lock_fd, 0) != 0 || pwrite(c->lock_fd, pid, (size_t)len, 0) != len)
        cuzk_log_msg(CUZK_LOG_DEBUG, "%s: the pid could not be written (%s)", c->lock_path, strerror(errno));
    return true;
}

void cuzk_unix_claim_bound(cuzk_unix_claim *c)
{
    struct stat st;
    if (c->path != NULL && lstat(c->path, &st) == 0 && S_ISSOCK(st.st_mode)) {
        c->bound = true;
        c->dev = st.st_dev;
        c->ino = st.st_ino;
    }
}

void cuzk_unix_claim_release(cuzk_unix_claim *c)
{
    struct stat st;
    if (c->bound && lstat(c->path, &st) == 0 && st.st_dev == c->dev && st.st_ino == c->ino) unlink(c->path);
    /* unlinked while still locked: a daemon that opened it meanwhile finds the path no longer names its file */
    if (c->lock_fd >= 0) {
        unlink(c->lock_path);
        close(c->lock_fd);
    }
    free(c->path);
    free(c->lock_path);
    memset(c, 0, sizeof *c);
    c->lock_fd = -1;
}

bool cuzk_tcp_port_free(const char *host_port, char *err, size_t errlen)
{
    const char *colon = strrchr(host_port, ':');
    if (colon == NULL || strcmp(colon + 1, "0") == 0) return true;
    char host[256];
    size_t hl = (size_t)(colon - host_port);
    if (hl >= sizeof host) return true;
    memcpy(host, host_port, hl);
    host[hl] = '\0';
    if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(host[0] != '\0' ? host : NULL, colon + 1, &hints, &ai) != 0) return true;
    bool free_port = true;
    for (struct addrinfo *p = ai; p != NULL && free_port; p = p->ai_next) {
        int s = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
        if (s < 0) continue;
        int one = 1;
        /* as gRPC binds: a port in TIME_WAIT is free, one with a listener is not */
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s, p->ai_addr, p->ai_addrlen) != 0 && errno == EADDRINUSE) {
            snprintf(err, errlen, "%s is already in use by another process (another cuzk-daemon?)", host_port);
            free_port = false;
        }
        close(s);
    }
    freeaddrinfo(ai);
    return free_port;
}
