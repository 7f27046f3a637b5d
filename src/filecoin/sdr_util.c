/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Small helpers of the SDR code: running a function on several threads, and Fr addition on 32-byte LE reprs (the
 * encoding of the last layer's labels onto the data). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "cuzk/ff.h"
#include "sdr_int.h"

unsigned cuzk_fil_sdr_threads(unsigned threads)
{
    if (threads) return threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

typedef struct {
    void (*fn)(void *arg, unsigned t);
    void *arg;
    unsigned t;
} par_job;

static void *par_main(void *p)
{
    par_job *j = p;
    j->fn(j->arg, j->t);
    return NULL;
}

void cuzk_fil_sdr_parallel(unsigned threads, void (*fn)(void *arg, unsigned t), void *arg)
{
    if (threads <= 1) {
        fn(arg, 0);
        return;
    }
    pthread_t *tid = malloc((threads - 1) * sizeof *tid);
    par_job *jobs = malloc((threads - 1) * sizeof *jobs);
    unsigned started = 0;
    if (tid != NULL && jobs != NULL) {
        for (unsigned t = 1; t < threads; t++) {
            jobs[started] = (par_job){fn, arg, t};
            if (pthread_create(&tid[started], NULL, par_main, &jobs[started]) != 0) break;
            started++;
        }
    }
    /* whatever could not be started runs here, after the caller's own share */
    fn(arg, 0);
    for (unsigned t = started + 1; t < threads; t++) fn(arg, t);
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    free(tid);
    free(jobs);
}

static void load_limbs(const uint8_t a[32], uint64_t l[4])
{
    for (int k = 0; k < 4; k++) {
        l[k] = 0;
        for (int i = 7; i >= 0; i--) l[k] = l[k] << 8 | a[8 * k + i];
    }
}

static bool limbs_lt_r(const uint64_t l[4])
{
    for (int k = 3; k >= 0; k--) {
        if (l[k] != CUZK_FR_MODULUS[k]) return l[k] < CUZK_FR_MODULUS[k];
    }
    return false;
}

bool cuzk_fil_fr_is_canonical_le(const uint8_t a[32])
{
    uint64_t l[4];
    load_limbs(a, l);
    return limbs_lt_r(l);
}

bool cuzk_fil_fr_add_le(uint8_t out[32], const uint8_t a[32], const uint8_t b[32])
{
    uint64_t x[4], y[4], s[4], d[4];
    load_limbs(a, x);
    load_limbs(b, y);
    if (!limbs_lt_r(x) || !limbs_lt_r(y)) return false;
    unsigned carry = 0;
    for (int k = 0; k < 4; k++) {
        unsigned __int128 t = (unsigned __int128)x[k] + y[k] + carry;
        s[k] = (uint64_t)t;
        carry = (unsigned)(t >> 64);
    }
    /* both < r < 2^255, so the sum fits 256 bits (carry is 0); subtract r once when s ≥ r */
    unsigned borrow = 0;
    for (int k = 0; k < 4; k++) {
        unsigned __int128 t = (unsigned __int128)s[k] - CUZK_FR_MODULUS[k] - borrow;
        d[k] = (uint64_t)t;
        borrow = (unsigned)(t >> 64) & 1;
    }
    const uint64_t *res = borrow ? s : d;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 8; i++) out[8 * k + i] = (uint8_t)(res[k] >> (8 * i));
    return true;
}
