/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The circuits of registered proofs, by kind (a table: PoSt, SnapDeals and PoRep), and their shapes kept
 * as PCE files in a cache directory: built once in SHAPE mode, then mapped. SnapDeals' test sizes (geometries with no
 * registered proof, cuzk_fil_snap_geometry) are circuits of the table too.
 *
 * A cached shape is found by its key, "<srs id>-<16 hex digits>": the circuit's canonical name (one per parameter
 * file) and the first 8 bytes of SHA-256 over the synthesis version and the circuit's parameter identifier (what
 * Filecoin hashes into the parameter file name). A changed synthesis bumps the version, so an old file is never
 * mistaken for the new circuit. Where the circuit's R1CS identity is known (pinned below) the load checks it too. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fil_internal.h"

static cuzk_status post_blank(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err)
{
    cuzk_fil_post_geom g;
    cuzk_status s = cuzk_fil_post_geom_of(p, &g, err);
    if (s != CUZK_OK) return s;
    return cuzk_fil_post_synthesize(cs, &g, NULL, threads);
}

static const struct {
    cuzk_fil_kind kind;
    const char *version; /* names this synthesis; change it with any change to the rows */
    cuzk_status (*blank)(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err);
} circuits[] = {
    {CUZK_FIL_KIND_WINNING_POST, "cuzk fallback-post v1", post_blank},
    {CUZK_FIL_KIND_WINDOW_POST, "cuzk fallback-post v1", post_blank},
    {CUZK_FIL_KIND_SNAP, "cuzk empty-sector-update v1", cuzk_fil_snap_blank},
    {CUZK_FIL_KIND_POREP, "cuzk stacked-drg v1", cuzk_fil_porep_blank},
    {CUZK_FIL_KIND_POREP_SYNTH, "cuzk stacked-drg v1", cuzk_fil_porep_blank},
    {CUZK_FIL_KIND_POREP_NI, "cuzk stacked-drg v1", cuzk_fil_porep_blank},
};

static int circuit_index(const cuzk_fil_proof *p)
{
    for (size_t i = 0; p != NULL && i < sizeof circuits / sizeof circuits[0]; i++)
        if (circuits[i].kind == p->kind) return (int)i;
    return -1;
}

static cuzk_status need_circuit(const cuzk_fil_proof *p, int *idx, cuzk_errmsg *err)
{
    if (p == NULL) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no registered proof");
    *idx = circuit_index(p);
    if (*idx < 0)
        return cuzk_fail(err, CUZK_ERR_NOT_FOUND, "%s: no %s circuit here", p->name, cuzk_fil_kind_name(p->kind));
    return CUZK_OK;
}

bool cuzk_fil_circuit_supported(const cuzk_fil_proof *p) { return circuit_index(p) >= 0; }

cuzk_status cuzk_fil_circuit_synthesize(cuzk_cs *cs, const cuzk_fil_proof *p, unsigned threads, cuzk_errmsg *err)
{
    int i;
    cuzk_status s = need_circuit(p, &i, err);
    if (s != CUZK_OK) {
        cuzk_cs_fail(cs, s, "%s", err != NULL ? err->msg : "no circuit");
        return s;
    }
    s = circuits[i].blank(cs, p, threads, err);
    if (s == CUZK_OK) s = cuzk_cs_status(cs);
    if (s != CUZK_OK && err != NULL && err->msg[0] == '\0') cuzk_fail(err, s, "%s", cuzk_cs_errmsg(cs));
    return s;
}

cuzk_status cuzk_fil_circuit_counts(const cuzk_fil_proof *p, cuzk_cs_counts *out, cuzk_errmsg *err)
{
    int i;
    cuzk_status s = need_circuit(p, &i, err);
    if (s != CUZK_OK) return s;
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for a constraint system");
    circuits[i].blank(cs, p, 1, NULL);
    cuzk_cs_get_counts(cs, out);
    return cuzk_cs_finish(cs, NULL, NULL, err);
}

cuzk_status cuzk_fil_circuit_shape(const cuzk_fil_proof *p, unsigned threads, cuzk_r1cs_t **out, cuzk_errmsg *err)
{
    *out = NULL;
    int i;
    cuzk_status s = need_circuit(p, &i, err);
    if (s != CUZK_OK) return s;
    cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
    if (cs == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for a constraint system");
    circuits[i].blank(cs, p, threads, NULL);
    return cuzk_cs_finish(cs, out, NULL, err);
}

cuzk_status cuzk_fil_circuit_key(const cuzk_fil_proof *p, char *out, size_t cap, cuzk_errmsg *err)
{
    int i;
    cuzk_status s = need_circuit(p, &i, err);
    if (s != CUZK_OK) return s;
    char id[512];
    int n = snprintf(id, sizeof id, "%s\n", circuits[i].version);
    if ((s = cuzk_fil_geometry_identifier(p, id + n, sizeof id - (size_t)n, err)) != CUZK_OK) return s;
    uint8_t h[32];
    cuzk_fil_sha256(id, strlen(id), h);
    n = snprintf(out, cap, "%s-%02x%02x%02x%02x%02x%02x%02x%02x", p->srs_id, h[0], h[1], h[2], h[3], h[4], h[5], h[6],
                 h[7]);
    if (n < 0 || (size_t)n >= cap) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "key needs %d bytes", n + 1);
    return CUZK_OK;
}

/* R1CS identities (cuzk_r1cs_identity, hex) of the circuits, by key: those small enough for a test are rebuilt and
 * compared by tests/filecoin/post and tests/filecoin/snap; WindowPoSt 32 and 64 GiB come from cuzk-bench post shape
 * (and the 32 GiB partition built from the real sector satisfied that shape), the SnapDeals ones from cuzk circuit
 * info (every size; SnapDeals' test sizes included). A changed synthesis that keeps its version is caught here. */
static const struct {
    const char *key, *identity;
} pinned[] = {
    {"winning-2k-cdc7ba10c7a0aebe", "3e7c3015ebffbaac4146814cf2ddc0705fbf85e1dc011c0a79e31b6f95313301"},
    {"winning-8m-648182271963a305", "07a0a8755918b388fa3cad24409e3e687f3ee113238074f8cb1319491521c806"},
    {"winning-512m-c770b3f9f34f89e1", "44aef8a085f78071d7f32d3e5014cb5292c1beb104fb7704b26f366d47d7bb07"},
    {"winning-32g-527d6199ac76cc0c", "27bd36c91966d3d1e4a045d065938e8c12a0549e2d1693dcbd089b023d04d9de"},
    {"winning-64g-588f3f213b5a1cb6", "a899ef9bfd66f5a5843ffcfd8072d163b27e5eebef959941f5474f3bee2faa86"},
    {"wpost-2k-572fa728a731a5e2", "40eda6d0e7ddcee2407ba68e5e3e8fd42d199916d786277823be8c53f9b5e988"},
    {"wpost-8m-7e8cc2108ebd7428", "fc362d0e6331e31e224a05d78b1e8982c9fab4e6cd33d7beefe721d58666384e"},
    {"wpost-512m-f83e228ef3276ae5", "f60c3a7be404706d59f5a953459a8c104373e588eedb6c289753ac20a251e898"},
    {"wpost-32g-9be1c283a4dd1f77", "e7d2d90567628347983ed3bc61515dd690ad1b4ddcb028b4c8f3299f1ddf8b66"},
    {"wpost-64g-73bfdc309f1228a1", "b869c137d3b58c500c6c07bdf451c22af17474e60f7152ddf5cc8f4818d161e9"},
    {"snap-1k-e84737b91eccfff0", "e7173162dd8800b30f695ad6665f05fe4a9a556b8ebdf7e80c380338de026d03"},
    {"snap-2k-efd7e86014426f0e", "e10294e5c02b06d34a8f6b32d5fe412884368b5a217ea3297201696a6320afc9"},
    {"snap-4k-5c4502919544b4eb", "37e267339678887375f5bfdcad07bf85d483085823b0eb26b986054ce79a5b84"},
    {"snap-8k-5b1981393e823090", "892e99fd5431e5101d27f30fcfa5a328adc126b653acd84af5ca7ccdcd9e3f07"},
    {"snap-16k-f77d0a953a4f717b", "76f1e9becf6b14baec7f22b59efe71dcda0ba7c4500f65306ab11e4fb676a375"},
    {"snap-32k-23b22a78208aae54", "0b8e2aa750d507e8689426246f378d8c489c361a3774b5ed52225656b1aeefb4"},
    {"snap-8m-398892c45d5aee8e", "c2489f7434c3e79b060b632bd180ed4ad00c5acb142ca620af89804c2fde8dec"},
    {"snap-16m-0be168673203cf44", "c0fc19775f848025a7073409beb709bf727972d2a33e947a6f5688c785056f06"},
    {"snap-512m-473cd0ab93afb161", "afa8bc58a7e1562026f02c802d8ed83b94eb08a8a12c9b83e1724e249516ff36"},
    {"snap-32g-ffbdc321b348dee4", "7d515b423a45e461c8c66375538547d697fd299201f821b85d9d13a68c4ec087"},
    {"snap-64g-28ef0bb6e611fcbc", "c70b0c248bed35a7a814831c8eb47849285a643016422a94b79406f62abecbe7"},
    /* PoRep: each of these shapes satisfied the test sealer's C1s (tests/filecoin/test_porep.c) */
    {"porep-2k-389ada2d68a0d957", "4ffb13da5826973b2c44ca2e37e5d6557d70b2429a38f260912370ac8788d19a"},
    {"porep-8m-01c64550f1875f87", "d14b66836fa0f6f3c202c7b4f8a60e260dcf5494ee6ae9aff97aeb768c05ace4"},
    {"porep-512m-da2d96eca0525f20", "ee80a34aeba7a32d63bf4d93c132d760471e9635a02cf167965b78da5d56b591"},
    {NULL, NULL},
};

static bool pinned_identity(const char *key, uint8_t out[32])
{
    for (size_t i = 0; pinned[i].key != NULL; i++) {
        if (strcmp(pinned[i].key, key) != 0) continue;
        for (int j = 0; j < 32; j++) {
            unsigned v;
            if (sscanf(pinned[i].identity + 2 * j, "%2x", &v) != 1) return false;
            out[j] = (uint8_t)v;
        }
        return true;
    }
    return false;
}

bool cuzk_fil_circuit_pinned_identity(const cuzk_fil_proof *p, uint8_t identity[32])
{
    char key[128];
    return cuzk_fil_circuit_key(p, key, sizeof key, NULL) == CUZK_OK && pinned_identity(key, identity);
}

cuzk_status cuzk_fil_shape_path(const char *dir, const cuzk_fil_proof *p, char *out, size_t cap, cuzk_errmsg *err)
{
    char key[128];
    cuzk_status s = cuzk_fil_circuit_key(p, key, sizeof key, err);
    if (s != CUZK_OK) return s;
    int n = snprintf(out, cap, "%s/%s.pce", dir, key);
    if (n < 0 || (size_t)n >= cap) return cuzk_fail(err, CUZK_ERR_TOO_LARGE, "path needs %d bytes", n + 1);
    return CUZK_OK;
}

cuzk_status cuzk_fil_shape_load_or_build(const char *dir, const cuzk_fil_proof *p, unsigned threads, unsigned flags,
                                         cuzk_r1cs_t **out, bool *built, cuzk_errmsg *err)
{
    *out = NULL;
    if (built != NULL) *built = false;
    if (dir == NULL || dir[0] == '\0') return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no shape cache directory");
    char path[4096], key[128];
    cuzk_status s = cuzk_fil_shape_path(dir, p, path, sizeof path, err);
    if (s != CUZK_OK || (s = cuzk_fil_circuit_key(p, key, sizeof key, err)) != CUZK_OK) return s;
    uint8_t want[32];
    bool known = pinned_identity(key, want);
    struct stat st;
    if (stat(path, &st) == 0) {
        cuzk_errmsg lerr = {{0}};
        s = cuzk_r1cs_pce_load(path, flags, known ? want : NULL, out, &lerr);
        if (s == CUZK_OK) return CUZK_OK;
        /* a damaged or foreign file under the key: replaced below */
    }
    cuzk_r1cs_t *r;
    if ((s = cuzk_fil_circuit_shape(p, threads, &r, err)) != CUZK_OK) return s;
    if (known && memcmp(r->identity, want, 32) != 0) {
        cuzk_r1cs_free(r);
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%s: the built shape's identity is not the pinned one", key);
    }
    if (mkdir(dir, 0755) != 0 && (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        int e = errno == EEXIST ? ENOTDIR : errno;
        cuzk_r1cs_free(r);
        return cuzk_fail(err, CUZK_ERR_IO, "%s: cannot create the directory: %s", dir, strerror(e));
    }
    /* written under a temporary name and renamed: readers never map a half-written file */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    s = cuzk_r1cs_pce_write(r, tmp, err);
    if (s == CUZK_OK && rename(tmp, path) != 0) s = cuzk_fail(err, CUZK_ERR_IO, "%s: %s", path, strerror(errno));
    if (s != CUZK_OK) {
        unlink(tmp);
        cuzk_r1cs_free(r);
        return s;
    }
    cuzk_r1cs_free(r);
    /* the caller gets the mapping, as on every later call */
    s = cuzk_r1cs_pce_load(path, flags | CUZK_R1CS_PCE_TRUSTED, NULL, out, err);
    if (s == CUZK_OK && built != NULL) *built = true;
    return s;
}
