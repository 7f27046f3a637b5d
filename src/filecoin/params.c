/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The parameter manifest and its check: a file is OK when its BLAKE2b-512 digest starts with the manifest's 128
 * bits (what filecoin-proofs' paramfetch and parameter_cache verify). Files are mapped and hashed in large steps,
 * dropping the pages behind the hash, so checking a 57 GiB file keeps little resident. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <openssl/evp.h>

#include "fil_internal.h"

size_t cuzk_fil_params_count(void) { return cuzk_fil_manifest_count; }

const cuzk_fil_param *cuzk_fil_params_at(size_t i)
{
    return i < cuzk_fil_manifest_count ? &cuzk_fil_manifest[i] : NULL;
}

const cuzk_fil_param *cuzk_fil_params_find(const char *name)
{
    for (size_t i = 0; name != NULL && i < cuzk_fil_manifest_count; i++)
        if (strcmp(cuzk_fil_manifest[i].name, name) == 0) return &cuzk_fil_manifest[i];
    return NULL;
}

const char *cuzk_fil_params_default_dir(void)
{
    const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
    return env != NULL && env[0] != '\0' ? env : "/var/tmp/filecoin-proof-parameters";
}

/* hash step: large enough that the per-call overhead vanishes, small enough to drop pages behind */
#define DIGEST_STEP (16u << 20)

cuzk_status cuzk_fil_file_digest(const char *path, char hex[33], uint64_t *bytes, cuzk_errmsg *err)
{
    const uint8_t *map = NULL;
    size_t size = 0;
    cuzk_status s = cuzk_map_file(path, &map, &size, err);
    if (s != CUZK_OK) return s;
    if (map != NULL) madvise((void *)map, size, MADV_SEQUENTIAL);
    uint8_t md[64];
    unsigned mdlen = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL || !EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL)) {
        s = cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "BLAKE2b-512 is not available from OpenSSL");
    } else {
        for (size_t off = 0; off < size && s == CUZK_OK; off += DIGEST_STEP) {
            size_t n = size - off < DIGEST_STEP ? size - off : DIGEST_STEP;
            if (!EVP_DigestUpdate(ctx, map + off, n)) s = cuzk_fail(err, CUZK_ERR_IO, "%s: digest failed", path);
            madvise((void *)(map + off), n, MADV_DONTNEED); /* the pages stay in the page cache, not in this process */
        }
        if (s == CUZK_OK && (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen != 64))
            s = cuzk_fail(err, CUZK_ERR_IO, "%s: digest failed", path);
    }
    EVP_MD_CTX_free(ctx);
    cuzk_unmap_file(map, size);
    if (s != CUZK_OK) return s;
    for (int i = 0; i < 16; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    if (bytes != NULL) *bytes = size;
    return CUZK_OK;
}

static void check_one(const char *dir, const cuzk_fil_param *p, cuzk_fil_param_result *r)
{
    memset(r, 0, sizeof *r);
    r->param = p;
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, p->name);
    if (n < 0 || (size_t)n >= sizeof path) {
        r->state = CUZK_FIL_PARAM_ERROR;
        snprintf(r->detail, sizeof r->detail, "path too long");
        return;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        r->state = errno == ENOENT ? CUZK_FIL_PARAM_MISSING : CUZK_FIL_PARAM_ERROR;
        if (r->state == CUZK_FIL_PARAM_ERROR) snprintf(r->detail, sizeof r->detail, "%s", strerror(errno));
        return;
    }
    cuzk_errmsg e = {{0}};
    if (cuzk_fil_file_digest(path, r->digest, &r->bytes, &e) != CUZK_OK) {
        r->state = CUZK_FIL_PARAM_ERROR;
        snprintf(r->detail, sizeof r->detail, "%s", e.msg);
        return;
    }
    r->state = strcmp(r->digest, p->digest) == 0 ? CUZK_FIL_PARAM_OK : CUZK_FIL_PARAM_WRONG;
}

typedef struct {
    const char *dir;
    const cuzk_fil_param *const *list;
    cuzk_fil_param_result *out;
    size_t n;
    atomic_size_t next; /* files go to whichever worker is free: their sizes differ by 10^7 */
} check_job;

static void check_worker(void *arg, unsigned id)
{
    (void)id;
    check_job *j = arg;
    for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n;) check_one(j->dir, j->list[i], &j->out[i]);
}

/* Checks list[0..n) into out[0..n) with up to `threads` files at once. */
static cuzk_status check_files(const char *dir, const cuzk_fil_param *const *list, size_t n, unsigned threads,
                               cuzk_fil_param_result *out, cuzk_errmsg *err)
{
    if (dir == NULL || (n > 0 && (list == NULL || out == NULL)))
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no directory or result array");
    check_job j = {dir, list, out, n, 0};
    if (threads > n) threads = (unsigned)n;
    cuzk_par_run(threads, check_worker, &j);
    return CUZK_OK;
}

static bool selected(const cuzk_fil_param *p, const cuzk_fil_params_check_opts *o)
{
    if (o == NULL) return true;
    if (o->vk_only && !p->vk) return false;
    if (o->kinds != 0 && !(o->kinds & (1u << p->kind))) return false;
    if (o->nsizes == 0) return true;
    for (size_t i = 0; i < o->nsizes; i++)
        if (o->sizes[i] == p->sector_size) return true;
    return false;
}

cuzk_status cuzk_fil_params_check_list(const char *dir, const cuzk_fil_param *list, size_t count,
                                       const cuzk_fil_params_check_opts *o, cuzk_fil_param_result *out,
                                       cuzk_errmsg *err)
{
    const cuzk_fil_param **ptrs = malloc((count > 0 ? count : 1) * sizeof *ptrs);
    if (ptrs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu entries", count);
    for (size_t i = 0; i < count; i++) ptrs[i] = &list[i];
    cuzk_status s = check_files(dir, ptrs, count, o != NULL ? o->threads : 1, out, err);
    free(ptrs);
    return s;
}

cuzk_status cuzk_fil_params_check(const char *dir, const cuzk_fil_params_check_opts *o, cuzk_fil_param_result *out,
                                  size_t *n, cuzk_errmsg *err)
{
    const cuzk_fil_param *list[64];
    size_t k = 0;
    for (size_t i = 0; i < cuzk_fil_manifest_count && k < 64; i++)
        if (selected(&cuzk_fil_manifest[i], o)) list[k++] = &cuzk_fil_manifest[i];
    *n = k;
    return check_files(dir, list, k, o != NULL ? o->threads : 1, out, err);
}
