/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Groth16 setup → prove → verify in both conventions, determinism, rejections of bad proofs and bad inputs, the
 * batch verifier, and the 0/1-split MSMs against plain MSMs over all scalars. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g16_circuits.h"

/* Sanitized builds run the same tests on smaller inputs. */
#if defined(__SANITIZE_ADDRESS__)
#define SMALL_RUN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SMALL_RUN 1
#endif
#endif
#ifndef SMALL_RUN
#define SMALL_RUN 0
#endif

static const cuzk_groth16_convention CONVS[2] = {CUZK_GROTH16_BELLPERSON, CUZK_GROTH16_SNARKJS};

static void setup_key(cuzk_groth16_pk *pk, const cuzk_r1cs_t *r, cuzk_groth16_convention conv, unsigned threads)
{
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.conv = conv;
    o.given_toxic = true;
    test_rand_fr(&o.tau);
    test_rand_fr(&o.alpha);
    test_rand_fr(&o.beta);
    test_rand_fr(&o.gamma);
    test_rand_fr(&o.delta);
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_setup(pk, r, &o, &err), CUZK_OK);
}

static cuzk_groth16_prove_opts given_opts(unsigned threads, cuzk_r1cs_c_mode mode)
{
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.c_mode = mode;
    o.given_rs = true;
    test_rand_fr(&o.r);
    test_rand_fr(&o.s);
    return o;
}

static void prove_ok(cuzk_groth16_proof_t *p, const cuzk_groth16_pk *pk, const g16_circuit *c,
                     const cuzk_groth16_prove_opts *o)
{
    cuzk_errmsg err = {{0}};
    const cuzk_r1cs_t *circ = pk->conv == CUZK_GROTH16_SNARKJS && o->c_mode != CUZK_R1CS_C_CHECKED ? NULL : c->r;
    cuzk_status s = cuzk_groth16_prove(p, pk, circ, c->z, o, NULL, &err);
    if (s != CUZK_OK) fprintf(stderr, "prove: %s (%s)\n", cuzk_status_str(s), err.msg);
    assert_int_equal(s, CUZK_OK);
}

static bool proof_eq(const cuzk_groth16_proof_t *x, const cuzk_groth16_proof_t *y)
{
    return cuzk_g1_affine_eq(&x->a, &y->a) && cuzk_g2_affine_eq(&x->b, &y->b) && cuzk_g1_affine_eq(&x->c, &y->c);
}

static const cuzk_fr_t *public_inputs(const g16_circuit *c) { return &c->z[1]; }
static uint64_t num_public(const g16_circuit *c) { return c->r->num_inputs - 1; }

/* ---- round trips ------------------------------------------------------------------------------------------------- */

static void roundtrip(cuzk_groth16_convention conv)
{
    const uint64_t sizes[3] = {16, 256, SMALL_RUN ? 1024 : 4096};
    for (int k = 0; k < 3; k++) {
        g16_circuit c;
        uint32_t pub = 1 + (uint32_t)(test_rand_u64() % 4);
        g16_circuit_make(&c, sizes[k], pub, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, conv, 2);
        assert_int_equal(cuzk_groth16_pk_check_circuit(&pk, c.r, NULL), CUZK_OK);

        cuzk_groth16_proof_t proof;
        cuzk_groth16_prove_opts o = given_opts(2, conv == CUZK_GROTH16_BELLPERSON ? CUZK_R1CS_C_CHECKED
                                                                                  : CUZK_R1CS_C_PRODUCT);
        cuzk_groth16_prove_stats st;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_groth16_prove(&proof, &pk, conv == CUZK_GROTH16_SNARKJS ? NULL : c.r, c.z, &o, &st, &err),
                         CUZK_OK);
        double parts = st.spmv + st.ntt_h + st.msm_h + st.msm_l + st.msm_a + st.msm_b1 + st.msm_b2 + st.assembly;
        assert_true(st.total > 0 && st.msm_h > 0 && st.msm_b2 > 0 && parts <= st.total * 1.0001);

        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);
        assert_int_equal(cuzk_groth16_verify(&pvk, &proof, public_inputs(&c), num_public(&c)), CUZK_OK);
        /* a changed public input */
        cuzk_fr_t *x = malloc(pub * sizeof *x);
        memcpy(x, public_inputs(&c), pub * sizeof *x);
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&x[test_rand_u64() % pub], &x[test_rand_u64() % pub], &one);
        cuzk_fr_add(&x[0], &x[0], &one);
        assert_int_equal(cuzk_groth16_verify(&pvk, &proof, x, pub), CUZK_ERR_PROOF_INVALID);
        free(x);
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

static void test_roundtrip_bellperson(void **state)
{
    (void)state;
    roundtrip(CUZK_GROTH16_BELLPERSON);
}

static void test_roundtrip_snarkjs(void **state)
{
    (void)state;
    roundtrip(CUZK_GROTH16_SNARKJS);
}

/* Degenerate sizes: no public input besides ONE, one row, no rows at all. */
static void test_tiny(void **state)
{
    (void)state;
    const uint64_t rows[3] = {0, 1, 2};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++) {
            for (uint32_t pub = 0; pub < 2; pub++) {
                g16_circuit c;
                g16_circuit_make(&c, rows[i], pub, test_rand_u64(), test_rand_u64());
                cuzk_groth16_pk pk;
                setup_key(&pk, c.r, CONVS[k], 1);
                cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
                cuzk_groth16_proof_t p;
                prove_ok(&p, &pk, &c, &o);
                cuzk_groth16_pvk pvk;
                cuzk_groth16_prepare_vk(&pvk, &pk.vk);
                assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), num_public(&c)), CUZK_OK);
                assert_int_equal(cuzk_groth16_verify_batch(&pvk, &p, public_inputs(&c), num_public(&c), 1), CUZK_OK);
                cuzk_groth16_pk_free(&pk);
                g16_circuit_free(&c);
            }
        }
}

/* Random r, s (the OS source) still give valid proofs, and different ones each time. */
static void test_random_rs(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c;
        g16_circuit_make(&c, 100, 2, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, CONVS[k], 1);
        cuzk_groth16_prove_opts o;
        memset(&o, 0, sizeof o);
        o.c_mode = CUZK_R1CS_C_PRODUCT;
        cuzk_groth16_proof_t p1, p2;
        prove_ok(&p1, &pk, &c, &o);
        prove_ok(&p2, &pk, &c, &o);
        assert_false(proof_eq(&p1, &p2));
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p1, public_inputs(&c), num_public(&c)), CUZK_OK);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p2, public_inputs(&c), num_public(&c)), CUZK_OK);
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

/* Given r, s: the same proof on repeat, with any thread count and any way of forming c. */
static void test_deterministic(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c;
        g16_circuit_make(&c, 300, 3, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, CONVS[k], 2);
        cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
        cuzk_groth16_proof_t ref, p;
        prove_ok(&ref, &pk, &c, &o);
        prove_ok(&p, &pk, &c, &o);
        assert_true(proof_eq(&ref, &p));
        const cuzk_r1cs_c_mode modes[3] = {CUZK_R1CS_C_MATRIX, CUZK_R1CS_C_PRODUCT, CUZK_R1CS_C_CHECKED};
        for (unsigned t = 2; t <= 3; t++) {
            o.threads = t;
            o.c_mode = modes[t % 3];
            prove_ok(&p, &pk, &c, &o);
            assert_true(proof_eq(&ref, &p));
            o.c_mode = modes[(t + 1) % 3];
            prove_ok(&p, &pk, &c, &o);
            assert_true(proof_eq(&ref, &p));
        }
        /* and another r changes it */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&o.r, &o.r, &one);
        prove_ok(&p, &pk, &c, &o);
        assert_false(proof_eq(&ref, &p));
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

/* ---- bad proofs -------------------------------------------------------------------------------------------------- */

static void test_bad_proofs(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        uint64_t shape = test_rand_u64();
        g16_circuit c, c2, other;
        g16_circuit_make(&c, 200, 2, shape, test_rand_u64());
        g16_circuit_make(&c2, 200, 2, shape, test_rand_u64());
        /* a public input is a bit one time in three: both witnesses may have the same ones (1 seed in ~324) */
        while (memcmp(public_inputs(&c), public_inputs(&c2), 2 * sizeof(cuzk_fr_t)) == 0) {
            g16_circuit_free(&c2);
            g16_circuit_make(&c2, 200, 2, shape, test_rand_u64());
        }
        g16_circuit_make(&other, 200, 2, test_rand_u64(), test_rand_u64());
        assert_memory_equal(c.r->identity, c2.r->identity, 32);
        cuzk_groth16_pk pk, pk_other, pk_same;
        setup_key(&pk, c.r, CONVS[k], 1);
        setup_key(&pk_other, other.r, CONVS[k], 1);
        setup_key(&pk_same, c.r, CONVS[k], 1); /* same circuit, other toxic waste */
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);

        cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
        cuzk_groth16_proof_t p, p2, bad;
        prove_ok(&p, &pk, &c, &o);
        prove_ok(&p2, &pk, &c2, &o);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), 2), CUZK_OK);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p2, public_inputs(&c2), 2), CUZK_OK);
        /* the other witness's inputs */
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c2), 2), CUZK_ERR_PROOF_INVALID);
        /* swapped points: A and C exchanged; B of another proof; C of another proof; A negated */
        bad = p;
        bad.a = p.c;
        bad.c = p.a;
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&c), 2), CUZK_ERR_PROOF_INVALID);
        bad = p;
        bad.b = p2.b;
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&c), 2), CUZK_ERR_PROOF_INVALID);
        bad = p;
        bad.c = p2.c;
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&c), 2), CUZK_ERR_PROOF_INVALID);
        bad = p;
        cuzk_g1_affine_neg(&bad.a, &bad.a);
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&c), 2), CUZK_ERR_PROOF_INVALID);
        /* proofs from another circuit's key, and from another key of the same circuit */
        prove_ok(&bad, &pk_other, &other, &o);
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&other), 2), CUZK_ERR_PROOF_INVALID);
        prove_ok(&bad, &pk_same, &c, &o);
        assert_int_equal(cuzk_groth16_verify(&pvk, &bad, public_inputs(&c), 2), CUZK_ERR_PROOF_INVALID);
        /* wrong input counts */
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), 1), CUZK_ERR_MISMATCH);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), 3), CUZK_ERR_MISMATCH);
        assert_int_equal(cuzk_groth16_verify(NULL, &p, public_inputs(&c), 2), CUZK_ERR_INVALID_ARG);
        cuzk_groth16_pk_free(&pk);
        cuzk_groth16_pk_free(&pk_other);
        cuzk_groth16_pk_free(&pk_same);
        g16_circuit_free(&c);
        g16_circuit_free(&c2);
        g16_circuit_free(&other);
    }
}

/* ---- batch verification ------------------------------------------------------------------------------------------ */

static void test_batch(void **state)
{
    (void)state;
    enum { COUNT = 10, PUB = 3 };
    for (int k = 0; k < 2; k++) {
        uint64_t shape = test_rand_u64();
        g16_circuit c[COUNT];
        cuzk_groth16_proof_t p[COUNT];
        cuzk_fr_t x[COUNT * PUB];
        for (int j = 0; j < COUNT; j++) g16_circuit_make(&c[j], 150, PUB, shape, test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c[0].r, CONVS[k], 1);
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);
        for (int j = 0; j < COUNT; j++) {
            cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
            prove_ok(&p[j], &pk, &c[j], &o);
            memcpy(&x[j * PUB], public_inputs(&c[j]), PUB * sizeof(cuzk_fr_t));
        }
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, COUNT), CUZK_OK);
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, 2), CUZK_OK);
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, 1), CUZK_OK);

        /* one bad proof among ten: a changed input, then a swapped C */
        int bad = (int)(test_rand_u64() % COUNT);
        cuzk_fr_t saved = x[bad * PUB + 1], one;
        cuzk_fr_set_one(&one);
        cuzk_fr_add(&x[bad * PUB + 1], &x[bad * PUB + 1], &one);
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, COUNT), CUZK_ERR_PROOF_INVALID);
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, &p[bad], &x[bad * PUB], PUB, 1), CUZK_ERR_PROOF_INVALID);
        x[bad * PUB + 1] = saved;
        cuzk_groth16_proof_t keep = p[bad];
        p[bad].c = p[(bad + 1) % COUNT].c;
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, COUNT), CUZK_ERR_PROOF_INVALID);
        p[bad] = keep;
        /* two proofs exchanging their inputs: each single equation fails, and so must the weighted sum */
        memcpy(&x[0], public_inputs(&c[1]), PUB * sizeof(cuzk_fr_t));
        memcpy(&x[PUB], public_inputs(&c[0]), PUB * sizeof(cuzk_fr_t));
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, COUNT), CUZK_ERR_PROOF_INVALID);
        memcpy(&x[0], public_inputs(&c[0]), PUB * sizeof(cuzk_fr_t));
        memcpy(&x[PUB], public_inputs(&c[1]), PUB * sizeof(cuzk_fr_t));
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, COUNT), CUZK_OK);

        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB - 1, COUNT), CUZK_ERR_MISMATCH);
        assert_int_equal(cuzk_groth16_verify_batch(&pvk, p, x, PUB, 0), CUZK_ERR_INVALID_ARG);
        for (int j = 0; j < COUNT; j++) g16_circuit_free(&c[j]);
        cuzk_groth16_pk_free(&pk);
    }
}

/* ---- witness, key and argument rejections ------------------------------------------------------------------------ */

static void test_unsatisfied(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c;
        g16_circuit_make(&c, 120, 2, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, CONVS[k], 1);
        /* break one aux value; a random circuit may leave a variable where a change goes unnoticed (e.g. only
         * multiplied by a zero), so walk on from a random start to the first one whose change breaks a row */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        uint64_t start = test_rand_u64() % c.r->num_aux, row = 0;
        bool broken = false;
        for (uint64_t t = 0; t < c.r->num_aux && !broken; t++) {
            uint64_t j = c.r->num_inputs + (start + t) % c.r->num_aux;
            cuzk_fr_add(&c.z[j], &c.z[j], &one);
            broken = cuzk_r1cs_check(c.r, c.z, 1, &row) == CUZK_ERR_R1CS_UNSATISFIED;
            if (!broken) cuzk_fr_sub(&c.z[j], &c.z[j], &one);
        }
        assert_true(broken);
        char want[64];
        snprintf(want, sizeof want, "row %llu", (unsigned long long)row);

        cuzk_groth16_prove_opts o = given_opts(2, CUZK_R1CS_C_CHECKED);
        cuzk_groth16_proof_t p;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, &o, NULL, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_non_null(strstr(err.msg, want));
        if (CONVS[k] == CUZK_GROTH16_SNARKJS) {
            /* the key has no C matrix to check against */
            assert_int_equal(cuzk_groth16_prove(&p, &pk, NULL, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
            assert_int_equal(cuzk_groth16_prove(&p, &pk, pk.circuit, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
        }
        /* without the check the prover goes ahead, and the proof does not verify */
        o.c_mode = CUZK_R1CS_C_MATRIX;
        assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, &o, NULL, &err), CUZK_OK);
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), num_public(&c)), CUZK_ERR_PROOF_INVALID);
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

/* opts.verify: a proof comes back only when it verifies. An unsatisfied witness that the prover cannot check (a
 * snarkjs key has no C; any key in c = a∘b mode) and a key whose points are valid but not its own are caught, the
 * proof is wiped; a good witness proves and verifies as before, the check's time in stats.verify. */
static void test_prove_verifies(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c;
        g16_circuit_make(&c, 120, 2, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, CONVS[k], 1);
        cuzk_groth16_prove_opts o = given_opts(2, CUZK_R1CS_C_PRODUCT);
        o.verify = true;
        const cuzk_r1cs_t *circ = CONVS[k] == CUZK_GROTH16_SNARKJS ? NULL : c.r;
        cuzk_groth16_proof_t p, zero;
        memset(&zero, 0, sizeof zero);
        cuzk_groth16_prove_stats st;
        cuzk_errmsg err = {{0}};
        assert_int_equal(cuzk_groth16_prove(&p, &pk, circ, c.z, &o, &st, &err), CUZK_OK);
        assert_true(st.verify > 0 && st.verify <= st.total);
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, &pk.vk);
        assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), num_public(&c)), CUZK_OK);

        /* a witness value changed until some row breaks */
        cuzk_fr_t one;
        cuzk_fr_set_one(&one);
        uint64_t row = 0;
        bool broken = false;
        for (uint64_t j = c.r->num_inputs; j < cuzk_r1cs_num_vars(c.r) && !broken; j++) {
            cuzk_fr_add(&c.z[j], &c.z[j], &one);
            broken = cuzk_r1cs_check(c.r, c.z, 1, &row) == CUZK_ERR_R1CS_UNSATISFIED;
            if (!broken) cuzk_fr_sub(&c.z[j], &c.z[j], &one);
        }
        assert_true(broken);
        assert_int_equal(cuzk_groth16_prove(&p, &pk, circ, c.z, &o, &st, &err), CUZK_ERR_PROOF_INVALID);
        assert_non_null(strstr(err.msg, "does not verify against the key's verifying key"));
        assert_memory_equal(&p, &zero, sizeof p);
        /* with the circuit's C the check names the row first */
        o.c_mode = CUZK_R1CS_C_CHECKED;
        char want[64];
        snprintf(want, sizeof want, "row %llu", (unsigned long long)row);
        assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, &o, NULL, &err), CUZK_ERR_R1CS_UNSATISFIED);
        assert_non_null(strstr(err.msg, want));
        g16_circuit_free(&c);

        /* a key with two H points swapped: every point valid, the proof wrong */
        g16_circuit_make(&c, 120, 2, test_rand_u64(), test_rand_u64());
        cuzk_groth16_pk_free(&pk);
        setup_key(&pk, c.r, CONVS[k], 1);
        cuzk_g1_affine_t t = pk.h[0];
        pk.h[0] = pk.h[1];
        pk.h[1] = t;
        o.c_mode = CUZK_R1CS_C_PRODUCT;
        circ = CONVS[k] == CUZK_GROTH16_SNARKJS ? NULL : c.r;
        assert_int_equal(cuzk_groth16_prove(&p, &pk, circ, c.z, &o, NULL, &err), CUZK_ERR_PROOF_INVALID);
        o.verify = false;
        assert_int_equal(cuzk_groth16_prove(&p, &pk, circ, c.z, &o, NULL, &err), CUZK_OK);
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

static void expect_mismatch(const cuzk_groth16_pk *pk, const g16_circuit *c)
{
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_pk_check_circuit(pk, c->r, &err), CUZK_ERR_MISMATCH);
    assert_true(strlen(err.msg) > 0);
    cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
    cuzk_groth16_proof_t p;
    assert_int_equal(cuzk_groth16_prove(&p, pk, c->r, c->z, &o, NULL, &err), CUZK_ERR_MISMATCH);
}

static void test_mismatch(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c, more_rows, more_inputs;
        uint64_t shape = test_rand_u64();
        g16_circuit_make(&c, 100, 2, shape, test_rand_u64());
        g16_circuit_make(&more_rows, 300, 2, test_rand_u64(), test_rand_u64());
        g16_circuit_make(&more_inputs, 100, 3, shape, test_rand_u64());
        cuzk_groth16_pk pk;
        setup_key(&pk, c.r, CONVS[k], 1);
        expect_mismatch(&pk, &more_rows);
        expect_mismatch(&pk, &more_inputs);
        /* tampered counts */
        cuzk_groth16_pk t = pk;
        t.a_len--;
        expect_mismatch(&t, &c);
        t = pk;
        t.h_len--;
        expect_mismatch(&t, &c);
        t = pk;
        t.l_len++;
        expect_mismatch(&t, &c);
        t = pk;
        t.domain_size *= 2;
        expect_mismatch(&t, &c);
        t = pk;
        t.domain_size = 3;
        expect_mismatch(&t, &c);
        t = pk;
        t.num_aux++;
        expect_mismatch(&t, &c);
        t = pk;
        t.vk.num_inputs++;
        expect_mismatch(&t, &c);
        if (CONVS[k] == CUZK_GROTH16_BELLPERSON) {
            t = pk;
            t.b_len++;
            expect_mismatch(&t, &c);
        }
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
        g16_circuit_free(&more_rows);
        g16_circuit_free(&more_inputs);
    }
}

static void test_prove_rejects(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 50, 1, test_rand_u64(), test_rand_u64());
    cuzk_groth16_pk pk;
    setup_key(&pk, c.r, CUZK_GROTH16_BELLPERSON, 1);
    cuzk_groth16_prove_opts o = given_opts(1, CUZK_R1CS_C_PRODUCT);
    cuzk_groth16_proof_t p;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_groth16_prove(NULL, &pk, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_prove(&p, NULL, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, NULL, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    /* a bellperson key needs its circuit */
    assert_int_equal(cuzk_groth16_prove(&p, &pk, NULL, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    o.c_mode = (cuzk_r1cs_c_mode)99;
    assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    o.c_mode = CUZK_R1CS_C_PRODUCT;
    cuzk_fr_t keep = c.z[0];
    cuzk_fr_from_u64(&c.z[0], 2);
    assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "z[0]"));
    c.z[0] = keep;
    cuzk_groth16_pk t = pk;
    t.conv = (cuzk_groth16_convention)9;
    assert_int_equal(cuzk_groth16_prove(&p, &t, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    t = pk;
    t.conv = CUZK_GROTH16_SNARKJS; /* a snarkjs key without its matrices */
    assert_int_equal(cuzk_groth16_prove(&p, &t, NULL, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    t = pk;
    t.h = NULL;
    assert_int_equal(cuzk_groth16_prove(&p, &t, c.r, c.z, &o, NULL, &err), CUZK_ERR_INVALID_ARG);
    /* defaults (NULL opts) prove with random r, s */
    assert_int_equal(cuzk_groth16_prove(&p, &pk, c.r, c.z, NULL, NULL, &err), CUZK_OK);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    assert_int_equal(cuzk_groth16_verify(&pvk, &p, public_inputs(&c), num_public(&c)), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    cuzk_groth16_pk_free(&pk); /* harmless on an emptied key */
    g16_circuit_free(&c);
}

/* ---- setup ------------------------------------------------------------------------------------------------------- */

static void cuzk_g1_times(cuzk_g1_affine_t *r, const cuzk_fr_t *k)
{
    uint64_t l[4];
    cuzk_g1_affine_t g;
    cuzk_g1_jac_t j;
    cuzk_fr_to_limbs(l, k);
    cuzk_g1_generator(&g);
    cuzk_g1_jac_from_affine(&j, &g);
    cuzk_g1_jac_mul(&j, &j, l, 4);
    cuzk_g1_jac_to_affine(r, &j);
}

static void cuzk_g2_times(cuzk_g2_affine_t *r, const cuzk_fr_t *k)
{
    uint64_t l[4];
    cuzk_g2_affine_t g;
    cuzk_g2_jac_t j;
    cuzk_fr_to_limbs(l, k);
    cuzk_g2_generator(&g);
    cuzk_g2_jac_from_affine(&j, &g);
    cuzk_g2_jac_mul(&j, &j, l, 4);
    cuzk_g2_jac_to_affine(r, &j);
}

/* The key's points against their definitions, with scalars chosen to hit the signed-digit edges. */
static void test_setup_points(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 40, 2, test_rand_u64(), test_rand_u64());
    uint64_t m = c.r->num_constraints, ni = c.r->num_inputs;
    for (int k = 0; k < 2; k++) {
        cuzk_groth16_setup_opts o;
        memset(&o, 0, sizeof o);
        o.conv = CONVS[k];
        o.given_toxic = true;
        o.threads = 2;
        test_rand_fr(&o.tau);
        cuzk_fr_set_one(&o.alpha);
        cuzk_fr_neg(&o.alpha, &o.alpha); /* r − 1: all windows busy, carries everywhere */
        uint64_t l[4] = {0, 0, 1, 0};
        assert_int_equal(cuzk_fr_from_limbs(&o.beta, l), CUZK_OK); /* 2^128: one lone digit */
        uint64_t ff[4] = {~0ULL, ~0ULL, ~0ULL, 0x0fffffffffffffffULL};
        assert_int_equal(cuzk_fr_from_limbs(&o.gamma, ff), CUZK_OK); /* a run of ones: every digit negative */
        test_rand_fr(&o.delta);
        cuzk_groth16_pk pk;
        assert_int_equal(cuzk_groth16_setup(&pk, c.r, &o, NULL), CUZK_OK);
        cuzk_g1_affine_t e1;
        cuzk_g2_affine_t e2;
        cuzk_g1_times(&e1, &o.alpha);
        assert_true(cuzk_g1_affine_eq(&e1, &pk.vk.alpha_g1));
        cuzk_g1_times(&e1, &o.beta);
        assert_true(cuzk_g1_affine_eq(&e1, &pk.vk.beta_g1));
        cuzk_g2_times(&e2, &o.beta);
        assert_true(cuzk_g2_affine_eq(&e2, &pk.vk.beta_g2));
        cuzk_g1_times(&e1, &o.delta);
        assert_true(cuzk_g1_affine_eq(&e1, &pk.vk.delta_g1));
        cuzk_g2_times(&e2, &o.delta);
        assert_true(cuzk_g2_affine_eq(&e2, &pk.vk.delta_g2));
        uint64_t n = (uint64_t)1 << (64 - __builtin_clzll(m + ni - 1));
        assert_int_equal(pk.domain_size, n);
        if (CONVS[k] == CUZK_GROTH16_BELLPERSON) {
            cuzk_g2_times(&e2, &o.gamma);
            assert_true(cuzk_g2_affine_eq(&e2, &pk.vk.gamma_g2));
            /* h_i = τ^i·(τ^n − 1)/δ */
            cuzk_fr_t z, one, dinv;
            cuzk_fr_set_one(&one);
            cuzk_fr_pow(&z, &o.tau, &n, 1);
            cuzk_fr_sub(&z, &z, &one);
            cuzk_fr_inv(&dinv, &o.delta);
            cuzk_fr_mul(&z, &z, &dinv);
            assert_int_equal(pk.h_len, n - 1);
            for (uint64_t i = 0; i < 3; i++) {
                cuzk_g1_times(&e1, &z);
                assert_true(cuzk_g1_affine_eq(&e1, &pk.h[i]));
                cuzk_fr_mul(&z, &z, &o.tau);
            }
            assert_null(pk.circuit);
        } else {
            cuzk_g2_affine_t g2;
            cuzk_g2_generator(&g2);
            assert_true(cuzk_g2_affine_eq(&g2, &pk.vk.gamma_g2));
            assert_int_equal(pk.h_len, n);
            assert_int_equal(pk.a_len, cuzk_r1cs_num_vars(c.r));
            /* the key's matrices: A and B of the circuit, the input rows, no C */
            assert_non_null(pk.circuit);
            assert_int_equal(pk.circuit->num_constraints, m + ni);
            assert_int_equal(pk.circuit->m[CUZK_R1CS_C].nnz, 0);
            assert_int_equal(pk.circuit->m[CUZK_R1CS_A].nnz, c.r->m[CUZK_R1CS_A].nnz + ni);
            assert_int_equal(pk.circuit->m[CUZK_R1CS_B].nnz, c.r->m[CUZK_R1CS_B].nnz);
            for (uint64_t i = 0; i < ni; i++) {
                uint64_t e = pk.circuit->m[CUZK_R1CS_A].row_ptr[m + i];
                assert_int_equal(pk.circuit->m[CUZK_R1CS_A].row_ptr[m + i + 1], e + 1);
                assert_int_equal(pk.circuit->m[CUZK_R1CS_A].col[e], i);
                assert_int_equal(pk.circuit->m[CUZK_R1CS_A].coef[e], CUZK_R1CS_COEF_ONE);
            }
        }
        cuzk_groth16_pk_free(&pk);
    }
    g16_circuit_free(&c);
}

static void test_setup_rejects(void **state)
{
    (void)state;
    g16_circuit c;
    g16_circuit_make(&c, 20, 1, test_rand_u64(), test_rand_u64());
    /* 20 rows + 2 inputs: domain 32 */
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.given_toxic = true;
    test_rand_fr(&o.tau);
    test_rand_fr(&o.alpha);
    test_rand_fr(&o.beta);
    test_rand_fr(&o.gamma);
    test_rand_fr(&o.delta);
    cuzk_groth16_pk pk;
    cuzk_errmsg err = {{0}};
    cuzk_groth16_setup_opts t = o;
    cuzk_fr_set_zero(&t.delta);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    t = o;
    cuzk_fr_set_zero(&t.gamma);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    t.conv = CUZK_GROTH16_SNARKJS; /* γ is ignored there (γ = 1) */
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    /* τ on the domain: a Lagrange denominator would vanish */
    t = o;
    cuzk_fr_root_of_unity(&t.tau, 5, CUZK_FR_ROOTS_GEN7);
    cuzk_fr_mul(&t.tau, &t.tau, &t.tau);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_non_null(strstr(err.msg, "tau"));
    cuzk_fr_set_one(&t.tau);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    /* for snarkjs also the odd points of the 2n domain */
    t.conv = CUZK_GROTH16_SNARKJS;
    cuzk_fr_root_of_unity(&t.tau, 6, CUZK_FR_ROOTS_GEN5);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    /* a gen-5 root is no gen-7 domain point (the gen-7 check is on τ^n = 1, which ω_64 fails) */
    t.conv = CUZK_GROTH16_BELLPERSON;
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_OK);
    cuzk_groth16_pk_free(&pk);
    t = o;
    t.conv = (cuzk_groth16_convention)7;
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_setup(&pk, NULL, &o, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, NULL, &err), CUZK_ERR_INVALID_ARG);
    /* random toxic waste */
    memset(&t, 0, sizeof t);
    assert_int_equal(cuzk_groth16_setup(&pk, c.r, &t, &err), CUZK_OK);
    assert_int_equal(pk.conv, CUZK_GROTH16_BELLPERSON);
    cuzk_groth16_pk_free(&pk);
    g16_circuit_free(&c);
}

/* ---- the 0/1 split against plain MSMs ------------------------------------------------------------------------------ */

static void jac_sub_affine(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *a, const cuzk_g1_affine_t *b)
{
    cuzk_g1_affine_t nb;
    cuzk_g1_affine_neg(&nb, b);
    cuzk_g1_jac_from_affine(r, a);
    cuzk_g1_jac_add_affine(r, r, &nb);
}

/* With r = s = 0: A = α1 + A_msm, B = β2 + B2_msm, C = L + H; with r = 1, s = 0: C − (L + H) = β1 + B1_msm. */
static int fr_cmp(const void *x, const void *y) { return memcmp(x, y, sizeof(cuzk_fr_t)); }

/* How many of the n scalars other than 0 and 1 equal an earlier one. */
static uint64_t repeated_others(const cuzk_fr_t *k, uint64_t n)
{
    cuzk_fr_t *c = malloc((n ? n : 1) * sizeof *c);
    assert_non_null(c);
    uint64_t m = 0, rep = 0;
    for (uint64_t i = 0; i < n; i++)
        if (!cuzk_fr_is_zero(&k[i]) && !cuzk_fr_is_one(&k[i])) c[m++] = k[i];
    qsort(c, m, sizeof *c, fr_cmp);
    for (uint64_t i = 1; i < m; i++) rep += memcmp(&c[i], &c[i - 1], sizeof *c) == 0;
    free(c);
    return rep;
}

/* The prover's MSMs (the 0/1 split, the gathered or dense tail, equal scalars merged) against plain MSMs over every
 * scalar, through the proof's A, B and C. */
static void test_split_matches_plain(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        g16_circuit c;
        /* several chunks of the parallel split (1024 variables each), on two threads */
        g16_circuit_make(&c, SMALL_RUN ? 1500 : 3000, 2, test_rand_u64(), test_rand_u64());
        const cuzk_r1cs_t *r = c.r;
        cuzk_groth16_pk pk;
        setup_key(&pk, r, CONVS[k], 2);
        bool bell = CONVS[k] == CUZK_GROTH16_BELLPERSON;
        uint64_t ni = r->num_inputs, nv = cuzk_r1cs_num_vars(r);
        /* the scalars of A and B in the key's layout, all of them, 0 and 1 included */
        cuzk_fr_t *sa = malloc(nv * sizeof *sa), *sb = malloc(nv * sizeof *sb);
        uint64_t na = 0, nb = 0;
        for (uint64_t j = 0; j < nv; j++) {
            if (!bell || j < ni || cuzk_r1cs_density_get(r->a_aux_density, j - ni)) sa[na++] = c.z[j];
            if (!bell || (j < ni ? cuzk_r1cs_density_get(r->b_input_density, j)
                                 : cuzk_r1cs_density_get(r->b_aux_density, j - ni)))
                sb[nb++] = c.z[j];
        }
        assert_int_equal(na, pk.a_len);
        assert_int_equal(nb, pk.b_len);
        cuzk_g1_jac_t ref1, got1;
        cuzk_g2_jac_t ref2, got2;

        cuzk_groth16_prove_opts o;
        memset(&o, 0, sizeof o);
        o.given_rs = true;
        o.c_mode = CUZK_R1CS_C_PRODUCT;
        o.threads = 2;
        cuzk_groth16_proof_t p0, p1;
        prove_ok(&p0, &pk, &c, &o);
        /* the witness repeats values (packed bits), which the prover merges by default: the same proof without */
        assert_true(repeated_others(sa, na) > 0 && repeated_others(sb, nb) > 0);
        o.no_merge_equal = true;
        prove_ok(&p1, &pk, &c, &o);
        assert_true(proof_eq(&p0, &p1));
        o.no_merge_equal = false;
        assert_int_equal(cuzk_g1_msm(&ref1, pk.a, sa, na, 1), CUZK_OK);
        jac_sub_affine(&got1, &p0.a, &pk.vk.alpha_g1);
        assert_true(cuzk_g1_jac_eq(&got1, &ref1));
        assert_int_equal(cuzk_g2_msm(&ref2, pk.b_g2, sb, nb, 1), CUZK_OK);
        cuzk_g2_affine_t nbeta;
        cuzk_g2_affine_neg(&nbeta, &pk.vk.beta_g2);
        cuzk_g2_jac_from_affine(&got2, &p0.b);
        cuzk_g2_jac_add_affine(&got2, &got2, &nbeta);
        assert_true(cuzk_g2_jac_eq(&got2, &ref2));

        /* C = L + H: L over the aux values, H from the coset NTT of the sparse evaluations */
        uint64_t n = pk.domain_size;
        cuzk_fr_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *cc = calloc(n, sizeof *cc);
        const cuzk_r1cs_t *sys = bell ? r : pk.circuit;
        assert_int_equal(cuzk_r1cs_spmv(sys, c.z, a, b, cc, CUZK_R1CS_C_PRODUCT, 1, NULL), CUZK_OK);
        if (bell)
            for (uint64_t i = 0; i < ni; i++) a[r->num_constraints + i] = c.z[i];
        cuzk_ntt_domain d;
        assert_int_equal(
            cuzk_ntt_domain_init(&d, (unsigned)__builtin_ctzll(n), bell ? CUZK_FR_ROOTS_GEN7 : CUZK_FR_ROOTS_GEN5),
            CUZK_OK);
        if (bell) cuzk_ntt_h_bellperson(a, a, b, cc, &d, 1);
        else cuzk_ntt_h_snarkjs(a, a, b, cc, &d, 1);
        cuzk_g1_jac_t l, h;
        assert_int_equal(cuzk_g1_msm(&l, pk.l, &c.z[ni], r->num_aux, 1), CUZK_OK);
        assert_int_equal(cuzk_g1_msm(&h, pk.h, a, pk.h_len, 1), CUZK_OK);
        cuzk_g1_jac_add(&ref1, &l, &h);
        cuzk_g1_jac_from_affine(&got1, &p0.c);
        assert_true(cuzk_g1_jac_eq(&got1, &ref1));

        cuzk_fr_set_one(&o.r);
        prove_ok(&p1, &pk, &c, &o);
        assert_int_equal(cuzk_g1_msm(&ref1, pk.b_g1, sb, nb, 1), CUZK_OK);
        cuzk_g1_jac_add_affine(&ref1, &ref1, &pk.vk.beta_g1);
        jac_sub_affine(&got1, &p1.c, &p0.c);
        assert_true(cuzk_g1_jac_eq(&got1, &ref1));

        cuzk_ntt_domain_free(&d);
        free(a);
        free(b);
        free(cc);
        free(sa);
        free(sb);
        cuzk_groth16_pk_free(&pk);
        g16_circuit_free(&c);
    }
}

/* the key-file and JSON tests of test_formats.c run in this executable too */
extern const struct CMUnitTest test_formats_tests[];
extern const size_t test_formats_count;

int main(void)
{
    test_seed_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_bellperson),
        cmocka_unit_test(test_roundtrip_snarkjs),
        cmocka_unit_test(test_tiny),
        cmocka_unit_test(test_random_rs),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_bad_proofs),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_unsatisfied),
        cmocka_unit_test(test_prove_verifies),
        cmocka_unit_test(test_mismatch),
        cmocka_unit_test(test_prove_rejects),
        cmocka_unit_test(test_setup_points),
        cmocka_unit_test(test_setup_rejects),
        cmocka_unit_test(test_split_matches_plain),
    };
    int fails = cmocka_run_group_tests_name("groth16", tests, NULL, NULL);
    fails += _cmocka_run_group_tests("formats", test_formats_tests, test_formats_count, NULL, NULL);
    return fails;
}
