/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk_gpu_setup: a BELLPERSON test key made on the device, equal point for point to cuzk_groth16_setup's for the same
 * toxic waste.
 *
 * The host computes the scalars (src/groth16/setup.c: the QAP values at τ, spread over every core) and hands them
 * out in chunks; the device turns each chunk into points:
 *   k_fixed_base: every thread takes K scalars (strided by the block size, so a warp reads and writes consecutive
 *     elements), brings each to canonical form (one Montgomery multiplication by 1) and sums, for its 32 signed
 *     8-bit digits (d in (−128, 128], a carry into the next window when a byte exceeds 128), the table entries
 *     |d|·2^(8i)·G, negated for a negative digit: 32 mixed XYZZ additions and no doubling. The XYZZ x and y go to
 *     the output slot, ZZ and ZZZ stay in the thread; one inversion of the product of every ZZ·ZZZ of the thread
 *     (Montgomery's trick, points at infinity skipped) normalizes all K: 1/ZZ = ZZZ/(ZZ·ZZZ), 1/ZZZ = ZZ/(ZZ·ZZZ).
 *     A zero scalar gives the all-zero affine point at infinity, as on the CPU.
 * The table (32 windows × 128 entries, 384 KiB for G1, 768 KiB for G2) is built on the host and stays in device
 * memory (read through L2).
 *
 * Pipeline: two pinned scalar buffers; while the device converts chunk c (copy in, kernel, and for a STREAMED key
 * the copy of the points back into the key's pinned arrays, all on one stream), the host threads fill chunk c + 1.
 * B's scalars are uploaded once and serve b_g1 and b_g2. */
#include <string.h>

#include "ec/ec.cuh"
#include "groth16/groth16.cuh"

typedef daff<dfp> g1a;
typedef daff<dfp2> g2a;

#define FB_W 8
#define FB_NW 32 /* 256 bits of windows: scalars < r < 2^255, so the top digit never carries out */
#define FB_HALF 128
#define FB_THREADS 128
#define FB_K1 8 /* points per thread (one inversion each) */
#define FB_K2 4
#define SETUP_DEFAULT_CHUNK ((size_t)1 << 21)

/* out[i] = k[i]·G for i < count (see the top of the file); table: FB_NW × FB_HALF affine entries */
template <typename F, int K>
static __global__ void __launch_bounds__(FB_THREADS)
    k_fixed_base(daff<F> *out, const dfr *k, uint64_t count, const daff<F> *table)
{
    const uint64_t first = (uint64_t)blockIdx.x * FB_THREADS * K + threadIdx.x;
    F zz[K], zzz[K], pre[K], run;
    f_set_one(&run);
    const dfr one_raw = {{1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u}};
    for (int j = 0; j < K; j++) {
        const uint64_t i = first + (uint64_t)j * FB_THREADS;
        dxyzz<F> acc;
        xyzz_set_inf(&acc);
        if (i < count) {
            dfr s = dfr_load(k + i);
            dfr_mul(&s, &s, &one_raw); /* Montgomery form -> canonical */
            unsigned carry = 0;
#pragma unroll 1
            for (int w = 0; w < FB_NW; w++) {
                unsigned d = ((s.w[w >> 2] >> (8 * (w & 3))) & 0xffu) + carry;
                carry = d > FB_HALF;
                unsigned mag = carry ? (1u << FB_W) - d : d;
                if (mag == 0) continue;
                daff<F> e = ld16(table + (size_t)w * FB_HALF + mag - 1);
                if (carry) f_neg(&e.y, &e.y);
                xyzz_madd(&acc, e.x, e.y);
            }
        }
        zz[j] = acc.zz;
        zzz[j] = acc.zzz;
        if (!xyzz_is_inf(&acc)) {
            F d;
            f_mul(&d, &acc.zz, &acc.zzz);
            f_mul(&run, &run, &d);
            daff<F> xy;
            xy.x = acc.x;
            xy.y = acc.y;
            st16(out + i, xy);
        }
        pre[j] = run; /* product of ZZ·ZZZ over the finite points 0 .. j */
    }
    F inv; /* 1/pre[j] while going down */
    f_inv(&inv, &run);
    for (int j = K - 1; j >= 0; j--) {
        const uint64_t i = first + (uint64_t)j * FB_THREADS;
        if (i >= count) continue; /* infinity: pre unchanged */
        daff<F> r;
        if (f_is_zero(&zz[j])) {
            f_set_zero(&r.x);
            f_set_zero(&r.y);
        } else {
            F dinv, d, izz, izzz;
            if (j > 0) f_mul(&dinv, &inv, &pre[j - 1]);
            else dinv = inv;
            f_mul(&d, &zz[j], &zzz[j]);
            f_mul(&inv, &inv, &d);
            daff<F> p = ld16(out + i);
            f_mul(&izz, &zzz[j], &dinv);
            f_mul(&izzz, &zz[j], &dinv);
            f_mul(&r.x, &p.x, &izz);
            f_mul(&r.y, &p.y, &izzz);
        }
        st16(out + i, r);
    }
}

/* ---- host side --------------------------------------------------------------------------------------------------- */

struct setup_run {
    cudaStream_t st;
    cudaEvent_t ev[2];
    cuzk_fr_t *pin[2]; /* pinned scalar chunks */
    dfr *dsc[2];       /* device scalar chunks */
    g1a *stage1[2];    /* STREAMED: device staging of the points of a chunk */
    g2a *stage2[2];
    g1a *t1; /* device tables */
    g2a *t2;
    size_t chunk;
    bool streamed;
};

static void run_free(setup_run *r)
{
    if (r->st != NULL) cudaStreamSynchronize(r->st);
    for (int i = 0; i < 2; i++) {
        if (r->ev[i] != NULL) cudaEventDestroy(r->ev[i]);
        cudaFreeHost(r->pin[i]);
        cudaFree(r->dsc[i]);
        cudaFree(r->stage1[i]);
        cudaFree(r->stage2[i]);
    }
    cudaFree(r->t1);
    cudaFree(r->t2);
    if (r->st != NULL) cudaStreamDestroy(r->st);
    memset(r, 0, sizeof *r);
}

static cuzk_status run_init(setup_run *r, bool streamed, bool need_g2, uint64_t chunk)
{
    r->chunk = chunk ? (size_t)chunk : SETUP_DEFAULT_CHUNK;
    r->streamed = streamed;
    CUZK_CUDA(cudaStreamCreateWithFlags(&r->st, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        CUZK_CUDA(cudaEventCreateWithFlags(&r->ev[i], cudaEventDisableTiming));
        CUZK_CUDA(cudaHostAlloc((void **)&r->pin[i], r->chunk * sizeof(cuzk_fr_t), cudaHostAllocDefault));
        CUZK_CUDA(cudaMalloc((void **)&r->dsc[i], r->chunk * sizeof(cuzk_fr_t)));
        if (streamed) {
            CUZK_CUDA(cudaMalloc((void **)&r->stage1[i], r->chunk * sizeof(g1a)));
            if (need_g2) CUZK_CUDA(cudaMalloc((void **)&r->stage2[i], r->chunk * sizeof(g2a)));
        }
    }
    /* the tables: FB_NW windows of FB_HALF entries, built on the host */
    cuzk_g16_fb1_table t1 = {0, 0, 0, NULL};
    cuzk_g16_fb2_table t2 = {0, 0, 0, NULL};
    cuzk_status s = cuzk_g16_fb1_table_build_w(&t1, FB_W);
    if (s == CUZK_OK) s = cuzk_g16_fb2_table_build_w(&t2, FB_W);
    if (s == CUZK_OK && (t1.nw != FB_NW || t1.half != FB_HALF || t2.nw != FB_NW || t2.half != FB_HALF))
        s = CUZK_ERR_INVALID_ARG;
    cudaError_t e = cudaSuccess;
    if (s == CUZK_OK) e = cudaMalloc((void **)&r->t1, (size_t)FB_NW * FB_HALF * sizeof(g1a));
    if (s == CUZK_OK && e == cudaSuccess) e = cudaMalloc((void **)&r->t2, (size_t)FB_NW * FB_HALF * sizeof(g2a));
    if (s == CUZK_OK && e == cudaSuccess)
        e = cudaMemcpy(r->t1, t1.t, (size_t)FB_NW * FB_HALF * sizeof(g1a), cudaMemcpyHostToDevice);
    if (s == CUZK_OK && e == cudaSuccess)
        e = cudaMemcpy(r->t2, t2.t, (size_t)FB_NW * FB_HALF * sizeof(g2a), cudaMemcpyHostToDevice);
    cuzk_g16_fb1_table_free(&t1);
    cuzk_g16_fb2_table_free(&t2);
    if (s != CUZK_OK) return s;
    CUZK_CUDA(e);
    return CUZK_OK;
}

static unsigned fb_blocks(uint64_t count, unsigned k)
{
    uint64_t per = (uint64_t)FB_THREADS * k;
    return (unsigned)((count + per - 1) / per);
}

/* Converts the scalars of array sec into points at g1 (and g2, for B), chunk by chunk. */
static cuzk_status run_section(setup_run *r, const cuzk_g16_setup_scalars *sc, int sec, cuzk_g1_affine_t *g1,
                               cuzk_g2_affine_t *g2, unsigned *chunk_no)
{
    uint64_t len = sc->len[sec];
    for (uint64_t lo = 0; lo < len; lo += r->chunk, (*chunk_no)++) {
        uint64_t cnt = len - lo < r->chunk ? len - lo : r->chunk;
        int slot = *chunk_no & 1;
        /* the slot's previous chunk is done with its pinned and device buffers */
        CUZK_CUDA(cudaEventSynchronize(r->ev[slot]));
        cuzk_g16_setup_scalars_fill(sc, sec, lo, lo + cnt, r->pin[slot]);
        CUZK_CUDA(cudaMemcpyAsync(r->dsc[slot], r->pin[slot], cnt * sizeof(cuzk_fr_t), cudaMemcpyHostToDevice, r->st));
        g1a *o1 = r->streamed ? r->stage1[slot] : (g1a *)(g1 + lo);
        k_fixed_base<dfp, FB_K1><<<fb_blocks(cnt, FB_K1), FB_THREADS, 0, r->st>>>(o1, r->dsc[slot], cnt, r->t1);
        CUZK_CUDA_LAUNCHED();
        if (r->streamed) CUZK_CUDA(cudaMemcpyAsync(g1 + lo, o1, cnt * sizeof(g1a), cudaMemcpyDeviceToHost, r->st));
        if (g2 != NULL) {
            g2a *o2 = r->streamed ? r->stage2[slot] : (g2a *)(g2 + lo);
            k_fixed_base<dfp2, FB_K2><<<fb_blocks(cnt, FB_K2), FB_THREADS, 0, r->st>>>(o2, r->dsc[slot], cnt, r->t2);
            CUZK_CUDA_LAUNCHED();
            if (r->streamed) CUZK_CUDA(cudaMemcpyAsync(g2 + lo, o2, cnt * sizeof(g2a), cudaMemcpyDeviceToHost, r->st));
        }
        CUZK_CUDA(cudaEventRecord(r->ev[slot], r->st));
    }
    return CUZK_OK;
}

static cuzk_status run_all(setup_run *r, const cuzk_g16_setup_scalars *sc, cuzk_gpu_key *k)
{
    unsigned chunk_no = 0;
    CUZK_TRY(run_section(r, sc, CUZK_G16_SEC_H, k->h, NULL, &chunk_no));
    CUZK_TRY(run_section(r, sc, CUZK_G16_SEC_L, k->l, NULL, &chunk_no));
    CUZK_TRY(run_section(r, sc, CUZK_G16_SEC_A, k->a, NULL, &chunk_no));
    CUZK_TRY(run_section(r, sc, CUZK_G16_SEC_B, k->b_g1, k->b_g2, &chunk_no));
    CUZK_CUDA(cudaStreamSynchronize(r->st));
    return CUZK_OK;
}

/* The key's base arrays: device memory (RESIDENT) or pinned host memory (STREAMED), as key.cu places them. */
static cuzk_status alloc_bases(cuzk_gpu_key *k)
{
    struct {
        void **p;
        uint64_t bytes;
    } arr[5] = {{(void **)&k->h, k->h_len * sizeof(cuzk_g1_affine_t)},
                {(void **)&k->l, k->l_len * sizeof(cuzk_g1_affine_t)},
                {(void **)&k->a, k->a_len * sizeof(cuzk_g1_affine_t)},
                {(void **)&k->b_g1, k->b_len * sizeof(cuzk_g1_affine_t)},
                {(void **)&k->b_g2, k->b_len * sizeof(cuzk_g2_affine_t)}};
    for (int i = 0; i < 5; i++) {
        uint64_t bytes = arr[i].bytes ? arr[i].bytes : 16; /* an empty array still gets a valid pointer (key.cu) */
        if (k->placement == CUZK_GPU_KEY_RESIDENT) {
            CUZK_CUDA(cudaMalloc(arr[i].p, bytes));
            k->vram_bytes += bytes;
        } else {
            CUZK_CUDA(cudaHostAlloc(arr[i].p, bytes, cudaHostAllocDefault));
            k->pinned_bytes += bytes;
        }
    }
    return CUZK_OK;
}

/* The verifying key on the host (a handful of points and the ic array, by the CPU's fixed-base code). */
static cuzk_status make_vk(cuzk_groth16_vk *vk, cuzk_g1_affine_t **ic_out, const cuzk_g16_setup_scalars *sc)
{
    uint64_t ni = sc->ni;
    cuzk_fr_t *k1 = (cuzk_fr_t *)malloc((3 + ni) * sizeof(cuzk_fr_t));
    cuzk_fr_t k2[3] = {sc->beta, sc->gamma, sc->delta};
    cuzk_g1_affine_t *p1 = (cuzk_g1_affine_t *)malloc((3 + ni) * sizeof(cuzk_g1_affine_t));
    cuzk_g1_affine_t *ic = (cuzk_g1_affine_t *)malloc((ni ? ni : 1) * sizeof(cuzk_g1_affine_t));
    cuzk_g2_affine_t p2[3];
    cuzk_g16_fb1_table t1 = {0, 0, 0, NULL};
    cuzk_g16_fb2_table t2 = {0, 0, 0, NULL};
    cuzk_status s = k1 && p1 && ic ? CUZK_OK : CUZK_ERR_NOMEM;
    if (s == CUZK_OK) s = cuzk_g16_fb1_table_build(&t1, 3 + ni);
    if (s == CUZK_OK) s = cuzk_g16_fb2_table_build(&t2, 3);
    if (s == CUZK_OK) {
        k1[0] = sc->alpha;
        k1[1] = sc->beta;
        k1[2] = sc->delta;
        cuzk_g16_setup_scalars_fill(sc, CUZK_G16_SEC_IC, 0, ni, k1 + 3);
        cuzk_g16_fb1_mul_many(p1, &t1, k1, 3 + ni, sc->threads);
        cuzk_g16_fb2_mul_many(p2, &t2, k2, 3, 1);
        memset(vk, 0, sizeof *vk);
        vk->alpha_g1 = p1[0];
        vk->beta_g1 = p1[1];
        vk->delta_g1 = p1[2];
        vk->beta_g2 = p2[0];
        vk->gamma_g2 = p2[1];
        vk->delta_g2 = p2[2];
        memcpy(ic, p1 + 3, ni * sizeof(cuzk_g1_affine_t));
        vk->ic = ic;
        vk->num_inputs = ni;
        *ic_out = ic;
        ic = NULL;
    }
    cuzk_g16_fb1_table_free(&t1);
    cuzk_g16_fb2_table_free(&t2);
    if (k1 != NULL) explicit_bzero(k1, 3 * sizeof(cuzk_fr_t));
    explicit_bzero(k2, sizeof k2);
    free(k1);
    free(p1);
    free(ic);
    return s;
}

extern "C" cuzk_status cuzk_gpu_setup(cuzk_gpu_key **out, const cuzk_r1cs_t *circuit,
                                      const cuzk_groth16_setup_opts *opts, const cuzk_gpu_key_opts *kopts,
                                      cuzk_errmsg *err)
{
    if (out == NULL || circuit == NULL || opts == NULL)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "gpu_setup: NULL argument");
    *out = NULL;
    if (opts->conv != 0 && opts->conv != CUZK_GROTH16_BELLPERSON)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "gpu_setup: BELLPERSON keys only (convention %d)",
                             (int)opts->conv);
    if (cuzk_r1cs_num_vars(circuit) > 0x7fffffffu ||
        circuit->num_constraints + circuit->num_inputs > ((uint64_t)1 << 31))
        return cuzk_gpu_fail(err, CUZK_ERR_TOO_LARGE, "the GPU prover takes fewer than 2^31 variables and rows");
    double t0 = cuzk_now();
    unsigned threads = opts->threads ? opts->threads : cuzk_cpu_count();
    cuzk_g16_setup_scalars sc;
    cuzk_status s = cuzk_g16_setup_scalars_make(&sc, circuit, opts, threads, err);
    if (s != CUZK_OK) return s;

    uint64_t h_len = sc.len[CUZK_G16_SEC_H], l_len = sc.len[CUZK_G16_SEC_L], a_len = sc.len[CUZK_G16_SEC_A];
    uint64_t b_len = sc.len[CUZK_G16_SEC_B];
    uint64_t bases = cuzk_gpu_g16_bases_bytes(h_len, l_len, a_len, b_len);
    uint64_t fixed = cuzk_gpu_g16_circuit_bytes(circuit, 3);
    cuzk_gpu_key_opts ko = {CUZK_GPU_KEY_AUTO, 0, 1};
    if (kopts != NULL) ko = *kopts;
    cuzk_gpu_key_placement placement;
    cuzk_gpu_key *k = NULL;
    setup_run run;
    memset(&run, 0, sizeof run);
    cuzk_g1_affine_t *ic = NULL;
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);

    bool whole;
    s = cuzk_gpu_g16_plan(&placement, &whole, bases, fixed, cuzk_gpu_prove_vram_bytes(sc.n, sc.nv),
                          cuzk_gpu_g16_whole_bytes(sc.n, CUZK_GROTH16_BELLPERSON), &ko, err);
    if (s != CUZK_OK) goto fail;
    s = cuzk_gpu_g16_key_new(&k, placement, &ko);
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "gpu_setup: cannot create the key");
        goto fail;
    }
    k->ntt_whole = whole;
    k->conv = CUZK_GROTH16_BELLPERSON;
    k->domain_size = sc.n;
    k->log2n = sc.log2n;
    k->num_inputs = sc.ni;
    k->num_aux = sc.na;
    k->h_len = h_len;
    k->l_len = l_len;
    k->a_len = a_len;
    k->b_len = b_len;
    s = alloc_bases(k);
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "gpu_setup: cannot allocate %llu bytes of bases (%s)", (unsigned long long)bases,
                      placement == CUZK_GPU_KEY_RESIDENT ? "device" : "pinned host");
        goto fail;
    }
    s = run_init(&run, placement == CUZK_GPU_KEY_STREAMED, b_len > 0, ko.setup_chunk);
    if (s == CUZK_OK) s = run_all(&run, &sc, k);
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "gpu_setup: fixed-base multiplication");
        goto fail;
    }
    run_free(&run);
    s = make_vk(&vk, &ic, &sc);
    if (s == CUZK_OK) s = cuzk_gpu_g16_key_vk(k, &vk);
    free(ic);
    ic = NULL;
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "gpu_setup: verifying key");
        goto fail;
    }
    cuzk_g16_setup_scalars_free(&sc);
    s = cuzk_gpu_g16_key_circuit(k, circuit, true, err);
    if (s != CUZK_OK) goto fail;
    k->upload_s = cuzk_now() - t0;
    *out = k;
    return CUZK_OK;

fail:
    run_free(&run);
    cuzk_g16_setup_scalars_free(&sc);
    free(ic);
    if (k != NULL) cuzk_gpu_key_free(k);
    return s;
}
