/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Whole files: read-only mappings and replacing writes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/base.h"

cuzk_status cuzk_map_file(const char *path, const uint8_t **data, size_t *len, cuzk_errmsg *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cuzk_fail(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_fail(err, CUZK_ERR_IO, "%s is not a readable regular file", path);
    }
    *len = (size_t)st.st_size;
    *data = NULL;
    if (*len > 0) {
        void *p = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            return cuzk_fail(err, CUZK_ERR_IO, "cannot map %s: %s", path, strerror(errno));
        }
        *data = p;
    }
    close(fd);
    return CUZK_OK;
}

void cuzk_unmap_file(const uint8_t *data, size_t len)
{
    if (data != NULL) munmap((void *)data, len);
}

/* Straight into a path that exists and is not a regular file (a device, a pipe): renaming over it would replace it. */
static cuzk_status write_direct(const char *path, const uint8_t *data, size_t len, cuzk_errmsg *err)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) return cuzk_fail(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    size_t put = len ? fwrite(data, 1, len, f) : 0;
    if (fclose(f) != 0 || put != len) return cuzk_fail(err, CUZK_ERR_IO, "cannot write %s", path);
    return CUZK_OK;
}

cuzk_status cuzk_write_file(const char *path, const uint8_t *data, size_t len, cuzk_errmsg *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return write_direct(path, data, len, err);
    size_t n = strlen(path);
    char *tmp = malloc(n + 32);
    if (tmp == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "cannot write %s: out of memory", path);
    snprintf(tmp, n + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        cuzk_status s = cuzk_fail(err, CUZK_ERR_IO, "cannot create %s: %s", tmp, strerror(errno));
        free(tmp);
        return s;
    }
    size_t put = len ? fwrite(data, 1, len, f) : 0;
    bool ok = put == len && fflush(f) == 0;
    if (fclose(f) != 0) ok = false;
    if (!ok || rename(tmp, path) != 0) {
        cuzk_status s = cuzk_fail(err, CUZK_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return s;
    }
    free(tmp);
    return CUZK_OK;
}
