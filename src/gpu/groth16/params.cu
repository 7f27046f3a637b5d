/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk_gpu_key_load_params: a bellperson .params file decoded on the device.
 *
 * The layout and every count check are the CPU loader's (cuzk_g16_params_layout in src/groth16/params.c, the counts
 * read with pread); the six fixed vk points and ic are decoded on the host by the CPU decoders (a handful of points
 * that the key keeps on the host anyway). The bulk arrays (h, l, a, b_g1, b_g2) go straight from the file into the
 * key's device arrays: an uncompressed point takes exactly the bytes of its decoded form, so each array's raw bytes are
 * copied in place (read into two pinned buffers in turn, each copy overlapping the next read) and a kernel per array
 * decodes every point where it lies, one thread per point:
 *   flags (compressed or sign bit: BAD_FLAGS; infinity: BAD_FLAGS unless the rest is zero, else INFINITY, which
 *   bellperson refuses), coordinates big-endian < p (COORD_RANGE), Montgomery form (multiplication by R² mod p),
 *   (0, 0) and y² ≠ x³ + b (NOT_ON_CURVE), and with CUZK_GROTH16_LOAD_SUBGROUP [r]P = 0 (NOT_IN_SUBGROUP): the CPU
 *   decoder's checks in its order. A failing point posts (index << 8 | status) to its array's slot by atomicMin,
 *   so the slot ends with the lowest bad index; the arrays are reported in file order, as the CPU loader would. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ec/ec.cuh"
#include "groth16/groth16.cuh"

typedef daff<dfp> g1a;
typedef daff<dfp2> g2a;

#define PARAMS_CHUNK ((size_t)64 << 20) /* bytes per read */
#define DEC_THREADS 128
#define NO_BAD 0xffffffffffffffffULL

/* R² mod p (to Montgomery form) and the curve constants b = 4 (G1), 4(1 + u) (G2) in Montgomery form */
static __constant__ uint64_t D_FP_R2[6] = {0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                                           0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL};
static __constant__ uint64_t D_FP_B4[6] = {0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                                           0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL};

static __device__ __forceinline__ void dfp_const(dfp *r, const uint64_t *c)
{
#pragma unroll
    for (int i = 0; i < 6; i++) {
        r->w[2 * i] = (uint32_t)c[i];
        r->w[2 * i + 1] = (uint32_t)(c[i] >> 32);
    }
}

/* The 48 big-endian bytes starting at 32-bit word o of rw (the raw point as little-endian words) as an integer in
 * little-endian 32-bit words; false when it is >= p. Then converted to Montgomery form. */
static __device__ __forceinline__ bool dfp_from_be(dfp *r, const uint32_t *rw, int o)
{
    dfp x;
#pragma unroll
    for (int i = 0; i < 12; i++) x.w[i] = __byte_perm(rw[o + 11 - i], 0, 0x0123);
    /* x < p: the borrow out of x − p */
    uint32_t d = sub_cc(x.w[0], (uint32_t)D_FP_P[0]);
#pragma unroll
    for (int i = 1; i < 12; i++) d = subc_cc(x.w[i], mod_word<uint32_t>(D_FP_P, i));
    uint32_t borrow = subc(0u, 0u);
    (void)d;
    if (borrow == 0) return false;
    dfp r2;
    dfp_const(&r2, D_FP_R2);
    dfp_mul_call(r, &x, &r2);
    return true;
}

static __device__ __forceinline__ bool f_eq(const dfp *a, const dfp *b)
{
    uint32_t acc = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) acc |= a->w[i] ^ b->w[i];
    return acc == 0;
}
static __device__ __forceinline__ bool f_eq(const dfp2 *a, const dfp2 *b)
{
    return f_eq(&a->c0, &b->c0) && f_eq(&a->c1, &b->c1);
}

static __device__ __forceinline__ void curve_b(dfp *b) { dfp_const(b, D_FP_B4); }
static __device__ __forceinline__ void curve_b(dfp2 *b)
{
    dfp_const(&b->c0, D_FP_B4);
    dfp_const(&b->c1, D_FP_B4);
}

/* coordinate number c (0 = x, 1 = y) of the raw point: G1 one Fp, G2 c1 ‖ c0 */
static __device__ __forceinline__ bool coord_from_be(dfp *r, const uint32_t *rw, int c)
{
    return dfp_from_be(r, rw, 12 * c);
}
static __device__ __forceinline__ bool coord_from_be(dfp2 *r, const uint32_t *rw, int c)
{
    bool ok1 = dfp_from_be(&r->c1, rw, 24 * c);
    bool ok0 = dfp_from_be(&r->c0, rw, 24 * c + 12);
    return ok0 && ok1;
}

/* [r]P = 0 by double-and-add over the bits of r (r < 2^255) */
template <typename F> static __device__ __noinline__ bool in_subgroup(const F &x, const F &y)
{
    dxyzz<F> acc;
    xyzz_set_inf(&acc);
    for (int b = 254; b >= 0; b--) {
        xyzz_dbl(&acc, &acc);
        if ((D_FR_P[b >> 6] >> (b & 63)) & 1) xyzz_madd(&acc, x, y);
    }
    return xyzz_is_inf(&acc);
}

template <typename F> static __device__ cuzk_status decode_point(daff<F> *out, const uint32_t *rw, bool subgroup)
{
    constexpr int WORDS = (int)(sizeof(daff<F>) / 4);
    uint32_t top = rw[0] & 0xe0u; /* the flag bits of byte 0 */
    if (top & 0xa0u) return CUZK_ERR_BAD_FLAGS;
    if (top & 0x40u) {
        uint32_t rest = rw[0] & ~0xe0u;
        for (int i = 1; i < WORDS; i++) rest |= rw[i];
        return rest ? CUZK_ERR_BAD_FLAGS : CUZK_ERR_INFINITY;
    }
    daff<F> p;
    bool okx = coord_from_be(&p.x, rw, 0);
    bool oky = coord_from_be(&p.y, rw, 1);
    if (!okx || !oky) return CUZK_ERR_COORD_RANGE;
    if (aff_is_inf(&p)) return CUZK_ERR_NOT_ON_CURVE;
    F y2, x3, b;
    f_sqr(&y2, &p.y);
    f_sqr(&x3, &p.x);
    f_mul(&x3, &x3, &p.x);
    curve_b(&b);
    f_add(&x3, &x3, &b);
    if (!f_eq(&y2, &x3)) return CUZK_ERR_NOT_ON_CURVE;
    if (subgroup && !in_subgroup(p.x, p.y)) return CUZK_ERR_NOT_IN_SUBGROUP;
    *out = p;
    return CUZK_OK;
}

/* pts: n raw encoded points, decoded in place; *bad: the lowest (index << 8 | status) of a failing point */
template <typename F>
static __global__ void __launch_bounds__(DEC_THREADS)
    k_decode(daff<F> *pts, uint64_t n, bool subgroup, unsigned long long *bad)
{
    uint64_t i = (uint64_t)blockIdx.x * DEC_THREADS + threadIdx.x;
    if (i >= n) return;
    daff<F> raw = ld16(pts + i), p;
    cuzk_status s = decode_point(&p, (const uint32_t *)&raw, subgroup);
    if (s == CUZK_OK) st16(pts + i, p);
    else atomicMin(bad, (unsigned long long)(i << 8 | (uint64_t)s));
}

/* ---- host side --------------------------------------------------------------------------------------------------- */

static bool read_full(int fd, void *buf, size_t n, uint64_t pos)
{
    uint8_t *p = (uint8_t *)buf;
    while (n > 0) {
        ssize_t r = pread(fd, p, n, (off_t)pos);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        p += r, n -= (size_t)r, pos += (uint64_t)r;
    }
    return true;
}

static bool file_read4(void *ctx, uint64_t pos, uint8_t out[4]) { return read_full(*(int *)ctx, out, 4, pos); }

struct load_run {
    cudaStream_t st;
    cudaEvent_t ev[2];
    uint8_t *pin[2];
    unsigned long long *bad; /* device: one slot per array */
};

static void load_free(load_run *r)
{
    if (r->st != NULL) cudaStreamSynchronize(r->st);
    for (int i = 0; i < 2; i++) {
        if (r->ev[i] != NULL) cudaEventDestroy(r->ev[i]);
        cudaFreeHost(r->pin[i]);
    }
    cudaFree(r->bad);
    if (r->st != NULL) cudaStreamDestroy(r->st);
    memset(r, 0, sizeof *r);
}

static cuzk_status load_init(load_run *r)
{
    CUZK_CUDA(cudaStreamCreateWithFlags(&r->st, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        CUZK_CUDA(cudaEventCreateWithFlags(&r->ev[i], cudaEventDisableTiming));
        CUZK_CUDA(cudaHostAlloc((void **)&r->pin[i], PARAMS_CHUNK, cudaHostAllocDefault));
    }
    CUZK_CUDA(cudaMalloc((void **)&r->bad, CUZK_G16_PARAMS_SEC_COUNT * sizeof(unsigned long long)));
    CUZK_CUDA(cudaMemsetAsync(r->bad, 0xff, CUZK_G16_PARAMS_SEC_COUNT * sizeof(unsigned long long), r->st));
    return CUZK_OK;
}

/* Copies array k's raw bytes from the file into dst (device) and enqueues its decoding. *io set on a read error. */
static cuzk_status load_section(load_run *r, int fd, const uint64_t *off, const uint64_t *cnt, int k, void *dst,
                                bool subgroup, unsigned *chunk_no, bool *io)
{
    size_t psz = k == CUZK_G16_PARAMS_SEC_B_G2 ? sizeof(g2a) : sizeof(g1a);
    uint64_t bytes = cnt[k] * psz;
    for (uint64_t pos = 0; pos < bytes; pos += PARAMS_CHUNK, (*chunk_no)++) {
        size_t n = bytes - pos < PARAMS_CHUNK ? (size_t)(bytes - pos) : PARAMS_CHUNK;
        int slot = *chunk_no & 1;
        CUZK_CUDA(cudaEventSynchronize(r->ev[slot])); /* the slot's previous copy is done */
        if (!read_full(fd, r->pin[slot], n, off[k] + pos)) {
            *io = true;
            return CUZK_ERR_IO;
        }
        CUZK_CUDA(cudaMemcpyAsync((uint8_t *)dst + pos, r->pin[slot], n, cudaMemcpyHostToDevice, r->st));
        CUZK_CUDA(cudaEventRecord(r->ev[slot], r->st));
    }
    if (cnt[k] == 0) return CUZK_OK;
    unsigned blocks = (unsigned)((cnt[k] + DEC_THREADS - 1) / DEC_THREADS);
    if (k == CUZK_G16_PARAMS_SEC_B_G2)
        k_decode<dfp2><<<blocks, DEC_THREADS, 0, r->st>>>((g2a *)dst, cnt[k], subgroup, r->bad + k);
    else k_decode<dfp><<<blocks, DEC_THREADS, 0, r->st>>>((g1a *)dst, cnt[k], subgroup, r->bad + k);
    CUZK_CUDA_LAUNCHED();
    return CUZK_OK;
}

/* Waits for the copies and kernels, then brings back the bad-point slots. */
static cuzk_status load_finish(load_run *r, unsigned long long bad[CUZK_G16_PARAMS_SEC_COUNT])
{
    CUZK_CUDA(cudaStreamSynchronize(r->st));
    CUZK_CUDA(cudaMemcpy(bad, r->bad, CUZK_G16_PARAMS_SEC_COUNT * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    return CUZK_OK;
}

/* The key's five arrays in device memory (an empty one still gets a valid pointer, as key.cu does). */
static cuzk_status alloc_resident(cuzk_gpu_key *k)
{
    void **p[5] = {(void **)&k->h, (void **)&k->l, (void **)&k->a, (void **)&k->b_g1, (void **)&k->b_g2};
    uint64_t bytes[5] = {k->h_len * sizeof(g1a), k->l_len * sizeof(g1a), k->a_len * sizeof(g1a), k->b_len * sizeof(g1a),
                         k->b_len * sizeof(g2a)};
    for (int i = 0; i < 5; i++) {
        uint64_t b = bytes[i] ? bytes[i] : 16;
        CUZK_CUDA(cudaMalloc(p[i], b));
        k->vram_bytes += b;
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_key_load_params(cuzk_gpu_key **out, const char *path, const cuzk_r1cs_t *circuit,
                                                unsigned flags, double *bytes_per_s, cuzk_errmsg *err)
{
    static const char what[] = "params";
    if (out == NULL || path == NULL || circuit == NULL)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "gpu_key_load_params: NULL argument");
    *out = NULL;
    double t0 = cuzk_now();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return cuzk_gpu_fail(err, CUZK_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return cuzk_gpu_fail(err, CUZK_ERR_IO, "%s is not a readable regular file", path);
    }
    size_t len = (size_t)sb.st_size;
    unsigned ecflags = (flags & CUZK_GROTH16_LOAD_SUBGROUP) ? 0 : CUZK_EC_DECODE_SKIP_SUBGROUP;
    bool subgroup = (flags & CUZK_GROTH16_LOAD_SUBGROUP) != 0;
    uint64_t off[CUZK_G16_PARAMS_SEC_COUNT] = {0}, cnt[CUZK_G16_PARAMS_SEC_COUNT] = {0};
    uint8_t *head = NULL;
    cuzk_g1_affine_t *ic = NULL;
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    cuzk_gpu_key *k = NULL;
    load_run run;
    memset(&run, 0, sizeof run);
    bool io = false;
    unsigned chunk_no = 0;
    unsigned long long bad[CUZK_G16_PARAMS_SEC_COUNT];
    void *dst[CUZK_G16_PARAMS_SEC_COUNT];
    uint64_t head_len = 0;

    cuzk_status s = cuzk_g16_params_layout(off, cnt, len, file_read4, &fd, err);
    if (s != CUZK_OK) goto done;
    /* the vk points and ic, on the host */
    head_len = off[CUZK_G16_PARAMS_SEC_IC] + cnt[CUZK_G16_PARAMS_SEC_IC] * CUZK_G1_UNCOMPRESSED_BYTES;
    head = (uint8_t *)malloc(head_len);
    ic = (cuzk_g1_affine_t *)malloc(cnt[CUZK_G16_PARAMS_SEC_IC] * sizeof(cuzk_g1_affine_t));
    if (head == NULL || ic == NULL) {
        s = cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "%s: no memory for the verifying key", what);
        goto done;
    }
    if (!read_full(fd, head, head_len, 0)) {
        s = cuzk_gpu_fail(err, CUZK_ERR_IO, "cannot read %s", path);
        goto done;
    }
    s = cuzk_g16_params_decode_vk_fixed(&vk, head, ecflags, what, err);
    if (s != CUZK_OK) goto done;
    {
        uint64_t b = 0;
        s = cuzk_g16_keyio_decode_points(ic, head + off[CUZK_G16_PARAMS_SEC_IC], cnt[CUZK_G16_PARAMS_SEC_IC],
                                         CUZK_G16_KEYIO_G1_ZCASH, ecflags, cuzk_cpu_count(), &b);
        if (s != CUZK_OK) {
            cuzk_g16_params_point_fail(err, s, off, CUZK_G16_PARAMS_SEC_IC, b, what);
            goto done;
        }
    }
    vk.ic = ic;
    vk.num_inputs = cnt[CUZK_G16_PARAMS_SEC_IC];
    if (vk.num_inputs + cnt[CUZK_G16_PARAMS_SEC_L] > 0x7fffffffu ||
        cnt[CUZK_G16_PARAMS_SEC_H] + 1 > ((uint64_t)1 << 31)) {
        s = cuzk_gpu_fail(err, CUZK_ERR_TOO_LARGE, "the GPU prover takes fewer than 2^31 variables and rows");
        goto done;
    }

    /* the bulk arrays, on the device */
    s = cuzk_gpu_g16_key_new(&k, CUZK_GPU_KEY_RESIDENT, NULL);
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "cannot create the device key");
        goto done;
    }
    k->conv = CUZK_GROTH16_BELLPERSON;
    k->domain_size = cnt[CUZK_G16_PARAMS_SEC_H] + 1;
    while (((uint64_t)1 << k->log2n) < k->domain_size) k->log2n++;
    k->h_len = cnt[CUZK_G16_PARAMS_SEC_H];
    k->l_len = cnt[CUZK_G16_PARAMS_SEC_L];
    k->a_len = cnt[CUZK_G16_PARAMS_SEC_A];
    k->b_len = cnt[CUZK_G16_PARAMS_SEC_B_G1];
    {
        cuzk_gpu_key_opts ko = {CUZK_GPU_KEY_RESIDENT, 0, 1};
        cuzk_gpu_key_placement place;
        s = cuzk_gpu_g16_plan(&place, &k->ntt_whole, cuzk_gpu_g16_bases_bytes(k->h_len, k->l_len, k->a_len, k->b_len),
                              cuzk_gpu_g16_circuit_bytes(circuit, 3),
                              cuzk_gpu_prove_vram_bytes(k->domain_size, cuzk_r1cs_num_vars(circuit)),
                              cuzk_gpu_g16_whole_bytes(k->domain_size, CUZK_GROTH16_BELLPERSON), &ko, err);
        if (s != CUZK_OK) goto done;
    }
    s = alloc_resident(k);
    if (s == CUZK_OK) s = load_init(&run);
    dst[CUZK_G16_PARAMS_SEC_IC] = NULL;
    dst[CUZK_G16_PARAMS_SEC_H] = k->h;
    dst[CUZK_G16_PARAMS_SEC_L] = k->l;
    dst[CUZK_G16_PARAMS_SEC_A] = k->a;
    dst[CUZK_G16_PARAMS_SEC_B_G1] = k->b_g1;
    dst[CUZK_G16_PARAMS_SEC_B_G2] = k->b_g2;
    for (int sec = CUZK_G16_PARAMS_SEC_H; sec < CUZK_G16_PARAMS_SEC_COUNT && s == CUZK_OK; sec++)
        s = load_section(&run, fd, off, cnt, sec, dst[sec], subgroup, &chunk_no, &io);
    if (s == CUZK_OK) s = load_finish(&run, bad);
    if (s != CUZK_OK) {
        if (io) cuzk_gpu_fail(err, s, "cannot read %s", path);
        else cuzk_gpu_fail(err, s, "%s: copying and decoding the points on the device", what);
        goto done;
    }
    for (int sec = CUZK_G16_PARAMS_SEC_H; sec < CUZK_G16_PARAMS_SEC_COUNT; sec++) {
        if (bad[sec] == NO_BAD) continue;
        s = cuzk_g16_params_point_fail(err, (cuzk_status)(bad[sec] & 0xff), off, sec, bad[sec] >> 8, what);
        goto done;
    }
    load_free(&run);

    /* the key must fit the circuit, as cuzk_gpu_key_upload checks it */
    {
        cuzk_groth16_pk pk;
        memset(&pk, 0, sizeof pk);
        pk.conv = CUZK_GROTH16_BELLPERSON;
        pk.vk = vk;
        pk.num_aux = cnt[CUZK_G16_PARAMS_SEC_L];
        pk.domain_size = k->domain_size;
        pk.h = k->h, pk.h_len = k->h_len; /* device pointers: only checked for NULL */
        pk.l = k->l, pk.l_len = k->l_len;
        pk.a = k->a, pk.a_len = k->a_len;
        pk.b_g1 = k->b_g1, pk.b_len = k->b_len;
        pk.b_g2 = k->b_g2;
        s = cuzk_groth16_pk_check_circuit(&pk, circuit, err);
        if (s != CUZK_OK) goto done;
    }
    s = cuzk_gpu_g16_key_vk(k, &vk);
    if (s != CUZK_OK) {
        cuzk_gpu_fail(err, s, "out of memory copying the verifying key");
        goto done;
    }
    s = cuzk_gpu_g16_key_circuit(k, circuit, true, err);
    if (s == CUZK_OK && (k->a_len != cnt[CUZK_G16_PARAMS_SEC_A] || k->b_len != cnt[CUZK_G16_PARAMS_SEC_B_G1]))
        s = cuzk_gpu_fail(err, CUZK_ERR_MISMATCH, "the key's a/b lengths disagree with the circuit's densities");
    if (s != CUZK_OK) goto done;
    k->upload_s = cuzk_now() - t0;
    if (bytes_per_s != NULL) *bytes_per_s = k->upload_s > 0 ? (double)len / k->upload_s : 0;
    *out = k;
    k = NULL;

done:
    load_free(&run);
    if (k != NULL) cuzk_gpu_key_free(k);
    free(head);
    free(ic);
    close(fd);
    return s;
}
