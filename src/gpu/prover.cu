/* The Groth16 prover on the device. Only the witness crosses PCIe:
 *   upload z → SpMV a, b, c (c = a∘b, or C·z, or a∘b checked against C·z) → H by NTTs (bellperson: coset 7 and
 *   division by Z; snarkjs: the odd coset of the 2n domain) → H MSM → for L, A and B: classify the scalars at the
 *   key's positions (0 skipped, 1 into a bitmap, others compacted with their positions) → batch addition of the
 *   ones and a Pippenger MSM over the rest, reading the key's bases by position → the five sums come back to the
 *   host, where cuzk_groth16_assemble adds the r and s terms.
 * Results equal the CPU prover's bit for bit: both compute the same group elements and the affine encoding of a
 * point is unique. */
#include <pthread.h>
#include <string.h>

#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "ff/ff.cuh"
#include "g16_gpu.cuh"

struct cuzk_gpu_prover {
    int device;
    cuzk_gpu_msm_ctx *msm;
    cuzk_gpu_ntt_domain *dom;
    unsigned dom_log2;
    cuzk_fr_roots dom_conv;
    bool dom_whole;
    cuzk_fr_t *z;
    uint64_t cap_z;          /* elements */
    cuzk_fr_t *abc[3];
    uint64_t cap_n;          /* elements of each of a, b, c */
    uint64_t *bitmap;        /* ones of one split, ceil(positions/64) words */
    uint8_t *flags;          /* 1 = scalar other than 0 and 1 */
    uint32_t *idx;           /* positions of those */
    cuzk_fr_t *tail;              /* their scalars */
    uint64_t cap_pos;        /* positions the split buffers hold */
    void *cub_tmp;
    size_t cap_cub;
    int *d_count;            /* device: compacted count */
    unsigned long long *d_bad; /* device: lowest unsatisfied row */
    uint64_t *d_bounds;      /* device: tail offsets at stream chunk boundaries */
    size_t cap_bounds;
    void *stage;             /* pinned staging of a pageable witness: two halves */
    size_t stage_bytes;
    void *sbuf[2];           /* streamed bases: two device buffers */
    size_t sbuf_bytes;
    cudaStream_t copy_stream;
    cudaEvent_t ev_copied[2], ev_used[2];
    bool events;
    uint64_t vram_bytes;
    double h_share;      /* as the H side of a pair: the share of the H MSM kept here; < 0: h_share_auto */
    double h_share_auto; /* the share that balanced the last pair proof's two sides */
};

/* The H side's share before any pair proof was timed: at 2^27 its SpMV and NTTs take about half of the time the
 * other side's L, A and B MSMs take, and the H MSM about as much as those (docs/performance/prover.md). */
#define H_SHARE_FIRST (2.0 / 3.0)

#define STAGE_HALF ((size_t)32 << 20)

static unsigned blocks(uint64_t threads, unsigned per) { return (unsigned)((threads + per - 1) / per); }

static cuzk_status stream_sync(void)
{
    CUZK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
    CUZK_CUDA(cudaGetLastError());
    return CUZK_OK;
}

/* ---- memory ------------------------------------------------------------------------------------------------------ */
extern "C" uint64_t cuzk_gpu_prove_vram_bytes(uint64_t n, uint64_t nv)
{
    uint64_t F = sizeof(cuzk_fr_t);
    /* G1 MSMs: h (n − 1 points) and l, a, b (at most nv); G2: b */
    uint64_t msm = cuzk_gpu_msm_scratch_bytes(n > nv ? n : nv, nv);
    uint64_t select = nv / 4 + ((uint64_t)1 << 20); /* cub's select scratch: a small fraction, bounded generously */
    uint64_t direct = n < ((uint64_t)1 << 20) ? n : ((uint64_t)1 << 20); /* the direct twiddle tables, at most */
    uint64_t tables = 4 * (((uint64_t)1 << 14) + n / ((uint64_t)1 << 14) + 1) + ((uint64_t)1 << 11) + 2 * direct;
    return nv * F                                   /* z */
           + 3 * n * F                              /* a, b, c */
           + (nv / 64 + 1) * 8 + nv + nv * 4 + nv * F /* bitmap, flags, idx, tail */
           + msm + select
           + n * F + tables * F                     /* the NTT domain's scratch, twiddle and coset tables */
           + ((uint64_t)1 << 20);                   /* chunk bounds of a streamed key */
}

/* Grows a device buffer (contents not kept). */
static cuzk_status grow(cuzk_gpu_prover *p, void **buf, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap && *buf != NULL) return CUZK_OK;
    if (*buf != NULL) {
        cudaFree(*buf);
        p->vram_bytes -= *cap * elem;
    }
    *buf = NULL;
    *cap = 0;
    CUZK_CUDA(cudaMalloc(buf, need * elem));
    *cap = need;
    p->vram_bytes += need * elem;
    return CUZK_OK;
}

/* cub's temporary storage grown to `need` bytes */
static cuzk_status cub_scratch(cuzk_gpu_prover *p, size_t need)
{
    uint64_t cap = p->cap_cub;
    cuzk_status s = grow(p, &p->cub_tmp, &cap, need, 1);
    p->cap_cub = cap;
    return s;
}

extern "C" void cuzk_gpu_prover_set_opts(cuzk_gpu_prover *p, const cuzk_gpu_prover_opts *opts)
{
    if (p == NULL) return;
    cuzk_gpu_msm_ctx_set_opts(p->msm, opts != NULL ? &opts->msm : NULL);
    double share = opts != NULL && opts->fixed_h_share ? opts->h_share : -1;
    p->h_share = !(share >= 0) ? -1 : share > 1 ? 1 : share; /* NaN: adaptive */
}

extern "C" cuzk_status cuzk_gpu_prover_create(cuzk_gpu_prover **out, const cuzk_gpu_prover_opts *opts, cuzk_errmsg *err)
{
    *out = NULL;
    cuzk_gpu_prover *p = (cuzk_gpu_prover *)calloc(1, sizeof(cuzk_gpu_prover));
    if (p == NULL) return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    if (cudaGetDevice(&p->device) != cudaSuccess || cudaMalloc(&p->d_count, sizeof(int)) != cudaSuccess ||
        cudaMalloc(&p->d_bad, sizeof(unsigned long long)) != cudaSuccess ||
        cudaStreamCreateWithFlags(&p->copy_stream, cudaStreamNonBlocking) != cudaSuccess ||
        cudaHostAlloc(&p->stage, 2 * STAGE_HALF, cudaHostAllocDefault) != cudaSuccess) {
        cuzk_gpu_set_error("gpu_prover_create", cudaGetLastError(), __FILE__, __LINE__);
        s = CUZK_ERR_DEVICE;
    }
    p->stage_bytes = 2 * STAGE_HALF;
    p->h_share = -1;
    p->h_share_auto = H_SHARE_FIRST;
    for (int i = 0; i < 2 && s == CUZK_OK; i++) {
        if (cudaEventCreateWithFlags(&p->ev_copied[i], cudaEventDisableTiming) != cudaSuccess ||
            cudaEventCreateWithFlags(&p->ev_used[i], cudaEventDisableTiming) != cudaSuccess) {
            cuzk_gpu_set_error("cudaEventCreate", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
        }
    }
    p->events = s == CUZK_OK;
    if (s == CUZK_OK) s = cuzk_gpu_msm_ctx_create(&p->msm, NULL);
    if (s != CUZK_OK) {
        cuzk_gpu_prover_destroy(p);
        return cuzk_gpu_fail(err, s, "cannot create a GPU prover");
    }
    cuzk_gpu_prover_set_opts(p, opts);
    *out = p;
    return CUZK_OK;
}

extern "C" void cuzk_gpu_prover_destroy(cuzk_gpu_prover *p)
{
    if (p == NULL) return;
    int prev = -1;
    cudaGetDevice(&prev);
    cudaSetDevice(p->device);
    cudaStreamSynchronize(cudaStreamPerThread);
    cuzk_gpu_msm_ctx_destroy(p->msm);
    cuzk_gpu_ntt_domain_destroy(p->dom);
    cudaFree(p->z);
    for (int i = 0; i < 3; i++) cudaFree(p->abc[i]);
    cudaFree(p->bitmap), cudaFree(p->flags), cudaFree(p->idx), cudaFree(p->tail), cudaFree(p->cub_tmp);
    cudaFree(p->d_count), cudaFree(p->d_bad), cudaFree(p->d_bounds);
    cudaFree(p->sbuf[0]), cudaFree(p->sbuf[1]);
    if (p->stage) cudaFreeHost(p->stage);
    if (p->copy_stream) cudaStreamDestroy(p->copy_stream);
    for (int i = 0; p->events && i < 2; i++) cudaEventDestroy(p->ev_copied[i]), cudaEventDestroy(p->ev_used[i]);
    if (prev >= 0) cudaSetDevice(prev);
    free(p);
}

/* ---- kernels ----------------------------------------------------------------------------------------------------- */
static __device__ __forceinline__ bool dfr_eq(const dfr *a, const dfr *b)
{
    uint32_t d = 0;
#pragma unroll
    for (int i = 0; i < 8; i++) d |= a->w[i] ^ b->w[i];
    return d == 0;
}

/* Σ coef·z over one CSR row; ids 0 and 1 are +1 and −1. Witness values 0 and 1 (most of a Filecoin circuit's) skip
 * the multiplication: ncu found the SpMV bound by it (math pipe), not by memory. */
static __device__ __forceinline__ void row_dot(dfr *r, const gpu_csr m, uint64_t row, const dfr *values,
                                               const dfr *z, const dfr *one)
{
    dfr acc;
#pragma unroll
    for (int i = 0; i < 8; i++) acc.w[i] = 0;
    uint64_t e0 = m.row_ptr[row], e1 = m.row_ptr[row + 1];
    for (uint64_t e = e0; e < e1; e++) {
        uint32_t id = m.coef[e];
        dfr x = dfr_load(&z[m.col[e]]);
        if (id == CUZK_R1CS_COEF_ONE) {
            dfr_add(&acc, &acc, &x);
        } else if (id == CUZK_R1CS_COEF_MINUS_ONE) {
            dfr_sub(&acc, &acc, &x);
        } else if (!dfr_is_zero(&x)) {
            dfr v = dfr_load(&values[id]);
            if (!dfr_eq(&x, one)) dfr_mul(&v, &v, &x);
            dfr_add(&acc, &acc, &v);
        }
    }
    *r = acc;
}

__global__ void k_spmv(dfr *a, dfr *b, dfr *c, gpu_csr A, gpu_csr B, gpu_csr C, const dfr *values, const dfr *z,
                       uint64_t rows, uint64_t input_rows, uint64_t n, bool c_matrix, dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dfr va, vb, vc;
#pragma unroll
    for (int w = 0; w < 8; w++) va.w[w] = vb.w[w] = vc.w[w] = 0;
    if (i < rows) {
        row_dot(&va, A, i, values, z, &one);
        row_dot(&vb, B, i, values, z, &one);
        if (c_matrix)
            row_dot(&vc, C, i, values, z, &one);
        else
            dfr_mul(&vc, &va, &vb);
    } else if (i < rows + input_rows) {
        va = dfr_load(&z[i - rows]);
    }
    dfr_store(&a[i], &va);
    dfr_store(&b[i], &vb);
    dfr_store(&c[i], &vc);
}

/* the lowest row where (A·z)(B·z) ≠ C·z goes to *bad (initialised to all ones) */
__global__ void k_check(gpu_csr A, gpu_csr B, gpu_csr C, const dfr *values, const dfr *z, uint64_t rows,
                        unsigned long long *bad, dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    dfr va, vb, vc, ab;
    row_dot(&va, A, i, values, z, &one);
    row_dot(&vb, B, i, values, z, &one);
    row_dot(&vc, C, i, values, z, &one);
    dfr_mul(&ab, &va, &vb);
    if (!dfr_eq(&ab, &vc)) atomicMin(bad, (unsigned long long)i);
}

/* Classifies the scalars of positions p < npos (variable vars[p], or base + p when vars is NULL): bit p of the
 * bitmap for 1, flags[p] for any other non-zero value. Launched over a multiple of 64 threads so that every bitmap
 * word is written whole (two 32-bit halves, little-endian). */
__global__ void k_classify(uint32_t *bitmap32, uint8_t *flags, const dfr *z, const uint32_t *vars, uint64_t base,
                           uint64_t npos, uint64_t launch, dfr one)
{
    uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool is_one = false;
    if (p < npos) {
        uint64_t v = vars != NULL ? vars[p] : base + p;
        dfr x = dfr_load(&z[v]);
        is_one = dfr_eq(&x, &one);
        flags[p] = !is_one && !dfr_is_zero(&x);
    }
    unsigned m = __ballot_sync(0xffffffffu, is_one);
    if ((threadIdx.x & 31) == 0 && p < launch) bitmap32[p >> 5] = m;
}

/* tail[t] = the scalar at position idx[t], t < *count */
__global__ void k_gather(dfr *tail, const uint32_t *idx, const int *count, const dfr *z, const uint32_t *vars,
                         uint64_t base)
{
    uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= (uint64_t)*count) return;
    uint32_t p = idx[t];
    uint64_t v = vars != NULL ? vars[p] : base + p;
    dfr x = dfr_load(&z[v]);
    dfr_store(&tail[t], &x);
}

/* bounds[c] = the first t with idx[t] >= c·chunk (idx ascending), for c ≤ chunks */
__global__ void k_bounds(uint64_t *bounds, const uint32_t *idx, const int *count, uint64_t chunk, uint64_t chunks)
{
    uint64_t c = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c > chunks) return;
    uint64_t lo = 0, hi = (uint64_t)*count, key = c * chunk;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (idx[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    bounds[c] = lo;
}

/* ---- steps ------------------------------------------------------------------------------------------------------- */
static dfr to_dfr(const cuzk_fr_t *x)
{
    dfr d;
    memcpy(&d, x, sizeof d);
    return d;
}

/* z to the device: straight from pinned memory, else through the pinned staging halves */
static cuzk_status upload_witness(cuzk_gpu_prover *p, const cuzk_fr_t *z, uint64_t nv)
{
    size_t bytes = nv * sizeof(cuzk_fr_t);
    cudaPointerAttributes at;
    bool pinned = cudaPointerGetAttributes(&at, z) == cudaSuccess && at.type == cudaMemoryTypeHost;
    cudaGetLastError(); /* a pageable pointer may leave an error behind on older runtimes */
    if (pinned) {
        CUZK_CUDA(cudaMemcpyAsync(p->z, z, bytes, cudaMemcpyHostToDevice, cudaStreamPerThread));
        return CUZK_OK;
    }
    for (size_t off = 0, i = 0; off < bytes; off += STAGE_HALF, i++) {
        size_t len = bytes - off < STAGE_HALF ? bytes - off : STAGE_HALF;
        char *half = (char *)p->stage + (i & 1) * STAGE_HALF;
        CUZK_CUDA(cudaEventSynchronize(p->ev_copied[i & 1])); /* the copy that last read this half is done */
        memcpy(half, (const char *)z + off, len);
        CUZK_CUDA(cudaMemcpyAsync((char *)p->z + off, half, len, cudaMemcpyHostToDevice, cudaStreamPerThread));
        CUZK_CUDA(cudaEventRecord(p->ev_copied[i & 1], cudaStreamPerThread));
    }
    return CUZK_OK;
}

/* The NTT domain of k's size and roots, with whole tables when k's plan gave its provers room for them */
static cuzk_status ensure_domain(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    cuzk_fr_roots conv = k->conv == CUZK_GROTH16_BELLPERSON ? CUZK_FR_ROOTS_GEN7 : CUZK_FR_ROOTS_GEN5;
    if (p->dom != NULL && p->dom_log2 == k->log2n && p->dom_conv == conv && p->dom_whole == k->ntt_whole)
        return CUZK_OK;
    cuzk_gpu_ntt_domain_destroy(p->dom);
    p->dom = NULL;
    CUZK_TRY(cuzk_gpu_ntt_domain_create_whole(&p->dom, k->log2n, conv, k->ntt_whole));
    p->dom_log2 = k->log2n;
    p->dom_conv = conv;
    p->dom_whole = k->ntt_whole;
    return CUZK_OK;
}

/* The coset H is evaluated on (shift g) and the factor of its last pass (compute_h): bellperson's coset of 7 and
 * 1/(n·Z) there, 1/(n·(g^n − 1)) (the 1/n that neither unscaled inverse applied); snarkjs's odd coset (g a
 * primitive 2n-th root) and 1. */
static void h_coset(const cuzk_gpu_key *k, cuzk_fr_t *g, cuzk_fr_t *s)
{
    uint64_t n = k->domain_size;
    cuzk_fr_t one, nn;
    cuzk_fr_set_one(&one);
    if (k->conv == CUZK_GROTH16_BELLPERSON) {
        cuzk_fr_from_u64(g, 7);
        cuzk_fr_pow(s, g, &n, 1);
        cuzk_fr_sub(s, s, &one);
        cuzk_fr_from_u64(&nn, n);
        cuzk_fr_mul(s, s, &nn);
        cuzk_fr_inv_vartime(s, s);
    } else {
        cuzk_fr_root_of_unity(g, k->log2n + 1, CUZK_FR_ROOTS_GEN5);
        *s = one;
    }
}

/* the finish's factor k as a plain integer in Fr's words, so that its Montgomery product leaves v·k canonical */
static void plain_factor(cuzk_gpu_ntt_finish *f, const cuzk_fr_t *k)
{
    cuzk_fr_to_limbs(f->k.l, k);
    f->has_k = true;
}

/* a := H's coefficients (bellperson) or its odd-coset values (snarkjs), canonical (not Montgomery: the last pass's
 * factor goes in as a plain integer, and Montgomery's product by it drops the R), as the H MSM reads them; b and c
 * are scratch.
 * snarkjs: A, B and C are interpolated and evaluated on the coset, and a·b − c there is the answer (six NTTs).
 * bellperson: H = (A·B − C)/Z with deg H < n, and Z = g^n − 1 on the whole coset. The coset inverse NTT is linear and
 * returns C's own coefficients for C's coset values (deg C < n), so H = (coset-iNTT(A·B on the coset) − C)/(g^n − 1):
 * C is never taken to the coset, six NTTs instead of seven.
 * The pointwise work rides on the transforms' last passes (cuzk_gpu_ntt_finish): the product on B's, and bellperson's
 * − C and 1/(n·Z) on the coset inverse's; h_coset's factor is the last pass's k either way. */
static cuzk_status compute_h(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    CUZK_TRY(ensure_domain(p, k));
    cuzk_fr_t g, s;
    h_coset(k, &g, &s);
    cuzk_fr_t *a = p->abc[0], *b = p->abc[1], *c = p->abc[2];
    cuzk_gpu_ntt_finish prod;
    memset(&prod, 0, sizeof prod);
    prod.mul = a;
    if (!bell) {
        CUZK_TRY(cuzk_gpu_ntt_to_coset(c, p->dom, &g, NULL, NULL));
        prod.minus = c;
        plain_factor(&prod, &s);
    }
    CUZK_TRY(cuzk_gpu_ntt_to_coset(a, p->dom, &g, NULL, NULL));
    CUZK_TRY(cuzk_gpu_ntt_to_coset(b, p->dom, &g, &prod, a)); /* a := a·b (− c) on the coset */
    if (!bell) return CUZK_OK;
    CUZK_TRY(cuzk_gpu_ntt_inverse_raw(c, p->dom));
    cuzk_gpu_ntt_finish fin;
    memset(&fin, 0, sizeof fin);
    fin.minus = c;
    plain_factor(&fin, &s);
    return cuzk_gpu_ntt_coset_inverse_raw(a, p->dom, &g, &fin);
}

/* A packed witness (cuzk_gpu_witness_pack): per classes word, how many of its values are neither 0 nor 1 (class 2: the
 * high bit of the pair) */
#define CLASS_HIGH_BITS 0xaaaaaaaaaaaaaaaaull
__global__ void k_word_others(uint64_t *cnt, const uint64_t *classes, uint64_t words)
{
    uint64_t w = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (w < words) cnt[w] = (uint64_t)__popcll(classes[w] & CLASS_HIGH_BITS);
}

/* aux value i from its class: 0, 1, or the next of the others (off[w]: the others before word w) */
__global__ void k_unpack(dfr *aux, const uint64_t *classes, const uint64_t *off, const dfr *others, uint64_t num_aux,
                         dfr one)
{
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= num_aux) return;
    uint64_t x = classes[i / 32];
    unsigned b = (unsigned)(i % 32), cls = (unsigned)(x >> (2 * b)) & 3;
    dfr v;
    if (cls >= 2) {
        uint64_t below = b == 0 ? 0 : x & (((uint64_t)1 << (2 * b)) - 1);
        v = dfr_load(&others[off[i / 32] + (uint64_t)__popcll(below & CLASS_HIGH_BITS)]);
    } else {
#pragma unroll
        for (int j = 0; j < 8; j++) v.w[j] = cls == 1 ? one.w[j] : 0;
    }
    dfr_store(&aux[i], &v);
}

/* The packed form onto the device and unpacked into p->z: the inputs, the classes (into the idx buffer), each
 * chunk's others one after another (into the tail buffer), the others' offsets per word (into the flags buffer),
 * then one thread per aux value. Every buffer borrowed here is rewritten by the splits before they read it. */
static cuzk_status upload_packed(cuzk_gpu_prover *p, const cuzk_fr_t *z, const cuzk_gpu_witness_packing *pk)
{
    uint64_t ni = pk->num_inputs, na = pk->num_aux, words = cuzk_gpu_witness_classes_words(na);
    cudaStream_t st = cudaStreamPerThread;
    CUZK_CUDA(cudaMemcpyAsync(p->z, z, ni * sizeof(cuzk_fr_t), cudaMemcpyHostToDevice, st));
    if (na == 0) return CUZK_OK;
    uint64_t *classes = (uint64_t *)p->idx, *cnt = (uint64_t *)p->flags, *off = cnt + words;
    CUZK_CUDA(cudaMemcpyAsync(classes, pk->classes, words * sizeof(uint64_t), cudaMemcpyHostToDevice, st));
    uint64_t at = 0;
    for (unsigned c = 0; c < pk->chunks; c++) {
        if (pk->others[c] != 0)
            CUZK_CUDA(cudaMemcpyAsync(p->tail + at, z + ni + c * pk->chunk_values, pk->others[c] * sizeof(cuzk_fr_t),
                                      cudaMemcpyHostToDevice, st));
        at += pk->others[c];
    }
    k_word_others<<<blocks(words, 256), 256>>>(cnt, classes, words);
    CUZK_CUDA_LAUNCHED();
    size_t need = 0;
    CUZK_CUDA(cub::DeviceScan::ExclusiveSum(NULL, need, cnt, off, (int)words, st));
    CUZK_TRY(cub_scratch(p, need));
    CUZK_CUDA(cub::DeviceScan::ExclusiveSum(p->cub_tmp, need, cnt, off, (int)words, st));
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    k_unpack<<<blocks(na, 256), 256>>>((dfr *)(p->z + ni), classes, off, (const dfr *)p->tail, na, to_dfr(&one));
    CUZK_CUDA_LAUNCHED();
    return CUZK_OK;
}

/* A packing that matches the key: its sizes, its chunks covering the aux values, no more others than values. */
static bool packing_fits(const cuzk_gpu_witness_packing *pk, const cuzk_gpu_key *k)
{
    if (pk->num_inputs != k->num_inputs || pk->num_aux != k->num_aux) return false;
    if (pk->num_aux == 0) return true;
    if (pk->classes == NULL || pk->chunks == 0 || pk->chunks > CUZK_GPU_WITNESS_CHUNKS_MAX || pk->chunk_values % 32 != 0 ||
        pk->chunk_values * pk->chunks < pk->num_aux || pk->chunk_values * (pk->chunks - 1) >= pk->num_aux)
        return false;
    for (unsigned c = 0; c < pk->chunks; c++) {
        uint64_t len = c + 1 < pk->chunks ? pk->chunk_values : pk->num_aux - c * pk->chunk_values;
        if (pk->others[c] > len) return false;
    }
    return true;
}

/* cub's scratch for selecting among npos positions (the split's compaction), grown to fit */
static cuzk_status select_scratch(cuzk_gpu_prover *p, uint64_t npos, size_t *need)
{
    thrust::counting_iterator<uint32_t> positions(0);
    *need = 0;
    CUZK_CUDA(cub::DeviceSelect::Flagged(NULL, *need, positions, p->flags, p->idx, p->d_count, (int)npos,
                                         cudaStreamPerThread));
    return cub_scratch(p, *need);
}

/* Points of one streamed chunk of bases of point_bytes each: what fits one stream buffer, a multiple of 64 (a bitmap
 * word) */
static uint64_t stream_chunk_points(const cuzk_gpu_prover *p, size_t point_bytes) { return (p->sbuf_bytes / point_bytes) / 64 * 64; }

/* One split's classification and compaction; returns the count of "other" scalars. */
static cuzk_status split(cuzk_gpu_prover *p, const uint32_t *vars, uint64_t base, uint64_t npos, uint64_t *count)
{
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    uint64_t launch = (npos + 63) / 64 * 64;
    if (launch == 0) {
        *count = 0;
        return CUZK_OK;
    }
    k_classify<<<blocks(launch, 256), 256>>>((uint32_t *)p->bitmap, p->flags, (const dfr *)p->z, vars, base, npos,
                                             launch, to_dfr(&one));
    CUZK_CUDA_LAUNCHED();
    size_t need;
    CUZK_TRY(select_scratch(p, npos, &need));
    thrust::counting_iterator<uint32_t> positions(0);
    CUZK_CUDA(cub::DeviceSelect::Flagged(p->cub_tmp, need, positions, p->flags, p->idx, p->d_count, (int)npos,
                                         cudaStreamPerThread));
    k_gather<<<blocks(npos, 256), 256>>>((dfr *)p->tail, p->idx, p->d_count, (const dfr *)p->z, vars, base);
    CUZK_CUDA_LAUNCHED();
    int c = 0;
    CUZK_CUDA(cudaMemcpyAsync(&c, p->d_count, sizeof c, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    CUZK_TRY(stream_sync());
    *count = (uint64_t)c;
    return CUZK_OK;
}

/* Point arithmetic on the host, per group, for the sums of chunks and of ones + tail. */
template <typename J> struct host_ops;
template <> struct host_ops<cuzk_g1_jac_t> {
    typedef cuzk_g1_affine_t A;
    static cuzk_status msm(cuzk_g1_jac_t *r, const A *b, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g1_msm(r, b, s, n, x); }
    static cuzk_status msm_idx(cuzk_g1_jac_t *r, const A *b, const uint32_t *i, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g1_msm_idx(r, b, i, s, n, x); }
    static cuzk_status ones(cuzk_g1_jac_t *r, const A *b, const uint64_t *bm, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g1_batch_add(r, b, bm, n, x); }
    static void add(cuzk_g1_jac_t *r, const cuzk_g1_jac_t *a, const cuzk_g1_jac_t *b) { cuzk_g1_jac_add(r, a, b); }
    static void inf(cuzk_g1_jac_t *r) { cuzk_g1_jac_set_infinity(r); }
};
template <> struct host_ops<cuzk_g2_jac_t> {
    typedef cuzk_g2_affine_t A;
    static cuzk_status msm(cuzk_g2_jac_t *r, const A *b, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g2_msm(r, b, s, n, x); }
    static cuzk_status msm_idx(cuzk_g2_jac_t *r, const A *b, const uint32_t *i, const cuzk_fr_t *s, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g2_msm_idx(r, b, i, s, n, x); }
    static cuzk_status ones(cuzk_g2_jac_t *r, const A *b, const uint64_t *bm, size_t n, cuzk_gpu_msm_ctx *x) { return cuzk_gpu_g2_batch_add(r, b, bm, n, x); }
    static void add(cuzk_g2_jac_t *r, const cuzk_g2_jac_t *a, const cuzk_g2_jac_t *b) { cuzk_g2_jac_add(r, a, b); }
    static void inf(cuzk_g2_jac_t *r) { cuzk_g2_jac_set_infinity(r); }
};

/* Streamed bases: chunk c (positions [c·m, min((c+1)·m, npos))) is copied into buffer c % 2 on the copy stream
 * while the previous chunk's MSM runs; events order the copy after the last use of its buffer and the MSM after
 * the copy. */
static cuzk_status stream_copy(cuzk_gpu_prover *p, const void *host, size_t elem, uint64_t lo, uint64_t hi, unsigned slot)
{
    CUZK_CUDA(cudaStreamWaitEvent(p->copy_stream, p->ev_used[slot], 0));
    CUZK_CUDA(cudaMemcpyAsync(p->sbuf[slot], (const char *)host + lo * elem, (hi - lo) * elem,
                              cudaMemcpyHostToDevice, p->copy_stream));
    CUZK_CUDA(cudaEventRecord(p->ev_copied[slot], p->copy_stream));
    return CUZK_OK;
}

/* r = Σ over positions: dense scalars (scalars[p], idx NULL) or a split (bitmap ones + idx/tail of count). */
template <typename J>
static cuzk_status msm_over(J *r, cuzk_gpu_prover *p, const cuzk_gpu_key *k, const typename host_ops<J>::A *bases,
                            uint64_t npos, const cuzk_fr_t *scalars, bool is_split, uint64_t count)
{
    typedef host_ops<J> O;
    typedef typename O::A A;
    if (k->placement != CUZK_GPU_KEY_STREAMED) {
        if (!is_split) return O::msm(r, bases, scalars, npos, p->msm);
        J ones, rest;
        CUZK_TRY(O::ones(&ones, bases, p->bitmap, npos, p->msm));
        CUZK_TRY(O::msm_idx(&rest, bases, p->idx, p->tail, count, p->msm));
        O::add(r, &ones, &rest);
        return CUZK_OK;
    }
    uint64_t chunk = stream_chunk_points(p, sizeof(A)), chunks = (npos + chunk - 1) / chunk;
    uint64_t *bounds = NULL;
    if (is_split && chunks > 0) {
        uint64_t cap = p->cap_bounds;
        CUZK_TRY(grow(p, (void **)&p->d_bounds, &cap, chunks + 1, sizeof(uint64_t)));
        p->cap_bounds = cap;
        k_bounds<<<blocks(chunks + 1, 128), 128>>>(p->d_bounds, p->idx, p->d_count, chunk, chunks);
        CUZK_CUDA_LAUNCHED();
        bounds = (uint64_t *)malloc((chunks + 1) * sizeof(uint64_t));
        if (bounds == NULL) return CUZK_ERR_NOMEM;
        cudaError_t e = cudaMemcpyAsync(bounds, p->d_bounds, (chunks + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost,
                                        cudaStreamPerThread);
        if (e == cudaSuccess) e = cudaStreamSynchronize(cudaStreamPerThread);
        if (e != cudaSuccess) {
            free(bounds);
            cuzk_gpu_set_error("chunk bounds", e, __FILE__, __LINE__);
            return CUZK_ERR_DEVICE;
        }
    }
    cuzk_status s = CUZK_OK;
    O::inf(r);
    if (chunks > 0) s = stream_copy(p, bases, sizeof(A), 0, chunk < npos ? chunk : npos, 0);
    for (uint64_t c = 0; c < chunks && s == CUZK_OK; c++) {
        unsigned slot = (unsigned)(c & 1);
        uint64_t lo = c * chunk, hi = lo + chunk < npos ? lo + chunk : npos;
        if (c + 1 < chunks) {
            uint64_t nhi = hi + chunk < npos ? hi + chunk : npos;
            s = stream_copy(p, bases, sizeof(A), hi, nhi, slot ^ 1);
            if (s != CUZK_OK) break;
        }
        if (cudaStreamWaitEvent(cudaStreamPerThread, p->ev_copied[slot], 0) != cudaSuccess) {
            cuzk_gpu_set_error("cudaStreamWaitEvent", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
            break;
        }
        const A *buf = (const A *)p->sbuf[slot];
        J part;
        if (!is_split) {
            s = O::msm(&part, buf, scalars + lo, hi - lo, p->msm);
        } else {
            J ones, rest;
            /* the tail's positions are absolute: the buffer stands for positions lo .. hi */
            const A *shifted = (const A *)((uintptr_t)buf - (uintptr_t)(lo * sizeof(A)));
            s = O::ones(&ones, buf, p->bitmap + lo / 64, hi - lo, p->msm);
            if (s == CUZK_OK)
                s = O::msm_idx(&rest, shifted, p->idx + bounds[c], p->tail + bounds[c], bounds[c + 1] - bounds[c],
                               p->msm);
            if (s == CUZK_OK) O::add(&part, &ones, &rest);
        }
        if (s == CUZK_OK) O::add(r, r, &part);
        if (s == CUZK_OK && cudaEventRecord(p->ev_used[slot], cudaStreamPerThread) != cudaSuccess) {
            cuzk_gpu_set_error("cudaEventRecord", cudaGetLastError(), __FILE__, __LINE__);
            s = CUZK_ERR_DEVICE;
        }
    }
    free(bounds);
    if (s == CUZK_OK && cudaStreamSynchronize(p->copy_stream) != cudaSuccess) {
        cuzk_gpu_set_error("copy stream", cudaGetLastError(), __FILE__, __LINE__);
        s = CUZK_ERR_DEVICE;
    }
    return s;
}

/* Buffers for a key (grown, never shrunk). */
static cuzk_status prepare(cuzk_gpu_prover *p, const cuzk_gpu_key *k)
{
    uint64_t nv = k->num_inputs + k->num_aux, n = k->domain_size;
    CUZK_TRY(grow(p, (void **)&p->z, &p->cap_z, nv, sizeof(cuzk_fr_t)));
    for (int i = 0; i < 3; i++) {
        uint64_t cap = p->cap_n;
        CUZK_TRY(grow(p, (void **)&p->abc[i], &cap, n, sizeof(cuzk_fr_t)));
        if (i == 2) p->cap_n = cap;
    }
    uint64_t pos = nv + 64;
    if (pos > p->cap_pos || p->bitmap == NULL) {
        uint64_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        cudaFree(p->bitmap), cudaFree(p->flags), cudaFree(p->idx), cudaFree(p->tail);
        p->bitmap = NULL, p->flags = NULL, p->idx = NULL, p->tail = NULL;
        if (p->cap_pos) p->vram_bytes -= p->cap_pos / 64 * 8 + p->cap_pos + p->cap_pos * 4 + p->cap_pos * sizeof(cuzk_fr_t);
        p->cap_pos = 0;
        CUZK_TRY(grow(p, (void **)&p->bitmap, &c1, pos / 64, 8));
        CUZK_TRY(grow(p, (void **)&p->flags, &c2, pos, 1));
        CUZK_TRY(grow(p, (void **)&p->idx, &c3, pos, 4));
        CUZK_TRY(grow(p, (void **)&p->tail, &c4, pos, sizeof(cuzk_fr_t)));
        p->cap_pos = pos;
    }
    if (k->placement == CUZK_GPU_KEY_STREAMED && p->sbuf_bytes != k->stream_buffer_bytes) {
        for (int i = 0; i < 2; i++) {
            uint64_t cap = p->sbuf_bytes;
            CUZK_TRY(grow(p, &p->sbuf[i], &cap, k->stream_buffer_bytes, 1));
        }
        p->sbuf_bytes = k->stream_buffer_bytes;
    }
    return CUZK_OK;
}

extern "C" uint64_t cuzk_gpu_prover_vram_bytes(const cuzk_gpu_prover *p)
{
    return p != NULL ? p->vram_bytes + cuzk_gpu_msm_ctx_bytes(p->msm) + cuzk_gpu_ntt_domain_bytes(p->dom) : 0;
}

extern "C" cuzk_status cuzk_gpu_prover_reserve(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_errmsg *err)
{
    if (p == NULL || k == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (k->device != p->device)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the key lives on device %d, the prover on device %d",
                            k->device, p->device);
    CUZK_CUDA(cudaSetDevice(p->device));
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    cuzk_status s = prepare(p, k);
    if (s == CUZK_OK) s = ensure_domain(p, k);
    if (s == CUZK_OK) {
        cuzk_fr_t g, scale;
        h_coset(k, &g, &scale);
        s = cuzk_gpu_ntt_h_prepare(p->dom, &g, bell);
    }
    uint64_t nv = k->num_inputs + k->num_aux;
    size_t need;
    if (s == CUZK_OK && nv > 0) s = select_scratch(p, nv, &need); /* for the longest split */
    if (s == CUZK_OK) {
        uint64_t g1 = k->h_len, g2 = k->b_len;
        if (k->l_len > g1) g1 = k->l_len;
        if (k->a_len > g1) g1 = k->a_len;
        if (k->b_len > g1) g1 = k->b_len;
        if (k->placement == CUZK_GPU_KEY_STREAMED) { /* MSMs run over one streamed chunk at a time */
            uint64_t c1 = stream_chunk_points(p, sizeof(cuzk_g1_affine_t)), c2 = stream_chunk_points(p, sizeof(cuzk_g2_affine_t));
            uint64_t chunks1 = c1 ? (g1 + c1 - 1) / c1 : 0, chunks2 = c2 ? (g2 + c2 - 1) / c2 : 0;
            uint64_t cap = p->cap_bounds;
            s = grow(p, (void **)&p->d_bounds, &cap, (chunks1 > chunks2 ? chunks1 : chunks2) + 1, sizeof(uint64_t));
            p->cap_bounds = cap;
            if (g1 > c1) g1 = c1;
            if (g2 > c2) g2 = c2;
        }
        if (s == CUZK_OK) s = cuzk_gpu_msm_ctx_reserve(p->msm, g1, g2);
    }
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot reserve the prover's device buffers");
    return CUZK_OK;
}

static void add_time(double *slot, double *t)
{
    double n = cuzk_now();
    *slot = n - *t;
    *t = n;
}

/* The checks every proof starts with; *mode: the c_mode the key allows. */
static cuzk_status prove_args(cuzk_r1cs_c_mode *mode, const cuzk_groth16_msm_sums *sums, const cuzk_gpu_prover *p, const cuzk_gpu_key *k,
                              const cuzk_fr_t *z, const cuzk_gpu_witness_packing *pk, const cuzk_groth16_prove_opts *opts,
                              cuzk_errmsg *err)
{
    *mode = opts != NULL ? opts->c_mode : CUZK_R1CS_C_PRODUCT;
    if (sums == NULL || p == NULL || k == NULL || z == NULL)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    if (*mode != CUZK_R1CS_C_MATRIX && *mode != CUZK_R1CS_C_PRODUCT && *mode != CUZK_R1CS_C_CHECKED)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "unknown c_mode %d", (int)*mode);
    if (!cuzk_fr_is_one(&z[0])) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "witness z[0] is not 1");
    if (pk != NULL && !packing_fits(pk, k))
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG,
                            "the packed witness does not fit the key (%llu inputs and %llu aux values, the key %llu "
                            "and %llu, or its chunks are inconsistent)",
                            (unsigned long long)pk->num_inputs, (unsigned long long)pk->num_aux,
                            (unsigned long long)k->num_inputs, (unsigned long long)k->num_aux);
    if (k->device != p->device)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the key lives on device %d, the prover on device %d",
                            k->device, p->device);
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    if (*mode == CUZK_R1CS_C_CHECKED && !bell && !k->has_chk)
        return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG,
                            "checking the witness needs the circuit with its C matrix (the snarkjs key has none)");
    if (*mode == CUZK_R1CS_C_MATRIX && !bell) *mode = CUZK_R1CS_C_PRODUCT; /* a snarkjs key has no C: c is a∘b, as on the CPU */
    return CUZK_OK;
}

/* The witness (whole, or packed as pk says) onto the prover's device (its buffers grown first, if a reserve did
 * not). */
static cuzk_status prove_upload(cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z, const cuzk_gpu_witness_packing *pk,
                                cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err)
{
    CUZK_CUDA(cudaSetDevice(p->device));
    cuzk_status s = prepare(p, k);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "cannot allocate the prover's device buffers");
    add_time(&st->prepare, t);
    s = pk != NULL ? upload_packed(p, z, pk) : upload_witness(p, z, k->num_inputs + k->num_aux);
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "witness upload failed");
    add_time(&st->upload, t);
    return CUZK_OK;
}

/* H's coefficients into p->abc[0], from the uploaded witness: the witness check (CUZK_R1CS_C_CHECKED), SpMV, the NTTs. */
static cuzk_status prove_h_poly(cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_r1cs_c_mode mode,
                                cuzk_gpu_prove_stats *st, double *t, cuzk_errmsg *err)
{
    bool bell = k->conv == CUZK_GROTH16_BELLPERSON;
    uint64_t n = k->domain_size;
    st->h_points = k->h_len;
    st->domain_log2 = k->log2n;
    cuzk_fr_t one;
    cuzk_fr_set_one(&one);
    cuzk_status s;
    if (mode == CUZK_R1CS_C_CHECKED) {
        const gpu_csr *m = bell ? k->m : k->chk;
        uint64_t rows = bell ? k->rows : k->chk_rows;
        unsigned long long bad = ~0ull;
        CUZK_CUDA(cudaMemcpyAsync(p->d_bad, &bad, sizeof bad, cudaMemcpyHostToDevice, cudaStreamPerThread));
        if (rows > 0) {
            k_check<<<blocks(rows, 256), 256>>>(m[0], m[1], m[2], (const dfr *)(bell ? k->values : k->chk_values),
                                                (const dfr *)p->z, rows, p->d_bad, to_dfr(&one));
            CUZK_CUDA_LAUNCHED();
        }
        CUZK_CUDA(cudaMemcpyAsync(&bad, p->d_bad, sizeof bad, cudaMemcpyDeviceToHost, cudaStreamPerThread));
        s = stream_sync();
        if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "witness check failed");
        if (bad != ~0ull)
            return cuzk_gpu_fail(err, CUZK_ERR_R1CS_UNSATISFIED, "witness does not satisfy constraint row %llu", bad);
    }
    k_spmv<<<blocks(n, 256), 256>>>((dfr *)p->abc[0], (dfr *)p->abc[1], (dfr *)p->abc[2], k->m[0], k->m[1], k->m[2],
                                    (const dfr *)k->values, (const dfr *)p->z, k->rows, bell ? k->num_inputs : 0, n,
                                    mode == CUZK_R1CS_C_MATRIX, to_dfr(&one));
    if (cudaGetLastError() != cudaSuccess || stream_sync() != CUZK_OK) {
        cuzk_gpu_set_error("k_spmv", cudaGetLastError(), __FILE__, __LINE__);
        return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "sparse evaluation failed");
    }
    add_time(&st->spmv, t);

    s = compute_h(p, k);
    if (s == CUZK_OK) s = stream_sync();
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "the H polynomial failed");
    add_time(&st->ntt_h, t);
    return CUZK_OK;
}

/* sum = Σ h_i·H_i over positions [lo, hi) of the H query, with p's copy of H's coefficients */
static cuzk_status msm_h_range(cuzk_g1_jac_t *sum, cuzk_gpu_prover *p, const cuzk_gpu_key *k, uint64_t lo, uint64_t hi,
                               cuzk_errmsg *err)
{
    cuzk_gpu_msm_ctx_canonical(p->msm, true); /* compute_h leaves them canonical */
    cuzk_status s = msm_over<cuzk_g1_jac_t>(sum, p, k, k->h + lo, hi - lo, p->abc[0] + lo, false, 0);
    cuzk_gpu_msm_ctx_canonical(p->msm, false);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "H multi-scalar multiplication failed");
    return CUZK_OK;
}

/* The query side, on the uploaded witness: the 0/1 splits and the L, A, B1 and B2 MSMs. */
static cuzk_status prove_query_side(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k, cuzk_gpu_prove_stats *st,
                                    double *t, cuzk_errmsg *err)
{
    uint64_t count = 0;
    cuzk_status s = split(p, NULL, k->num_inputs, k->num_aux, &count);
    if (s == CUZK_OK) s = msm_over<cuzk_g1_jac_t>(&sums->l, p, k, k->l, k->l_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "L multi-scalar multiplication failed");
    st->tail_l = count;
    add_time(&st->msm_l, t);

    s = split(p, k->a_vars, 0, k->a_len, &count);
    if (s == CUZK_OK) s = msm_over<cuzk_g1_jac_t>(&sums->a, p, k, k->a, k->a_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "A multi-scalar multiplication failed");
    st->tail_a = count;
    add_time(&st->msm_a, t);

    s = split(p, k->b_vars, 0, k->b_len, &count);
    if (s == CUZK_OK) s = msm_over<cuzk_g1_jac_t>(&sums->b1, p, k, k->b_g1, k->b_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "B1 multi-scalar multiplication failed");
    st->tail_b = count;
    add_time(&st->msm_b1, t);
    s = msm_over<cuzk_g2_jac_t>(&sums->b2, p, k, k->b_g2, k->b_len, NULL, true, count);
    if (s != CUZK_OK) return cuzk_gpu_fail(err, s, "B2 multi-scalar multiplication failed");
    add_time(&st->msm_b2, t);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prove_msms(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                      const cuzk_gpu_witness_packing *packed, const cuzk_groth16_prove_opts *opts,
                                      cuzk_gpu_prove_stats *stats, cuzk_errmsg *err)
{
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    double t0 = cuzk_now(), t = t0;
    cuzk_r1cs_c_mode mode;
    CUZK_TRY(prove_args(&mode, sums, p, k, z, packed, opts, err));
    CUZK_TRY(prove_upload(p, k, z, packed, &st, &t, err));
    CUZK_TRY(prove_h_poly(p, k, mode, &st, &t, err));
    CUZK_TRY(msm_h_range(&sums->h, p, k, 0, k->h_len, err));
    add_time(&st.msm_h, &t);
    CUZK_TRY(prove_query_side(sums, p, k, &st, &t, err));
    st.total = cuzk_now() - t0;
    st.vram_bytes = cuzk_gpu_prover_vram_bytes(p);
    if (stats != NULL) *stats = st;
    return CUZK_OK;
}

/* Two keys are copies of one when their shapes and verifying keys agree. */
static bool same_key(const cuzk_gpu_key *a, const cuzk_gpu_key *b)
{
    const cuzk_groth16_vk *u = &a->vk, *v = &b->vk;
    return a->conv == b->conv && a->domain_size == b->domain_size && a->num_inputs == b->num_inputs &&
           a->num_aux == b->num_aux && a->h_len == b->h_len && a->l_len == b->l_len && a->a_len == b->a_len &&
           a->b_len == b->b_len && memcmp(&u->alpha_g1, &v->alpha_g1, sizeof u->alpha_g1) == 0 &&
           memcmp(&u->beta_g1, &v->beta_g1, sizeof u->beta_g1) == 0 &&
           memcmp(&u->delta_g1, &v->delta_g1, sizeof u->delta_g1) == 0 &&
           memcmp(&u->beta_g2, &v->beta_g2, sizeof u->beta_g2) == 0 &&
           memcmp(&u->gamma_g2, &v->gamma_g2, sizeof u->gamma_g2) == 0 &&
           memcmp(&u->delta_g2, &v->delta_g2, sizeof u->delta_g2) == 0 && u->num_inputs == v->num_inputs &&
           (u->num_inputs == 0 || memcmp(u->ic, v->ic, u->num_inputs * sizeof *u->ic) == 0);
}

/* The pair's second prover: its own upload, the L, A and B MSMs, then its share of the H MSM, on a thread of its
 * own. The H side posts h_state under the lock once H's coefficients are computed (1) or failed (−1), with cut:
 * positions [cut, h_len) of H are this side's. */
typedef struct {
    cuzk_groth16_msm_sums sums;
    cuzk_gpu_prover *p, *p0;
    const cuzk_gpu_key *k;
    const cuzk_fr_t *z;
    const cuzk_gpu_witness_packing *packed;
    double t0;
    cuzk_gpu_prove_stats st;
    cuzk_errmsg err;
    cuzk_status s;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int h_state;
    uint64_t cut;
    cuzk_g1_jac_t h_rest;
    double query_done, h_rest_s; /* seconds from t0; seconds of the share's copy and MSM */
} pair_job;

/* Lets `device` (the current one) read `peer`'s memory directly where the two can, once per process and pair;
 * where they cannot, copies between them go through the host. */
static void peer_access(int device, int peer)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static uint64_t tried[64]; /* bit `peer` of tried[device] */
    if (device == peer || device < 0 || peer < 0 || device >= 64 || peer >= 64) return;
    pthread_mutex_lock(&lock);
    if (!(tried[device] >> peer & 1)) {
        tried[device] |= (uint64_t)1 << peer;
        int can = 0;
        cudaError_t e = cudaDeviceCanAccessPeer(&can, device, peer);
        if (e == cudaSuccess && can) e = cudaDeviceEnablePeerAccess(peer, 0);
        if (e != cudaSuccess) cudaGetLastError(); /* not possible after all: the copies go through the host */
    }
    pthread_mutex_unlock(&lock);
}

/* H's coefficients at positions [lo, hi) from the H side's prover into p's a buffer (which p's query side leaves
 * unused), directly between the devices where they can reach each other, else through the host. */
static cuzk_status copy_h_share(cuzk_gpu_prover *p, const cuzk_gpu_prover *from, uint64_t lo, uint64_t hi, cuzk_errmsg *err)
{
    peer_access(p->device, from->device);
    cudaError_t e = cudaMemcpyPeerAsync(p->abc[0] + lo, p->device, from->abc[0] + lo, from->device,
                                        (hi - lo) * sizeof(cuzk_fr_t), cudaStreamPerThread);
    if (e != cudaSuccess) {
        cuzk_gpu_set_error("cudaMemcpyPeerAsync", e, __FILE__, __LINE__);
        return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "copying H's coefficients to the second device failed");
    }
    if (stream_sync() != CUZK_OK)
        return cuzk_gpu_fail(err, CUZK_ERR_DEVICE, "copying H's coefficients to the second device failed");
    return CUZK_OK;
}

static void *pair_thread(void *arg)
{
    pair_job *j = (pair_job *)arg;
    double t = cuzk_now();
    j->s = prove_upload(j->p, j->k, j->z, j->packed, &j->st, &t, &j->err);
    if (j->s == CUZK_OK) j->s = prove_query_side(&j->sums, j->p, j->k, &j->st, &t, &j->err);
    j->query_done = cuzk_now() - j->t0;
    cuzk_g1_jac_set_infinity(&j->h_rest);
    if (j->s != CUZK_OK) return NULL;
    pthread_mutex_lock(&j->lock);
    while (j->h_state == 0) pthread_cond_wait(&j->cond, &j->lock);
    bool ready = j->h_state > 0;
    pthread_mutex_unlock(&j->lock);
    if (!ready || j->cut >= j->k->h_len) return NULL;
    t = cuzk_now();
    j->s = copy_h_share(j->p, j->p0, j->cut, j->k->h_len, &j->err);
    if (j->s == CUZK_OK) j->s = msm_h_range(&j->h_rest, j->p, j->k, j->cut, j->k->h_len, &j->err);
    j->h_rest_s = cuzk_now() - t;
    return NULL;
}

/* The H side keeps the share of the H MSM that would have made both sides of this proof finish together: it was
 * ready at a0 and ran x = cut points in m0; the other side was free at q1 and ran the n − x others, copy included,
 * in m1. At those rates, a0 + r0·x′ = max(a0, q1) + r1·(n − x′). */
static void h_share_learn(cuzk_gpu_prover *p0, uint64_t n, uint64_t cut, double a0, double m0, double q1, double m1)
{
    double r0 = cut > 0 ? m0 / (double)cut : 0, r1 = cut < n ? m1 / (double)(n - cut) : 0;
    if (r0 <= 0) r0 = r1;
    if (r1 <= 0) r1 = r0;
    if (r0 <= 0) return;
    double x = ((q1 > a0 ? q1 : a0) - a0 + r1 * (double)n) / (r0 + r1);
    p0->h_share_auto = x <= 0 ? 0 : x >= (double)n ? 1 : x / (double)n;
}

extern "C" cuzk_status cuzk_gpu_prove_msms_pair(cuzk_groth16_msm_sums *sums, cuzk_gpu_prover *p0, const cuzk_gpu_key *k0, cuzk_gpu_prover *p1,
                                           const cuzk_gpu_key *k1, const cuzk_fr_t *z, const cuzk_gpu_witness_packing *packed,
                                           const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats, cuzk_errmsg *err)
{
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    double t0 = cuzk_now(), t = t0;
    cuzk_r1cs_c_mode mode;
    CUZK_TRY(prove_args(&mode, sums, p0, k0, z, packed, opts, err));
    CUZK_TRY(prove_args(&mode, sums, p1, k1, z, packed, opts, err)); /* the same mode: the keys must be copies of one */
    if (p1 == p0) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the two sides need two provers");
    if (!same_key(k0, k1)) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "the two keys are not copies of one key");

    pair_job *j = (pair_job *)calloc(1, sizeof *j);
    if (j == NULL) return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "out of host memory");
    j->p = p1, j->p0 = p0, j->k = k1, j->z = z, j->packed = packed, j->t0 = t0;
    pthread_t th;
    if (pthread_mutex_init(&j->lock, NULL) != 0) {
        free(j);
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "cannot make the pair's lock");
    }
    if (pthread_cond_init(&j->cond, NULL) != 0) {
        pthread_mutex_destroy(&j->lock);
        free(j);
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "cannot make the pair's condition variable");
    }
    if (pthread_create(&th, NULL, pair_thread, j) != 0) {
        pthread_cond_destroy(&j->cond);
        pthread_mutex_destroy(&j->lock);
        free(j);
        return cuzk_gpu_fail(err, CUZK_ERR_NOMEM, "cannot start the second side's thread");
    }
    uint64_t n = k0->h_len;
    double share = p0->h_share >= 0 ? p0->h_share : p0->h_share_auto;
    uint64_t cut = (uint64_t)(share * (double)n + 0.5);
    if (cut > n) cut = n;
    cuzk_status s = prove_upload(p0, k0, z, packed, &st, &t, err);
    if (s == CUZK_OK) s = prove_h_poly(p0, k0, mode, &st, &t, err);
    double h_ready = t - t0;
    pthread_mutex_lock(&j->lock);
    j->cut = cut;
    j->h_state = s == CUZK_OK ? 1 : -1;
    pthread_cond_signal(&j->cond);
    pthread_mutex_unlock(&j->lock);
    cuzk_g1_jac_t head;
    if (s == CUZK_OK) s = msm_h_range(&head, p0, k0, 0, cut, err);
    add_time(&st.msm_h, &t);
    pthread_join(th, NULL);
    if (s == CUZK_OK && j->s != CUZK_OK) {
        s = j->s;
        if (err != NULL) *err = j->err;
    }
    if (s == CUZK_OK) {
        cuzk_g1_jac_add(&sums->h, &head, &j->h_rest);
        sums->l = j->sums.l, sums->a = j->sums.a, sums->b1 = j->sums.b1, sums->b2 = j->sums.b2;
        st.msm_l = j->st.msm_l, st.msm_a = j->st.msm_a, st.msm_b1 = j->st.msm_b1, st.msm_b2 = j->st.msm_b2;
        st.tail_l = j->st.tail_l, st.tail_a = j->st.tail_a, st.tail_b = j->st.tail_b;
        st.msm_h_other = j->h_rest_s;
        st.h_share = n > 0 ? (double)cut / (double)n : 1;
        st.total = cuzk_now() - t0;
        st.vram_bytes = cuzk_gpu_prover_vram_bytes(p0) + cuzk_gpu_prover_vram_bytes(p1);
        h_share_learn(p0, n, cut, h_ready, st.msm_h, j->query_done, j->h_rest_s);
        if (stats != NULL) *stats = st;
    }
    pthread_cond_destroy(&j->cond);
    pthread_mutex_destroy(&j->lock);
    explicit_bzero(&j->sums, sizeof j->sums);
    explicit_bzero(&j->h_rest, sizeof j->h_rest);
    explicit_bzero(&head, sizeof head);
    free(j);
    return s;
}

extern "C" cuzk_status cuzk_gpu_prove(cuzk_groth16_proof_t *proof, cuzk_gpu_prover *p, const cuzk_gpu_key *k, const cuzk_fr_t *z,
                                 const cuzk_groth16_prove_opts *opts, cuzk_gpu_prove_stats *stats, cuzk_errmsg *err)
{
    if (proof == NULL) return cuzk_gpu_fail(err, CUZK_ERR_INVALID_ARG, "NULL argument");
    cuzk_groth16_msm_sums sums;
    cuzk_gpu_prove_stats st;
    memset(&st, 0, sizeof st);
    cuzk_status s = cuzk_gpu_prove_msms(&sums, p, k, z, NULL, opts, &st, err);
    if (s == CUZK_OK) {
        double t = cuzk_now();
        s = cuzk_groth16_assemble(proof, &k->vk, &sums, opts);
        if (s != CUZK_OK) cuzk_gpu_fail(err, s, "OS random source failed");
        st.assembly = cuzk_now() - t;
        st.total += st.assembly;
    }
    explicit_bzero(&sums, sizeof sums);
    if (stats != NULL) *stats = st;
    return s;
}
