/* Status codes shared by every layer of cuzk. Each rejection has its own code so that callers and tests can tell
 * exactly why an input was refused; cuzk_status_str() gives the matching message. */
#ifndef CUZK_STATUS_H
#define CUZK_STATUS_H

typedef enum {
    CUZK_OK = 0,
    /* field elements */
    CUZK_ERR_NOT_CANONICAL,      /* integer is >= the field modulus */
    CUZK_ERR_NO_SQRT,            /* value is not a square */
    CUZK_ERR_BAD_ROOT_ORDER,     /* requested root of unity exceeds the two-adicity */
    /* point encodings */
    CUZK_ERR_BAD_LENGTH,         /* encoding has the wrong number of bytes */
    CUZK_ERR_BAD_FLAGS,          /* flag bits are inconsistent with the encoding */
    CUZK_ERR_COORD_RANGE,        /* a coordinate is >= p */
    CUZK_ERR_NOT_ON_CURVE,       /* coordinates do not satisfy the curve equation */
    CUZK_ERR_NOT_IN_SUBGROUP,    /* point is on the curve but outside the order-r subgroup */
    CUZK_ERR_INFINITY,           /* point at infinity where it is not allowed */
    CUZK_ERR_NOT_COMPRESSIBLE,   /* compressed x has no y on the curve */
    /* MSM and general */
    CUZK_ERR_SCALAR_RANGE,       /* scalar is >= r */
    CUZK_ERR_NOMEM,              /* allocation failed */
    CUZK_ERR_INVALID_ARG,        /* argument outside its documented domain */
    /* files and constraint systems (r1cs layer) */
    CUZK_ERR_IO,                 /* a file could not be opened, read, mapped or written */
    CUZK_ERR_TRUNCATED,          /* input ends before the structure it declares */
    CUZK_ERR_BAD_MAGIC,          /* input does not start with the expected magic bytes */
    CUZK_ERR_BAD_VERSION,        /* format version not supported */
    CUZK_ERR_BAD_HEADER,         /* header fields inconsistent (counts, sizes, reserved bytes) */
    CUZK_ERR_BAD_SECTION,        /* section missing, duplicated, misaligned, overlapping or of the wrong size */
    CUZK_ERR_WRONG_PRIME,        /* field is not the BLS12-381 scalar field */
    CUZK_ERR_TOO_LARGE,          /* a count exceeds a documented limit */
    CUZK_ERR_CHECKSUM,           /* stored checksum or identity hash does not match the contents */
    CUZK_ERR_MISMATCH,           /* input belongs to a different circuit than the one expected */
    CUZK_ERR_R1CS_ROW_PTR,       /* CSR row offsets not monotone or not ending at the entry count */
    CUZK_ERR_R1CS_COLUMN,        /* variable index out of range or columns of a row not strictly increasing */
    CUZK_ERR_R1CS_COEFF,         /* coefficient reference out of range, or a stored value zero or >= r */
    CUZK_ERR_R1CS_DENSITY,       /* density bitmaps disagree with the matrices */
    CUZK_ERR_R1CS_UNSATISFIED,   /* witness does not satisfy A·z ∘ B·z = C·z */
    /* groth16 keys, proofs and JSON */
    CUZK_ERR_PROOF_INVALID,      /* the proof does not verify */
    CUZK_ERR_WRONG_CURVE,        /* key or file is for another curve than BLS12-381 */
    CUZK_ERR_WRONG_PROTOCOL,     /* key is for another proof system than Groth16 */
    CUZK_ERR_BAD_JSON,           /* JSON is malformed or lacks a required field */
    /* GPU backend */
    CUZK_ERR_DEVICE,             /* a CUDA call failed or no device is present; cuzk_gpu_last_error() has the detail */

    /* the proving engine */
    CUZK_ERR_SHUTTING_DOWN,      /* the engine is shutting down and accepts no new work */
    CUZK_ERR_OVER_BUDGET,        /* the work needs more memory than the configured budget allows */
    CUZK_ERR_NOT_FOUND,          /* no such job, circuit or key */
    CUZK_ERR_BUSY,               /* the resource is in use (e.g. a key that running jobs reference) */

    /* the build */
    CUZK_ERR_UNSUPPORTED,        /* this build lacks the feature: an optional dependency was missing at build time */
    CUZK_STATUS_COUNT
} cuzk_status;

const char *cuzk_status_str(cuzk_status s);

/* A one-line human-readable detail that parsers fill besides the status code
 * ("section 2 length 123 exceeds file size 100"). */
typedef struct {
    char msg[256];
} cuzk_errmsg;

/* Writes the printf-style detail into err (when err is not NULL) and returns s: every layer reports errors so. */
cuzk_status cuzk_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
