/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* MSM and batch-addition tests, written once for G1 and G2. The including file defines G(name) (group prefix),
 * AFF and JAC (point types), T(name) (test name prefix), GEN_CHUNK (the group's MSM_CHUNK, so that one bucket can
 * be made to overflow a chunk), and BIG_N (a size of a few thousand). */

/* n distinct random points: an arithmetic progression a·G, (a + b)·G, ... built with additions and normalized
 * together, so thousands of points cost thousands of additions rather than scalar multiplications. */
static void T(rand_points)(AFF *out, size_t n)
{
    if (n == 0) return;
    AFF g;
    JAC p, step;
    uint64_t a[4], b[4];
    for (int i = 0; i < 4; i++) {
        a[i] = test_rand_u64();
        b[i] = test_rand_u64();
    }
    G(generator)(&g);
    G(jac_from_affine)(&p, &g);
    G(jac_mul)(&step, &p, b, 4);
    G(jac_mul)(&p, &p, a, 4);
    JAC *tmp = malloc(n * sizeof *tmp);
    assert_non_null(tmp);
    for (size_t i = 0; i < n; i++) {
        tmp[i] = p;
        G(jac_add)(&p, &p, &step);
    }
    G(jac_batch_to_affine)(out, tmp, n);
    free(tmp);
}

/* Σ [k_i] P_i one scalar multiplication at a time: the reference. */
static void T(naive_msm)(JAC *r, const AFF *bases, const uint64_t (*k)[4], size_t n)
{
    JAC acc, t;
    G(jac_set_infinity)(&acc);
    for (size_t i = 0; i < n; i++) {
        G(jac_from_affine)(&t, &bases[i]);
        G(jac_mul)(&t, &t, k[i], 4);
        G(jac_add)(&acc, &acc, &t);
    }
    *r = acc;
}

/* Runs both entries (Montgomery and raw) at threads 1, 2, 3 and compares each with the reference. */
static void T(check_msm)(const AFF *bases, const uint64_t (*k)[4], size_t n)
{
    JAC want, got;
    T(naive_msm)(&want, bases, k, n);
    cuzk_fr_t *kf = malloc((n + 1) * sizeof *kf);
    assert_non_null(kf);
    for (size_t i = 0; i < n; i++) assert_int_equal(cuzk_fr_from_limbs(&kf[i], k[i]), CUZK_OK);
    for (unsigned threads = 1; threads <= 3; threads++) {
        assert_int_equal(G(msm_raw)(&got, bases, k, n, threads), CUZK_OK);
        if (!G(jac_eq)(&got, &want)) fail_msg("raw msm differs: n = %zu, threads = %u", n, threads);
        assert_int_equal(G(msm)(&got, bases, kf, n, threads), CUZK_OK);
        if (!G(jac_eq)(&got, &want)) fail_msg("msm differs: n = %zu, threads = %u", n, threads);
    }
    /* more workers than tasks or points; 0 means 1 */
    assert_int_equal(G(msm)(&got, bases, kf, n, 40), CUZK_OK);
    if (!G(jac_eq)(&got, &want)) fail_msg("msm differs: n = %zu, threads = 40", n);
    assert_int_equal(G(msm_raw)(&got, bases, k, n, 0), CUZK_OK);
    if (!G(jac_eq)(&got, &want)) fail_msg("raw msm differs: n = %zu, threads = 0", n);
    free(kf);
}

static void T(rand_scalars)(uint64_t (*k)[4], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cuzk_fr_t f;
        test_rand_fr(&f);
        cuzk_fr_to_limbs(k[i], &f);
    }
}

static void T(msm_random)(void **state)
{
    (void)state;
    size_t sizes[12] = {0, 1, 2, 3, 5, 17, 64};
    for (int i = 7; i < 12; i++) sizes[i] = 1 + test_rand_u64() % 300;
    for (int i = 0; i < 12; i++) {
        size_t n = sizes[i];
        AFF *bases = malloc((n + 1) * sizeof *bases);
        uint64_t(*k)[4] = malloc((n + 1) * sizeof *k);
        assert_true(bases && k);
        T(rand_points)(bases, n);
        T(rand_scalars)(k, n);
        T(check_msm)(bases, (const uint64_t(*)[4])k, n);
        free(bases);
        free(k);
    }
}

static void T(msm_big)(void **state)
{
    (void)state;
    size_t n = BIG_N + test_rand_u64() % 64;
    AFF *bases = malloc(n * sizeof *bases);
    uint64_t(*k)[4] = malloc(n * sizeof *k);
    assert_true(bases && k);
    T(rand_points)(bases, n);
    T(rand_scalars)(k, n);
    T(check_msm)(bases, (const uint64_t(*)[4])k, n);
    free(bases);
    free(k);
}

/* Thousands of points, checked without thousands of scalar multiplications: the bases are P_i = [a + i·b]G with
 * known a, b, so Σ k_i P_i = [Σ k_i (a + i·b)]G, one multiplication by a sum computed in Fr. Large enough that the
 * window has hundreds of buckets (the batched bucket reduction) and several chunks per window. */
static void T(msm_known_logs)(void **state)
{
    (void)state;
    size_t n = LOG_N + test_rand_u64() % 1000;
    AFF *bases = malloc(n * sizeof *bases);
    JAC *tmp = malloc(n * sizeof *tmp);
    cuzk_fr_t *k = malloc(n * sizeof *k);
    assert_true(bases && tmp && k);
    cuzk_fr_t a, b, e, sum, t;
    uint64_t al[4], bl[4], sl[4];
    test_rand_fr(&a);
    test_rand_fr(&b);
    cuzk_fr_to_limbs(al, &a);
    cuzk_fr_to_limbs(bl, &b);
    AFF g, bq;
    JAC p, q;
    G(generator)(&g);
    G(jac_from_affine)(&p, &g);
    G(jac_mul)(&q, &p, bl, 4);
    G(jac_to_affine)(&bq, &q);
    G(jac_mul)(&p, &p, al, 4);
    cuzk_fr_set_zero(&sum);
    e = a;
    for (size_t i = 0; i < n; i++) {
        tmp[i] = p;
        G(jac_add_affine)(&p, &p, &bq);
        test_rand_fr(&k[i]);
        cuzk_fr_mul(&t, &k[i], &e); /* e = a + i·b */
        cuzk_fr_add(&sum, &sum, &t);
        cuzk_fr_add(&e, &e, &b);
    }
    G(jac_batch_to_affine)(bases, tmp, n);
    JAC want, got;
    cuzk_fr_to_limbs(sl, &sum);
    G(jac_from_affine)(&want, &g);
    G(jac_mul)(&want, &want, sl, 4);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        assert_int_equal(G(msm)(&got, bases, k, n, threads), CUZK_OK);
        if (!G(jac_eq)(&got, &want)) fail_msg("msm differs: n = %zu, threads = %u", n, threads);
    }
    free(bases);
    free(tmp);
    free(k);
}

/* Zero, one and r − 1 scalars, repeated bases (P + P in a bucket), opposite bases (P + (−P)), bases at infinity. */
static void T(msm_edges)(void **state)
{
    (void)state;
    enum { N = 200 };
    AFF bases[N], pts[8];
    uint64_t k[N][4];
    static const uint64_t one[4] = {1, 0, 0, 0};
    uint64_t rm1[4] = {CUZK_FR_MODULUS[0] - 1, CUZK_FR_MODULUS[1], CUZK_FR_MODULUS[2], CUZK_FR_MODULUS[3]};
    T(rand_points)(pts, 8);

    /* all zero */
    T(rand_points)(bases, N);
    memset(k, 0, sizeof k);
    T(check_msm)(bases, (const uint64_t(*)[4])k, N);
    /* n = 1 with scalars 0, 1, r − 1 and random */
    T(check_msm)(bases, (const uint64_t(*)[4])k, 1);
    memcpy(k[0], one, sizeof one);
    T(check_msm)(bases, (const uint64_t(*)[4])k, 1);
    memcpy(k[0], rm1, sizeof rm1);
    T(check_msm)(bases, (const uint64_t(*)[4])k, 1);
    T(rand_scalars)(k, 1);
    T(check_msm)(bases, (const uint64_t(*)[4])k, 1);

    /* one base repeated with scalar 1 (every point in one bucket: doublings), then with r − 1, then mixed */
    for (int i = 0; i < N; i++) {
        bases[i] = pts[0];
        memcpy(k[i], one, sizeof one);
    }
    T(check_msm)(bases, (const uint64_t(*)[4])k, N);
    for (int i = 0; i < N; i++) memcpy(k[i], rm1, sizeof rm1);
    T(check_msm)(bases, (const uint64_t(*)[4])k, N);
    for (int i = 0; i < N; i++) {
        switch (test_rand_u64() % 4) {
        case 0: memcpy(k[i], one, sizeof one); break;
        case 1: memcpy(k[i], rm1, sizeof rm1); break;
        case 2: memset(k[i], 0, sizeof k[i]); break;
        default: T(rand_scalars)(&k[i], 1);
        }
    }
    T(check_msm)(bases, (const uint64_t(*)[4])k, N);

    /* few distinct bases, their negatives and infinity, small scalars: buckets see P + P, P + (−P), sums that
     * vanish and vanish again */
    AFF inf;
    G(affine_set_infinity)(&inf);
    for (int i = 0; i < N; i++) {
        uint64_t sel = test_rand_u64() % 9;
        if (sel == 8) {
            bases[i] = inf;
        } else if (sel >= 4) {
            G(affine_neg)(&bases[i], &pts[sel - 4]);
        } else {
            bases[i] = pts[sel];
        }
        uint64_t v = test_rand_u64() % 5;
        k[i][0] = v;
        k[i][1] = k[i][2] = k[i][3] = 0;
        if (test_rand_u64() % 4 == 0) memcpy(k[i], rm1, sizeof rm1);
    }
    T(check_msm)(bases, (const uint64_t(*)[4])k, N);
    /* exact cancellation: P_i and −P_i with the same scalar give infinity */
    T(rand_points)(bases, N / 2);
    T(rand_scalars)(k, N / 2);
    for (int i = 0; i < N / 2; i++) {
        G(affine_neg)(&bases[N / 2 + i], &bases[i]);
        memcpy(k[N / 2 + i], k[i], sizeof k[i]);
    }
    JAC got;
    for (unsigned threads = 1; threads <= 3; threads++) {
        assert_int_equal(G(msm_raw)(&got, bases, (const uint64_t(*)[4])k, N, threads), CUZK_OK);
        assert_true(G(jac_is_infinity)(&got));
    }
    /* all bases at infinity */
    for (int i = 0; i < N; i++) bases[i] = inf;
    T(rand_scalars)(k, N);
    assert_int_equal(G(msm_raw)(&got, bases, (const uint64_t(*)[4])k, N, 2), CUZK_OK);
    assert_true(G(jac_is_infinity)(&got));
}

/* One bucket holding more points than a batch (the partial sum is carried into the next chunk), with the same
 * point repeated and infinity sprinkled in. */
static void T(msm_overflowing_bucket)(void **state)
{
    (void)state;
    size_t n = GEN_CHUNK + GEN_CHUNK / 2 + 7;
    AFF *bases = malloc(n * sizeof *bases);
    uint64_t(*k)[4] = calloc(n, sizeof *k);
    assert_true(bases && k);
    T(rand_points)(bases, n);
    for (size_t i = 0; i < n; i++) {
        k[i][0] = 3;
        if (i % 97 == 0) G(affine_set_infinity)(&bases[i]);
        if (i % 89 == 0) bases[i] = bases[1];
    }
    JAC want, got, t;
    G(jac_set_infinity)(&want);
    for (size_t i = 0; i < n; i++) G(jac_add_affine)(&want, &want, &bases[i]);
    G(jac_dbl)(&t, &want);
    G(jac_add)(&want, &want, &t);
    for (unsigned threads = 1; threads <= 2; threads++) {
        assert_int_equal(G(msm_raw)(&got, bases, (const uint64_t(*)[4])k, n, threads), CUZK_OK);
        assert_true(G(jac_eq)(&got, &want));
    }
    free(bases);
    free(k);
}

static void T(msm_rejects)(void **state)
{
    (void)state;
    AFF bases[3];
    T(rand_points)(bases, 3);
    uint64_t k[3][4] = {{5}, {0}, {0}};
    const uint64_t bad[3][4] = {
        {CUZK_FR_MODULUS[0], CUZK_FR_MODULUS[1], CUZK_FR_MODULUS[2], CUZK_FR_MODULUS[3]},
        {CUZK_FR_MODULUS[0] + 1, CUZK_FR_MODULUS[1], CUZK_FR_MODULUS[2], CUZK_FR_MODULUS[3]},
        {~0ULL, ~0ULL, ~0ULL, ~0ULL},
    };
    for (int b = 0; b < 3; b++) {
        memcpy(k[2], bad[b], sizeof k[2]);
        JAC r;
        G(jac_set_infinity)(&r);
        JAC before = r;
        assert_int_equal(G(msm_raw)(&r, bases, (const uint64_t(*)[4])k, 3, 1), CUZK_ERR_SCALAR_RANGE);
        assert_memory_equal(&r, &before, sizeof r);
    }
    JAC r;
    assert_int_equal(G(msm_raw)(&r, bases, (const uint64_t(*)[4])k, 0, 1), CUZK_OK);
    assert_true(G(jac_is_infinity)(&r));
    assert_int_equal(G(msm)(&r, bases, NULL, 0, 4), CUZK_OK);
    assert_true(G(jac_is_infinity)(&r));
}

static void T(check_batch_add)(const AFF *bases, const uint64_t *bitmap, size_t n)
{
    JAC want, got;
    G(jac_set_infinity)(&want);
    for (size_t i = 0; i < n; i++) {
        if ((bitmap[i / 64] >> (i % 64)) & 1) G(jac_add_affine)(&want, &want, &bases[i]);
    }
    static const unsigned thread_counts[] = {1, 2, 3, 40};
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
        assert_int_equal(G(batch_add)(&got, bases, bitmap, n, thread_counts[t]), CUZK_OK);
        if (!G(jac_eq)(&got, &want)) fail_msg("batch_add differs: n = %zu, threads = %u", n, thread_counts[t]);
    }
}

static void T(batch_add)(void **state)
{
    (void)state;
    size_t big = 2 * GEN_CHUNK + 300;
    AFF *bases = malloc(big * sizeof *bases);
    uint64_t *bitmap = malloc((big / 64 + 1) * sizeof *bitmap);
    assert_true(bases && bitmap);
    T(rand_points)(bases, big);
    size_t words = big / 64 + 1;
    /* empty bitmap, n = 0, full bitmap, sparse and dense random ones */
    memset(bitmap, 0, words * sizeof *bitmap);
    T(check_batch_add)(bases, bitmap, 0);
    T(check_batch_add)(bases, bitmap, big);
    memset(bitmap, 0xff, words * sizeof *bitmap);
    T(check_batch_add)(bases, bitmap, 1);
    T(check_batch_add)(bases, bitmap, 77);
    T(check_batch_add)(bases, bitmap, big);
    for (size_t w = 0; w < words; w++) bitmap[w] = test_rand_u64();
    T(check_batch_add)(bases, bitmap, big - 5);
    for (size_t w = 0; w < words; w++) bitmap[w] = test_rand_u64() & test_rand_u64() & test_rand_u64();
    T(check_batch_add)(bases, bitmap, big);
    /* repeated points, opposite points and infinity among the selected bases */
    for (size_t i = 0; i < big; i++) {
        uint64_t sel = test_rand_u64() % 16;
        if (sel == 0) G(affine_set_infinity)(&bases[i]);
        else if (sel < 4) bases[i] = bases[sel];
        else if (sel < 6) G(affine_neg)(&bases[i], &bases[sel - 3]);
    }
    for (size_t w = 0; w < words; w++) bitmap[w] = test_rand_u64() | test_rand_u64();
    T(check_batch_add)(bases, bitmap, big);
    /* a sum that cancels exactly: P_i and −P_i all selected */
    T(rand_points)(bases, 64);
    for (int i = 0; i < 64; i++) G(affine_neg)(&bases[64 + i], &bases[i]);
    memset(bitmap, 0xff, words * sizeof *bitmap);
    JAC got;
    assert_int_equal(G(batch_add)(&got, bases, bitmap, 128, 2), CUZK_OK);
    assert_true(G(jac_is_infinity)(&got));
    free(bases);
    free(bitmap);
}
