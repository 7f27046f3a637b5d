/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PoSt (FallbackPoSt) vanilla proofs as Curio sends them, one bincode FallbackPoStSectorProof per sector; the leaf
 * challenges (storage-proofs-post fallback/vanilla.rs, utils.rs) and the circuit's public inputs (compound.rs). */
#include <stdlib.h>

#include "cuzk/circuits.h"
#include "fil_internal.h"

static cuzk_status need_post(const cuzk_fil_proof *p, cuzk_errmsg *err)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_POST)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s is not a PoSt registered proof", p != NULL ? p->name : "NULL");
    return CUZK_OK;
}

size_t cuzk_fil_post_sector_bytes(const cuzk_fil_proof *p)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_POST) return 0;
    /* sector_id, comm_r, sectors len, inclusion_proofs len, the proofs, comm_c, comm_r_last */
    return 8 + 32 + 8 + 8 + (size_t)p->challenges * cuzk_fil_merkle_bytes(&p->tree_r) + 64;
}

void cuzk_fil_post_sector_free(cuzk_fil_post_sector *s)
{
    if (s == NULL) return;
    free(s->mem);
    memset(s, 0, sizeof *s);
}

static cuzk_status node_field(fil_bin *b, const char *name, uint8_t out[32])
{
    fil_push(&b->path, name, -1);
    cuzk_status s = cuzk_fil_bin_node(b, out, true);
    fil_pop(&b->path);
    return s;
}

static cuzk_status decode(const cuzk_fil_proof *p, fil_bin *b, cuzk_fil_post_sector *out)
{
    cuzk_status st;
    fil_push(&b->path, "sector_id", -1);
    if ((st = fil_bin_u64(b, &out->sector_id)) != CUZK_OK) return st;
    fil_pop(&b->path);
    if ((st = node_field(b, "comm_r", out->comm_r)) != CUZK_OK) return st;
    fil_push(&b->path, "vanilla_proof", -1);
    fil_push(&b->path, "sectors", -1);
    /* generate_single_vanilla_proof makes exactly one SectorProof; the circuits take no other */
    if ((st = cuzk_fil_bin_len(b, 1)) != CUZK_OK) return st;
    fil_index(&b->path, 0);
    fil_push(&b->path, "inclusion_proofs", -1);
    if ((st = cuzk_fil_bin_len(b, p->challenges)) != CUZK_OK) return st;
    for (uint32_t i = 0; i < p->challenges; i++) {
        fil_index(&b->path, i);
        if ((st = cuzk_fil_bin_merkle(b, &p->tree_r, p->nodes, &out->inclusion[i])) != CUZK_OK) return st;
    }
    fil_pop(&b->path);
    if ((st = node_field(b, "comm_c", out->comm_c)) != CUZK_OK) return st;
    if ((st = node_field(b, "comm_r_last", out->comm_r_last)) != CUZK_OK) return st;
    fil_pop(&b->path);
    fil_pop(&b->path);
    if ((st = cuzk_fil_bin_end(b)) != CUZK_OK) return st;
    for (uint32_t i = 0; i < p->challenges; i++) {
        if (memcmp(out->inclusion[i].root, out->comm_r_last, 32) != 0) {
            fil_path at = {{{"vanilla_proof", -1}, {"sectors", 0}, {"inclusion_proofs", i}, {"root", -1}}, 4};
            return cuzk_fil_path_fail(b->err, &at, CUZK_ERR_MISMATCH, "differs from comm_r_last");
        }
    }
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_sector_decode(const cuzk_fil_proof *p, const uint8_t *buf, size_t len,
                                        cuzk_fil_post_sector *out, cuzk_errmsg *err)
{
    memset(out, 0, sizeof *out);
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK) return st;
    if (buf == NULL && len > 0) return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "no buffer");
    if (buf == NULL) buf = cuzk_fil_empty; /* an empty input: no arithmetic on a null pointer */
    /* the shape fixes every count, so the one allocation depends on p alone, not on the input */
    size_t sib = cuzk_fil_shape_siblings(&p->tree_r);
    size_t bytes = (size_t)p->challenges * (sizeof(cuzk_fil_merkle_proof) + sib * 32);
    uint8_t *mem = calloc(1, bytes);
    if (mem == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "no memory for %zu bytes", bytes);
    out->mem = mem;
    out->challenges = p->challenges;
    out->inclusion = (cuzk_fil_merkle_proof *)mem;
    cuzk_fil_node *pool = (cuzk_fil_node *)(mem + (size_t)p->challenges * sizeof(cuzk_fil_merkle_proof));
    for (uint32_t i = 0; i < p->challenges; i++) out->inclusion[i].siblings = pool + i * sib;
    fil_bin b = {buf, buf, buf + len, {.depth = 0}, err};
    st = decode(p, &b, out);
    if (st != CUZK_OK) cuzk_fil_post_sector_free(out);
    return st;
}

cuzk_status cuzk_fil_post_sector_encode(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s, uint8_t *out,
                                        size_t cap, size_t *len, cuzk_errmsg *err)
{
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK) return st;
    if (s->challenges != p->challenges)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%u inclusion proofs, %s needs %u", s->challenges, p->name,
                         p->challenges);
    fil_bout o = {out, out + cap, 0};
    fil_put_u64(&o, s->sector_id);
    fil_put(&o, s->comm_r, 32);
    fil_put_u64(&o, 1);
    fil_put_u64(&o, s->challenges);
    for (uint32_t i = 0; i < s->challenges; i++) cuzk_fil_put_merkle(&o, &p->tree_r, &s->inclusion[i]);
    fil_put(&o, s->comm_c, 32);
    fil_put(&o, s->comm_r_last, 32);
    return cuzk_fil_bout_done(&o, len, err);
}

cuzk_status cuzk_fil_post_sector_verify(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s, cuzk_errmsg *err)
{
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK) return st;
    uint8_t comm_r[32];
    if ((st = cuzk_poseidon_comm_r(comm_r, s->comm_c, s->comm_r_last, err)) != CUZK_OK) return st;
    if (memcmp(comm_r, s->comm_r, 32) != 0)
        return cuzk_fail(err, CUZK_ERR_PROOF_INVALID, "sector %llu: comm_r is not Poseidon(comm_c, comm_r_last)",
                         (unsigned long long)s->sector_id);
    for (uint32_t i = 0; i < s->challenges; i++) {
        const cuzk_fil_merkle_proof *m = &s->inclusion[i];
        uint8_t root[32];
        if ((st = cuzk_fil_merkle_root(m, &p->tree_r, CUZK_FIL_HASH_POSEIDON, root, err)) != CUZK_OK) return st;
        if (memcmp(root, s->comm_r_last, 32) != 0)
            return cuzk_fail(err, CUZK_ERR_PROOF_INVALID,
                             "sector %llu: inclusion_proofs[%u] (leaf %llu) does not hash to comm_r_last",
                             (unsigned long long)s->sector_id, i, (unsigned long long)m->leaf_index);
    }
    return CUZK_OK;
}

/* ---- challenges -------------------------------------------------------------------------------------------------- */

uint64_t cuzk_fil_post_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes)
{
    uint8_t msg[48], h[32];
    memcpy(msg, randomness, 32);
    for (int i = 0; i < 8; i++) {
        msg[32 + i] = (uint8_t)(sector_id >> (8 * i));
        msg[40 + i] = (uint8_t)(challenge_index >> (8 * i));
    }
    cuzk_fil_sha256(msg, sizeof msg, h);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | h[i];
    return nodes != 0 ? v % nodes : v;
}

uint64_t cuzk_fil_post_challenge_index(cuzk_fil_api api, uint64_t sector_index, uint32_t challenges, uint32_t n)
{
    return api == CUZK_FIL_API_1_2 ? n : sector_index * challenges + n;
}

static cuzk_status need_randomness(const uint8_t randomness[32], cuzk_errmsg *err)
{
    if (!fil_canonical(randomness))
        return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "randomness is not below r (top byte 0x%02x)", randomness[31]);
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_sector_challenges(const cuzk_fil_proof *p, const uint8_t randomness[32], uint64_t sector_id,
                                            uint64_t sector_index, uint64_t *out, cuzk_errmsg *err)
{
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK || (st = need_randomness(randomness, err)) != CUZK_OK) return st;
    for (uint32_t n = 0; n < p->challenges; n++)
        out[n] = cuzk_fil_post_challenge(
            randomness, sector_id, cuzk_fil_post_challenge_index(p->api, sector_index, p->challenges, n), p->nodes);
    return CUZK_OK;
}

cuzk_status cuzk_fil_post_sector_check(const cuzk_fil_proof *p, const cuzk_fil_post_sector *s,
                                       const uint8_t randomness[32], uint64_t sector_index, cuzk_errmsg *err)
{
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK || (st = need_randomness(randomness, err)) != CUZK_OK) return st;
    if (s->challenges != p->challenges)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "%u inclusion proofs, %s needs %u", s->challenges, p->name,
                         p->challenges);
    for (uint32_t n = 0; n < p->challenges; n++) {
        uint64_t want = cuzk_fil_post_challenge(
            randomness, s->sector_id, cuzk_fil_post_challenge_index(p->api, sector_index, p->challenges, n), p->nodes);
        if (s->inclusion[n].leaf_index != want)
            return cuzk_fail(err, CUZK_ERR_MISMATCH,
                             "sector %llu: inclusion_proofs[%u] opens leaf %llu, the challenge is leaf %llu",
                             (unsigned long long)s->sector_id, n, (unsigned long long)s->inclusion[n].leaf_index,
                             (unsigned long long)want);
    }
    return CUZK_OK;
}

/* ---- public inputs ----------------------------------------------------------------------------------------------- */

size_t cuzk_fil_post_public_input_count(const cuzk_fil_proof *p)
{
    if (p == NULL || p->cls != CUZK_FIL_CLASS_POST) return 0;
    return (size_t)p->post_sectors * (1 + p->post_sector_challenges);
}

cuzk_status cuzk_fil_post_public_inputs(const cuzk_fil_proof *p, const uint8_t randomness[32],
                                        const cuzk_fil_post_pub_sector *sectors, size_t nsectors,
                                        uint32_t partition_index, cuzk_fr_t *out, cuzk_errmsg *err)
{
    cuzk_status st = need_post(p, err);
    if (st != CUZK_OK || (st = need_randomness(randomness, err)) != CUZK_OK) return st;
    bool winning = p->kind == CUZK_FIL_KIND_WINNING_POST;
    if (winning ? nsectors != 1 || partition_index != 0 : nsectors == 0 || nsectors > p->post_sectors)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "%s takes %s sectors per partition, got %zu (partition %u)",
                         p->name, winning ? "1" : "1 or more, up to the circuit's", nsectors, partition_index);
    /* slots taking their own values: the sectors given, or for WinningPoSt the one sector in every slot */
    size_t real = winning ? p->post_sectors : nsectors, per = 1 + (size_t)p->post_sector_challenges;
    for (size_t i = 0; i < real; i++) {
        const cuzk_fil_post_pub_sector *sec = &sectors[winning ? 0 : i];
        cuzk_fr_t *o = out + i * per;
        if (cuzk_fr_from_bytes_le(&o[0], sec->comm_r) != CUZK_OK)
            return cuzk_fail(err, CUZK_ERR_NOT_CANONICAL, "sector %llu: comm_r is not below r",
                             (unsigned long long)sec->sector_id);
        uint64_t sector_index = (uint64_t)partition_index * p->post_sectors + i;
        for (uint32_t n = 0; n < p->post_sector_challenges; n++) {
            uint64_t idx = cuzk_fil_post_challenge_index(p->api, sector_index, p->post_sector_challenges, n);
            uint64_t limbs[CUZK_FR_LIMBS] = {cuzk_fil_post_challenge(randomness, sec->sector_id, idx, p->nodes)};
            cuzk_fr_from_limbs(&o[1 + n], limbs);
        }
    }
    /* short partitions repeat the last sector's inputs as they are (compound.rs), challenge indices included */
    for (size_t i = real; i < p->post_sectors; i++) memcpy(out + i * per, out + (real - 1) * per, per * sizeof *out);
    return CUZK_OK;
}
