/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk base: the ground floor every layer stands on.
 *
 *   status     one code per reason an input or a call is refused, its text, and a one-line detail (cuzk_errmsg)
 *   clock      one monotonic clock
 *   threads    the one parallel-for (index ranges) and parallel-run (worker ids) that every layer uses
 *   files      read-only mappings of whole files, whole-file writes
 *   iden3      the typed-section container of circom/snarkjs files (.r1cs, .wtns, .zkey, .ptau)
 *   random     bytes from the operating system
 *   bits       little/big-endian loads and stores, log2, popcounts over bitmaps, huge-page hints
 *   cpu paths  which instruction-set path the CPU kernels take (portable C, ADX, AVX-512 IFMA), chosen at run time
 *
 * Nothing here knows about fields, curves or circuits. */
#ifndef CUZK_BASE_H
#define CUZK_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ------------------------------------------------------------------------------------------------------ */
/* Each rejection has its own code so that callers and tests can tell exactly why an input was refused;
 * cuzk_status_str() gives the matching message and cuzk_status_name() the code's name. */
typedef enum {
    CUZK_OK = 0,
    /* field elements */
    CUZK_ERR_NOT_CANONICAL,  /* integer is >= the field modulus */
    CUZK_ERR_NO_SQRT,        /* value is not a square */
    CUZK_ERR_BAD_ROOT_ORDER, /* requested root of unity exceeds the two-adicity */
    /* point encodings */
    CUZK_ERR_BAD_LENGTH,       /* encoding has the wrong number of bytes */
    CUZK_ERR_BAD_FLAGS,        /* flag bits are inconsistent with the encoding */
    CUZK_ERR_COORD_RANGE,      /* a coordinate is >= p */
    CUZK_ERR_NOT_ON_CURVE,     /* coordinates do not satisfy the curve equation */
    CUZK_ERR_NOT_IN_SUBGROUP,  /* point is on the curve but outside the order-r subgroup */
    CUZK_ERR_INFINITY,         /* point at infinity where it is not allowed */
    CUZK_ERR_NOT_COMPRESSIBLE, /* compressed x has no y on the curve */
    /* MSM and general */
    CUZK_ERR_SCALAR_RANGE, /* scalar is >= r */
    CUZK_ERR_NOMEM,        /* allocation failed */
    CUZK_ERR_INVALID_ARG,  /* argument outside its documented domain */
    /* files and constraint systems (r1cs layer) */
    CUZK_ERR_IO,               /* a file could not be opened, read, mapped or written */
    CUZK_ERR_TRUNCATED,        /* input ends before the structure it declares */
    CUZK_ERR_BAD_MAGIC,        /* input does not start with the expected magic bytes */
    CUZK_ERR_BAD_VERSION,      /* format version not supported */
    CUZK_ERR_BAD_HEADER,       /* header fields inconsistent (counts, sizes, reserved bytes) */
    CUZK_ERR_BAD_SECTION,      /* section missing, duplicated, misaligned, overlapping or of the wrong size */
    CUZK_ERR_WRONG_PRIME,      /* field is not the BLS12-381 scalar field */
    CUZK_ERR_TOO_LARGE,        /* a count exceeds a documented limit */
    CUZK_ERR_CHECKSUM,         /* stored checksum or identity hash does not match the contents */
    CUZK_ERR_MISMATCH,         /* input belongs to a different circuit than the one expected */
    CUZK_ERR_R1CS_ROW_PTR,     /* CSR row offsets not monotone or not ending at the entry count */
    CUZK_ERR_R1CS_COLUMN,      /* variable index out of range or columns of a row not strictly increasing */
    CUZK_ERR_R1CS_COEFF,       /* coefficient reference out of range, or a stored value zero or >= r */
    CUZK_ERR_R1CS_DENSITY,     /* density bitmaps disagree with the matrices */
    CUZK_ERR_R1CS_UNSATISFIED, /* witness does not satisfy A·z ∘ B·z = C·z */
    /* groth16 keys, proofs and JSON */
    CUZK_ERR_PROOF_INVALID,  /* the proof does not verify */
    CUZK_ERR_WRONG_CURVE,    /* key or file is for another curve than BLS12-381 */
    CUZK_ERR_WRONG_PROTOCOL, /* key is for another proof system than Groth16 */
    CUZK_ERR_BAD_JSON,       /* JSON is malformed or lacks a required field */
    /* GPU backend */
    CUZK_ERR_DEVICE, /* a CUDA call failed or no device is present; cuzk_gpu_last_error() has the detail */

    /* the proving engine */
    CUZK_ERR_SHUTTING_DOWN, /* the engine is shutting down and accepts no new work */
    CUZK_ERR_OVER_BUDGET,   /* the work needs more memory than the configured budget allows */
    CUZK_ERR_NOT_FOUND,     /* no such job, circuit or key */
    CUZK_ERR_BUSY,          /* the resource is in use (e.g. a key that running jobs reference) */

    /* the build */
    CUZK_ERR_UNSUPPORTED, /* this build lacks the feature: an optional dependency was missing at build time */
    CUZK_STATUS_COUNT
} cuzk_status;

const char *cuzk_status_str(cuzk_status s);
/* "CUZK_ERR_TRUNCATED" for CUZK_ERR_TRUNCATED; "CUZK_STATUS_UNKNOWN" outside the enum. */
const char *cuzk_status_name(cuzk_status s);

/* The project's version ("0.1"; CMake's project version), the same in every tool's --version. */
const char *cuzk_version(void);

/* A one-line human-readable detail that parsers fill besides the status code
 * ("section 2 length 123 exceeds file size 100"). */
typedef struct {
    char msg[256];
} cuzk_errmsg;

/* Writes the printf-style detail into err (when err is not NULL) and returns s: every layer reports errors so. */
cuzk_status cuzk_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- clock ------------------------------------------------------------------------------------------------------- */
/* Monotonic time (CLOCK_MONOTONIC): nanoseconds, and the same in seconds. Only differences mean anything. */
uint64_t cuzk_now_ns(void);
double cuzk_now(void);

/* ---- threads ----------------------------------------------------------------------------------------------------- */
/* Runs fn(ctx, lo, hi) over [0, count) split into at most `threads` contiguous ranges, each at least min_chunk long
 * (except when count itself is smaller), the first one on the calling thread, and returns when all are done. A range
 * whose thread cannot be started runs on the caller, so it never fails. Threads are started per call: every caller
 * hands each thread milliseconds of work or more, against tens of microseconds to start one. */
typedef void (*cuzk_range_fn)(void *ctx, size_t lo, size_t hi);
void cuzk_par_for(unsigned threads, size_t count, size_t min_chunk, cuzk_range_fn fn, void *ctx);
/* The most cuzk_par_for allocates on `threads` threads (a job record per range when there are two or more), live
 * while it runs: for callers that bound their peak memory. */
size_t cuzk_par_for_bytes(unsigned threads);

/* Runs fn(ctx, id) once for every id in [0, threads), id 0 on the calling thread, and returns when all are done;
 * a worker that cannot be started runs on the caller afterwards. threads 0 counts as 1; at most CUZK_PAR_MAX. */
#define CUZK_PAR_MAX 1024u
typedef void (*cuzk_task_fn)(void *ctx, unsigned id);
void cuzk_par_run(unsigned threads, cuzk_task_fn fn, void *ctx);

/* Processors this process may run on (sched_getaffinity, else the online count), at least 1. */
unsigned cuzk_cpu_count(void);

/* ---- cpu paths --------------------------------------------------------------------------------------------------- */
/* The arithmetic kernels (field multiplication, the Fp2..Fp12 tower, the pairing, the G1 MSM's 8-lane rounds) exist
 * in several instruction-set paths inside one binary built for baseline x86-64; each picks its path at run time from
 * cuzk_cpu_path_current. Each path includes the ones before it. At start-up the current path is the best the
 * processor has, or the one named by the environment variable CUZK_CPU_PATH (portable, adx, ifma or auto), capped
 * at the best available (a line on stderr says so when the request was lowered). CUZK_CPU_UNCHECKED=1 skips that
 * cap (for valgrind, whose emulated CPUID hides ADX while it runs ADCX/ADOX; elsewhere an unsupported path faults). */
typedef enum {
    CUZK_CPU_PORTABLE = 0, /* plain C, any processor */
    CUZK_CPU_ADX = 1,      /* x86-64 with BMI2 and ADX: MULX with the two carry chains of ADCX/ADOX */
    CUZK_CPU_IFMA = 2,     /* and AVX-512 F, DQ and IFMA (with the OS saving the ZMM state): 8-lane Fp arithmetic */
    CUZK_CPU_PATH_COUNT
} cuzk_cpu_path;

/* Read by the kernels on every call (one load); written only by cuzk_cpu_path_set and at start-up. */
extern cuzk_cpu_path cuzk_cpu_path_current;
static inline cuzk_cpu_path cuzk_cpu_path_get(void) { return cuzk_cpu_path_current; }
/* The best path this processor can run. */
cuzk_cpu_path cuzk_cpu_path_best(void);
/* Makes p the current path (tests and benchmarks compare the paths so): CUZK_ERR_UNSUPPORTED when the processor
 * lacks it, CUZK_ERR_INVALID_ARG outside the enum. Not to be called while another thread runs a kernel. */
cuzk_status cuzk_cpu_path_set(cuzk_cpu_path p);
/* "portable", "adx", "ifma"; "?" outside the enum. */
const char *cuzk_cpu_path_name(cuzk_cpu_path p);
/* The path of a name ("auto" gives cuzk_cpu_path_best()); CUZK_ERR_INVALID_ARG for any other name. */
cuzk_status cuzk_cpu_path_parse(const char *name, cuzk_cpu_path *p);

/* ---- files ------------------------------------------------------------------------------------------------------- */
/* Read-only private mapping of a whole regular file. An empty file maps to len 0 and a NULL pointer. */
cuzk_status cuzk_map_file(const char *path, const uint8_t **data, size_t *len, cuzk_errmsg *err);
void cuzk_unmap_file(const uint8_t *data, size_t len);
/* Writes len bytes to path, replacing it: to a temporary file beside it, then renamed over it, so that a reader never
 * sees a half-written file and a failed write leaves the old one in place. */
cuzk_status cuzk_write_file(const char *path, const uint8_t *data, size_t len, cuzk_errmsg *err);

/* Asks for 2 MiB pages for the whole 2 MiB pages inside [p, p + bytes), before they are first written: for arrays
 * that are read at random (an MSM's bases), whose gathers otherwise miss the TLB. Only a hint. */
void cuzk_advise_huge(void *p, size_t bytes);

/* ---- iden3 containers -------------------------------------------------------------------------------------------- */
/* circom/snarkjs files (.r1cs, .wtns, .zkey, .ptau) are a 4-byte magic, a u32 version, a u32 section count, then
 * typed sections {u32 type, u64 size, payload} (docs/formats/iden3-container.md). cuzk_iden3_check verifies magic and
 * version and walks every section header, so that each section is known to lie inside buf and no byte follows the
 * last one; `what` prefixes the error detail. cuzk_iden3_find then returns the one section of a type
 * (CUZK_ERR_BAD_SECTION when it is missing or repeated); it must only be called on a buffer that passed the check. */
cuzk_status cuzk_iden3_check(const uint8_t *buf, size_t len, const char magic[4], uint32_t version, const char *what,
                             cuzk_errmsg *err);
cuzk_status cuzk_iden3_find(const uint8_t *buf, uint32_t type, const uint8_t **sec, uint64_t *size, const char *what,
                            cuzk_errmsg *err);
/* How far the section headers of a container reach, magic and version not looked at: CUZK_OK with *end = the byte
 * after the last section when every section lies inside the len bytes (*end < len: bytes trail), else
 * CUZK_ERR_TRUNCATED naming the section that runs past the end (*end = 0). For telling files apart (cuzk_iden3_check
 * walks the same way). */
cuzk_status cuzk_iden3_measure(const uint8_t *buf, size_t len, uint64_t *end, const char *what, cuzk_errmsg *err);

/* ---- random ------------------------------------------------------------------------------------------------------ */
/* n bytes from the operating system (getrandom, retried on short reads and EINTR); CUZK_ERR_IO when it refuses. */
cuzk_status cuzk_random_bytes(void *out, size_t n);

/* ---- bits -------------------------------------------------------------------------------------------------------- */
/* Loads and stores of unaligned integers in a given byte order (file formats are read through these). */
static inline uint32_t cuzk_load_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t cuzk_load_le64(const uint8_t *p)
{
    return (uint64_t)cuzk_load_le32(p) | (uint64_t)cuzk_load_le32(p + 4) << 32;
}
static inline uint32_t cuzk_load_be32(const uint8_t *p)
{
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}
static inline uint64_t cuzk_load_be64(const uint8_t *p)
{
    return (uint64_t)cuzk_load_be32(p) << 32 | (uint64_t)cuzk_load_be32(p + 4);
}
static inline void cuzk_store_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void cuzk_store_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void cuzk_store_be32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[3 - i] = (uint8_t)(v >> (8 * i));
}
static inline void cuzk_store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[7 - i] = (uint8_t)(v >> (8 * i));
}

/* The smallest k with 2^k >= x (0 for x <= 1). */
static inline unsigned cuzk_log2_ceil(uint64_t x) { return x <= 1 ? 0 : 64 - (unsigned)__builtin_clzll(x - 1); }
/* Set bits among the first n bits of a bitmap (LSB-first in 64-bit words). */
uint64_t cuzk_popcount(const uint64_t *bits, uint64_t n);
/* Bitmap bit i (LSB-first in 64-bit words). */
static inline bool cuzk_bitmap_get(const uint64_t *bits, uint64_t i) { return (bits[i >> 6] >> (i & 63)) & 1; }

#ifdef __cplusplus
}
#endif

#endif
