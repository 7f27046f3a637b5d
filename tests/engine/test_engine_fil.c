/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Filecoin kinds through the engine (fil.c, keys.c), on the CPU backend: WindowPoSt and WinningPoSt jobs made
 * from generated 2 KiB vanilla proofs (cuzk-post-gen's sectors: real trees, real paths) prove with test keys of the
 * real circuits, a .params under its v28 name whose digest a manifest override lists, or a key generated from toxic
 * waste, and verify from public data alone; PoRep and SnapDeals requests of a sector sealed and updated here pass
 * their submission checks; every malformed request comes back FAILED with a message naming its field; a .params
 * whose digest is not the manifest's is refused with the two digests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"
#include "engine_internal.h"
#include "engine_test.h"
#include "post_gen.h"
#include "testutil.h"

static char f_dir[256];
static char f_manifest[400];
static char w_params[800]; /* wpost-2k's key under its v28 name */
static char w_digest[33];
static cuzk_groth16_vk w_vk;  /* read back from its .vk file */
static uint8_t R[32], R2[32]; /* randomness, below r */

/* ---- requests ---------------------------------------------------------------------------------------------------- */
typedef struct {
    uint8_t *buf;
    size_t len;
    uint64_t id;
    uint8_t comm_r[32];
} vproof;

/* The vanilla proofs of sectors ids[0 .. n) for registered PoSt proof `proof` (bincode, as Curio sends them), each
 * sector drawn from seed + i, its challenges those rand derives for its place in partition `partition`. */
static void gen_vproofs(uint64_t proof, const uint8_t rand[32], uint32_t partition, const uint64_t *ids, size_t n,
                        uint64_t seed, vproof *out)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, proof);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++) {
        post_gen_sector s;
        assert_int_equal(post_gen_sector_make(&s, &p->tree_r, p->nodes, seed + i, ids[i]), 0);
        uint64_t index = p->kind == CUZK_FIL_KIND_WINNING_POST ? 0 : (uint64_t)partition * p->post_sectors + i;
        assert_int_equal(post_gen_vanilla_bytes(p, &s, rand, index, &out[i].buf, &out[i].len), 0);
        out[i].id = ids[i];
        memcpy(out[i].comm_r, s.comm_r, 32);
        post_gen_sector_free(&s);
    }
}

static void free_vproofs(vproof *v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i].buf);
}

typedef struct {
    cuzk_engine_request r;
    cuzk_engine_bytes v[8];
} fil_request;

/* Curio's request: kind, registered proof (its sector size), vanilla proofs, randomness, miner 1000, partition. */
static fil_request post_req(uint32_t kind, uint64_t proof, const vproof *v, size_t n, const uint8_t *rand,
                            uint32_t partition)
{
    fil_request q;
    memset(&q, 0, sizeof q);
    q.r.proof_kind = kind;
    q.r.registered_proof = proof;
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, proof);
    q.r.sector_size = p != NULL ? p->sector_size : 0;
    for (size_t i = 0; i < n && i < 8; i++) q.v[i] = (cuzk_engine_bytes){v[i].buf, v[i].len};
    q.r.num_vanilla_proofs = n;
    q.r.randomness = (cuzk_engine_bytes){rand, 32};
    q.r.miner_id = 1000;
    q.r.partition_index = partition;
    return q;
}

/* submit (its own copy of the list) and wait */
static cuzk_engine_result run(cuzk_engine *e, fil_request *q)
{
    q->r.vanilla_proofs = q->v;
    char id[CUZK_ENGINE_ID_MAX];
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_submit(e, &q->r, id, NULL, NULL, &err);
    if (s != CUZK_OK) fprintf(stderr, "submit: %s\n", err.msg);
    assert_int_equal(s, CUZK_OK);
    cuzk_engine_result res;
    assert_int_equal(cuzk_engine_await(e, id, 0, &res), CUZK_OK);
    return res;
}

static void expect_failed(cuzk_engine *e, fil_request *q, const char *want)
{
    cuzk_engine_result res = run(e, q);
    if (res.status != CUZK_ENGINE_JOB_FAILED || strstr(res.error_message, want) == NULL)
        fprintf(stderr, "status %d, message \"%s\", want \"%s\"\n", res.status, res.error_message, want);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_FAILED);
    assert_non_null(strstr(res.error_message, want));
    assert_int_equal(res.proof_len, 0);
    cuzk_engine_result_clear(&res);
}

/* The proof against the public inputs a verifier derives (sector ids, comm_r, randomness, partition) with vk. */
static cuzk_status verify_post(const cuzk_groth16_vk *vk, uint64_t proof, const uint8_t *bytes, size_t len,
                               const vproof *v, size_t n, const uint8_t rand[32], uint32_t partition)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, proof);
    cuzk_fil_post_pub_sector pub[8];
    for (size_t i = 0; i < n; i++) {
        pub[i].sector_id = v[i].id;
        memcpy(pub[i].comm_r, v[i].comm_r, 32);
    }
    size_t ni = cuzk_fil_post_public_input_count(p);
    cuzk_fr_t *in = malloc(ni * sizeof *in);
    assert_non_null(in);
    assert_int_equal(cuzk_fil_post_public_inputs(p, rand, pub, n, partition, in, NULL), CUZK_OK);
    cuzk_groth16_proof_t pr;
    cuzk_status s = cuzk_groth16_proof_from_bytes(&pr, bytes, len);
    cuzk_groth16_pvk pvk;
    cuzk_groth16_prepare_vk(&pvk, vk);
    if (s == CUZK_OK) s = cuzk_groth16_verify(&pvk, &pr, in, ni);
    free(in);
    return s;
}

static cuzk_engine *start(const cuzk_engine_config *c)
{
    cuzk_engine *e = NULL;
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_engine_create(&e, c, &err);
    if (s != CUZK_OK) fprintf(stderr, "engine_create: %s\n", err.msg);
    assert_int_equal(s, CUZK_OK);
    return e;
}

static cuzk_engine_config fil_cfg(void)
{
    cuzk_engine_config c = engine_test_cfg(f_dir);
    c.param_manifest = f_manifest;
    c.backend = CUZK_ENGINE_BACKEND_CPU;
    return c;
}

/* ---- WindowPoSt and WinningPoSt ---------------------------------------------------------------------------------- */
static void test_window_post(void **state)
{
    (void)state;
    cuzk_engine_config c = fil_cfg();
    cuzk_engine *e = start(&c);
    uint64_t ids[2] = {5, 9};
    vproof v[2];
    gen_vproofs(10, R, 0, ids, 2, 77, v);

    /* a partition of two sectors (the 2 KiB circuit's two slots), Curio's request id */
    fil_request q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 10, v, 2, R, 0);
    snprintf(q.r.request_id, sizeof q.r.request_id, "wdpost-1000-0-[5 9]");
    cuzk_engine_result res = run(e, &q);
    if (res.status != CUZK_ENGINE_JOB_COMPLETED) fprintf(stderr, "%s\n", res.error_message);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 192);
    assert_int_equal(verify_post(&w_vk, 10, res.proof, res.proof_len, v, 2, R, 0), CUZK_OK);
    /* not a proof of other data: sectors swapped, another randomness */
    vproof sw[2] = {v[1], v[0]};
    assert_int_equal(verify_post(&w_vk, 10, res.proof, res.proof_len, sw, 2, R, 0), CUZK_ERR_PROOF_INVALID);
    assert_int_equal(verify_post(&w_vk, 10, res.proof, res.proof_len, v, 2, R2, 0), CUZK_ERR_PROOF_INVALID);
    cuzk_engine_result_clear(&res);

    /* one sector: the partition padded with it; the key and shape are already there */
    fil_request one = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 10, v + 1, 1, R, 0);
    res = run(e, &one);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(verify_post(&w_vk, 10, res.proof, res.proof_len, v + 1, 1, R, 0), CUZK_OK);
    cuzk_engine_result_clear(&res);

    /* the key is the circuit's SRS id, HOT, with its circuit (so a device could take a copy) */
    bool already = false;
    uint64_t ms;
    assert_int_equal(cuzk_engine_preload(e, "wpost-2k", &already, &ms, NULL), CUZK_OK);
    assert_true(already);
    cuzk_engine_status_report st;
    assert_int_equal(cuzk_engine_status(e, &st), CUZK_OK);
    assert_int_equal(st.num_srs, 1);
    assert_string_equal(st.srs[0].circuit_id, "wpost-2k");
    assert_int_equal(st.srs[0].tier, CUZK_ENGINE_TIER_HOT);
    cuzk_engine_status_clear(&st);
    char *j = cuzk_engine_status_json(e);
    assert_non_null(strstr(j, "\"pce\":[{\"circuit_id\":\"wpost-2k\""));
    free(j);
    /* the shape went to the shape cache, <param_dir>/cuzk-pce/<key>.pce */
    char pce[1024], dir[512];
    snprintf(dir, sizeof dir, "%s/cuzk-pce", f_dir);
    assert_int_equal(cuzk_fil_shape_path(dir, cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 10), pce, sizeof pce, NULL),
                     CUZK_OK);
    assert_int_equal(access(pce, R_OK), 0);
    cuzk_engine_destroy(e);

    /* V1_0 (registered proof 5, the same circuit and key): challenges count the earlier partitions' sectors, so a
     * partition 1 request needs proofs made for partition 1 */
    e = start(&c);
    vproof v1[2];
    gen_vproofs(5, R, 1, ids, 2, 88, v1);
    q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 5, v1, 2, R, 1);
    res = run(e, &q);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(verify_post(&w_vk, 5, res.proof, res.proof_len, v1, 2, R, 1), CUZK_OK);
    assert_int_equal(verify_post(&w_vk, 5, res.proof, res.proof_len, v1, 2, R, 0), CUZK_ERR_PROOF_INVALID);
    cuzk_engine_result_clear(&res);
    q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 5, v1, 2, R, 0);
    expect_failed(e, &q, "vanilla_proofs[0]: sector 5: inclusion_proofs["); /* the first that differs */
    cuzk_engine_destroy(e);
    free_vproofs(v1, 2);
    free_vproofs(v, 2);
}

static void test_winning_post(void **state)
{
    (void)state;
    /* a key generated from toxic waste (the engine's test keys): no .params file for WinningPoSt here */
    cuzk_engine_config c = fil_cfg();
    c.fil_generated_keys = true;
    c.synthesis_threads = 2;
    c.prover_threads = 2;
    cuzk_engine *e = start(&c);
    uint64_t id = 7;
    vproof v;
    gen_vproofs(0, R, 0, &id, 1, 99, &v);
    fil_request q = post_req(CUZK_ENGINE_KIND_WINNING_POST, 0, &v, 1, R, 0);
    snprintf(q.r.request_id, sizeof q.r.request_id, "winpost-1000-0a1b");
    cuzk_engine_result res = run(e, &q);
    if (res.status != CUZK_ENGINE_JOB_COMPLETED) fprintf(stderr, "%s\n", res.error_message);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    assert_int_equal(res.proof_len, 192);
    /* the key's verifying key, the inputs derived here: the one sector's comm_r and 66 challenged leaves */
    const engine_key *k = e->keys;
    assert_string_equal(k->id, "winning-2k");
    assert_true(k->have_vk && k->generated);
    assert_int_equal(verify_post(&k->vk, 0, res.proof, res.proof_len, &v, 1, R, 0), CUZK_OK);
    assert_int_equal(verify_post(&k->vk, 0, res.proof, res.proof_len, &v, 1, R2, 0), CUZK_ERR_PROOF_INVALID);
    cuzk_engine_result_clear(&res);
    /* CRITICAL by default (the status queue names it winning-post) */
    cuzk_engine_destroy(e);
    free_vproofs(&v, 1);
}

/* ---- refusals ---------------------------------------------------------------------------------------------------- */
static void test_malformed(void **state)
{
    (void)state;
    cuzk_engine_config c = fil_cfg();
    cuzk_engine *e = start(&c);
    uint64_t ids[3] = {5, 9, 11};
    vproof v[3], win;
    gen_vproofs(10, R, 0, ids, 3, 77, v);
    gen_vproofs(0, R, 0, ids, 1, 99, &win);
    const uint32_t WIN = CUZK_ENGINE_KIND_WINNING_POST, WIN_DOW = CUZK_ENGINE_KIND_WINDOW_POST_PARTITION;
    fil_request q;

    /* a truncated vanilla proof, and one of another size's circuit */
    q = post_req(WIN_DOW, 10, v, 2, R, 0);
    q.v[1].len--;
    expect_failed(e, &q, "vanilla_proofs[1]: 5679 bytes, a StackedDrgWindow2KiBV1_2 FallbackPoStSectorProof has 5680");
    q = post_req(WIN_DOW, 11, v, 1, R, 0);
    expect_failed(e, &q, "vanilla_proofs[0]: 5680 bytes, a StackedDrgWindow8MiBV1_2 FallbackPoStSectorProof has");
    /* counts: WinningPoSt proves one sector; a 2 KiB WindowPoSt partition holds 1 or 2 */
    q = post_req(WIN, 0, v, 2, R, 0);
    expect_failed(e, &q, "vanilla_proofs: 2 given, StackedDrgWinning2KiBV1 proves one sector");
    q = post_req(WIN_DOW, 10, v, 3, R, 0);
    expect_failed(e, &q, "vanilla_proofs: 3 given, a StackedDrgWindow2KiBV1_2 partition holds 1 to 2 sectors");
    q = post_req(WIN_DOW, 10, v, 0, R, 0);
    expect_failed(e, &q, "vanilla_proofs: 0 given");
    /* a WindowPoSt vanilla proof (10 challenges) where WinningPoSt's (66) belongs */
    q = post_req(WIN, 0, v, 1, R, 0);
    expect_failed(e, &q, "vanilla_proofs[0]: 5680 bytes, a StackedDrgWinning2KiBV1 FallbackPoStSectorProof has");
    /* randomness: 32 bytes, below r */
    q = post_req(WIN, 0, &win, 1, R, 0);
    q.r.randomness.len = 31;
    expect_failed(e, &q, "randomness: 31 bytes, a PoSt challenge seed has 32");
    uint8_t big[32];
    memset(big, 0xff, sizeof big);
    q = post_req(WIN, 0, &win, 1, big, 0);
    expect_failed(e, &q, "randomness: not below the scalar field's modulus (last byte 0xff");
    /* another randomness than the proofs were made for: their openings are not its challenges */
    q = post_req(WIN, 0, &win, 1, R2, 0);
    expect_failed(e, &q, "vanilla_proofs[0]: sector 5: inclusion_proofs["); /* the first that differs */
    /* partition index: WinningPoSt has one */
    q = post_req(WIN, 0, &win, 1, R, 1);
    expect_failed(e, &q, "partition_index: 1, WinningPoSt has one partition (0)");
    /* registered proof against kind and sector size */
    q = post_req(WIN_DOW, 10, v, 2, R, 0);
    q.r.sector_size = (uint64_t)32 << 30;
    expect_failed(e, &q, "sector_size 32GiB disagrees with registered_proof StackedDrgWindow2KiBV1_2 (2KiB)");
    q = post_req(WIN, 10, v, 1, R, 0);
    expect_failed(e, &q, "registered_proof 10 is StackedDrgWindow2KiBV1_2, not a winning proof");
    q = post_req(WIN_DOW, 99, v, 1, R, 0);
    expect_failed(e, &q, "registered_proof 99 is not a known RegisteredPoStProof");
    /* a vanilla proof whose root is not its comm_r_last (refused when decoded), and one whose comm_c does not hash
     * with it to comm_r (found when its witness is made) */
    uint8_t *bad = malloc(v[0].len);
    assert_non_null(bad);
    memcpy(bad, v[0].buf, v[0].len);
    bad[v[0].len - 32] ^= 1;
    q = post_req(WIN_DOW, 10, v, 1, R, 0);
    q.v[0].data = bad;
    expect_failed(e, &q,
                  "vanilla_proofs[0]: vanilla_proof.sectors[0].inclusion_proofs[0].root: differs from comm_r_last");
    memcpy(bad, v[0].buf, v[0].len);
    bad[v[0].len - 64] ^= 1;
    expect_failed(e, &q, "partition 0: block 0: sector slot 0 (sector 5): comm_r is not Poseidon(comm_c, comm_r_last)");
    free(bad);

    /* and the engine still proves */
    q = post_req(WIN_DOW, 10, v, 2, R, 0);
    cuzk_engine_result res = run(e, &q);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&res);
    cuzk_engine_destroy(e);
    free_vproofs(v, 3);
    free_vproofs(&win, 1);
}

/* ---- the real 32 GiB sector, in Curio's request shapes ---------------------------------------------------------------
 * A real WindowPoSt vanilla proof (sector 1, randomness zero, registered proof 8) decodes and passes every check of a
 * request; with no key here the job then fails at its key, naming the missing file. */
static void test_real_sector(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/window-post-32g-sector.vproof", CUZK_FIL_FIXTURES);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[32768];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_int_equal(len, 24960);
    cuzk_engine_config c = fil_cfg();
    c.working_memory_budget = (uint64_t)1 << 40; /* admission is not what this is about: the key load is reached */
    cuzk_engine *e = start(&c);
    uint8_t zero[32] = {0};
    vproof v = {buf, len, 1, {0}};
    fil_request q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 8, &v, 1, zero, 0);
    expect_failed(e, &q, "cannot load circuit wpost-32g: ");
    expect_failed(e, &q, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524");
    /* the same sector twice: API 1.0 derives the second place's challenges from its index, so its openings are not
     * them; under API 1.2 (registered proof 13) they are */
    vproof two[2] = {v, v};
    q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 8, two, 2, zero, 0);
    expect_failed(e, &q, "vanilla_proofs[1]: sector 1: inclusion_proofs[0] opens leaf");
    q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 13, two, 2, zero, 0);
    expect_failed(e, &q, "cannot load circuit wpost-32g: ");
    /* a WinningPoSt request cannot take it (10 openings, not 66) */
    q = post_req(CUZK_ENGINE_KIND_WINNING_POST, 3, &v, 1, zero, 0);
    expect_failed(e, &q, "vanilla_proofs[0]: 24960 bytes, a StackedDrgWinning32GiBV1 FallbackPoStSectorProof has");
    cuzk_engine_destroy(e);
}

/* ---- PoRep and SnapDeals: what is checked at submission ----------------------------------------------------------
 * A 2 KiB sector sealed here (miner 1000, sector 7), its C1 in Curio's envelope and bare, and an update of it with
 * every partition's SnapDeals vanilla proof. No key is here: a request that passes every check fails at its key,
 * naming the missing file (proofs through the daemon: tests/server/test_seal.py). */
typedef struct {
    uint8_t *wrapped, *bare;
    size_t wrapped_len, bare_len;
    cuzk_fil_snap_update u;
} sealed_2k;

static uint8_t *c1_json(const cuzk_fil_c1 *c1, bool wrapped, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    assert_int_equal(cuzk_fil_c1_write_json(c1, wrapped, f, NULL), CUZK_OK);
    fclose(f);
    return (uint8_t *)buf;
}

/* A 2 KiB sector sealed for registered seal proof `proof` (its porep id, API and challenges), and its C1. */
static void seal_2k_for(sealed_2k *out, uint64_t proof)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, proof);
    cuzk_fil_sdr_seal_params sp = {.sector_size = 2048, .api = (cuzk_fil_sdr_api)p->api, .sector_id = 7, .threads = 2};
    memcpy(sp.porep_id, p->porep_id, 32);
    cuzk_fil_prover_id(1000, sp.prover_id);
    memset(sp.ticket, 3, 32);
    uint8_t seed[32];
    memset(seed, 5, 32);
    cuzk_fil_sdr_replica rep;
    assert_int_equal(cuzk_fil_sdr_seal(&sp, NULL, 0, &rep, NULL), CUZK_OK);
    cuzk_fil_c1 c1;
    assert_int_equal(cuzk_fil_porep_c1_from_replica(&rep, p, sp.ticket, seed, &c1, NULL), CUZK_OK);
    c1.sector_num = 7;
    out->wrapped = c1_json(&c1, true, &out->wrapped_len);
    out->bare = c1_json(&c1, false, &out->bare_len);
    cuzk_fil_c1_free(&c1);
    memset(&out->u, 0, sizeof out->u);
    if (proof != 5) {
        cuzk_fil_sdr_replica_free(&rep);
        return;
    }
    uint8_t *data = malloc(rep.nodes * 32);
    assert_non_null(data);
    for (uint64_t i = 0; i < rep.nodes * 32; i++) data[i] = (uint8_t)(i * 7 + 1);
    for (uint64_t i = 0; i < rep.nodes; i++) data[32 * i + 31] &= 0x3f;
    cuzk_fil_snap_update_in in = {cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, 0), rep.replica, data, rep.comm_c, 0, 2};
    assert_int_equal(cuzk_fil_snap_update_prove(&in, &out->u, NULL), CUZK_OK);
    assert_memory_equal(out->u.comm_r_old, rep.comm_r, 32);
    free(data);
    cuzk_fil_sdr_replica_free(&rep);
}

/* StackedDrg2KiBV1_1's sector, with an update of it. */
static void seal_2k(sealed_2k *out) { seal_2k_for(out, 5); }

static fil_request porep_request(uint64_t proof, const uint8_t *c1, size_t len, uint64_t sector, uint64_t miner)
{
    fil_request q;
    memset(&q, 0, sizeof q);
    q.r.proof_kind = CUZK_ENGINE_KIND_POREP_SEAL_COMMIT;
    q.r.registered_proof = proof;
    q.r.sector_size = 2048;
    q.r.vanilla_proof = (cuzk_engine_bytes){c1, len};
    q.r.sector_number = sector;
    q.r.miner_id = miner;
    return q;
}

static fil_request snap_request(const sealed_2k *s, const uint8_t *vanilla, size_t len, size_t n)
{
    fil_request q;
    memset(&q, 0, sizeof q);
    q.r.proof_kind = CUZK_ENGINE_KIND_SNAP_DEALS_UPDATE;
    q.r.registered_proof = 0;
    q.r.sector_size = 2048;
    for (size_t i = 0; i < n && i < 8; i++) q.v[i] = (cuzk_engine_bytes){vanilla, len};
    q.r.num_vanilla_proofs = n;
    q.r.comm_r_old = (cuzk_engine_bytes){s->u.comm_r_old, 32};
    q.r.comm_d_new = (cuzk_engine_bytes){s->u.comm_d_new, 32};
    q.r.comm_r_new = (cuzk_engine_bytes){s->u.comm_r_new, 32};
    q.r.sector_number = 7;
    q.r.miner_id = 1000;
    return q;
}

/* The first byte of challenge 0's tree D path (its first "hashes" array) changed by one; *len updated. */
static uint8_t *flip_path(const uint8_t *doc, size_t *len)
{
    static const char key[] = "\"hashes\":[[";
    char *b = malloc(*len + 8);
    assert_non_null(b);
    memcpy(b, doc, *len);
    b[*len] = 0;
    char *at = strstr(b, key), *end;
    assert_non_null(at);
    at += strlen(key);
    long v = strtol(at, &end, 10);
    char num[8];
    int k = snprintf(num, sizeof num, "%ld", (v + 1) % 256);
    memmove(at + k, end, strlen(end) + 1);
    memcpy(at, num, (size_t)k);
    *len = strlen(b);
    return (uint8_t *)b;
}

static void test_seal_requests(void **state)
{
    (void)state;
    sealed_2k s;
    seal_2k(&s);
    cuzk_engine_config c = fil_cfg();
    cuzk_engine *e = start(&c);
    fil_request q;

    /* PoRep: the envelope and the bare C1 pass every check, and then need the key */
    q = porep_request(5, s.wrapped, s.wrapped_len, 7, 1000);
    expect_failed(e, &q, "cannot load circuit porep-2k: ");
    expect_failed(e, &q, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138");
    q = porep_request(5, s.bare, s.bare_len, 7, 1000);
    expect_failed(e, &q, "cannot load circuit porep-2k: ");
    /* V1 (its graph) and synthetic PoRep (its challenges) sectors too: the same circuit and key */
    static const uint64_t others[2] = {0, 10};
    for (int i = 0; i < 2; i++) {
        sealed_2k o;
        seal_2k_for(&o, others[i]);
        q = porep_request(others[i], o.wrapped, o.wrapped_len, 7, 1000);
        expect_failed(e, &q, "cannot load circuit porep-2k: ");
        q = porep_request(5, o.wrapped, o.wrapped_len, 7, 1000);
        expect_failed(e, &q, "the C1 in vanilla_proof is for StackedDrg2KiBV1");
        free(o.wrapped);
        free(o.bare);
    }
    /* what does not fit, each named */
    q = porep_request(5, s.wrapped, 0, 7, 1000);
    expect_failed(e, &q, "vanilla_proof: empty");
    q = porep_request(5, s.wrapped, s.wrapped_len / 2, 7, 1000);
    expect_failed(e, &q, "vanilla_proof: Phase1Out: ");
    q = porep_request(0, s.wrapped, s.wrapped_len, 7, 1000);
    expect_failed(e, &q, "registered_proof 0 is StackedDrg2KiBV1, the C1 in vanilla_proof is for StackedDrg2KiBV1_1");
    q = porep_request(15, s.wrapped, s.wrapped_len, 7, 1000);
    expect_failed(e, &q, "NI-PoRep's commit phase 2 is a SnarkPack aggregate");
    q = porep_request(5, s.wrapped, s.wrapped_len, 8, 1000);
    expect_failed(e, &q, "sector_number 8 disagrees with vanilla_proof's SectorNum 7");
    q = porep_request(5, s.bare, s.bare_len, 8, 1000);
    expect_failed(e, &q, "vanilla_proof: replica_id: not the one prover id, sector 8");
    q = porep_request(5, s.wrapped, s.wrapped_len, 7, 1001);
    expect_failed(e, &q, "(prover id of miner_id 1001, sector_number 7)");
    q = porep_request(5, s.wrapped, s.wrapped_len, 7, 1000);
    q.r.sector_size = 8 << 20;
    expect_failed(e, &q, "sector_size 8MiB disagrees with registered_proof StackedDrg2KiBV1_1 (2KiB)");
    size_t bad_len = s.bare_len;
    uint8_t *bad = flip_path(s.bare, &bad_len);
    q = porep_request(5, bad, bad_len, 7, 1000);
    expect_failed(e, &q, "vanilla_proof: vanilla_proofs[0][0].comm_d_proofs: the path does not hash to its root");
    free(bad);

    /* SnapDeals: the update's one partition proof, the commitments as 32 bytes */
    const uint8_t *v = s.u.vanilla;
    size_t n = s.u.partition_bytes;
    q = snap_request(&s, v, n, 1);
    expect_failed(e, &q, "cannot load circuit snap-2k: ");
    q = snap_request(&s, v, n, 2);
    expect_failed(e, &q, "vanilla_proofs: 2 given, StackedDrg2KiBV1 has 1 partitions");
    q = snap_request(&s, v, n - 1, 1);
    expect_failed(e, &q, "vanilla_proofs[0]: 15063 bytes, a StackedDrg2KiBV1 PartitionProof has 15064");
    q = snap_request(&s, v, n, 1);
    q.r.comm_r_old.len = 31;
    expect_failed(e, &q, "comm_r_old: 31 bytes: a commitment is 32 bytes or a 39/40-byte CID");
    uint8_t big[32];
    memset(big, 0xff, 32);
    q = snap_request(&s, v, n, 1);
    q.r.comm_d_new = (cuzk_engine_bytes){big, 32};
    expect_failed(e, &q, "comm_d_new: not below the scalar field's modulus");
    q = snap_request(&s, v, n, 1);
    q.r.comm_r_new = q.r.comm_r_old; /* another update's: its challenges are others */
    expect_failed(e, &q, "vanilla_proofs[0]: ");
    uint8_t *flipped = malloc(n);
    assert_non_null(flipped);
    memcpy(flipped, v, n);
    flipped[n - 40] ^= 1; /* a sibling of the last challenge's last path */
    q = snap_request(&s, flipped, n, 1);
    expect_failed(e, &q, "vanilla_proofs[0]: ");
    free(flipped);
    q = snap_request(&s, v, n, 1);
    q.r.registered_proof = 9;
    expect_failed(e, &q, "registered_proof 9 is not a known RegisteredUpdateProof");

    cuzk_engine_destroy(e);
    free(s.wrapped);
    free(s.bare);
    cuzk_fil_snap_update_free(&s.u);
}

/* ---- the parameter file's digest --------------------------------------------------------------------------------- */
static void write_manifest(const char *path, const char *name, const char *digest)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "{\"%s\": {\"cid\": \"\", \"digest\": \"%s\", \"sector_size\": 2048}}\n", name, digest);
    fclose(f);
}

static void test_digest(void **state)
{
    (void)state;
    uint64_t ids[2] = {5, 9};
    vproof v[2];
    gen_vproofs(10, R, 0, ids, 2, 77, v);
    const char *name = strrchr(w_params, '/') + 1;

    /* the built-in manifest has the published file's digest, which a test key never has */
    cuzk_engine_config c = fil_cfg();
    c.param_manifest = NULL;
    cuzk_engine *e = start(&c);
    fil_request q = post_req(CUZK_ENGINE_KIND_WINDOW_POST_PARTITION, 10, v, 2, R, 0);
    const cuzk_fil_param *m = cuzk_fil_params_find(name);
    assert_non_null(m);
    char want[600];
    /* the name with its hash cut to 16 digits */
    snprintf(want, sizeof want,
             "cannot load circuit wpost-2k: checksum does not match the contents: %.81s....params: digest %s, the "
             "manifest's is %s",
             name, w_digest, m->digest);
    expect_failed(e, &q, want);
    expect_failed(e, &q, "verify_digest = false");
    bool already;
    uint64_t ms;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_engine_preload(e, "wpost-2k", &already, &ms, &err), CUZK_ERR_CHECKSUM);
    assert_non_null(strstr(err.msg, m->digest));
    cuzk_engine_destroy(e);

    /* an override that lists another digest */
    char path[600];
    snprintf(path, sizeof path, "%s/wrong.json", f_dir);
    write_manifest(path, name, "00112233445566778899aabbccddeeff");
    c.param_manifest = path;
    e = start(&c);
    expect_failed(e, &q, "the manifest's is 00112233445566778899aabbccddeeff");
    cuzk_engine_destroy(e);

    /* told not to check */
    c.param_manifest = NULL;
    c.skip_param_digest = true;
    e = start(&c);
    cuzk_engine_result res = run(e, &q);
    assert_int_equal(res.status, CUZK_ENGINE_JOB_COMPLETED);
    cuzk_engine_result_clear(&res);
    cuzk_engine_destroy(e);

    /* a manifest that cannot be read stops the engine's start, naming the file */
    c.skip_param_digest = false;
    FILE *f = fopen(path, "w");
    fputs("{\"x.params\": {\"digest\": 7}}", f);
    fclose(f);
    c.param_manifest = path;
    cuzk_engine *none = NULL;
    memset(&err, 0, sizeof err);
    assert_int_not_equal(cuzk_engine_create(&none, &c, &err), CUZK_OK);
    assert_null(none);
    assert_non_null(strstr(err.msg, "wrong.json: x.params: no \"digest\""));
    unlink(path);
    free_vproofs(v, 2);
}

/* ---- fixtures: the WindowPoSt 2 KiB circuit's test key under its v28 name, and a manifest listing its digest ---- */
static int fil_setup(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 10);
    char name[400], vkname[400];
    if (cuzk_fil_proof_param_name(p, false, name, sizeof name, NULL) != CUZK_OK ||
        cuzk_fil_proof_param_name(p, true, vkname, sizeof vkname, NULL) != CUZK_OK)
        return -1;
    cuzk_r1cs_t *cs = NULL;
    if (cuzk_fil_circuit_shape(p, 2, &cs, NULL) != CUZK_OK) return -1;
    cuzk_groth16_pk pk;
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    cuzk_status s = cuzk_groth16_setup(&pk, cs, &o, NULL);
    cuzk_r1cs_free(cs);
    if (s != CUZK_OK) return -1;
    char vkpath[800];
    snprintf(w_params, sizeof w_params, "%s/%s", f_dir, name);
    snprintf(vkpath, sizeof vkpath, "%s/%s", f_dir, vkname);
    s = cuzk_groth16_params_write(&pk, w_params, NULL);
    if (s == CUZK_OK) s = cuzk_groth16_vk_write(&pk.vk, vkpath, NULL);
    cuzk_groth16_pk_free(&pk);
    if (s != CUZK_OK || cuzk_groth16_vk_load(&w_vk, vkpath, NULL) != CUZK_OK) return -1;
    uint64_t bytes;
    if (cuzk_fil_file_digest(w_params, w_digest, &bytes, NULL) != CUZK_OK) return -1;
    snprintf(f_manifest, sizeof f_manifest, "%s/manifest.json", f_dir);
    write_manifest(f_manifest, name, w_digest);
    uint64_t st = test_rand_u64();
    post_gen_fr_bytes(&st, R);
    post_gen_fr_bytes(&st, R2);
    return 0;
}

static int fil_teardown(void **state)
{
    (void)state;
    cuzk_groth16_vk_free(&w_vk);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int run_fil_tests(void)
{
    snprintf(f_dir, sizeof f_dir, "/tmp/cuzk-engine-fil-XXXXXX");
    if (mkdtemp(f_dir) == NULL) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_post), cmocka_unit_test(test_winning_post),  cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_real_sector), cmocka_unit_test(test_seal_requests), cmocka_unit_test(test_digest),
    };
    return cmocka_run_group_tests_name("engine_fil", tests, fil_setup, fil_teardown);
}
