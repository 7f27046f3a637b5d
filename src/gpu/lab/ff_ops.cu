/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The lab's element-wise field kernels: every multiplication, squaring, addition and inversion of the product
 * (ff/ff.cuh, ec/ec.cuh) and of the measured alternatives (field_lab.cuh), one element per thread for the checks
 * against the CPU, and in dependent chains for their throughput (cuzk-bench micro --gpu --filter gpu_f). */
#include <stdio.h>
#include <string.h>

#include "ec/ec.cuh"
#include "lab/field_lab.cuh"
#include "lab/gpu_lab.h"
#include "runtime/runtime.cuh"

/* ---- element-wise kernels ---------------------------------------------------------------------------------------- */
static __device__ __forceinline__ void apply_op(int op, void *r, const void *a, const void *b)
{
    switch (op) {
    case CUZK_GPU_LAB_FR_ADD: dfr_add((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FR_SUB: dfr_sub((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FR_MUL: dfr_mul32((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FR_SQR: dfr_sqr((dfr *)r, (const dfr *)a); break;
    case CUZK_GPU_LAB_FR_MUL64: dfr_mul64((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_ADD: dfp_add((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_SUB: dfp_sub((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_MUL: dfp_mul32((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    /* FP_SQR: a multiplication, as measured */
    case CUZK_GPU_LAB_FP_SQR: dfp_mul32((dfp *)r, (const dfp *)a, (const dfp *)a); break;
    case CUZK_GPU_LAB_FP_MUL64: dfp_mul64((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP2_ADD: dfp2_add((dfp2 *)r, (const dfp2 *)a, (const dfp2 *)b); break;
    case CUZK_GPU_LAB_FP2_SUB: dfp2_sub((dfp2 *)r, (const dfp2 *)a, (const dfp2 *)b); break;
    case CUZK_GPU_LAB_FP2_MUL: dfp2_mul((dfp2 *)r, (const dfp2 *)a, (const dfp2 *)b); break;
    case CUZK_GPU_LAB_FP2_SQR: dfp2_sqr((dfp2 *)r, (const dfp2 *)a); break;
    case CUZK_GPU_LAB_FR_MUL_SPECIAL: dfr_mul_special((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FR_MUL28: dfr_mul28((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_MUL28: dfp_mul28((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_MUL_SOS64: dfp_mul_sos64((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_SQR_SOS64: dfp_sqr_sos64((dfp *)r, (const dfp *)a); break;
    case CUZK_GPU_LAB_FP_MUL_SOS32: dfp_mul_sos32((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_SQR_SOS32: dfp_sqr_sos32((dfp *)r, (const dfp *)a); break;
    case CUZK_GPU_LAB_FP2_MUL_LAZY: dfp2_mul_lazy((dfp2 *)r, (const dfp2 *)a, (const dfp2 *)b); break;
    case CUZK_GPU_LAB_FR_MUL_SOS64: dfr_mul_sos64((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_INV: *(dfp *)r = dfp_inv_fermat_out(*(const dfp *)a); break;
    case CUZK_GPU_LAB_FP_INV_BGCD: *(dfp *)r = dfp_inv_bgcd_out(*(const dfp *)a); break;
    case CUZK_GPU_LAB_FP2_INV: f_inv((dfp2 *)r, (const dfp2 *)a); break;
    case CUZK_GPU_LAB_FP_MUL_KA: dfp_mul_ka((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_MUL_W: dfp_mul_w((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FR_MUL_W: dfr_mul_w((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_MUL_EO: dfp_mul_eo((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FR_MUL_EO: dfr_mul_eo((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_SQR_EO: dfp_sqr_eo((dfp *)r, (const dfp *)a); break;
    case CUZK_GPU_LAB_FP2_MUL_EO: dfp2_mul_eo((dfp2 *)r, (const dfp2 *)a, (const dfp2 *)b); break;
    case CUZK_GPU_LAB_FR_MUL_F64: dfr_mul_f64((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FR_MUL_MIX: dfr_mul_mix((dfr *)r, (const dfr *)a, (const dfr *)b); break;
    case CUZK_GPU_LAB_FP_MUL_F64: dfp_mul_f64((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    case CUZK_GPU_LAB_FP_MUL_ADD: {
        dfp c, d;
        dfp_add(&c, (const dfp *)a, (const dfp *)b);
        dfp_sub(&d, (const dfp *)a, (const dfp *)b);
        eo_mul_add(MONT_FP, ((dfp *)r)->w, ((const dfp *)a)->w, ((const dfp *)b)->w, c.w, d.w);
        break;
    }
    case CUZK_GPU_LAB_FP_MUL_MIX: dfp_mul_mix((dfp *)r, (const dfp *)a, (const dfp *)b); break;
    }
}

static size_t op_size(cuzk_gpu_lab_ff_op op)
{
    if (op <= CUZK_GPU_LAB_FR_MUL64 || op == CUZK_GPU_LAB_FR_MUL_SPECIAL || op == CUZK_GPU_LAB_FR_MUL28 ||
        op == CUZK_GPU_LAB_FR_MUL_SOS64 || op == CUZK_GPU_LAB_FR_MUL_W || op == CUZK_GPU_LAB_FR_MUL_EO ||
        op == CUZK_GPU_LAB_FR_MUL_F64 || op == CUZK_GPU_LAB_FR_MUL_MIX)
        return sizeof(dfr);
    if (op <= CUZK_GPU_LAB_FP_MUL64 || op == CUZK_GPU_LAB_FP_MUL28 ||
        (op >= CUZK_GPU_LAB_FP_MUL_SOS64 && op <= CUZK_GPU_LAB_FP_SQR_SOS32) || op == CUZK_GPU_LAB_FP_INV ||
        op == CUZK_GPU_LAB_FP_MUL_KA || op == CUZK_GPU_LAB_FP_MUL_W || op == CUZK_GPU_LAB_FP_MUL_EO ||
        op == CUZK_GPU_LAB_FP_SQR_EO || op == CUZK_GPU_LAB_FP_MUL_F64 || op == CUZK_GPU_LAB_FP_MUL_MIX ||
        op == CUZK_GPU_LAB_FP_MUL_ADD || op == CUZK_GPU_LAB_FP_INV_BGCD)
        return sizeof(dfp);
    return sizeof(dfp2);
}

/* One element per thread; the element is staged through registers (structs of words). */
template <typename E> static __global__ void k_batch(int op, E *r, const E *a, const E *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    E x = a[i], y = b[i], z;
    apply_op(op, &z, &x, &y);
    r[i] = z;
}

/* Dependent chain: x := op(x, y), y := x each other step for the binary ops, so the work cannot be hoisted. */
template <typename E, int OP> static __global__ void k_chain(E *out, unsigned iters)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    E x, y;
    /* canonical values (top word of every element small), all non-zero, different per thread */
    uint32_t *xw = (uint32_t *)&x, *yw = (uint32_t *)&y;
    const int words = (int)(sizeof(E) / 4), top = sizeof(E) == sizeof(dfr) ? 8 : 12;
#pragma unroll
    for (int j = 0; j < words; j++) {
        bool hi = j % top == top - 1;
        xw[j] = hi ? 0x01234567u : (uint32_t)(i * 0x9e3779b9u + j + 1);
        yw[j] = hi ? 0x00abcdefu : (uint32_t)(i * 0x85ebca6bu + 3 * j + 7);
    }
    for (unsigned k = 0; k < iters; k++) {
        E z;
        apply_op(OP, &z, &x, &y);
        y = x;
        x = z;
    }
    out[i] = x;
}

template <typename E>
static cuzk_status run_batch(cuzk_gpu_lab_ff_op op, void *r, const void *a, const void *b, size_t n)
{
    size_t bytes = n * sizeof(E);
    E *da = NULL, *db = NULL, *dr = NULL;
    cuzk_status st = CUZK_OK;
    if ((st = cuzk_gpu_malloc((void **)&da, bytes)) != CUZK_OK) goto out;
    if ((st = cuzk_gpu_malloc((void **)&db, bytes)) != CUZK_OK) goto out;
    if ((st = cuzk_gpu_malloc((void **)&dr, bytes)) != CUZK_OK) goto out;
    if ((st = cuzk_gpu_to_device(da, a, bytes)) != CUZK_OK) goto out;
    if ((st = cuzk_gpu_to_device(db, b ? b : a, bytes)) != CUZK_OK) goto out;
    if ((st = cuzk_gpu_memset(dr, 0xa5, bytes)) != CUZK_OK) goto out; /* poison */
    k_batch<E><<<(unsigned)((n + 127) / 128), 128>>>((int)op, dr, da, db, n);
    if ((st = cuzk_gpu_sync()) != CUZK_OK) goto out;
    st = cuzk_gpu_to_host(r, dr, bytes);
out:
    cuzk_gpu_free(da);
    cuzk_gpu_free(db);
    cuzk_gpu_free(dr);
    return st;
}

extern "C" cuzk_status cuzk_gpu_lab_ff_batch(cuzk_gpu_lab_ff_op op, void *r, const void *a, const void *b, size_t n)
{
    if ((unsigned)op >= CUZK_GPU_LAB_FF_OP_COUNT) return CUZK_ERR_INVALID_ARG;
    if (n == 0) return CUZK_OK;
    switch (op_size(op)) {
    case sizeof(dfr): return run_batch<dfr>(op, r, a, b, n);
    case sizeof(dfp): return run_batch<dfp>(op, r, a, b, n);
    default: return run_batch<dfp2>(op, r, a, b, n);
    }
}

template <typename E, int OP> static cuzk_status run_chain(size_t threads, unsigned iters, double *ns)
{
    E *out = NULL;
    cuzk_gpu_timer t;
    double ms = 0;
    unsigned blocks = (unsigned)((threads + 255) / 256);
    CUZK_TRY(cuzk_gpu_malloc((void **)&out, (size_t)blocks * 256 * sizeof(E)));
    cuzk_status st = cuzk_gpu_timer_init(&t);
    if (st == CUZK_OK) {
        k_chain<E, OP><<<blocks, 256>>>(out, 4); /* warm-up */
        st = cuzk_gpu_sync();
    }
    if (st == CUZK_OK) st = cuzk_gpu_timer_start(&t);
    if (st == CUZK_OK) {
        k_chain<E, OP><<<blocks, 256>>>(out, iters);
        st = cuzk_gpu_timer_stop(&t, &ms);
    }
    cuzk_gpu_timer_free(&t);
    cuzk_gpu_free(out);
    *ns = ms * 1e6 / ((double)blocks * 256 * iters);
    return st;
}

extern "C" cuzk_status cuzk_gpu_lab_ff_throughput(cuzk_gpu_lab_ff_op op, size_t threads, unsigned iters,
                                                  double *ns_per_op)
{
    if (threads == 0 || iters == 0) return CUZK_ERR_INVALID_ARG;
    switch (op) {
/* clang-format off */
#define CHAIN(o, E) case o: return run_chain<E, o>(threads, iters, ns_per_op);
    CHAIN(CUZK_GPU_LAB_FR_ADD, dfr) CHAIN(CUZK_GPU_LAB_FR_SUB, dfr) CHAIN(CUZK_GPU_LAB_FR_MUL, dfr)
    CHAIN(CUZK_GPU_LAB_FR_SQR, dfr) CHAIN(CUZK_GPU_LAB_FR_MUL64, dfr) CHAIN(CUZK_GPU_LAB_FP_ADD, dfp)
    CHAIN(CUZK_GPU_LAB_FP_SUB, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL, dfp) CHAIN(CUZK_GPU_LAB_FP_SQR, dfp)
    CHAIN(CUZK_GPU_LAB_FP_MUL64, dfp) CHAIN(CUZK_GPU_LAB_FP2_ADD, dfp2) CHAIN(CUZK_GPU_LAB_FP2_SUB, dfp2)
    CHAIN(CUZK_GPU_LAB_FP2_MUL, dfp2) CHAIN(CUZK_GPU_LAB_FP2_SQR, dfp2) CHAIN(CUZK_GPU_LAB_FR_MUL_SPECIAL, dfr)
    CHAIN(CUZK_GPU_LAB_FR_MUL28, dfr) CHAIN(CUZK_GPU_LAB_FP_MUL28, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL_SOS64, dfp)
    CHAIN(CUZK_GPU_LAB_FP_SQR_SOS64, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL_SOS32, dfp)
    CHAIN(CUZK_GPU_LAB_FP_SQR_SOS32, dfp) CHAIN(CUZK_GPU_LAB_FP2_MUL_LAZY, dfp2)
    CHAIN(CUZK_GPU_LAB_FR_MUL_SOS64, dfr) CHAIN(CUZK_GPU_LAB_FP_INV, dfp) CHAIN(CUZK_GPU_LAB_FP2_INV, dfp2)
    CHAIN(CUZK_GPU_LAB_FP_MUL_KA, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL_W, dfp) CHAIN(CUZK_GPU_LAB_FR_MUL_W, dfr)
    CHAIN(CUZK_GPU_LAB_FP_MUL_EO, dfp) CHAIN(CUZK_GPU_LAB_FR_MUL_EO, dfr) CHAIN(CUZK_GPU_LAB_FP_SQR_EO, dfp)
    CHAIN(CUZK_GPU_LAB_FP2_MUL_EO, dfp2) CHAIN(CUZK_GPU_LAB_FR_MUL_F64, dfr) CHAIN(CUZK_GPU_LAB_FR_MUL_MIX, dfr)
    CHAIN(CUZK_GPU_LAB_FP_MUL_F64, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL_MIX, dfp) CHAIN(CUZK_GPU_LAB_FP_MUL_ADD, dfp)
    CHAIN(CUZK_GPU_LAB_FP_INV_BGCD, dfp)
#undef CHAIN
            /* clang-format on */
            default : return CUZK_ERR_INVALID_ARG;
    }
}
