/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-post-gen: generated PoSt vanilla proofs for the CLI tests.
 *   cuzk-post-gen PROOF_ID OUT_DIR RANDOMNESS_HEX PARTITION SEED SECTOR_ID...
 * writes OUT_DIR/<sector id>.vproof for each sector (random leaves from SEED, tree R built, the inclusion proofs of the
 * challenges the randomness derives for the sector's place in the partition) and prints "<sector id> <comm_r hex>"
 * per sector. Only sizes small enough to build a tree of (2 KiB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "post_gen.h"

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: cuzk-post-gen PROOF_ID OUT_DIR RANDOMNESS_HEX PARTITION SEED SECTOR_ID...\n");
        return 2;
    }
    const cuzk_fil_proof *p = cuzk_fil_proof_find(CUZK_FIL_CLASS_POST, strtoull(argv[1], NULL, 10));
    uint8_t rand[32];
    if (p == NULL || p->nodes > (1u << 20) || strlen(argv[3]) != 64) {
        fprintf(stderr, "cuzk-post-gen: a small PoSt proof id and 64 hex digits of randomness\n");
        return 2;
    }
    for (int i = 0; i < 32; i++) {
        unsigned v;
        if (sscanf(argv[3] + 2 * i, "%2x", &v) != 1) return 2;
        rand[i] = (uint8_t)v;
    }
    uint64_t partition = strtoull(argv[4], NULL, 10), seed = strtoull(argv[5], NULL, 10);
    for (int i = 6; i < argc; i++) {
        uint64_t id = strtoull(argv[i], NULL, 10);
        post_gen_sector s;
        if (post_gen_sector_make(&s, &p->tree_r, p->nodes, seed + (uint64_t)i, id) != 0) return 1;
        uint64_t index = p->kind == CUZK_FIL_KIND_WINNING_POST ? 0 : partition * p->post_sectors + (uint64_t)(i - 6);
        uint8_t *buf;
        size_t len;
        if (post_gen_vanilla_bytes(p, &s, rand, index, &buf, &len) != 0) return 1;
        char path[4096];
        snprintf(path, sizeof path, "%s/%llu.vproof", argv[2], (unsigned long long)id);
        FILE *f = fopen(path, "wb");
        if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
            fprintf(stderr, "cuzk-post-gen: cannot write %s\n", path);
            return 1;
        }
        printf("%llu ", (unsigned long long)id);
        for (int k = 0; k < 32; k++) printf("%02x", s.comm_r[k]);
        printf("\n");
        free(buf);
        post_gen_sector_free(&s);
    }
    return 0;
}
