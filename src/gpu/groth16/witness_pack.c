/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Packing a witness for the device (cuzk_gpu_witness_pack): plain C, so that the host tests check it on any machine. */
#include <string.h>

#include "cuzk/gpu.h"

uint64_t cuzk_gpu_witness_classes_words(uint64_t num_aux) { return (num_aux + 31) / 32; }

_Static_assert(CUZK_FR_LIMBS == 4, "the class test below reads four words");

typedef struct {
    cuzk_fr_t *aux; /* the aux values */
    uint64_t *classes;
    uint64_t lo, hi; /* the chunk: aux values lo .. hi, lo a multiple of 32 */
    uint64_t others;
} pack_chunk_t;

/* Each value other than 0 and 1 moves down to the next free place of its chunk: never above where it was. */
static void pack_chunk(void *ctx, unsigned id)
{
    pack_chunk_t *c = (pack_chunk_t *)ctx + id;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    uint64_t out = c->lo;
    for (uint64_t w = c->lo / 32; w * 32 < c->hi; w++) {
        uint64_t word = 0, end = (w + 1) * 32 < c->hi ? (w + 1) * 32 : c->hi;
        for (uint64_t i = w * 32; i < end; i++) {
            const uint64_t *v = c->aux[i].l;
            uint64_t cls = 2;
            if ((v[0] | v[1] | v[2] | v[3]) == 0) { /* the words themselves: a call per value halves the speed */
                cls = 0;
            } else if (((v[0] ^ one.l[0]) | (v[1] ^ one.l[1]) | (v[2] ^ one.l[2]) | (v[3] ^ one.l[3])) == 0) {
                cls = 1;
            } else {
                if (out != i) c->aux[out] = c->aux[i];
                out++;
            }
            word |= cls << (2 * (i - w * 32));
        }
        c->classes[w] = word;
    }
    c->others = out - c->lo;
}

void cuzk_gpu_witness_pack(cuzk_gpu_witness_packing *out, cuzk_fr_t *z, uint64_t num_inputs, uint64_t num_aux,
                           uint64_t *classes, unsigned threads)
{
    memset(out, 0, sizeof *out);
    out->num_inputs = num_inputs;
    out->num_aux = num_aux;
    out->classes = classes;
    if (num_aux == 0) return;
    if (threads < 1) threads = 1;
    if (threads > CUZK_GPU_WITNESS_CHUNKS_MAX) threads = CUZK_GPU_WITNESS_CHUNKS_MAX;
    uint64_t per = (num_aux + threads - 1) / threads;
    per = (per + 31) / 32 * 32;
    out->chunk_values = per;
    out->chunks = (unsigned)((num_aux + per - 1) / per);

    pack_chunk_t c[CUZK_GPU_WITNESS_CHUNKS_MAX];
    for (unsigned i = 0; i < out->chunks; i++) {
        c[i].aux = z + num_inputs;
        c[i].classes = classes;
        c[i].lo = i * per;
        c[i].hi = (i + 1) * per < num_aux ? (i + 1) * per : num_aux;
        c[i].others = 0;
    }
    cuzk_par_run(out->chunks, pack_chunk, c);
    for (unsigned i = 0; i < out->chunks; i++) out->others[i] = c[i].others;
}
