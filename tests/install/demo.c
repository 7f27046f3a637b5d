/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A program built against an installed cuzk (cc demo.c $(pkg-config --cflags --libs cuzk)): the demo circuit of
 * `cuzk demo`, 2^10 constraints, given a test key, proved and verified. Exit status 0 when the proof verifies. */
#include <cuzk/circuits.h>
#include <cuzk/groth16.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    cuzk_r1cs_t *cs = NULL;
    cuzk_fr_t *z = NULL;
    cuzk_groth16_pk pk;
    memset(&pk, 0, sizeof pk);
    cuzk_groth16_proof_t proof;
    cuzk_groth16_pvk pvk;
    cuzk_groth16_setup_opts so = {.threads = 1}; /* random toxic waste: a test key */
    cuzk_errmsg err = {{0}};
    cuzk_status s = cuzk_circuits_synthetic(10, 1, 1, &cs, &z, &err);
    if (s == CUZK_OK) s = cuzk_groth16_setup(&pk, cs, &so, &err);
    if (s == CUZK_OK) s = cuzk_groth16_prove(&proof, &pk, cs, z, NULL, NULL, &err);
    if (s == CUZK_OK) cuzk_groth16_prepare_vk(&pvk, &pk.vk);
    if (s == CUZK_OK) s = cuzk_groth16_verify(&pvk, &proof, z + 1, cs->num_inputs - 1);
    printf("cuzk %s: the demo proof %s (%s %s)\n", cuzk_version(), s == CUZK_OK ? "verifies" : "fails",
           cuzk_status_str(s), err.msg);
    cuzk_groth16_pk_free(&pk);
    cuzk_r1cs_free(cs);
    free(z);
    return s == CUZK_OK ? 0 : 1;
}
