/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Filecoin format tests: registered proofs, the parameter manifest and its check, PoSt and SnapDeals vanilla
 * proofs, Merkle paths hashed, the PoRep C1 readers and writers. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fil_tests.h"

uint8_t *fil_test_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

void fil_test_tmpdir(char *out, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(out, cap, "%s/cuzk-fil-XXXXXX", t != NULL && t[0] != '\0' ? t : "/tmp");
    assert_non_null(mkdtemp(out));
}

void fil_test_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) fil_test_rmtree(p);
        else unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

size_t fil_test_find(const char *s, const char *pat, size_t start, int n)
{
    const char *p = s + start;
    for (;;) {
        p = strstr(p, pat);
        if (p == NULL) fail_msg("'%s' occurs fewer than %d times", pat, n + 1);
        if (n-- == 0) return (size_t)(p - s);
        p++;
    }
}

char *fil_test_replace(const char *s, const char *from, const char *to, int n)
{
    size_t at = fil_test_find(s, from, 0, n), lf = strlen(from), lt = strlen(to), ls = strlen(s);
    char *r = malloc(ls - lf + lt + 1);
    assert_non_null(r);
    memcpy(r, s, at);
    memcpy(r + at, to, lt);
    memcpy(r + at + lt, s + at + lf, ls - at - lf + 1);
    return r;
}

bool fil_test_has(const char *haystack, const char *needle)
{
    if (strstr(haystack, needle) != NULL) return true;
    fprintf(stderr, "expected \"%s\" in \"%s\"\n", needle, haystack);
    return false;
}

int main(void)
{
    test_seed_init();
    int fails = 0;
    fails += _cmocka_run_group_tests("filecoin_registry", fil_registry_tests, fil_registry_count, NULL, NULL);
    fails += _cmocka_run_group_tests("filecoin_params", fil_params_tests, fil_params_count, NULL, NULL);
    fails += _cmocka_run_group_tests("filecoin_post", fil_post_tests, fil_post_count, NULL, NULL);
    fails += _cmocka_run_group_tests("filecoin_snap", fil_snap_tests, fil_snap_count, NULL, NULL);
    fails += _cmocka_run_group_tests("filecoin_merkle", fil_merkle_tests, fil_merkle_count, NULL, NULL);
    fails += _cmocka_run_group_tests("filecoin_c1", fil_c1_tests, fil_c1_count, NULL, NULL);
    return fails;
}
