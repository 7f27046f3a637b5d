/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Group-independent parts of the MSM: window plan, scalar range check, worker pool. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "msm_internal.h"

/* Estimated time of a plan, in units of one batch-affine bucket addition: every part of every window adds its
 * points into buckets and then reduces all 2^(c−1) buckets; tasks are spread evenly over the workers, so time is
 * set by the busiest worker. */
static double msm_plan_cost(size_t n, unsigned threads, double bucket_cost, unsigned bits, unsigned c, unsigned parts)
{
    unsigned nw = (bits + c - 1) / c;
    unsigned tasks = nw * parts;
    unsigned rounds = (tasks + threads - 1) / threads;
    double per_task = (double)n / parts + bucket_cost * (double)((size_t)1 << (c - 1));
    return rounds * per_task;
}

void cuzk_msm_plan_choose(msm_plan *p, size_t n, unsigned threads, double bucket_cost, unsigned bits)
{
    if (threads == 0) threads = 1;
    p->c = 2;
    p->parts = 1;
    double best = -1;
    for (unsigned c = 2; c <= MSM_MAX_WINDOW; c++) {
        /* splitting windows only pays when windows alone cannot keep the workers busy */
        for (unsigned parts = 1; parts <= threads; parts++) {
            if (parts > 1 && (size_t)parts * 64 > n) break;
            double t = msm_plan_cost(n, threads, bucket_cost, bits, c, parts);
            if (best < 0 || t < best) {
                best = t;
                p->c = c;
                p->parts = parts;
            }
        }
    }
    p->nw = (bits + p->c - 1) / p->c;
}

int cuzk_msm_scalar_in_range(const uint64_t k[4])
{
    for (size_t i = CUZK_FR_LIMBS; i-- > 0;) {
        if (k[i] != CUZK_FR_MODULUS[i]) return k[i] < CUZK_FR_MODULUS[i];
    }
    return 0;
}

/* Barrett division by m = z² = 0xac45a4010001a402_0000000100000000: with mu = floor(2^256 / m) (129 bits), the
 * estimate q' = floor(k·mu / 2^256) satisfies q − 1 <= q' <= q (k < 2^256), so one correction step gives q. Then both
 * halves are balanced into (−m/2, m/2]: a remainder above m/2 becomes rem − m with q + 1, and a quotient above m/2
 * becomes q − m + 1 with the remainder lowered by 1, since q·m = (q − m + 1)·m + m² − m and m² − m = z⁴ − z² ≡ −1
 * (mod r). Magnitudes stay below m/2 + 1 < 2^127, so bit 127 of each half is free for its sign. */
void cuzk_msm_glv_split(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4])
{
    typedef unsigned __int128 u128;
    static const u128 M = ((u128)0xac45a4010001a402ULL << 64) | 0x0000000100000000ULL;
    static const uint64_t MU[3] = {0x63f6e522f6cfee2eULL, 0x7c6becf1e01faaddULL, 0x1ULL};
    /* t = k·mu, 7 limbs; only limbs 4 and 5 (the quotient, < 2^128) are kept, but all carries are needed */
    uint64_t t[7] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 3; j++) {
            u128 s = (u128)k[i] * MU[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        t[i + 3] = carry;
    }
    u128 q = ((u128)t[5] << 64) | t[4];
    /* rem = k − q·m < 2m < 2^129, computed mod 2^192 */
    uint64_t q0 = (uint64_t)q, q1 = (uint64_t)(q >> 64), m0 = (uint64_t)M, m1 = (uint64_t)(M >> 64);
    u128 p00 = (u128)q0 * m0, p01 = (u128)q0 * m1, p10 = (u128)q1 * m0, p11 = (u128)q1 * m1;
    uint64_t qm[3];
    qm[0] = (uint64_t)p00;
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    qm[1] = (uint64_t)mid;
    qm[2] = (uint64_t)(mid >> 64) + (uint64_t)(p01 >> 64) + (uint64_t)(p10 >> 64) + (uint64_t)p11;
    uint64_t r[3];
    u128 d = (u128)k[0] - qm[0];
    r[0] = (uint64_t)d;
    d = (u128)k[1] - qm[1] - (uint64_t)(d >> 64 != 0);
    r[1] = (uint64_t)d;
    r[2] = k[2] - qm[2] - (uint64_t)(d >> 64 != 0);
    u128 rem = ((u128)r[1] << 64) | r[0];
    if (r[2] != 0 || rem >= M) {
        rem -= M; /* mod 2^128: the true remainder, < m */
        q++;
    }
    /* balance: now 0 <= rem < m, 0 <= q <= m (q < m unless k is near r) */
    bool neg1 = false, neg2 = false;
    u128 a1 = rem, a2 = q;
    if (rem > M / 2) {
        a1 = M - rem; /* k1 = −a1 */
        neg1 = true;
        a2 = ++q;
    }
    if (q > M / 2) {
        a2 = M - 1 - q; /* k2 = −a2 */
        neg2 = true;
        /* k1 − 1 */
        if (neg1) {
            a1++;
        } else if (a1 == 0) {
            a1 = 1;
            neg1 = true;
        } else {
            a1--;
        }
    }
    if (a2 == 0) neg2 = false;
    k1[0] = (uint64_t)a1;
    k1[1] = (uint64_t)(a1 >> 64) | (neg1 ? CUZK_MSM_GLV_NEG : 0);
    k2[0] = (uint64_t)a2;
    k2[1] = (uint64_t)(a2 >> 64) | (neg2 ? CUZK_MSM_GLV_NEG : 0);
}
