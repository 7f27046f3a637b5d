/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The Poseidon of the SDR code: column hashes (arity 2 or 11), tree C and tree R nodes (arity 8) and comm_r
 * (arity 2), all neptune Poseidon with the MerkleTree domain tag 2^arity − 1 over Fr given as 32-byte LE reprs: the
 * circuits layer's cuzk_poseidon_merkle_hash_bytes. */
#include "cuzk/circuits.h"
#include "sdr_int.h"

cuzk_status cuzk_fil_sdr_poseidon(unsigned arity, const uint8_t (*in)[32], uint8_t out[32], cuzk_errmsg *err)
{
    if (arity != 2 && arity != 8 && arity != 11)
        return cuzk_fail(err, CUZK_ERR_INVALID_ARG, "poseidon: arity %u (SDR uses 2, 8 and 11)", arity);
    return cuzk_poseidon_merkle_hash_bytes(out, arity, (const uint8_t *)in, err);
}
