/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A whole PoRep C2 on the CPU prover: the C1 checked, each partition's witness made into one reused buffer and
 * proved, the witness's input part compared with the public inputs computed from public data alone, and every
 * partition verified before anything is returned (filecoin-proofs' seal_commit_phase2 does the same: it is never
 * correct to return a proof that does not verify). */
#include <stdlib.h>

#include "cuzk/groth16.h"
#include "fil_internal.h"

cuzk_status cuzk_fil_porep_check_circuit(const cuzk_fil_porep_circuit *c, const cuzk_r1cs_t *shape, cuzk_errmsg *err)
{
    cuzk_cs_counts k;
    cuzk_fil_porep_circuit_counts(c, &k);
    if (shape->num_inputs != k.inputs || shape->num_aux != k.aux || shape->num_constraints != k.rows ||
        shape->m[0].nnz != k.nnz[0] || shape->m[1].nnz != k.nnz[1] || shape->m[2].nnz != k.nnz[2])
        return cuzk_fail(err, CUZK_ERR_MISMATCH,
                         "the system has %u inputs, %u aux, %llu rows; the PoRep circuit %llu, %llu, %llu (or "
                         "non-zeros differ)",
                         shape->num_inputs, shape->num_aux, (unsigned long long)shape->num_constraints,
                         (unsigned long long)k.inputs, (unsigned long long)k.aux, (unsigned long long)k.rows);
    return CUZK_OK;
}

/* The witness's inputs against the independently computed ones. */
static cuzk_status inputs_match(const cuzk_fr_t *z, const cuzk_fr_t *pub, size_t n, uint32_t k, cuzk_errmsg *err)
{
    for (size_t i = 0; i < n; i++)
        if (!cuzk_fr_eq(&z[1 + i], &pub[i]))
            return cuzk_fail(err, CUZK_ERR_MISMATCH,
                             "partition %u: public input %zu of the witness differs from the one computed from the "
                             "public data",
                             k, i);
    return CUZK_OK;
}

cuzk_status cuzk_fil_porep_prove(const cuzk_fil_porep_circuit *c, const cuzk_r1cs_t *shape, const cuzk_groth16_pk *pk,
                                 const cuzk_groth16_vk *vk, const cuzk_fil_c1 *c1, const uint8_t prover_id[32],
                                 uint64_t sector_id, const cuzk_fil_porep_prove_opts *o, cuzk_groth16_proof_t *proofs,
                                 cuzk_fil_porep_prove_stats *st, cuzk_errmsg *err)
{
    cuzk_fil_porep_prove_opts def = {0};
    if (o == NULL) o = &def;
    unsigned threads = o->threads ? o->threads : 1;
    cuzk_fil_porep_prove_stats local;
    if (st == NULL) st = &local;
    memset(st, 0, sizeof *st);
    double t0 = cuzk_now(), t;
    const cuzk_fil_proof *p = c1->proof;
    cuzk_status s = cuzk_fil_porep_check_circuit(c, shape, err);
    if (s != CUZK_OK) return s;
    if (!o->benchmark && !o->c1_checked) {
        t = cuzk_now();
        if ((s = cuzk_fil_porep_c1_check(c1, prover_id, sector_id, threads, err)) != CUZK_OK) return s;
        st->check = cuzk_now() - t;
    }
    size_t npub = cuzk_fil_porep_public_input_count(p);
    uint64_t nvars = cuzk_fil_porep_circuit_num_vars(c);
    cuzk_fr_t *z = malloc(nvars * sizeof *z);
    cuzk_fr_t *pub = malloc((size_t)c1->partitions * npub * sizeof *pub);
    if (z == NULL || pub == NULL) {
        free(z);
        free(pub);
        return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory for a witness of %llu values", (unsigned long long)nvars);
    }
    cuzk_fil_porep_public pd;
    cuzk_fil_porep_public_of_c1(c1, prover_id, sector_id, &pd);
    cuzk_groth16_prove_opts po = {.threads = threads, .c_mode = CUZK_R1CS_C_PRODUCT};
    for (uint32_t k = 0; k < c1->partitions && s == CUZK_OK; k++) {
        t = cuzk_now();
        s = cuzk_fil_porep_witness(c, c1, k, threads, z, nvars, err);
        st->witness += cuzk_now() - t;
        if (s != CUZK_OK) break;
        if (!o->benchmark) {
            cuzk_fr_t *pk_in = pub + (size_t)k * npub;
            if ((s = cuzk_fil_porep_public_inputs(p, &pd, k, pk_in, err)) != CUZK_OK) break;
            if ((s = inputs_match(z, pk_in, npub, k, err)) != CUZK_OK) break;
        } else {
            memcpy(pub + (size_t)k * npub, z + 1, npub * sizeof *pub);
        }
        t = cuzk_now();
        s = cuzk_groth16_prove(&proofs[k], pk, shape, z, &po, NULL, err);
        st->prove += cuzk_now() - t;
    }
    free(z);
    if (s == CUZK_OK && !o->benchmark) {
        t = cuzk_now();
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, vk != NULL ? vk : &pk->vk);
        if (vk != NULL && vk->num_inputs != npub + 1)
            s = cuzk_fail(err, CUZK_ERR_MISMATCH, "the verifying key takes %llu inputs, the circuit %zu",
                          (unsigned long long)vk->num_inputs, npub + 1);
        else if ((s = cuzk_groth16_verify_batch(&pvk, proofs, pub, npub, c1->partitions)) != CUZK_OK)
            s = cuzk_fail(err, s, "the proof of %u partitions does not verify", c1->partitions);
        st->verify = cuzk_now() - t;
    }
    free(pub);
    st->total = cuzk_now() - t0;
    return s;
}

cuzk_status cuzk_fil_porep_verify(const cuzk_groth16_vk *vk, const cuzk_fil_proof *p, const cuzk_fil_porep_public *pub,
                                  const cuzk_groth16_proof_t *proofs, uint32_t n, cuzk_errmsg *err)
{
    if (n != p->partitions)
        return cuzk_fail(err, CUZK_ERR_BAD_LENGTH, "%u partition proofs, %s has %u", n, p->name, p->partitions);
    size_t npub = cuzk_fil_porep_public_input_count(p);
    if (vk->num_inputs != npub + 1)
        return cuzk_fail(err, CUZK_ERR_MISMATCH, "the verifying key takes %llu inputs, %s's circuit %zu",
                         (unsigned long long)vk->num_inputs, p->name, npub + 1);
    cuzk_fr_t *in = malloc((size_t)n * npub * sizeof *in);
    if (in == NULL) return cuzk_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    for (uint32_t k = 0; k < n && s == CUZK_OK; k++) s = cuzk_fil_porep_public_inputs(p, pub, k, in + k * npub, err);
    if (s == CUZK_OK) {
        cuzk_groth16_pvk pvk;
        cuzk_groth16_prepare_vk(&pvk, vk);
        s = cuzk_groth16_verify_batch(&pvk, proofs, in, npub, n);
        if (s == CUZK_ERR_PROOF_INVALID) s = cuzk_fail(err, s, "the proof does not verify");
    }
    free(in);
    return s;
}
