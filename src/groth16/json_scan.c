/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A verification_key.json's counts before it is parsed: one pass over the text that allocates nothing. A parser
 * builds the whole document in memory first (several times the text's size), so a 200 MB file whose IC array does
 * not match its nPublic would cost seconds and hundreds of MB before the mismatch shows; this scan finds it first.
 * It is not a validator: anything it does not understand is left to the parser, which then says what is wrong. */
#include <string.h>

#include "g16_internal.h"

#define SCAN_BAD ((size_t)-1)

static size_t scan_ws(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

/* s[i] is '"': the index after the closing quote. */
static size_t scan_string(const char *s, size_t i, size_t n)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\') i++;
        else if (s[i] == '"') return i + 1;
    }
    return SCAN_BAD;
}

/* One value at i (after whitespace): the index after it. Nested arrays and objects are skipped by depth. */
static size_t scan_value(const char *s, size_t i, size_t n)
{
    i = scan_ws(s, i, n);
    if (i >= n) return SCAN_BAD;
    if (s[i] == '"') return scan_string(s, i, n);
    if (s[i] == '[' || s[i] == '{') {
        size_t depth = 0;
        for (; i < n; i++) {
            if (s[i] == '"') {
                if ((i = scan_string(s, i, n)) == SCAN_BAD) return SCAN_BAD;
                i--;
            } else if (s[i] == '[' || s[i] == '{') {
                depth++;
            } else if (s[i] == ']' || s[i] == '}') {
                if (--depth == 0) return i + 1;
            }
        }
        return SCAN_BAD;
    }
    size_t j = i;
    while (j < n && s[j] != ',' && s[j] != ']' && s[j] != '}' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' &&
           s[j] != '\r')
        j++;
    return j > i ? j : SCAN_BAD;
}

/* The elements of the array at i (s[i] == '['). */
static bool scan_count(const char *s, size_t i, size_t n, uint64_t *count)
{
    *count = 0;
    i = scan_ws(s, i + 1, n);
    if (i < n && s[i] == ']') return true;
    for (;;) {
        if ((i = scan_value(s, i, n)) == SCAN_BAD) return false;
        ++*count;
        i = scan_ws(s, i, n);
        if (i >= n) return false;
        if (s[i] == ']') return true;
        if (s[i] != ',') return false;
        i++;
    }
}

bool cuzk_g16_vk_json_counts(const char *s, size_t n, uint64_t *npublic, uint64_t *nic)
{
    bool have_np = false, have_ic = false;
    size_t i = scan_ws(s, 0, n);
    if (i >= n || s[i] != '{') return false;
    i = scan_ws(s, i + 1, n);
    while (i < n && s[i] != '}') {
        if (s[i] != '"') return false;
        size_t k = i + 1, end = scan_string(s, i, n);
        if (end == SCAN_BAD) return false;
        size_t klen = end - 1 - k;
        i = scan_ws(s, end, n);
        if (i >= n || s[i] != ':') return false;
        i = scan_ws(s, i + 1, n);
        if (i >= n) return false;
        if (klen == 7 && memcmp(s + k, "nPublic", 7) == 0 && !have_np) {
            uint64_t v = 0;
            size_t d = i;
            while (d < n && s[d] >= '0' && s[d] <= '9' && d - i < 19) v = v * 10 + (uint64_t)(s[d++] - '0');
            if (d == i) return false;
            *npublic = v;
            have_np = true;
        } else if (klen == 2 && memcmp(s + k, "IC", 2) == 0 && !have_ic && s[i] == '[') {
            if (!scan_count(s, i, n, nic)) return false;
            have_ic = true;
        }
        if ((i = scan_value(s, i, n)) == SCAN_BAD) return false;
        i = scan_ws(s, i, n);
        if (i < n && s[i] == ',') i = scan_ws(s, i + 1, n);
        else if (i >= n || s[i] != '}') return false;
        if (have_np && have_ic) return true;
    }
    return false;
}
