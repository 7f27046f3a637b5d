/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Registered proofs: every registered_proof number Curio sends, with the circuit geometry it selects, and the names
 * of the parameter files, derived as filecoin-proofs derives them (rust-filecoin-proofs-api registry.rs,
 * filecoin-proofs constants.rs and parameters.rs, storage-proofs-update constants.rs). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fil_internal.h"

/* Per sector size: bytes, nodes, tree R, tree D, SDR layers, PoRep partitions and challenges per partition,
 * NI-PoRep partitions, WindowPoSt sectors per partition, SnapDeals partitions, challenges, apex leaves, h. */
/* clang-format off */
#define K2_BYTES (2ULL << 10)
#define K2_NODES (1ULL << 6)
#define K2_TR {8, 0, 0, 2}
#define K2_TD {2, 0, 0, 6}
#define K2_POREP 1, 2, 2
#define K2_NI 13, 2, 2
#define K2_WINDOW 2
#define K2_SNAP 1, 10, 8, 1

#define M8_BYTES (8ULL << 20)
#define M8_NODES (1ULL << 18)
#define M8_TR {8, 0, 0, 6}
#define M8_TD {2, 0, 0, 18}
#define M8_POREP 1, 2, 2
#define M8_NI 13, 2, 2
#define M8_WINDOW 2
#define M8_SNAP 4, 10, 128, 10

#define M512_BYTES (512ULL << 20)
#define M512_NODES (1ULL << 24)
#define M512_TR {8, 0, 0, 8}
#define M512_TD {2, 0, 0, 24}
#define M512_POREP 1, 2, 2
#define M512_NI 13, 2, 2
#define M512_WINDOW 2
#define M512_SNAP 16, 86, 128, 10

#define G32_BYTES (32ULL << 30)
#define G32_NODES (1ULL << 30)
#define G32_TR {8, 8, 0, 9}
#define G32_TD {2, 0, 0, 30}
#define G32_POREP 10, 18, 11
#define G32_NI 126, 18, 11
#define G32_WINDOW 2349
#define G32_SNAP 16, 86, 128, 10

#define G64_BYTES (64ULL << 30)
#define G64_NODES (1ULL << 31)
#define G64_TR {8, 8, 2, 9}
#define G64_TD {2, 0, 0, 31}
#define G64_POREP 10, 18, 11
#define G64_NI 126, 18, 11
#define G64_WINDOW 2300
#define G64_SNAP 16, 86, 128, 10

/* the field order of cuzk_fil_proof */
#define ENTRY(CLS, ID, NAME, KIND, API, S, PARTS, CH, PS, PSC, LAYERS, APEX, H, PID, SRS)                              \
    {CLS, ID, NAME, KIND, API, S##_BYTES, S##_NODES, PARTS, CH, PS, PSC, LAYERS, S##_TR, S##_TD, APEX, H, {PID}, SRS}
#define SEAL_(ID, NAME, KIND, API, S, PARTS, CH, LAYERS, SRS)                                                          \
    ENTRY(CUZK_FIL_CLASS_SEAL, ID, NAME, KIND, API, S, PARTS, CH, 0, 0, LAYERS, 0, 0, ID, SRS)
#define SEAL(ID, NAME, KIND, API, S, PL, SRS) SEAL_(ID, NAME, KIND, API, S, PL, SRS)
#define WINNING(ID, NAME, S, SRS)                                                                                      \
    ENTRY(CUZK_FIL_CLASS_POST, ID, NAME, CUZK_FIL_KIND_WINNING_POST, CUZK_FIL_API_1_0, S, 1, 66, 66, 1, 0, 0, 0, 0, SRS)
#define WINDOW_(ID, NAME, API, S, SECTORS, SRS)                                                                        \
    ENTRY(CUZK_FIL_CLASS_POST, ID, NAME, CUZK_FIL_KIND_WINDOW_POST, API, S, 1, 10, SECTORS, 10, 0, 0, 0, 0, SRS)
#define WINDOW(ID, NAME, API, S, SECTORS, SRS) WINDOW_(ID, NAME, API, S, SECTORS, SRS)
/* clang-format on */
#define UPDATE_(ID, NAME, S, PARTS, CH, APEX, H, SRS)                                                                  \
    ENTRY(CUZK_FIL_CLASS_UPDATE, ID, NAME, CUZK_FIL_KIND_SNAP, CUZK_FIL_API_1_1, S, PARTS, CH, 0, 0, 0, APEX, H, ID,   \
          SRS)
#define UPDATE(ID, NAME, S, SNAP, SRS) UPDATE_(ID, NAME, S, SNAP, SRS)

#define P CUZK_FIL_KIND_POREP
#define PS CUZK_FIL_KIND_POREP_SYNTH
#define PN CUZK_FIL_KIND_POREP_NI
#define A10 CUZK_FIL_API_1_0
#define A11 CUZK_FIL_API_1_1
#define A12 CUZK_FIL_API_1_2

static const cuzk_fil_proof proofs[] = {
    /* abi.RegisteredSealProof (= rust-filecoin-proofs-api REGISTERED_PROOF_IDS) */
    SEAL(0, "StackedDrg2KiBV1", P, A10, K2, K2_POREP, "porep-2k"),
    SEAL(1, "StackedDrg8MiBV1", P, A10, M8, M8_POREP, "porep-8m"),
    SEAL(2, "StackedDrg512MiBV1", P, A10, M512, M512_POREP, "porep-512m"),
    SEAL(3, "StackedDrg32GiBV1", P, A10, G32, G32_POREP, "porep-32g"),
    SEAL(4, "StackedDrg64GiBV1", P, A10, G64, G64_POREP, "porep-64g"),
    SEAL(5, "StackedDrg2KiBV1_1", P, A11, K2, K2_POREP, "porep-2k"),
    SEAL(6, "StackedDrg8MiBV1_1", P, A11, M8, M8_POREP, "porep-8m"),
    SEAL(7, "StackedDrg512MiBV1_1", P, A11, M512, M512_POREP, "porep-512m"),
    SEAL(8, "StackedDrg32GiBV1_1", P, A11, G32, G32_POREP, "porep-32g"),
    SEAL(9, "StackedDrg64GiBV1_1", P, A11, G64, G64_POREP, "porep-64g"),
    /* synthetic PoRep: API 1.2 although the names say 1_1 */
    SEAL(10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", PS, A12, K2, K2_POREP, "porep-2k"),
    SEAL(11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", PS, A12, M8, M8_POREP, "porep-8m"),
    SEAL(12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", PS, A12, M512, M512_POREP, "porep-512m"),
    SEAL(13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", PS, A12, G32, G32_POREP, "porep-32g"),
    SEAL(14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", PS, A12, G64, G64_POREP, "porep-64g"),
    /* NI-PoRep: div_ceil(2253, 126) = 18 (test sizes div_ceil(26, 13) = 2) challenges, so the same circuit */
    SEAL(15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", PN, A12, K2, K2_NI, "porep-2k"),
    SEAL(16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", PN, A12, M8, M8_NI, "porep-8m"),
    SEAL(17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", PN, A12, M512, M512_NI, "porep-512m"),
    SEAL(18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", PN, A12, G32, G32_NI, "porep-32g"),
    SEAL(19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", PN, A12, G64, G64_NI, "porep-64g"),

    /* abi.RegisteredPoStProof; Go's StackedDrgWindow*V1_1 (10..14) are Rust's *V1_2 */
    WINNING(0, "StackedDrgWinning2KiBV1", K2, "winning-2k"),
    WINNING(1, "StackedDrgWinning8MiBV1", M8, "winning-8m"),
    WINNING(2, "StackedDrgWinning512MiBV1", M512, "winning-512m"),
    WINNING(3, "StackedDrgWinning32GiBV1", G32, "winning-32g"),
    WINNING(4, "StackedDrgWinning64GiBV1", G64, "winning-64g"),
    WINDOW(5, "StackedDrgWindow2KiBV1", A10, K2, K2_WINDOW, "wpost-2k"),
    WINDOW(6, "StackedDrgWindow8MiBV1", A10, M8, M8_WINDOW, "wpost-8m"),
    WINDOW(7, "StackedDrgWindow512MiBV1", A10, M512, M512_WINDOW, "wpost-512m"),
    WINDOW(8, "StackedDrgWindow32GiBV1", A10, G32, G32_WINDOW, "wpost-32g"),
    WINDOW(9, "StackedDrgWindow64GiBV1", A10, G64, G64_WINDOW, "wpost-64g"),
    WINDOW(10, "StackedDrgWindow2KiBV1_2", A12, K2, K2_WINDOW, "wpost-2k"),
    WINDOW(11, "StackedDrgWindow8MiBV1_2", A12, M8, M8_WINDOW, "wpost-8m"),
    WINDOW(12, "StackedDrgWindow512MiBV1_2", A12, M512, M512_WINDOW, "wpost-512m"),
    WINDOW(13, "StackedDrgWindow32GiBV1_2", A12, G32, G32_WINDOW, "wpost-32g"),
    WINDOW(14, "StackedDrgWindow64GiBV1_2", A12, G64, G64_WINDOW, "wpost-64g"),

    /* abi.RegisteredUpdateProof (API 1.1; porep_id from the enum's own number) */
    UPDATE(0, "StackedDrg2KiBV1", K2, K2_SNAP, "snap-2k"),
    UPDATE(1, "StackedDrg8MiBV1", M8, M8_SNAP, "snap-8m"),
    UPDATE(2, "StackedDrg512MiBV1", M512, M512_SNAP, "snap-512m"),
    UPDATE(3, "StackedDrg32GiBV1", G32, G32_SNAP, "snap-32g"),
    UPDATE(4, "StackedDrg64GiBV1", G64, G64_SNAP, "snap-64g"),
};

#define NPROOFS (sizeof proofs / sizeof proofs[0])

size_t cuzk_fil_proof_count(void) { return NPROOFS; }

const cuzk_fil_proof *cuzk_fil_proof_at(size_t i) { return i < NPROOFS ? &proofs[i] : NULL; }

const cuzk_fil_proof *cuzk_fil_proof_find(cuzk_fil_class cls, uint64_t id)
{
    for (size_t i = 0; i < NPROOFS; i++)
        if (proofs[i].cls == cls && proofs[i].id == id) return &proofs[i];
    return NULL;
}

const cuzk_fil_proof *cuzk_fil_proof_by_name(cuzk_fil_class cls, const char *name)
{
    for (size_t i = 0; name != NULL && i < NPROOFS; i++)
        if (proofs[i].cls == cls && strcmp(proofs[i].name, name) == 0) return &proofs[i];
    return NULL;
}

const cuzk_fil_proof *cuzk_fil_proof_by_srs_id(const char *srs_id)
{
    const cuzk_fil_proof *found = NULL;
    for (size_t i = 0; srs_id != NULL && i < NPROOFS; i++) {
        const cuzk_fil_proof *p = &proofs[i];
        if (strcmp(p->srs_id, srs_id) == 0 && p->kind != CUZK_FIL_KIND_POREP_SYNTH && p->kind != CUZK_FIL_KIND_POREP_NI)
            found = p; /* the last interactive one: the newest API */
    }
    return found;
}

cuzk_status cuzk_fil_proof_for_request(uint32_t proof_kind, uint64_t registered_proof, uint64_t sector_size,
                                       const cuzk_fil_proof **out, cuzk_errmsg *err)
{
    static const struct {
        uint32_t wire;
        cuzk_fil_class cls;
        int kind; /* -1: any of the class */
        const char *what;
    } wire[] = {
        {CUZK_FIL_WIRE_POREP, CUZK_FIL_CLASS_SEAL, -1, "RegisteredSealProof"},
        {CUZK_FIL_WIRE_SNAP, CUZK_FIL_CLASS_UPDATE, -1, "RegisteredUpdateProof"},
        {CUZK_FIL_WIRE_WINDOW_POST, CUZK_FIL_CLASS_POST, CUZK_FIL_KIND_WINDOW_POST, "RegisteredPoStProof"},
        {CUZK_FIL_WIRE_WINNING_POST, CUZK_FIL_CLASS_POST, CUZK_FIL_KIND_WINNING_POST, "RegisteredPoStProof"},
    };
    *out = NULL;
    for (size_t i = 0; i < sizeof wire / sizeof wire[0]; i++) {
        if (wire[i].wire != proof_kind) continue;
        const cuzk_fil_proof *p = cuzk_fil_proof_find(wire[i].cls, registered_proof);
        if (p == NULL)
            return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "registered_proof %llu is not a known %s",
                             (unsigned long long)registered_proof, wire[i].what);
        if (wire[i].kind >= 0 && (int)p->kind != wire[i].kind)
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "registered_proof %llu is %s, not a %s proof",
                             (unsigned long long)registered_proof, p->name,
                             cuzk_fil_kind_name((cuzk_fil_kind)wire[i].kind));
        if (sector_size != 0 && sector_size != p->sector_size) {
            char a[24], b[24];
            return cuzk_fail(err, CUZK_ERR_MISMATCH, "sector_size %s disagrees with registered_proof %s (%s)",
                             cuzk_fil_size_str(sector_size, a), p->name, cuzk_fil_size_str(p->sector_size, b));
        }
        *out = p;
        return CUZK_OK;
    }
    return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "proof_kind %u is not a Filecoin proof kind (1..4)", proof_kind);
}

void cuzk_fil_prover_id(uint64_t miner_id, uint8_t out[32])
{
    memset(out, 0, 32);
    int i = 0;
    do {
        out[i] = (uint8_t)(miner_id & 0x7f);
        miner_id >>= 7;
        if (miner_id != 0) out[i] |= 0x80;
        i++;
    } while (miner_id != 0);
}

/* ---- names ------------------------------------------------------------------------------------------------------- */

static const char *const kind_names[CUZK_FIL_KIND_COUNT] = {"porep", "porep-synthetic", "porep-ni", "winning", "window",
                                                            "snap",  "snap-poseidon"};

const char *cuzk_fil_kind_name(cuzk_fil_kind k) { return (unsigned)k < CUZK_FIL_KIND_COUNT ? kind_names[k] : "?"; }

int cuzk_fil_kind_parse(const char *s)
{
    for (int k = 0; s != NULL && k < CUZK_FIL_KIND_COUNT; k++)
        if (strcmp(s, kind_names[k]) == 0) return k;
    return -1;
}

const char *cuzk_fil_size_str(uint64_t bytes, char buf[24])
{
    static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = -1;
    uint64_t v = bytes;
    while (v >= 1024 && v % 1024 == 0 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u < 0) snprintf(buf, 24, "%" PRIu64, bytes);
    else snprintf(buf, 24, "%" PRIu64 "%s", v, unit[u]);
    return buf;
}

bool cuzk_fil_size_parse(const char *s, uint64_t *out)
{
    if (s == NULL || !isdigit((unsigned char)*s)) return false;
    uint64_t v = 0;
    while (isdigit((unsigned char)*s)) {
        if (v > (UINT64_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    int shift = 0;
    switch (tolower((unsigned char)*s)) {
    case '\0': break;
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    case 't': shift = 40; break;
    default: return false;
    }
    if (shift != 0) {
        s++;
        if (tolower((unsigned char)*s) == 'i') s++;
        if (tolower((unsigned char)*s) == 'b') s++;
        if (*s != '\0' || v > (UINT64_MAX >> shift)) return false;
    }
    *out = v << shift;
    return true;
}

/* A registry entry with the circuit geometry of (kind, size): the kinds of one circuit family share it. */
static const cuzk_fil_proof *geometry(cuzk_fil_kind kind, uint64_t sector_size)
{
    cuzk_fil_class cls = kind <= CUZK_FIL_KIND_POREP_NI ? CUZK_FIL_CLASS_SEAL
                         : kind >= CUZK_FIL_KIND_SNAP   ? CUZK_FIL_CLASS_UPDATE
                                                        : CUZK_FIL_CLASS_POST;
    for (size_t i = 0; i < NPROOFS; i++) {
        const cuzk_fil_proof *p = &proofs[i];
        if (p->cls != cls || p->sector_size != sector_size) continue;
        if (cls != CUZK_FIL_CLASS_POST || p->kind == kind) return p;
    }
    return NULL;
}

static int tree_display(const cuzk_fil_shape *s, char *out, size_t cap)
{
    return snprintf(out, cap, "merkletree-poseidon_hasher-%u-%u-%u", s->base, s->sub, s->top);
}

cuzk_status cuzk_fil_param_identifier(cuzk_fil_kind kind, uint64_t sector_size, char *out, size_t cap, cuzk_errmsg *err)
{
    const cuzk_fil_proof *g = (unsigned)kind < CUZK_FIL_KIND_COUNT ? geometry(kind, sector_size) : NULL;
    if (g == NULL) {
        char b[24];
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no %s circuit for %s sectors", cuzk_fil_kind_name(kind),
                         cuzk_fil_size_str(sector_size, b));
    }
    return cuzk_fil_geometry_identifier(g, out, cap, err);
}

cuzk_status cuzk_fil_geometry_identifier(const cuzk_fil_proof *g, char *out, size_t cap, cuzk_errmsg *err)
{
    char tree[64];
    tree_display(&g->tree_r, tree, sizeof tree);
    int n;
    switch (g->kind) {
    case CUZK_FIL_KIND_POREP:
    case CUZK_FIL_KIND_POREP_SYNTH:
    case CUZK_FIL_KIND_POREP_NI:
        /* storage-proofs-porep PublicParams::identifier over StackedGraph and BucketGraph's identifiers */
        n = snprintf(out, cap,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: %d "
                     "base_graph: drgraph::BucketGraph{size: %" PRIu64 "; degree: %d; hasher: poseidon_hasher} }, "
                     "challenges: LayerChallenges { layers: %u, max_count: %u }, tree: %s }",
                     CUZK_FIL_EXP_PARENTS, g->nodes, CUZK_FIL_DRG_PARENTS, g->layers, g->challenges, tree);
        break;
    case CUZK_FIL_KIND_WINNING_POST:
    case CUZK_FIL_KIND_WINDOW_POST:
        n = snprintf(out, cap,
                     "FallbackPoSt::PublicParams{sector_size: %" PRIu64 ", challenge_count: %u, "
                     "sector_count: %u}",
                     g->sector_size, g->post_sector_challenges, g->post_sectors);
        break;
    default: n = snprintf(out, cap, "empty_sector_update::PublicParams{ sector_nodes: %" PRIu64 " }", g->nodes); break;
    }
    if (n < 0 || (size_t)n >= cap) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "identifier needs %d bytes", n + 1);
    return CUZK_OK;
}

cuzk_status cuzk_fil_param_name(cuzk_fil_kind kind, uint64_t sector_size, bool vk, char *out, size_t cap,
                                cuzk_errmsg *err)
{
    char id[400];
    cuzk_status s = cuzk_fil_param_identifier(kind, sector_size, id, sizeof id, err);
    if (s != CUZK_OK) return s;
    uint8_t h[32];
    cuzk_fil_sha256(id, strlen(id), h);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", h[i]);
    const cuzk_fil_proof *g = geometry(kind, sector_size);
    char tree[64], prefix[128];
    tree_display(&g->tree_r, tree, sizeof tree);
    switch (kind) {
    case CUZK_FIL_KIND_POREP:
    case CUZK_FIL_KIND_POREP_SYNTH:
    case CUZK_FIL_KIND_POREP_NI:
        snprintf(prefix, sizeof prefix, "stacked-proof-of-replication-%s-sha256_hasher", tree);
        break;
    case CUZK_FIL_KIND_WINNING_POST:
    case CUZK_FIL_KIND_WINDOW_POST: snprintf(prefix, sizeof prefix, "proof-of-spacetime-fallback-%s", tree); break;
    case CUZK_FIL_KIND_SNAP: snprintf(prefix, sizeof prefix, "empty-sector-update-%s", tree); break;
    default: snprintf(prefix, sizeof prefix, "empty-sector-update-poseidon-%s", tree); break;
    }
    int n = snprintf(out, cap, "v28-%s-%s.%s", prefix, hex, vk ? "vk" : "params");
    if (n < 0 || (size_t)n >= cap) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "file name needs %d bytes", n + 1);
    return CUZK_OK;
}

cuzk_status cuzk_fil_proof_param_name(const cuzk_fil_proof *p, bool vk, char *out, size_t cap, cuzk_errmsg *err)
{
    return cuzk_fil_param_name(p->kind, p->sector_size, vk, out, cap, err);
}
