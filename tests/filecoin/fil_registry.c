/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Registered proofs: the table against rust-filecoin-proofs-api and filecoin-proofs' numbers, the parameter file
 * names derived from the circuits against parameters.json, Curio's SRS ids and the request mapping. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_JANSSON
#include <jansson.h>
#endif

#include "fil_tests.h"

#define GIB (1ULL << 30)

static const cuzk_fil_proof *find(cuzk_fil_class cls, uint64_t id)
{
    const cuzk_fil_proof *p = cuzk_fil_proof_find(cls, id);
    assert_non_null(p);
    return p;
}

static uint64_t shape_leaves(const cuzk_fil_shape *s)
{
    uint64_t n = 1;
    for (unsigned l = 0; l < cuzk_fil_shape_levels(s); l++) n *= cuzk_fil_shape_arity(s, l);
    return n;
}

/* Every entry is consistent with itself: lookups, porep_id, shapes covering the sector. */
static void test_table_consistent(void **state)
{
    (void)state;
    assert_int_equal(cuzk_fil_proof_count(), 20 + 15 + 5);
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        assert_ptr_equal(cuzk_fil_proof_find(p->cls, p->id), p);
        assert_ptr_equal(cuzk_fil_proof_by_name(p->cls, p->name), p);
        assert_int_equal(p->nodes * 32, p->sector_size);
        assert_int_equal(shape_leaves(&p->tree_r), p->nodes);
        assert_int_equal(shape_leaves(&p->tree_d), p->nodes);
        assert_int_equal(p->tree_d.base, 2);
        assert_true(cuzk_fil_shape_levels(&p->tree_d) <= CUZK_FIL_MAX_LEVELS);
        uint8_t want[32] = {0};
        if (p->cls != CUZK_FIL_CLASS_POST) want[0] = (uint8_t)p->id; /* id u64 LE ‖ nonce 0 ‖ zeros */
        assert_memory_equal(p->porep_id, want, 32);
        assert_non_null(cuzk_fil_proof_by_srs_id(p->srs_id));
    }
    assert_null(cuzk_fil_proof_find(CUZK_FIL_CLASS_SEAL, 20));
    assert_null(cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, 15));
    assert_null(cuzk_fil_proof_find(CUZK_FIL_CLASS_UPDATE, 5));
    assert_null(cuzk_fil_proof_by_name(CUZK_FIL_CLASS_SEAL, "StackedDrgWindow32GiBV1"));
}

/* The numbers of filecoin-proofs constants.rs, registry.rs and storage-proofs-update constants.rs. */
static void test_table_numbers(void **state)
{
    (void)state;
    const cuzk_fil_proof *p = find(CUZK_FIL_CLASS_SEAL, 8);
    assert_string_equal(p->name, "StackedDrg32GiBV1_1");
    assert_int_equal(p->kind, CUZK_FIL_KIND_POREP);
    assert_int_equal(p->api, CUZK_FIL_API_1_1);
    assert_int_equal(p->sector_size, 32 * GIB);
    assert_int_equal(p->partitions, 10);
    assert_int_equal(p->challenges, 18); /* div_ceil(176, 10) */
    assert_int_equal(p->layers, 11);
    assert_int_equal(p->tree_r.base, 8);
    assert_int_equal(p->tree_r.sub, 8);
    assert_int_equal(p->tree_r.top, 0);
    assert_int_equal(p->tree_r.base_levels, 9);
    assert_int_equal(cuzk_fil_shape_levels(&p->tree_d), 30);
    assert_int_equal(find(CUZK_FIL_CLASS_SEAL, 3)->api, CUZK_FIL_API_1_0);
    p = find(CUZK_FIL_CLASS_SEAL, 13);
    assert_int_equal(p->kind, CUZK_FIL_KIND_POREP_SYNTH);
    assert_int_equal(p->api, CUZK_FIL_API_1_2);
    assert_int_equal(p->partitions, 10);
    p = find(CUZK_FIL_CLASS_SEAL, 18);
    assert_string_equal(p->name, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
    assert_int_equal(p->partitions, 126);
    assert_int_equal(p->challenges, 18); /* div_ceil(2253, 126) */
    p = find(CUZK_FIL_CLASS_SEAL, 15);
    assert_int_equal(p->partitions, 13);
    assert_int_equal(p->challenges, 2);
    p = find(CUZK_FIL_CLASS_SEAL, 0);
    assert_int_equal(p->partitions, 1);
    assert_int_equal(p->challenges, 2);
    assert_int_equal(p->layers, 2);
    assert_int_equal(p->tree_r.base_levels, 2);
    p = find(CUZK_FIL_CLASS_SEAL, 4);
    assert_int_equal(p->tree_r.top, 2);
    assert_int_equal(cuzk_fil_shape_levels(&p->tree_r), 11);

    p = find(CUZK_FIL_CLASS_POST, 3);
    assert_string_equal(p->name, "StackedDrgWinning32GiBV1");
    assert_int_equal(p->kind, CUZK_FIL_KIND_WINNING_POST);
    assert_int_equal(p->challenges, 66);
    assert_int_equal(p->post_sectors, 66);
    assert_int_equal(p->post_sector_challenges, 1);
    p = find(CUZK_FIL_CLASS_POST, 8);
    assert_string_equal(p->name, "StackedDrgWindow32GiBV1");
    assert_int_equal(p->api, CUZK_FIL_API_1_0);
    assert_int_equal(p->post_sectors, 2349);
    assert_int_equal(p->post_sector_challenges, 10);
    p = find(CUZK_FIL_CLASS_POST, 13);
    assert_string_equal(p->name, "StackedDrgWindow32GiBV1_2");
    assert_int_equal(p->api, CUZK_FIL_API_1_2);
    assert_int_equal(find(CUZK_FIL_CLASS_POST, 14)->post_sectors, 2300);
    assert_int_equal(find(CUZK_FIL_CLASS_POST, 10)->post_sectors, 2);

    p = find(CUZK_FIL_CLASS_UPDATE, 3);
    assert_int_equal(p->kind, CUZK_FIL_KIND_SNAP);
    assert_int_equal(p->partitions, 16);
    assert_int_equal(p->challenges, 86);
    assert_int_equal(p->apex_leaves, 128);
    assert_int_equal(p->snap_h, 10);
    p = find(CUZK_FIL_CLASS_UPDATE, 1);
    assert_int_equal(p->partitions, 4);
    assert_int_equal(p->challenges, 10);
    p = find(CUZK_FIL_CLASS_UPDATE, 0);
    assert_int_equal(p->partitions, 1);
    assert_int_equal(p->apex_leaves, 8);
    assert_int_equal(p->snap_h, 1);
    assert_int_equal(find(CUZK_FIL_CLASS_UPDATE, 2)->challenges, 86);
}

static void test_identifier(void **state)
{
    (void)state;
    char id[400];
    assert_int_equal(cuzk_fil_param_identifier(CUZK_FIL_KIND_POREP, 32 * GIB, id, sizeof id, NULL), CUZK_OK);
    assert_string_equal(id, "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 "
                            "base_graph: drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }, "
                            "challenges: LayerChallenges { layers: 11, max_count: 18 }, tree: "
                            "merkletree-poseidon_hasher-8-8-0 }");
    assert_int_equal(cuzk_fil_param_identifier(CUZK_FIL_KIND_WINNING_POST, 2048, id, sizeof id, NULL), CUZK_OK);
    assert_string_equal(id, "FallbackPoSt::PublicParams{sector_size: 2048, challenge_count: 1, sector_count: 66}");
    assert_int_equal(cuzk_fil_param_identifier(CUZK_FIL_KIND_SNAP, 8ULL << 20, id, sizeof id, NULL), CUZK_OK);
    assert_string_equal(id, "empty_sector_update::PublicParams{ sector_nodes: 262144 }");
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_param_identifier(CUZK_FIL_KIND_POREP, 4096, id, sizeof id, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_param_name(CUZK_FIL_KIND_POREP, 32 * GIB, false, id, 20, &err), CUZK_ERR_TOO_LARGE);
}

/* The names Curio's cuzk (srs_manager.rs) hard-codes come out of the derivation. */
static void test_names_known(void **state)
{
    (void)state;
    static const struct {
        const char *srs;
        const char *params;
    } known[] = {
        {"porep-32g", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
                      "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"},
        {"porep-64g", "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
                      "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params"},
        {"wpost-32g", "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                      "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params"},
        {"winning-32g", "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                        "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params"},
        {"snap-32g", "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
                     "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18.params"},
        {"snap-64g", "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
                     "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_by_srs_id(known[i].srs);
        assert_non_null(p);
        char name[400];
        assert_int_equal(cuzk_fil_proof_param_name(p, false, name, sizeof name, NULL), CUZK_OK);
        assert_string_equal(name, known[i].params);
    }
}

/* Every registered proof's .params and .vk are manifest entries of its size and kind; together with the
 * unreachable SnapDeals-Poseidon circuit they are the whole manifest. */
static void test_names_match_manifest(void **state)
{
    (void)state;
    size_t n = cuzk_fil_params_count();
    assert_int_equal(n, 44);
    bool *hit = calloc(n, sizeof *hit);
    assert_non_null(hit);
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        for (int vk = 0; vk < 2; vk++) {
            char name[400];
            assert_int_equal(cuzk_fil_proof_param_name(p, vk, name, sizeof name, NULL), CUZK_OK);
            const cuzk_fil_param *e = cuzk_fil_params_find(name);
            if (e == NULL) fail_msg("%s: %s is not in parameters.json", p->name, name);
            assert_int_equal(e->sector_size, p->sector_size);
            assert_int_equal(e->vk, vk);
            cuzk_fil_kind family = p->kind <= CUZK_FIL_KIND_POREP_NI ? CUZK_FIL_KIND_POREP : p->kind;
            assert_int_equal(e->kind, family);
            hit[e - cuzk_fil_params_at(0)] = true;
        }
    }
    for (int s = 3; s < 5; s++) {
        uint64_t size = s == 3 ? 32 * GIB : 64 * GIB;
        for (int vk = 0; vk < 2; vk++) {
            char name[400];
            assert_int_equal(cuzk_fil_param_name(CUZK_FIL_KIND_SNAP_POSEIDON, size, vk, name, sizeof name, NULL),
                             CUZK_OK);
            const cuzk_fil_param *e = cuzk_fil_params_find(name);
            assert_non_null(e);
            assert_int_equal(e->kind, CUZK_FIL_KIND_SNAP_POSEIDON);
            hit[e - cuzk_fil_params_at(0)] = true;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!hit[i]) fail_msg("%s is derived from no circuit", cuzk_fil_params_at(i)->name);
    free(hit);
}

/* The compiled manifest is parameters.json, entry by entry and in its order. */
static void test_manifest_equals_json(void **state)
{
    (void)state;
#ifdef CUZK_HAVE_JANSSON
    json_error_t e;
    json_t *root = json_load_file(CUZK_FIL_MANIFEST, 0, &e);
    if (root == NULL) fail_msg("%s: %s", CUZK_FIL_MANIFEST, e.text);
    assert_true(json_is_object(root));
    assert_int_equal(json_object_size(root), cuzk_fil_params_count());
    size_t i = 0;
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        const cuzk_fil_param *p = cuzk_fil_params_at(i++);
        assert_string_equal(p->name, key);
        assert_string_equal(p->cid, json_string_value(json_object_get(v, "cid")));
        assert_string_equal(p->digest, json_string_value(json_object_get(v, "digest")));
        assert_int_equal(p->sector_size, (uint64_t)json_integer_value(json_object_get(v, "sector_size")));
        assert_int_equal(strlen(p->digest), 32);
        assert_int_equal(p->vk, strstr(key, ".vk") != NULL);
        assert_ptr_equal(cuzk_fil_params_find(key), p);
    }
    json_decref(root);
#else
    skip();
#endif
}

static void test_srs_ids(void **state)
{
    (void)state;
    static const struct {
        const char *srs;
        cuzk_fil_class cls;
        uint32_t id;
    } ids[] = {
        {"porep-32g", CUZK_FIL_CLASS_SEAL, 8},   {"porep-64g", CUZK_FIL_CLASS_SEAL, 9},
        {"wpost-32g", CUZK_FIL_CLASS_POST, 13},  {"wpost-64g", CUZK_FIL_CLASS_POST, 14},
        {"winning-32g", CUZK_FIL_CLASS_POST, 3}, {"winning-64g", CUZK_FIL_CLASS_POST, 4},
        {"snap-32g", CUZK_FIL_CLASS_UPDATE, 3},  {"snap-64g", CUZK_FIL_CLASS_UPDATE, 4},
        {"porep-2k", CUZK_FIL_CLASS_SEAL, 5},    {"wpost-8m", CUZK_FIL_CLASS_POST, 11},
        {"snap-512m", CUZK_FIL_CLASS_UPDATE, 2},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        assert_ptr_equal(cuzk_fil_proof_by_srs_id(ids[i].srs), find(ids[i].cls, ids[i].id));
    assert_null(cuzk_fil_proof_by_srs_id("porep-16g"));
    assert_null(cuzk_fil_proof_by_srs_id(NULL));
    /* proofs that share an SRS id share the parameter file */
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i), *q = cuzk_fil_proof_by_srs_id(p->srs_id);
        char a[400], b[400];
        assert_int_equal(cuzk_fil_proof_param_name(p, false, a, sizeof a, NULL), CUZK_OK);
        assert_int_equal(cuzk_fil_proof_param_name(q, false, b, sizeof b, NULL), CUZK_OK);
        assert_string_equal(a, b);
    }
}

static void test_for_request(void **state)
{
    (void)state;
    const cuzk_fil_proof *p;
    cuzk_errmsg err = {{0}};
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_POREP, 8, 32 * GIB, &p, &err), CUZK_OK);
    assert_ptr_equal(p, find(CUZK_FIL_CLASS_SEAL, 8));
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_WINDOW_POST, 13, 0, &p, &err), CUZK_OK);
    assert_ptr_equal(p, find(CUZK_FIL_CLASS_POST, 13));
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_WINNING_POST, 3, 32 * GIB, &p, &err), CUZK_OK);
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_SNAP, 3, 32 * GIB, &p, &err), CUZK_OK);
    assert_ptr_equal(p, find(CUZK_FIL_CLASS_UPDATE, 3));
    /* a window proof asked for as WinningPoSt, and the other way */
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_WINNING_POST, 13, 0, &p, &err), CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "StackedDrgWindow32GiBV1_2"));
    assert_null(p);
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_WINDOW_POST, 3, 0, &p, &err), CUZK_ERR_MISMATCH);
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_POREP, 8, 64 * GIB, &p, &err), CUZK_ERR_MISMATCH);
    assert_true(fil_test_has(err.msg, "sector_size 64GiB disagrees"));
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_POREP, 20, 0, &p, &err), CUZK_ERR_NOT_FOUND);
    assert_true(fil_test_has(err.msg, "registered_proof 20 is not a known RegisteredSealProof"));
    assert_int_equal(cuzk_fil_proof_for_request(CUZK_FIL_WIRE_SNAP, 5, 0, &p, &err), CUZK_ERR_NOT_FOUND);
    assert_int_equal(cuzk_fil_proof_for_request(0, 8, 0, &p, &err), CUZK_ERR_INVALID_ARG);
    assert_int_equal(cuzk_fil_proof_for_request(100, 8, 0, &p, &err), CUZK_ERR_INVALID_ARG);
}

static void test_sizes_and_kinds(void **state)
{
    (void)state;
    char b[24];
    assert_string_equal(cuzk_fil_size_str(2048, b), "2KiB");
    assert_string_equal(cuzk_fil_size_str(512ULL << 20, b), "512MiB");
    assert_string_equal(cuzk_fil_size_str(32 * GIB, b), "32GiB");
    assert_string_equal(cuzk_fil_size_str(1000, b), "1000");
    static const struct {
        const char *s;
        uint64_t v;
    } ok[] = {{"2KiB", 2048},         {"2k", 2048},        {"8MiB", 8ULL << 20},
              {"512m", 512ULL << 20}, {"32GiB", 32 * GIB}, {"32G", 32 * GIB},
              {"64gib", 64 * GIB},    {"32gb", 32 * GIB},  {"34359738368", 32 * GIB}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint64_t v = 0;
        assert_true(cuzk_fil_size_parse(ok[i].s, &v));
        assert_int_equal(v, ok[i].v);
    }
    static const char *const bad[] = {"", "G", "-1", "32x", "32GiBs", "99999999999999999999", "17179869184T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        assert_false(cuzk_fil_size_parse(bad[i], &v));
        assert_int_equal(v, 7);
    }
    for (int k = 0; k < CUZK_FIL_KIND_COUNT; k++) assert_int_equal(cuzk_fil_kind_parse(cuzk_fil_kind_name(k)), k);
    assert_int_equal(cuzk_fil_kind_parse("wpost"), -1);
}

/* The fixture's prover 1000 is the ID address payload e8 07. */
static void test_prover_id(void **state)
{
    (void)state;
    uint8_t id[32], want[32] = {0xe8, 0x07};
    cuzk_fil_prover_id(1000, id);
    assert_memory_equal(id, want, 32);
    memset(want, 0, 32);
    cuzk_fil_prover_id(0, id);
    assert_memory_equal(id, want, 32);
    cuzk_fil_prover_id(127, id);
    want[0] = 127;
    assert_memory_equal(id, want, 32);
    cuzk_fil_prover_id(UINT64_MAX, id);
    for (int i = 0; i < 9; i++) assert_int_equal(id[i], 0xff);
    assert_int_equal(id[9], 0x01);
    assert_int_equal(id[10], 0);
}

const struct CMUnitTest fil_registry_tests[] = {
    cmocka_unit_test(test_table_consistent),
    cmocka_unit_test(test_table_numbers),
    cmocka_unit_test(test_identifier),
    cmocka_unit_test(test_names_known),
    cmocka_unit_test(test_names_match_manifest),
    cmocka_unit_test(test_manifest_equals_json),
    cmocka_unit_test(test_srs_ids),
    cmocka_unit_test(test_for_request),
    cmocka_unit_test(test_sizes_and_kinds),
    cmocka_unit_test(test_prover_id),
};
const size_t fil_registry_count = sizeof fil_registry_tests / sizeof fil_registry_tests[0];
