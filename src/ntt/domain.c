/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Domains: the root of unity of a size and its table of powers, built once and shared by every transform. */
#include <stdlib.h>
#include <string.h>

#include "ntt_internal.h"

cuzk_status cuzk_ntt_domain_init(cuzk_ntt_domain *d, unsigned log2n, cuzk_fr_roots conv)
{
    memset(d, 0, sizeof *d);
    if (log2n > CUZK_NTT_MAX_LOG2) return CUZK_ERR_BAD_ROOT_ORDER;
    cuzk_fr_t omega;
    cuzk_status st = cuzk_fr_root_of_unity(&omega, log2n, conv);
    if (st != CUZK_OK) return st;
    size_t n = (size_t)1 << log2n;
    size_t half = n > 1 ? n / 2 : 1;
    cuzk_fr_t *tw = malloc(half * sizeof *tw);
    if (tw == NULL) return CUZK_ERR_NOMEM;
    /* Powers by repeated multiplication: exact in a field, so no drift to guard against. */
    cuzk_fr_set_one(&tw[0]);
    for (size_t i = 1; i < half; i++) cuzk_fr_mul(&tw[i], &tw[i - 1], &omega);

    d->log2n = log2n;
    d->n = n;
    d->conv = conv;
    d->omega = omega;
    cuzk_fr_inv_vartime(&d->omega_inv, &omega);
    cuzk_fr_t nn;
    cuzk_fr_from_u64(&nn, (uint64_t)n);
    cuzk_fr_inv_vartime(&d->n_inv, &nn);
    d->tw = tw;
    return CUZK_OK;
}

void cuzk_ntt_domain_free(cuzk_ntt_domain *d)
{
    free(d->tw);
    memset(d, 0, sizeof *d);
}
