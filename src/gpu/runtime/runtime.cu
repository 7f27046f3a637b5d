/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU runtime: devices, memory, copies, timers, and the text of the last CUDA error of each thread. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.cuh"

static __thread char g_err[512];

extern "C" void cuzk_gpu_set_error(const char *what, cudaError_t e, const char *file, int line)
{
    const char *f = strrchr(file, '/');
    snprintf(g_err, sizeof g_err, "%s: %s (%s) at %s:%d", what, cudaGetErrorString(e), cudaGetErrorName(e),
             f ? f + 1 : file, line);
}

extern "C" const char *cuzk_gpu_last_error(void) { return g_err; }

extern "C" cuzk_status cuzk_gpu_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...)
{
    if (err == NULL) return s;
    char head[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    if (s == CUZK_ERR_DEVICE) return cuzk_fail(err, s, "%s: %s", head, cuzk_gpu_last_error());
    return cuzk_fail(err, s, "%s", head);
}

extern "C" int cuzk_gpu_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky-free error so later calls start clean */
        return 0;
    }
    return n;
}

extern "C" cuzk_status cuzk_gpu_device_name(char *out, size_t len)
{
    int dev;
    cudaDeviceProp p;
    CUZK_CUDA(cudaGetDevice(&dev));
    CUZK_CUDA(cudaGetDeviceProperties(&p, dev));
    snprintf(out, len, "%s, %d SMs, cc %d.%d, %.1f GiB, L2 %d MiB", p.name, p.multiProcessorCount, p.major, p.minor,
             (double)p.totalGlobalMem / (1u << 30), p.l2CacheSize >> 20);
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_set_device(int device)
{
    if (device < 0 || device >= cuzk_gpu_device_count()) return CUZK_ERR_INVALID_ARG;
    CUZK_CUDA(cudaSetDevice(device));
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    CUZK_CUDA(cudaMemGetInfo(free_bytes, total_bytes));
    return CUZK_OK;
}

/* ---- memory ------------------------------------------------------------------------------------------------------ */
extern "C" cuzk_status cuzk_gpu_malloc(void **dev, size_t bytes)
{
    *dev = NULL;
    CUZK_CUDA(cudaMalloc(dev, bytes));
    return CUZK_OK;
}
extern "C" void cuzk_gpu_free(void *dev)
{
    if (dev) cudaFree(dev);
}
extern "C" cuzk_status cuzk_gpu_to_device(void *dev, const void *host, size_t bytes)
{
    CUZK_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
    return CUZK_OK;
}
extern "C" cuzk_status cuzk_gpu_to_host(void *host, const void *dev, size_t bytes)
{
    CUZK_CUDA(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
    return CUZK_OK;
}
extern "C" cuzk_status cuzk_gpu_memset(void *dev, int byte, size_t bytes)
{
    CUZK_CUDA(cudaMemset(dev, byte, bytes));
    return CUZK_OK;
}
extern "C" cuzk_status cuzk_gpu_host_alloc(void **host, size_t bytes)
{
    *host = NULL;
    CUZK_CUDA(cudaHostAlloc(host, bytes ? bytes : 1, cudaHostAllocPortable));
    return CUZK_OK;
}
extern "C" void cuzk_gpu_host_free(void *host)
{
    if (host != NULL) cudaFreeHost(host);
}
extern "C" cuzk_status cuzk_gpu_sync(void)
{
    CUZK_CUDA(cudaDeviceSynchronize());
    CUZK_CUDA(cudaGetLastError());
    return CUZK_OK;
}

/* ---- timers ------------------------------------------------------------------------------------------------------ */
extern "C" cuzk_status cuzk_gpu_timer_init(cuzk_gpu_timer *t)
{
    t->start = t->stop = NULL;
    CUZK_CUDA(cudaEventCreate((cudaEvent_t *)&t->start));
    CUZK_CUDA(cudaEventCreate((cudaEvent_t *)&t->stop));
    return CUZK_OK;
}
extern "C" void cuzk_gpu_timer_free(cuzk_gpu_timer *t)
{
    if (t->start) cudaEventDestroy((cudaEvent_t)t->start);
    if (t->stop) cudaEventDestroy((cudaEvent_t)t->stop);
    t->start = t->stop = NULL;
}
extern "C" cuzk_status cuzk_gpu_timer_start(cuzk_gpu_timer *t)
{
    CUZK_CUDA(cudaEventRecord((cudaEvent_t)t->start, 0));
    return CUZK_OK;
}
extern "C" cuzk_status cuzk_gpu_timer_stop(cuzk_gpu_timer *t, double *ms)
{
    float f = 0;
    CUZK_CUDA(cudaEventRecord((cudaEvent_t)t->stop, 0));
    CUZK_CUDA(cudaEventSynchronize((cudaEvent_t)t->stop));
    CUZK_CUDA(cudaGetLastError());
    CUZK_CUDA(cudaEventElapsedTime(&f, (cudaEvent_t)t->start, (cudaEvent_t)t->stop));
    *ms = f;
    return CUZK_OK;
}
