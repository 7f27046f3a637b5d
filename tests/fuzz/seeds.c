/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Seed corpora: small valid inputs of every format, made with the library's own writers from synthetic circuits of
 * 2^4 and 2^5 constraints and fixed toxic waste, so that every run starts from the same files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int seed_write(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cuzk_errmsg err;
    if (cuzk_write_file(path, data, len, &err) != CUZK_OK) {
        fprintf(stderr, "seed %s: %s\n", path, err.msg);
        return -1;
    }
    return 1;
}

/* A circuit of 2^log2 constraints, its witness and a key in convention conv (fixed toxic waste). */
typedef struct {
    cuzk_r1cs_t *r;
    cuzk_fr_t *z;
    cuzk_groth16_pk pk;
} seed_circuit;

static int seed_circuit_make(seed_circuit *c, unsigned log2, cuzk_groth16_convention conv)
{
    memset(c, 0, sizeof *c);
    if (cuzk_circuits_synthetic(log2, 7 + log2, 1, &c->r, &c->z, NULL) != CUZK_OK) return -1;
    cuzk_groth16_setup_opts o;
    memset(&o, 0, sizeof o);
    o.conv = conv;
    o.given_toxic = true;
    cuzk_fr_t *v[5] = {&o.tau, &o.alpha, &o.beta, &o.gamma, &o.delta};
    for (int i = 0; i < 5; i++) cuzk_fr_from_u64(v[i], 1000003u * (uint64_t)(i + 2) + log2);
    return cuzk_groth16_setup(&c->pk, c->r, &o, NULL) == CUZK_OK ? 0 : -1;
}

static void seed_circuit_free(seed_circuit *c)
{
    cuzk_groth16_pk_free(&c->pk);
    cuzk_r1cs_free(c->r);
    free(c->z);
}

/* Writes one file per circuit size through emit(); sums what they return. */
static int seed_each(const char *dir, cuzk_groth16_convention conv,
                     int (*emit)(const char *dir, const seed_circuit *c, unsigned log2))
{
    int made = 0;
    for (unsigned log2 = 4; log2 <= 5; log2++) {
        seed_circuit c;
        int k = seed_circuit_make(&c, log2, conv) == 0 ? emit(dir, &c, log2) : -1;
        seed_circuit_free(&c);
        if (k < 0) return -1;
        made += k;
    }
    return made;
}

/* A file the library writes to a path, copied into the seed directory as name. */
static int seed_from_file(const char *dir, const char *name, cuzk_status (*write)(const seed_circuit *, const char *),
                          const seed_circuit *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return write(c, path) == CUZK_OK ? 1 : -1;
}

static cuzk_status write_params(const seed_circuit *c, const char *path)
{
    return cuzk_groth16_params_write(&c->pk, path, NULL);
}
static cuzk_status write_vk(const seed_circuit *c, const char *path)
{
    return cuzk_groth16_vk_write(&c->pk.vk, path, NULL);
}
static cuzk_status write_zkey(const seed_circuit *c, const char *path)
{
    return cuzk_groth16_zkey_write(&c->pk, path, NULL);
}
static cuzk_status write_pce(const seed_circuit *c, const char *path) { return cuzk_r1cs_pce_write(c->r, path, NULL); }

static int emit_params(const char *dir, const seed_circuit *c, unsigned log2)
{
    char name[64];
    snprintf(name, sizeof name, "key-%u.params", log2);
    return seed_from_file(dir, name, write_params, c);
}

static int emit_vk(const char *dir, const seed_circuit *c, unsigned log2)
{
    char name[64];
    snprintf(name, sizeof name, "key-%u.vk", log2);
    return seed_from_file(dir, name, write_vk, c);
}

static int emit_zkey(const char *dir, const seed_circuit *c, unsigned log2)
{
    char name[64];
    snprintf(name, sizeof name, "key-%u.zkey", log2);
    return seed_from_file(dir, name, write_zkey, c);
}

static int emit_pce(const char *dir, const seed_circuit *c, unsigned log2)
{
    char name[64];
    snprintf(name, sizeof name, "circuit-%u.pce", log2);
    return seed_from_file(dir, name, write_pce, c);
}

static int emit_wtns(const char *dir, const seed_circuit *c, unsigned log2)
{
    uint8_t *b;
    size_t len;
    if (cuzk_r1cs_wtns_encode(c->z, cuzk_r1cs_num_vars(c->r), &b, &len) != CUZK_OK) return -1;
    char name[64];
    snprintf(name, sizeof name, "witness-%u.wtns", log2);
    int k = seed_write(dir, name, b, len);
    free(b);
    return k;
}

/* circom's .r1cs (docs/formats/r1cs.md): a 64-byte header section, then the constraints, each A, B, C as a term
 * count and (wire, canonical little-endian coefficient) terms; the public wires are the circuit's inputs. */
static void r1cs_put(uint8_t **p, const void *src, size_t n)
{
    memcpy(*p, src, n);
    *p += n;
}

static void r1cs_u32(uint8_t **p, uint32_t v)
{
    cuzk_store_le32(*p, v);
    *p += 4;
}

static int emit_r1cs(const char *dir, const seed_circuit *c, unsigned log2)
{
    const cuzk_r1cs_t *r = c->r;
    uint64_t terms = r->m[0].nnz + r->m[1].nnz + r->m[2].nnz, rows = r->num_constraints;
    uint64_t body = rows * 3 * 4 + terms * (4 + CUZK_FR_BYTES);
    size_t len = 12 + 12 + 64 + 12 + body;
    uint8_t *img = malloc(len), *p = img;
    if (img == NULL) return -1;
    uint8_t le[CUZK_FR_BYTES];
    r1cs_put(&p, "r1cs", 4);
    r1cs_u32(&p, 1);
    r1cs_u32(&p, 2);
    r1cs_u32(&p, 1);
    cuzk_store_le64(p, 64);
    p += 8;
    r1cs_u32(&p, CUZK_FR_BYTES);
    for (int i = 0; i < CUZK_FR_LIMBS; i++) cuzk_store_le64(p + 8 * i, CUZK_FR_MODULUS[i]);
    p += CUZK_FR_BYTES;
    r1cs_u32(&p, (uint32_t)cuzk_r1cs_num_vars(r));
    r1cs_u32(&p, r->num_inputs - 1); /* public outputs */
    r1cs_u32(&p, 0);
    r1cs_u32(&p, 0);
    cuzk_store_le64(p, cuzk_r1cs_num_vars(r));
    p += 8;
    r1cs_u32(&p, (uint32_t)rows);
    r1cs_u32(&p, 2);
    cuzk_store_le64(p, body);
    p += 8;
    for (uint64_t row = 0; row < rows; row++)
        for (int k = 0; k < 3; k++) {
            const cuzk_r1cs_matrix *m = &r->m[k];
            r1cs_u32(&p, (uint32_t)(m->row_ptr[row + 1] - m->row_ptr[row]));
            for (uint64_t e = m->row_ptr[row]; e < m->row_ptr[row + 1]; e++) {
                r1cs_u32(&p, m->col[e]);
                cuzk_fr_to_bytes_le(le, &r->values[m->coef[e]]);
                r1cs_put(&p, le, sizeof le);
            }
        }
    char name[64];
    snprintf(name, sizeof name, "circuit-%u.r1cs", log2);
    int k = seed_write(dir, name, img, (size_t)(p - img));
    free(img);
    return k;
}

/* A proof of the circuit with its key, in both encodings, its public inputs and the key's JSON. */
static int emit_proof(const char *dir, const seed_circuit *c, unsigned log2, int what)
{
    cuzk_groth16_prove_opts o;
    memset(&o, 0, sizeof o);
    o.given_rs = true;
    cuzk_fr_from_u64(&o.r, 11);
    cuzk_fr_from_u64(&o.s, 13);
    o.c_mode = CUZK_R1CS_C_PRODUCT;
    cuzk_groth16_proof_t proof;
    const cuzk_r1cs_t *circ = c->pk.conv == CUZK_GROTH16_SNARKJS ? NULL : c->r;
    if (cuzk_groth16_prove(&proof, &c->pk, circ, c->z, &o, NULL, NULL) != CUZK_OK) return -1;
    char name[64], *json = NULL;
    const char *conv = c->pk.conv == CUZK_GROTH16_SNARKJS ? "snarkjs" : "bellperson";
    int k = -1;
    if (what == 0) {
        uint8_t b[CUZK_GROTH16_PROOF_BYTES];
        cuzk_groth16_proof_to_bytes(b, &proof);
        snprintf(name, sizeof name, "proof-%s-%u.proof", conv, log2);
        return seed_write(dir, name, b, sizeof b);
    }
    cuzk_status s = what == 1   ? cuzk_groth16_proof_to_json(&proof, &json)
                    : what == 2 ? cuzk_groth16_public_to_json(c->z + 1, c->pk.vk.num_inputs - 1, &json)
                                : cuzk_groth16_vk_to_json(&c->pk.vk, &json);
    snprintf(name, sizeof name, "%s-%s-%u.json",
             what == 1   ? "proof"
             : what == 2 ? "public"
                         : "verification_key",
             conv, log2);
    if (s == CUZK_OK) k = seed_write(dir, name, json, strlen(json));
    free(json);
    return s == CUZK_ERR_UNSUPPORTED ? 0 : k;
}

static int emit_proof_bin(const char *dir, const seed_circuit *c, unsigned n) { return emit_proof(dir, c, n, 0); }
static int emit_proof_json(const char *dir, const seed_circuit *c, unsigned n) { return emit_proof(dir, c, n, 1); }
static int emit_public_json(const char *dir, const seed_circuit *c, unsigned n) { return emit_proof(dir, c, n, 2); }
static int emit_vk_json(const char *dir, const seed_circuit *c, unsigned n) { return emit_proof(dir, c, n, 3); }

/* Both conventions where the format carries either. */
static int seed_both(const char *dir, int (*emit)(const char *, const seed_circuit *, unsigned))
{
    int a = seed_each(dir, CUZK_GROTH16_BELLPERSON, emit), b = a < 0 ? -1 : seed_each(dir, CUZK_GROTH16_SNARKJS, emit);
    return b < 0 ? -1 : a + b;
}

int fuzz_seeds_params(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_params); }
int fuzz_seeds_vk(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_vk); }
int fuzz_seeds_zkey(const char *dir) { return seed_each(dir, CUZK_GROTH16_SNARKJS, emit_zkey); }
int fuzz_seeds_wtns(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_wtns); }
int fuzz_seeds_r1cs(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_r1cs); }
int fuzz_seeds_pce(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_pce); }
int fuzz_seeds_proof_json(const char *dir) { return seed_both(dir, emit_proof_json); }
int fuzz_seeds_public_json(const char *dir) { return seed_each(dir, CUZK_GROTH16_BELLPERSON, emit_public_json); }
int fuzz_seeds_vk_json(const char *dir) { return seed_both(dir, emit_vk_json); }
int fuzz_seeds_proof_bin(const char *dir) { return seed_both(dir, emit_proof_bin); }

int fuzz_seeds_ptau(const char *dir)
{
    for (unsigned power = 1; power <= 3; power++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/pot%u.ptau", dir, power);
        cuzk_groth16_ptau_opts o;
        memset(&o, 0, sizeof o);
        o.threads = 1;
        o.given_toxic = true;
        cuzk_fr_from_u64(&o.tau, 7777 + power);
        cuzk_fr_from_u64(&o.alpha, 5);
        cuzk_fr_from_u64(&o.beta, 9);
        if (cuzk_groth16_ptau_write(path, power, &o, NULL) != CUZK_OK) return -1;
    }
    return 3;
}

/* The format detector sees every kind of file. */
int fuzz_seeds_detect(const char *dir)
{
    int (*const all[])(const char *) = {
        fuzz_seeds_params, fuzz_seeds_vk,         fuzz_seeds_zkey,        fuzz_seeds_wtns,    fuzz_seeds_r1cs,
        fuzz_seeds_pce,    fuzz_seeds_proof_json, fuzz_seeds_public_json, fuzz_seeds_vk_json, fuzz_seeds_proof_bin};
    int made = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        int k = all[i](dir);
        if (k < 0) return -1;
        made += k;
    }
    return made;
}

/* ---- Filecoin: structurally valid vanilla proofs of the small registered proofs, random field elements ---- */

#define SEED_FIL_MAX_SECTOR (8u << 20)

static uint64_t seed_rng = 0x9e3779b97f4a7c15ULL;

static uint64_t seed_next(void)
{
    uint64_t z = (seed_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* a random node below r: the top two bits cleared */
static void seed_node(uint8_t n[32])
{
    for (int i = 0; i < 4; i++) cuzk_store_le64(n + 8 * i, seed_next());
    n[31] &= 0x3f;
}

/* The byte that makes fuzz_fil_pick choose p. */
static int seed_pick_byte(const cuzk_fil_proof *p)
{
    for (int b = 0; b < 256; b++)
        if (fuzz_fil_pick(p->cls, (uint8_t)b) == p) return b;
    return -1;
}

/* A path of shape sh opening leaf under root, its siblings in pool. */
static void seed_path(const cuzk_fil_shape *sh, uint64_t leaf, const uint8_t root[32], cuzk_fil_node *pool,
                      cuzk_fil_merkle_proof *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned k = 0; k < cuzk_fil_shape_siblings(sh); k++) seed_node(pool[k]);
    m->siblings = pool;
    memcpy(m->root, root, 32);
    seed_node(m->leaf);
    m->leaf_index = leaf;
    m->levels = (uint8_t)cuzk_fil_shape_levels(sh);
    m->kind = (uint8_t)(sh->top ? CUZK_FIL_MERKLE_TOP : sh->sub ? CUZK_FIL_MERKLE_SUB : CUZK_FIL_MERKLE_SINGLE);
    for (unsigned l = 0; l < m->levels; l++) {
        unsigned a = cuzk_fil_shape_arity(sh, l);
        m->index[l] = (uint8_t)(leaf % a);
        leaf /= a;
    }
}

/* The bytes of an encoded proof, prefixed with p's pick byte. */
static int seed_fil_write(const char *dir, const char *what, const cuzk_fil_proof *p, const uint8_t *b, size_t n)
{
    int pick = seed_pick_byte(p);
    if (pick < 0) return -1;
    uint8_t *img = malloc(n + 1);
    if (img == NULL) return -1;
    img[0] = (uint8_t)pick;
    memcpy(img + 1, b, n);
    char name[128];
    snprintf(name, sizeof name, "%s-%s.bin", what, p->name);
    int k = seed_write(dir, name, img, n + 1);
    free(img);
    return k;
}

int fuzz_seeds_fil_post(const char *dir)
{
    int made = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_POST || p->sector_size > SEED_FIL_MAX_SECTOR) continue;
        size_t sib = cuzk_fil_shape_siblings(&p->tree_r);
        cuzk_fil_post_sector s;
        memset(&s, 0, sizeof s);
        cuzk_fil_merkle_proof *inc = calloc(p->challenges, sizeof *inc);
        cuzk_fil_node *pool = calloc((size_t)p->challenges * sib + 1, sizeof *pool);
        size_t n = cuzk_fil_post_sector_bytes(p), wl = 0;
        uint8_t *buf = malloc(n);
        int k = -1;
        if (inc != NULL && pool != NULL && buf != NULL) {
            s.sector_id = 1000 + i;
            s.challenges = p->challenges;
            s.inclusion = inc;
            seed_node(s.comm_r);
            seed_node(s.comm_c);
            seed_node(s.comm_r_last);
            for (uint32_t c = 0; c < p->challenges; c++)
                seed_path(&p->tree_r, seed_next() % p->nodes, s.comm_r_last, pool + c * sib, &inc[c]);
            if (cuzk_fil_post_sector_encode(p, &s, buf, n, &wl, NULL) == CUZK_OK)
                k = seed_fil_write(dir, "post", p, buf, wl);
        }
        free(inc);
        free(pool);
        free(buf);
        if (k < 0) return -1;
        made += k;
    }
    return made;
}

int fuzz_seeds_fil_snap(const char *dir)
{
    int made = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_UPDATE || p->sector_size > SEED_FIL_MAX_SECTOR) continue;
        size_t sr = cuzk_fil_shape_siblings(&p->tree_r), sd = cuzk_fil_shape_siblings(&p->tree_d);
        cuzk_fil_snap_partition s;
        memset(&s, 0, sizeof s);
        cuzk_fil_snap_challenge *ch = calloc(p->challenges, sizeof *ch);
        cuzk_fil_node *pool = calloc(p->apex_leaves + (size_t)p->challenges * (2 * sr + sd) + 1, sizeof *pool);
        size_t n = cuzk_fil_snap_partition_bytes(p), wl = 0;
        uint8_t *buf = malloc(n);
        int k = -1;
        if (ch != NULL && pool != NULL && buf != NULL) {
            uint8_t r_old[32], d_new[32], r_new[32];
            seed_node(r_old);
            seed_node(d_new);
            seed_node(r_new);
            seed_node(s.comm_c);
            s.apex_count = p->apex_leaves;
            s.apex_leafs = pool;
            for (uint32_t a = 0; a < p->apex_leaves; a++) seed_node(pool[a]);
            cuzk_fil_node *q = pool + p->apex_leaves;
            s.challenges = p->challenges;
            s.c = ch;
            /* partition 0: leaves below nodes / partitions */
            uint64_t share = p->nodes / (p->partitions ? p->partitions : 1);
            for (uint32_t c = 0; c < p->challenges; c++, q += 2 * sr + sd) {
                uint64_t leaf = seed_next() % (share ? share : 1);
                seed_path(&p->tree_r, leaf, r_old, q, &ch[c].r_old);
                seed_path(&p->tree_d, leaf, d_new, q + sr, &ch[c].d_new);
                seed_path(&p->tree_r, leaf, r_new, q + sr + sd, &ch[c].r_new);
            }
            if (cuzk_fil_snap_partition_encode(p, &s, buf, n, &wl, NULL) == CUZK_OK)
                k = seed_fil_write(dir, "snap", p, buf, wl);
        }
        free(ch);
        free(pool);
        free(buf);
        if (k < 0) return -1;
        made += k;
    }
    return made;
}

/* C1 of the small PoRep proofs from the library's seeded generator: JSON bare and in Curio's envelope, and the two
 * bincode forms (first byte as fuzz_fil_c1_bin reads it). */
static int seed_fil_c1(const char *dir, bool bin)
{
    int made = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_SEAL || p->sector_size > 2048 || p->kind != CUZK_FIL_KIND_POREP) continue;
        cuzk_fil_c1 c;
        if (cuzk_fil_c1_random(p, 7 + i, &c, NULL) != CUZK_OK) return -1;
        int k = 0;
        for (int v = 0; v < 2 && k >= 0; v++) {
            char name[128];
            if (!bin) {
                char *text = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&text, &len);
                cuzk_status st = f != NULL ? cuzk_fil_c1_write_json(&c, v == 1, f, NULL) : CUZK_ERR_NOMEM;
                if (f != NULL) fclose(f);
                snprintf(name, sizeof name, "c1-%s%s.json", p->name, v ? "-wrapped" : "");
                k = st == CUZK_OK ? seed_write(dir, name, text, len) : -1;
                free(text);
            } else {
                cuzk_fil_c1_bin_form form = v ? CUZK_FIL_C1_BIN_API : CUZK_FIL_C1_BIN_SUPRASEAL;
                size_t n = cuzk_fil_c1_bincode_bytes(&c, form), wl = 0;
                uint8_t *img = malloc(n + 1);
                int pick = seed_pick_byte(p);
                if (img == NULL || pick < 0 || pick >= 64 ||
                    cuzk_fil_c1_encode_bincode(&c, form, img + 1, n, &wl, NULL) != CUZK_OK) {
                    k = -1;
                } else {
                    img[0] = (uint8_t)(pick << 2 | (v ? 1 : 0));
                    snprintf(name, sizeof name, "c1-%s-%s.bin", p->name, v ? "api" : "supraseal");
                    k = seed_write(dir, name, img, wl + 1);
                }
                free(img);
            }
            if (k > 0) made += k;
        }
        cuzk_fil_c1_free(&c);
        if (k < 0) return -1;
    }
    return made;
}

int fuzz_seeds_fil_c1(const char *dir) { return seed_fil_c1(dir, false); }
int fuzz_seeds_fil_c1_bin(const char *dir) { return seed_fil_c1(dir, true); }

/* The JSON seeds behind a first byte that picks the piece size: 128 and 4096 bytes. */
int fuzz_seeds_fil_c1_stream(const char *dir)
{
    int made = 0;
    for (size_t i = 0; i < cuzk_fil_proof_count(); i++) {
        const cuzk_fil_proof *p = cuzk_fil_proof_at(i);
        if (p->cls != CUZK_FIL_CLASS_SEAL || p->sector_size > 2048 || p->kind != CUZK_FIL_KIND_POREP) continue;
        cuzk_fil_c1 c;
        if (cuzk_fil_c1_random(p, 7 + i, &c, NULL) != CUZK_OK) return -1;
        int k = 0;
        for (int v = 0; v < 2 && k >= 0; v++) {
            char *text = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&text, &len);
            if (f != NULL) fputc(v ? 12 : 7, f);
            cuzk_status st = f != NULL ? cuzk_fil_c1_write_json(&c, v == 1, f, NULL) : CUZK_ERR_NOMEM;
            if (f != NULL) fclose(f);
            char name[128];
            snprintf(name, sizeof name, "c1-%s%s.stream", p->name, v ? "-wrapped" : "");
            k = st == CUZK_OK ? seed_write(dir, name, text, len) : -1;
            free(text);
            if (k > 0) made += k;
        }
        cuzk_fil_c1_free(&c);
        if (k < 0) return -1;
    }
    return made;
}

/* A commitment bare, and as the binary CIDs of a sealed (fil-commitment-sealed, poseidon-bls12_381-a2-fc1) and an
 * unsealed (fil-commitment-unsealed, sha2-256-trunc254-padded) commitment: CIDv1, codec and multihash code as
 * varints, digest length 32, digest. */
int fuzz_seeds_fil_commitment(const char *dir)
{
    static const uint8_t sealed[8] = {0x01, 0x82, 0xe2, 0x03, 0x81, 0xe8, 0x02, 0x20};
    static const uint8_t unsealed[7] = {0x01, 0x81, 0xe2, 0x03, 0x92, 0x20, 0x20};
    uint8_t comm[32], buf[40];
    for (int i = 0; i < 32; i++) comm[i] = (uint8_t)(i * 37 + 11);
    comm[31] &= 0x3f; /* below r, as a field element's repr */
    int made = seed_write(dir, "comm.bin", comm, 32);
    memcpy(buf, sealed, 8);
    memcpy(buf + 8, comm, 32);
    made += seed_write(dir, "sealed-cid.bin", buf, 40);
    memcpy(buf, unsealed, 7);
    memcpy(buf + 7, comm, 32);
    made += seed_write(dir, "unsealed-cid.bin", buf, 39);
    return made == 3 ? made : -1;
}

#ifdef CUZK_FUZZ_SERVER
#include "requests.h"

/* One request of each method, its method's index first (the grpc target's framing). */
static int seed_request(const char *dir, const char *method, const ProtobufCMessage *m)
{
    size_t i = 0;
    while (i < cuzk_req_method_count() && strcmp(cuzk_req_method_name(i), method) != 0) i++;
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *b = malloc(n + 1);
    if (b == NULL) return -1;
    b[0] = (uint8_t)i;
    protobuf_c_message_pack(m, b + 1);
    char name[64];
    snprintf(name, sizeof name, "%s-%zu.bin", method, n);
    int k = seed_write(dir, name, b, n + 1);
    free(b);
    return k;
}

int fuzz_seeds_grpc(const char *dir)
{
    int made = 0, k;
    Cuzk__V1__SubmitProofRequest synth = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    synth.request_id = "porep-1000-7";
    synth.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC;
    synth.priority = CUZK__V1__PRIORITY__HIGH;
    synth.synthetic_log2 = 10;
    synth.seed = 3;
    synth.partitions = 2;
    Cuzk__V1__SubmitProofRequest generic = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    static uint8_t wtns[140] = "wtns\2\0\0\0\2\0\0\0";
    generic.proof_kind = CUZK__V1__PROOF_KIND__GENERIC_CIRCUIT;
    generic.circuit_id = "tiny";
    generic.witness.data = wtns;
    generic.witness.len = sizeof wtns;
    Cuzk__V1__ProveRequest prove = CUZK__V1__PROVE_REQUEST__INIT;
    prove.submit = &synth;
    Cuzk__V1__AwaitProofRequest await = CUZK__V1__AWAIT_PROOF_REQUEST__INIT;
    await.job_id = "job-17";
    await.timeout_ms = 500;
    Cuzk__V1__CancelProofRequest cancel = CUZK__V1__CANCEL_PROOF_REQUEST__INIT;
    cancel.job_id = "job-17";
    Cuzk__V1__GetStatusRequest status = CUZK__V1__GET_STATUS_REQUEST__INIT;
    Cuzk__V1__GetMetricsRequest metrics = CUZK__V1__GET_METRICS_REQUEST__INIT;
    Cuzk__V1__PreloadSrsRequest preload = CUZK__V1__PRELOAD_SRS_REQUEST__INIT;
    preload.circuit_id = "synthetic-10-3";
    Cuzk__V1__EvictSrsRequest evict = CUZK__V1__EVICT_SRS_REQUEST__INIT;
    evict.circuit_id = "tiny";
    const struct {
        const char *method;
        const ProtobufCMessage *m;
    } reqs[] = {{"SubmitProof", &synth.base},  {"SubmitProof", &generic.base}, {"Prove", &prove.base},
                {"AwaitProof", &await.base},   {"CancelProof", &cancel.base},  {"GetStatus", &status.base},
                {"GetMetrics", &metrics.base}, {"PreloadSRS", &preload.base},  {"EvictSRS", &evict.base}};
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        if ((k = seed_request(dir, reqs[i].method, reqs[i].m)) < 0) return -1;
        made += k;
    }
    return made;
}

#include "config.h"

/* Configurations: what --check-config prints for the defaults (every key, as TOML), Curio's short form, and one
 * with every kind of value: sizes, durations, arrays, tables, a key that does not apply. */
int fuzz_seeds_config(const char *dir)
{
    cuzk_daemon_config c;
    cuzk_config_defaults(&c);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) return -1;
    cuzk_config_print(&c, f);
    fclose(f);
    cuzk_config_free(&c);
    int made = seed_write(dir, "defaults.toml", text, len);
    free(text);
    static const char *const docs[][2] = {
        {"curio.toml", "[daemon]\nlisten = \"unix:///run/curio/cuzk.sock\"\n\n[srs]\nparam_cache = \"/var/tmp/p\"\n"},
        {"mixed.toml", "# every kind of value\n[daemon]\nlisten = [\"unix:///tmp/a.sock\", \"127.0.0.1:9820\"]\n"
                       "max_message_size = \"64 MiB\"\nshutdown_timeout = \"90s\"\nserver_threads = 4\n"
                       "[memory]\ntotal_budget = \"32GB\"\nsafety_margin = 1073741824\neviction_min_idle = \"5m\"\n"
                       "[gpus]\ndevices = [0, 1]\nbackend = \"cpu\"\nlatency_mode = true\n"
                       "[scheduler]\ngpu_queue_depth = 2\nresult_ttl = \"1h\"\nmax_batch_size = 4\n"
                       "[pipeline]\nmax_parallel_synthesis = 3\nenabled = false\n"
                       "[logging]\nlevel = \"debug\"\nformat = \"json\"\n[metrics]\nhttp_listen = \"127.0.0.1:9100\"\n"
                       "[auth]\ntoken = \"s3cret\"\n"},
        {"errors.toml", "[daemon]\nlisten = 5\n[nosuch]\nx = 1979-05-27T07:32:00Z\n"},
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0] && made >= 0; i++) {
        int k = seed_write(dir, docs[i][0], docs[i][1], strlen(docs[i][1]));
        made = k < 0 ? -1 : made + k;
    }
    return made;
}
#else
int fuzz_seeds_grpc(const char *dir)
{
    (void)dir;
    return 0;
}

int fuzz_seeds_config(const char *dir)
{
    (void)dir;
    return 0;
}
#endif
