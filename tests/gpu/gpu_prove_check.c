/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU prover against the CPU prover, bit for bit (plain C, no test framework: the GPU machine has no cmocka).
 * Every check proves the same circuit, key, witness, r and s on both and compares the proofs byte for byte, then
 * verifies the GPU's proof. Fresh random circuits and toxic waste each run (seed printed; replay with
 * CUZK_TEST_SEED). Prints "N passed, M failed"; exits 77 (CTest skip) when no CUDA device exists.
 * `gpu_prove_check quick` stops at 2^13. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "gpu_testutil.h"

typedef struct {
    unsigned log2;
    cuzk_r1cs_t *r;
    cuzk_fr_t *z;
    cuzk_groth16_pk pk;
} fixture;

static int fixture_make(fixture *f, unsigned log2, cuzk_groth16_convention conv)
{
    memset(f, 0, sizeof f[0]);
    f->log2 = log2;
    cuzk_errmsg err = {{0}};
    if (cuzk_circuits_synthetic(log2, rnd(), 16, &f->r, &f->z, &err) != CUZK_OK) {
        check_detail(0, "circuits_synthetic", err.msg);
        return 0;
    }
    cuzk_groth16_setup_opts so;
    memset(&so, 0, sizeof so);
    so.threads = 16;
    so.conv = conv;
    so.given_toxic = true;
    rand_fr(&so.tau), rand_fr(&so.alpha), rand_fr(&so.beta), rand_fr(&so.gamma), rand_fr(&so.delta);
    if (cuzk_groth16_setup(&f->pk, f->r, &so, &err) != CUZK_OK) {
        check_detail(0, "groth16_setup", err.msg);
        return 0;
    }
    return 1;
}

static void fixture_free(fixture *f)
{
    cuzk_groth16_pk_free(&f->pk);
    cuzk_r1cs_free(f->r);
    free(f->z);
}

static cuzk_groth16_prove_opts opts_rs(cuzk_r1cs_c_mode mode)
{
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 16;
    o.given_rs = true;
    rand_fr(&o.r);
    rand_fr(&o.s);
    o.c_mode = mode;
    return o;
}

static const char *mode_name(cuzk_r1cs_c_mode m)
{
    return m == CUZK_R1CS_C_MATRIX ? "C·z" : m == CUZK_R1CS_C_PRODUCT ? "a∘b" : "checked";
}

/* one witness on both provers; valid: the GPU proof must also verify */
static void compare(const char *what, fixture *f, cuzk_gpu_key *k, cuzk_gpu_prover *p, const cuzk_fr_t *z,
                    cuzk_r1cs_c_mode mode, int valid)
{
    char name[200];
    snprintf(name, sizeof name, "%s 2^%u conv %d %s", what, f->log2, (int)f->pk.conv, mode_name(mode));
    cuzk_groth16_prove_opts o = opts_rs(mode);
    cuzk_groth16_proof_t cpu, gpu;
    memset(&gpu, 0x5a, sizeof gpu); /* poisoned: a proof left unwritten cannot match */
    cuzk_errmsg e1 = {{0}}, e2 = {{0}};
    const cuzk_r1cs_t *circuit = f->pk.conv == CUZK_GROTH16_BELLPERSON || mode == CUZK_R1CS_C_CHECKED ? f->r : NULL;
    cuzk_status s1 = cuzk_groth16_prove(&cpu, &f->pk, circuit, z, &o, NULL, &e1);
    cuzk_gpu_prove_stats st;
    cuzk_status s2 = cuzk_gpu_prove(&gpu, p, k, z, &o, &st, &e2);
    if (s1 != CUZK_OK || s2 != CUZK_OK) {
        char d[700];
        snprintf(d, sizeof d, "cpu %s (%s), gpu %s (%s)", cuzk_status_str(s1), e1.msg, cuzk_status_str(s2), e2.msg);
        check_detail(0, name, d);
        return;
    }
    check_detail(memcmp(&cpu, &gpu, sizeof cpu) == 0, name, "proofs differ");
    if (valid) {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(k));
        check_detail(cuzk_groth16_verify(&pvk, &gpu, z + 1, cuzk_gpu_key_vk(k)->num_inputs - 1) == CUZK_OK, name,
                     "GPU proof does not verify");
    }
    printf("  %s: upload %.2f spmv %.2f h %.2f msm h %.2f l %.2f a %.2f b1 %.2f b2 %.2f total %.2f ms\n", name,
           st.upload * 1e3, st.spmv * 1e3, st.ntt_h * 1e3, st.msm_h * 1e3, st.msm_l * 1e3, st.msm_a * 1e3,
           st.msm_b1 * 1e3, st.msm_b2 * 1e3, st.total * 1e3);
}

/* The key on the device; a resident one's provers take whole NTT tables (they fit beside these small keys) unless
 * split says not to, a streamed one's never. */
static cuzk_gpu_key *upload_tables(fixture *f, cuzk_gpu_key_placement place, uint64_t chunk, bool split)
{
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.placement = place;
    ko.stream_chunk = chunk;
    ko.split_ntt_tables = split;
    cuzk_gpu_key *k = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_gpu_key_upload(&k, &f->pk, f->r, &ko, &err);
    check_detail(s == CUZK_OK, "gpu_key_upload", err.msg);
    if (s == CUZK_OK) {
        cuzk_gpu_key_info info;
        cuzk_gpu_key_get_info(k, &info);
        check_detail(info.placement == (place == CUZK_GPU_KEY_AUTO ? CUZK_GPU_KEY_RESIDENT : place), "placement", NULL);
        check_detail(info.whole_ntt_tables == (info.placement == CUZK_GPU_KEY_RESIDENT && !split),
                     "whole NTT tables: resident keys, unless split", NULL);
    }
    return k;
}

static cuzk_gpu_key *upload(fixture *f, cuzk_gpu_key_placement place, uint64_t chunk)
{
    return upload_tables(f, place, chunk, false);
}

/* z packed on `threads` host threads (cuzk_gpu_witness_pack, on a copy) against the CPU's proof of z itself */
static void compare_packed(const char *what, fixture *f, cuzk_gpu_key *k, cuzk_gpu_prover *p, const cuzk_fr_t *z,
                           cuzk_r1cs_c_mode mode, unsigned threads)
{
    char name[200];
    snprintf(name, sizeof name, "packed %s 2^%u conv %d %s, %u threads", what, f->log2, (int)f->pk.conv,
             mode_name(mode), threads);
    uint64_t ni = f->r->num_inputs, na = f->r->num_aux, nv = ni + na;
    cuzk_fr_t *pz = malloc(nv * sizeof *pz);
    uint64_t *classes = malloc(cuzk_gpu_witness_classes_words(na) * sizeof *classes + 8);
    if (pz == NULL || classes == NULL) {
        check_detail(0, name, "out of memory");
        free(pz), free(classes);
        return;
    }
    memcpy(pz, z, nv * sizeof *pz);
    cuzk_gpu_witness_packing pk;
    cuzk_gpu_witness_pack(&pk, pz, ni, na, classes, threads);
    uint64_t others = 0;
    for (unsigned c = 0; c < pk.chunks; c++) others += pk.others[c];
    cuzk_groth16_prove_opts o = opts_rs(mode);
    cuzk_groth16_proof_t cpu, gpu;
    memset(&gpu, 0x5a, sizeof gpu);
    cuzk_errmsg e1 = {{0}}, e2 = {{0}};
    const cuzk_r1cs_t *circuit = f->pk.conv == CUZK_GROTH16_BELLPERSON || mode == CUZK_R1CS_C_CHECKED ? f->r : NULL;
    cuzk_status s1 = cuzk_groth16_prove(&cpu, &f->pk, circuit, z, &o, NULL, &e1);
    cuzk_groth16_msm_sums sums;
    cuzk_gpu_prove_stats st;
    cuzk_status s2 = cuzk_gpu_prove_msms(&sums, p, k, pz, &pk, &o, &st, &e2);
    if (s2 == CUZK_OK) s2 = cuzk_groth16_assemble(&gpu, cuzk_gpu_key_vk(k), &sums, &o);
    if (s1 != CUZK_OK || s2 != CUZK_OK) {
        char d[700];
        snprintf(d, sizeof d, "cpu %s (%s), gpu %s (%s)", cuzk_status_str(s1), e1.msg, cuzk_status_str(s2), e2.msg);
        check_detail(0, name, d);
    } else {
        check_detail(memcmp(&cpu, &gpu, sizeof cpu) == 0, name, "proofs differ");
        printf("  %s: %u chunks, %llu of %llu aux values sent whole, upload %.3f ms\n", name, pk.chunks,
               (unsigned long long)others, (unsigned long long)na, st.upload * 1e3);
    }
    free(pz);
    free(classes);
}

/* Packed witnesses (cuzk_gpu_witness_pack): the proofs of the whole witness for a satisfying witness, aux values all 0,
 * all 1 and all random, on 1, 3 and 64 threads; a packing that does not fit the key is refused. */
static void check_packed(cuzk_gpu_prover *p, unsigned log2, cuzk_groth16_convention conv)
{
    fixture f;
    if (!fixture_make(&f, log2, conv)) return;
    cuzk_gpu_key *k = upload(&f, CUZK_GPU_KEY_AUTO, 0);
    uint64_t ni = f.r->num_inputs, na = f.r->num_aux, nv = ni + na;
    cuzk_fr_t *z = malloc(nv * sizeof *z);
    uint64_t *classes = malloc(cuzk_gpu_witness_classes_words(na) * sizeof *classes + 8);
    if (k == NULL || z == NULL || classes == NULL) goto out;
    static const unsigned threads[] = {1, 3, 64};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++)
        compare_packed("satisfying", &f, k, p, f.z, CUZK_R1CS_C_PRODUCT, threads[i]);
    compare_packed("satisfying", &f, k, p, f.z, CUZK_R1CS_C_CHECKED, 3);
    memcpy(z, f.z, ni * sizeof *z);
    for (int kind = 0; kind < 3; kind++) {
        for (uint64_t i = ni; i < nv; i++) {
            if (kind == 0) cuzk_fr_set_zero(&z[i]);
            else if (kind == 1) cuzk_fr_set_one(&z[i]);
            else rand_fr(&z[i]);
        }
        compare_packed(kind == 0   ? "aux all 0"
                       : kind == 1 ? "aux all 1"
                                   : "aux random",
                       &f, k, p, z, conv == CUZK_GROTH16_BELLPERSON ? CUZK_R1CS_C_MATRIX : CUZK_R1CS_C_PRODUCT, 3);
    }

    memcpy(z, f.z, nv * sizeof *z);
    cuzk_gpu_witness_packing pk;
    cuzk_gpu_witness_pack(&pk, z, ni, na, classes, 3);
    cuzk_groth16_prove_opts o = opts_rs(CUZK_R1CS_C_PRODUCT);
    cuzk_groth16_msm_sums sums;
    cuzk_errmsg err = {{0}};
    cuzk_gpu_witness_packing bad = pk;
    bad.num_aux++;
    check_detail(cuzk_gpu_prove_msms(&sums, p, k, z, &bad, &o, NULL, &err) == CUZK_ERR_INVALID_ARG,
                 "packed: a packing of another size is refused (CUZK_ERR_INVALID_ARG)", err.msg);
    bad = pk;
    bad.chunk_values += 1;
    check_detail(cuzk_gpu_prove_msms(&sums, p, k, z, &bad, &o, NULL, &err) == CUZK_ERR_INVALID_ARG,
                 "packed: chunks not of whole classes words are refused (CUZK_ERR_INVALID_ARG)", err.msg);
    bad = pk;
    bad.others[0] = bad.chunk_values + 1;
    check_detail(cuzk_gpu_prove_msms(&sums, p, k, z, &bad, &o, NULL, &err) == CUZK_ERR_INVALID_ARG,
                 "packed: more others than values in a chunk are refused (CUZK_ERR_INVALID_ARG)", err.msg);
out:
    free(z);
    free(classes);
    cuzk_gpu_key_free(k);
    fixture_free(&f);
}

static void check_bellperson(cuzk_gpu_prover *p, unsigned log2, int streamed)
{
    fixture f;
    if (!fixture_make(&f, log2, CUZK_GROTH16_BELLPERSON)) return;
    cuzk_gpu_key *k = upload(&f, streamed ? CUZK_GPU_KEY_STREAMED : CUZK_GPU_KEY_AUTO, streamed ? 64 * 17 : 0);
    if (k == NULL) goto out;
    uint64_t nv = cuzk_r1cs_num_vars(f.r);
    compare(streamed ? "streamed" : "resident", &f, k, p, f.z, CUZK_R1CS_C_PRODUCT, 1);
    if (streamed) goto out_key;
    compare("resident", &f, k, p, f.z, CUZK_R1CS_C_MATRIX, 1);
    compare("resident", &f, k, p, f.z, CUZK_R1CS_C_CHECKED, 1);

    /* the witness from pinned memory */
    cuzk_fr_t *pz = NULL;
    if (cuzk_gpu_host_alloc((void **)&pz, nv * sizeof(cuzk_fr_t)) == CUZK_OK) {
        memcpy(pz, f.z, nv * sizeof(cuzk_fr_t));
        compare("pinned witness", &f, k, p, pz, CUZK_R1CS_C_PRODUCT, 1);
        cuzk_gpu_host_free(pz);
    } else {
        check_detail(0, "gpu_host_alloc", cuzk_gpu_last_error());
    }

    /* random values everywhere but ONE: no 0/1 shortcut applies, c = C·z on both */
    cuzk_fr_t *rz = malloc(nv * sizeof(cuzk_fr_t));
    cuzk_fr_set_one(&rz[0]);
    for (uint64_t i = 1; i < nv; i++) rand_fr(&rz[i]);
    compare("random witness", &f, k, p, rz, CUZK_R1CS_C_MATRIX, 0);

    /* unsatisfied: one aux value changed; both provers name the same row */
    memcpy(rz, f.z, nv * sizeof(cuzk_fr_t));
    uint64_t j = f.r->num_inputs + rnd() % f.r->num_aux;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_fr_add(&rz[j], &rz[j], &one);
    cuzk_groth16_prove_opts o = opts_rs(CUZK_R1CS_C_CHECKED);
    cuzk_groth16_proof_t pr;
    cuzk_errmsg e1 = {{0}}, e2 = {{0}};
    cuzk_status s1 = cuzk_groth16_prove(&pr, &f.pk, f.r, rz, &o, NULL, &e1);
    cuzk_status s2 = cuzk_gpu_prove(&pr, p, k, rz, &o, NULL, &e2);
    check_detail(s2 == CUZK_ERR_R1CS_UNSATISFIED, "unsatisfied witness is rejected (CUZK_ERR_R1CS_UNSATISFIED)",
                 e2.msg);
    check_detail(s1 == s2 && strcmp(e1.msg, e2.msg) == 0, "unsatisfied: same row as the CPU", e2.msg);

    /* z[0] must be 1 (2 here: z[1], used before, may itself be 1) */
    cuzk_fr_add(&rz[0], &one, &one);
    s2 = cuzk_gpu_prove(&pr, p, k, rz, &o, NULL, &e2);
    check_detail(s2 == CUZK_ERR_INVALID_ARG, "z[0] != 1 is rejected", e2.msg);
    free(rz);
out_key:
    cuzk_gpu_key_free(k);
out:
    fixture_free(&f);
}

static void check_snarkjs(cuzk_gpu_prover *p, unsigned log2)
{
    fixture f;
    if (!fixture_make(&f, log2, CUZK_GROTH16_SNARKJS)) return;
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    cuzk_gpu_key *k = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_gpu_key_upload(&k, &f.pk, f.r, &ko, &err); /* with the full circuit: checked mode works */
    check_detail(s == CUZK_OK, "gpu_key_upload snarkjs", err.msg);
    if (s == CUZK_OK) {
        compare("snarkjs", &f, k, p, f.z, CUZK_R1CS_C_PRODUCT, 1);
        compare("snarkjs", &f, k, p, f.z, CUZK_R1CS_C_CHECKED, 1);
        cuzk_gpu_key_free(k);
    }
    fixture_free(&f);
}

/* planning and argument errors, each with its status */
static void check_errors(cuzk_gpu_prover *p)
{
    fixture f, g;
    if (!fixture_make(&f, 10, CUZK_GROTH16_BELLPERSON)) return;
    if (!fixture_make(&g, 11, CUZK_GROTH16_BELLPERSON)) {
        fixture_free(&f);
        return;
    }
    cuzk_gpu_key_opts ko;
    memset(&ko, 0, sizeof ko);
    cuzk_gpu_key *k = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_gpu_key_upload(&k, &f.pk, g.r, &ko, &err);
    check_detail(s == CUZK_ERR_MISMATCH && k == NULL, "a key with another circuit: CUZK_ERR_MISMATCH", err.msg);
    s = cuzk_gpu_key_upload(&k, &f.pk, NULL, &ko, &err);
    check_detail(s == CUZK_ERR_INVALID_ARG && k == NULL, "a bellperson key without circuit: CUZK_ERR_INVALID_ARG",
                 err.msg);

    ko.placement = CUZK_GPU_KEY_RESIDENT;
    ko.vram_budget = 1 << 20;
    s = cuzk_gpu_key_upload(&k, &f.pk, f.r, &ko, &err);
    check_detail(s == CUZK_ERR_NOMEM && k == NULL && strstr(err.msg, "GiB") != NULL,
                 "resident in a 1 MiB budget: CUZK_ERR_NOMEM with the sizes", err.msg);
    ko.placement = CUZK_GPU_KEY_AUTO;
    s = cuzk_gpu_key_upload(&k, &f.pk, f.r, &ko, &err);
    check_detail(s == CUZK_ERR_NOMEM && k == NULL, "auto in a 1 MiB budget: CUZK_ERR_NOMEM", err.msg);

    /* a budget that holds everything but the bases: AUTO falls back to STREAMED, and proves the same */
    cuzk_gpu_key_info info;
    ko.vram_budget = 0;
    s = cuzk_gpu_key_upload(&k, &f.pk, f.r, &ko, &err);
    if (s == CUZK_OK) {
        cuzk_gpu_key_get_info(k, &info);
        cuzk_gpu_key_free(k);
        k = NULL;
        uint64_t bases = (f.pk.h_len + f.pk.l_len + f.pk.a_len + f.pk.b_len) * sizeof(cuzk_g1_affine_t) +
                         f.pk.b_len * sizeof(cuzk_g2_affine_t);
        ko.stream_chunk = 256;
        ko.vram_budget = info.vram_bytes - bases + info.prover_vram_bytes + 2 * 256 * sizeof(cuzk_g2_affine_t) +
                         8 * cuzk_r1cs_num_vars(f.r) + 65536;
        s = cuzk_gpu_key_upload(&k, &f.pk, f.r, &ko, &err);
        check_detail(s == CUZK_OK, "auto in a budget without room for the bases", err.msg);
        if (s == CUZK_OK) {
            cuzk_gpu_key_get_info(k, &info);
            check_detail(info.placement == CUZK_GPU_KEY_STREAMED && info.pinned_bytes >= bases, "fallback to streamed",
                         NULL);
            compare("auto->streamed", &f, k, p, f.z, CUZK_R1CS_C_PRODUCT, 1);
            cuzk_gpu_key_free(k);
        }
    } else {
        check_detail(0, "gpu_key_upload", err.msg);
    }
    fixture_free(&g);
    fixture_free(&f);
}

/* the prover keeps its buffers: the third proof of a key allocates nothing more than the second, and a new prover
 * stays within the key's planned prover_vram_bytes: cuzk_gpu_prove_vram_bytes with split NTT tables, that plus the
 * whole tables with them (and the whole tables' proofs equal the split tables') */
static void check_steady(void)
{
    fixture f;
    if (!fixture_make(&f, 12, CUZK_GROTH16_BELLPERSON)) return;
    for (int split = 0; split < 2; split++) {
        cuzk_gpu_key *k = upload_tables(&f, CUZK_GPU_KEY_AUTO, 0, split);
        cuzk_gpu_prover *p = NULL;
        cuzk_errmsg err = {{0}};
        if (k != NULL && cuzk_gpu_prover_create(&p, NULL, &err) == CUZK_OK) {
            cuzk_groth16_prove_opts o = opts_rs(CUZK_R1CS_C_PRODUCT);
            cuzk_groth16_proof_t pr;
            cuzk_gpu_prove_stats s2, s3;
            cuzk_status a = cuzk_gpu_prove(&pr, p, k, f.z, &o, NULL, &err);
            cuzk_status b = cuzk_gpu_prove(&pr, p, k, f.z, &o, &s2, &err);
            cuzk_status c = cuzk_gpu_prove(&pr, p, k, f.z, &o, &s3, &err);
            check_detail(a == CUZK_OK && b == CUZK_OK && c == CUZK_OK, "repeated proofs", err.msg);
            check_detail(s2.vram_bytes == s3.vram_bytes, "steady state: no growth", NULL);
            cuzk_gpu_key_info info;
            cuzk_gpu_key_get_info(k, &info);
            uint64_t split_bound = cuzk_gpu_prove_vram_bytes(f.pk.domain_size, cuzk_r1cs_num_vars(f.r));
            char d[160];
            snprintf(d, sizeof d, "%llu bytes, planned %llu, split tables %llu", (unsigned long long)s3.vram_bytes,
                     (unsigned long long)info.prover_vram_bytes, (unsigned long long)split_bound);
            check_detail(s3.vram_bytes <= info.prover_vram_bytes, "steady state: within the planned prover bytes", d);
            check_detail(split ? info.prover_vram_bytes == split_bound : info.prover_vram_bytes > split_bound,
                         split ? "split tables: gpu_prove_vram_bytes" : "whole tables: more than split ones", d);
            compare(split ? "split NTT tables" : "whole NTT tables", &f, k, p, f.z, CUZK_R1CS_C_MATRIX, 0);
        }
        cuzk_gpu_prover_destroy(p);
        cuzk_gpu_key_free(k);
    }
    fixture_free(&f);
}

/* A prover reserved for a key allocates nothing at its first proofs (resident and streamed keys), whatever the sizes
 * of their tails, and its proofs equal the CPU's. */
static void check_reserved(void)
{
    cuzk_errmsg err = {{0}};
    check_detail(cuzk_gpu_prover_reserve(NULL, NULL, &err) == CUZK_ERR_INVALID_ARG, "reserve: NULL refused", NULL);
    for (int streamed = 0; streamed < 2; streamed++) {
        fixture f;
        if (!fixture_make(&f, streamed ? 10 : 12, CUZK_GROTH16_BELLPERSON)) return;
        cuzk_gpu_key *k = upload(&f, streamed ? CUZK_GPU_KEY_STREAMED : CUZK_GPU_KEY_AUTO, streamed ? 64 * 17 : 0);
        cuzk_gpu_prover *p = NULL;
        if (k != NULL && cuzk_gpu_prover_create(&p, NULL, &err) == CUZK_OK) {
            cuzk_status s = cuzk_gpu_prover_reserve(p, k, &err);
            check_detail(s == CUZK_OK, "gpu_prover_reserve", err.msg);
            uint64_t reserved = cuzk_gpu_prover_vram_bytes(p);
            cuzk_gpu_key_info info;
            cuzk_gpu_key_get_info(k, &info);
            check_detail(reserved > 0 && reserved <= info.prover_vram_bytes, "reserve: within the planned prover bytes",
                         NULL);
            compare(streamed ? "reserved, streamed" : "reserved", &f, k, p, f.z, CUZK_R1CS_C_PRODUCT, 1);
            /* witnesses with i/8 of their aux values random: tail MSMs of many sizes, which may take other windows
             * and group sizes than the reserve's own sizes */
            uint64_t nv = cuzk_r1cs_num_vars(f.r);
            cuzk_fr_t *z = malloc(nv * sizeof *z);
            for (int i = 1; z != NULL && i <= 8; i++) {
                memcpy(z, f.z, nv * sizeof *z);
                for (uint64_t j = f.r->num_inputs; j < nv; j++)
                    if (rnd() % 8 < (uint64_t)i) rand_fr(&z[j]);
                compare(streamed ? "reserved, streamed, random tails" : "reserved, random tails", &f, k, p, z,
                        CUZK_R1CS_C_MATRIX, 0);
            }
            free(z);
            char d[120];
            snprintf(d, sizeof d, "%llu bytes reserved, %llu after the proof", (unsigned long long)reserved,
                     (unsigned long long)cuzk_gpu_prover_vram_bytes(p));
            check_detail(cuzk_gpu_prover_vram_bytes(p) == reserved, "reserved: the first proof allocates nothing", d);
        }
        cuzk_gpu_prover_destroy(p);
        cuzk_gpu_key_free(k);
        fixture_free(&f);
    }
}

/* One pair proof of z (packed as `packed` says, when not NULL) with the H side keeping `share` of the H MSM
 * (negative: the share it learns) against the CPU's proof `cpu` of the fixture's witness with the same opts */
static void pair_case(const fixture *f, const cuzk_groth16_prove_opts *o, const cuzk_groth16_proof_t *cpu,
                      cuzk_gpu_prover *p0, const cuzk_gpu_key *k0, cuzk_gpu_prover *p1, const cuzk_gpu_key *k1,
                      int dev1, const char *what, double share, const cuzk_fr_t *z,
                      const cuzk_gpu_witness_packing *packed)
{
    char name[160];
    snprintf(name, sizeof name, "pair (devices 0 and %d) 2^%u %s %s, H side's share %s%.2f", dev1, f->log2,
             f->pk.conv == CUZK_GROTH16_SNARKJS ? "snarkjs" : "bellperson", what, share < 0 ? "learnt, set " : "",
             share);
    cuzk_errmsg err = {{0}};
    cuzk_groth16_msm_sums sums;
    cuzk_groth16_proof_t gpu;
    memset(&gpu, 0x5a, sizeof gpu);
    cuzk_gpu_prove_stats st;
    cuzk_gpu_prover_opts po;
    memset(&po, 0, sizeof po);
    po.fixed_h_share = share >= 0;
    po.h_share = share;
    cuzk_gpu_prover_set_opts(p0, &po);
    cuzk_status s = cuzk_gpu_prove_msms_pair(&sums, p0, k0, p1, k1, z, packed, o, &st, &err);
    if (s == CUZK_OK) s = cuzk_groth16_assemble(&gpu, cuzk_gpu_key_vk(k0), &sums, o);
    check_detail(s == CUZK_OK, name, err.msg);
    if (s != CUZK_OK) return;
    check_detail(memcmp(cpu, &gpu, sizeof gpu) == 0, name, "proofs differ");
    check_detail(share < 0 ? st.h_share >= 0 && st.h_share <= 1 : fabs(st.h_share - share) < 1e-3, name,
                 "the share reported is not the share set");
    check_detail((st.h_share < 1) == (st.msm_h_other > 0), name, "the second side's H time does not match its share");
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, cuzk_gpu_key_vk(k0));
    check_detail(cuzk_groth16_verify(&pvk, &gpu, f->z + 1, cuzk_gpu_key_vk(k0)->num_inputs - 1) == CUZK_OK, name,
                 "pair proof does not verify");
    printf("  %s: h side %.2f ms (upload %.2f spmv %.2f h %.2f msm h %.2f), other side msm l %.2f a %.2f b1 %.2f "
           "b2 %.2f h %.2f (share %.3f), total %.2f ms\n",
           name, (st.upload + st.spmv + st.ntt_h + st.msm_h) * 1e3, st.upload * 1e3, st.spmv * 1e3, st.ntt_h * 1e3,
           st.msm_h * 1e3, st.msm_l * 1e3, st.msm_a * 1e3, st.msm_b1 * 1e3, st.msm_b2 * 1e3, st.msm_h_other * 1e3,
           1 - st.h_share, st.total * 1e3);
}

/* Latency mode: the H side on one prover and the L, A, B sides on another (device 1 with its own copy of the key when
 * there is a second device, else a second copy on device 0) give the CPU's proof; keys of two setups, one prover for
 * both sides and an unsatisfied witness are refused. */
static void check_pair(void)
{
    int dev1 = cuzk_gpu_device_count() > 1 ? 1 : 0;
    for (int snarkjs = 0; snarkjs < 2; snarkjs++) {
        fixture f, g;
        if (!fixture_make(&f, snarkjs ? 10 : 12, snarkjs ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON)) return;
        if (!fixture_make(&g, snarkjs ? 10 : 12, snarkjs ? CUZK_GROTH16_SNARKJS : CUZK_GROTH16_BELLPERSON)) {
            fixture_free(&f);
            return;
        }
        cuzk_errmsg err = {{0}};
        cuzk_gpu_key *k0 = upload(&f, CUZK_GPU_KEY_AUTO, 0), *other = upload(&g, CUZK_GPU_KEY_AUTO, 0), *k1 = NULL;
        cuzk_gpu_prover *p0 = NULL, *p1 = NULL;
        cuzk_gpu_prover_create(&p0, NULL, &err);
        cuzk_gpu_set_device(dev1);
        k1 = upload(&f, CUZK_GPU_KEY_AUTO, 0);
        cuzk_gpu_prover_create(&p1, NULL, &err);
        cuzk_gpu_set_device(0);
        if (k0 != NULL && k1 != NULL && other != NULL && p0 != NULL && p1 != NULL) {
            /* the H side keeping all of the H MSM, none of it, a part, and the share it learns from its timings */
            const double shares[] = {1, 0, 0.37, -1, -1};
            cuzk_groth16_prove_opts o = opts_rs(CUZK_R1CS_C_PRODUCT);
            cuzk_groth16_proof_t cpu;
            cuzk_groth16_msm_sums sums;
            cuzk_status s1 = cuzk_groth16_prove(&cpu, &f.pk, snarkjs ? NULL : f.r, f.z, &o, NULL, &err);
            check_detail(s1 == CUZK_OK, "pair: the CPU proof", err.msg);
            for (size_t i = 0; i < sizeof shares / sizeof shares[0] && s1 == CUZK_OK; i++)
                pair_case(&f, &o, &cpu, p0, k0, p1, k1, dev1, "resident", shares[i], f.z, NULL);
            if (!snarkjs && s1 == CUZK_OK) { /* keys streamed from pinned host memory, in chunks of 64 · 17 points */
                cuzk_gpu_key *s0 = upload(&f, CUZK_GPU_KEY_STREAMED, 64 * 17), *s1k = NULL;
                cuzk_gpu_set_device(dev1);
                s1k = upload(&f, CUZK_GPU_KEY_STREAMED, 64 * 17);
                cuzk_gpu_set_device(0);
                if (s0 != NULL && s1k != NULL) {
                    pair_case(&f, &o, &cpu, p0, s0, p1, s1k, dev1, "streamed", 0.37, f.z, NULL);
                    pair_case(&f, &o, &cpu, p0, s0, p1, s1k, dev1, "streamed", -1, f.z, NULL);
                }
                cuzk_gpu_key_free(s0);
                cuzk_gpu_key_free(s1k);
            }
            if (s1 == CUZK_OK) { /* the witness packed: both sides unpack it */
                uint64_t ni = f.r->num_inputs, na = f.r->num_aux;
                cuzk_fr_t *pz = malloc((ni + na) * sizeof *pz);
                uint64_t *classes = malloc(cuzk_gpu_witness_classes_words(na) * sizeof *classes + 8);
                if (pz != NULL && classes != NULL) {
                    memcpy(pz, f.z, (ni + na) * sizeof *pz);
                    cuzk_gpu_witness_packing pk;
                    cuzk_gpu_witness_pack(&pk, pz, ni, na, classes, 5);
                    pair_case(&f, &o, &cpu, p0, k0, p1, k1, dev1, "packed witness", 0.37, pz, &pk);
                }
                free(pz);
                free(classes);
            }
            cuzk_status s = cuzk_gpu_prove_msms_pair(&sums, p0, k0, p1, other, f.z, NULL, &o, NULL, &err);
            check_detail(s == CUZK_ERR_INVALID_ARG, "pair: keys of two setups refused (CUZK_ERR_INVALID_ARG)", err.msg);
            s = cuzk_gpu_prove_msms_pair(&sums, p0, k0, p0, k0, f.z, NULL, &o, NULL, &err);
            check_detail(s == CUZK_ERR_INVALID_ARG, "pair: one prover for both sides refused (CUZK_ERR_INVALID_ARG)",
                         err.msg);
            if (!snarkjs) {
                cuzk_fr_t *bad = malloc(cuzk_r1cs_num_vars(f.r) * sizeof *bad);
                if (bad != NULL) {
                    memcpy(bad, f.z, cuzk_r1cs_num_vars(f.r) * sizeof *bad);
                    uint64_t j = f.r->num_inputs + rnd() % f.r->num_aux; /* one aux value changed, as above */
                    cuzk_fr_t one;
                    cuzk_fr_set_one(&one);
                    cuzk_fr_add(&bad[j], &bad[j], &one);
                    cuzk_groth16_prove_opts oc = opts_rs(CUZK_R1CS_C_CHECKED);
                    s = cuzk_gpu_prove_msms_pair(&sums, p0, k0, p1, k1, bad, NULL, &oc, NULL, &err);
                    check_detail(s == CUZK_ERR_R1CS_UNSATISFIED,
                                 "pair: unsatisfied witness (CUZK_ERR_R1CS_UNSATISFIED)", err.msg);
                    free(bad);
                }
            }
        } else {
            check_detail(0, "pair: keys and provers", err.msg);
        }
        cuzk_gpu_prover_destroy(p0);
        cuzk_gpu_prover_destroy(p1);
        cuzk_gpu_key_free(k0);
        cuzk_gpu_key_free(k1);
        cuzk_gpu_key_free(other);
        fixture_free(&g);
        fixture_free(&f);
    }
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int rc = gpu_test_start();
    if (rc != 0) return rc;
    cuzk_gpu_prover *p = NULL;
    cuzk_errmsg err = {{0}};
    if (cuzk_gpu_prover_create(&p, NULL, &err) != CUZK_OK) {
        printf("FAIL: gpu_prover_create: %s\n", err.msg);
        return 1;
    }
    static const unsigned sizes[] = {6, 8, 10, 13, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (quick && sizes[i] > 13) continue;
        check_bellperson(p, sizes[i], 0);
    }
    check_bellperson(p, 10, 1);
    check_bellperson(p, 13, 1);
    check_snarkjs(p, 8);
    check_snarkjs(p, 12);
    check_errors(p);
    check_packed(p, 12, CUZK_GROTH16_BELLPERSON);
    check_packed(p, 10, CUZK_GROTH16_SNARKJS);
    cuzk_gpu_prover_destroy(p);
    check_steady();
    check_reserved();
    check_pair();

    /* a second device, when there is one: key and prover there */
    if (cuzk_gpu_device_count() > 1 && cuzk_gpu_set_device(1) == CUZK_OK &&
        cuzk_gpu_prover_create(&p, NULL, &err) == CUZK_OK) {
        printf("device 1\n");
        check_bellperson(p, 12, 0);
        cuzk_gpu_prover_destroy(p);
        cuzk_gpu_set_device(0);
    }
    return gpu_test_finish();
}
