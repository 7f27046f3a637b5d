/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Poseidon seam of the SDR code: column hashes (arity 2 or 11), tree C and tree R nodes (arity 8) and comm_r
 * (arity 2), all neptune Poseidon with the MerkleTree domain tag 2^arity − 1 over Fr given as 32-byte LE reprs.
 * The circuits layer's Poseidon is not in this build yet, so every call reports CUZK_ERR_UNSUPPORTED and the test
 * sealer stops after the replica (comm_d, labels, encoding). */
#include "sdr_int.h"

bool cuzk_fil_sdr_have_poseidon(void)
{
    return false;
}

cuzk_status cuzk_fil_sdr_poseidon(unsigned arity, const uint8_t (*in)[32], uint8_t out[32], cuzk_errmsg *err)
{
    (void)in, (void)out;
    if (arity != 2 && arity != 8 && arity != 11)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon: arity %u (SDR uses 2, 8 and 11)", arity);
    return cuzk_fail(err, CUZK_ERR_UNSUPPORTED, "poseidon: not in this build (column hashes, tree C, tree R, comm_r)");
}
