#include <stdarg.h>
#include <stdio.h>

#include "cuzk/status.h"

cuzk_status cuzk_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return s;
}

const char *cuzk_status_str(cuzk_status s)
{
    switch (s) {
    case CUZK_OK: return "ok";
    case CUZK_ERR_NOT_CANONICAL: return "field element is not canonical (value >= modulus)";
    case CUZK_ERR_NO_SQRT: return "value has no square root";
    case CUZK_ERR_BAD_ROOT_ORDER: return "root of unity order exceeds the field's two-adicity";
    case CUZK_ERR_BAD_LENGTH: return "encoding has the wrong length";
    case CUZK_ERR_BAD_FLAGS: return "encoding flag bits are invalid";
    case CUZK_ERR_COORD_RANGE: return "point coordinate is not below the field modulus";
    case CUZK_ERR_NOT_ON_CURVE: return "point is not on the curve";
    case CUZK_ERR_NOT_IN_SUBGROUP: return "point is not in the prime-order subgroup";
    case CUZK_ERR_INFINITY: return "point at infinity is not allowed here";
    case CUZK_ERR_NOT_COMPRESSIBLE: return "compressed x-coordinate has no matching point";
    case CUZK_ERR_SCALAR_RANGE: return "scalar is not below the group order r";
    case CUZK_ERR_NOMEM: return "out of memory";
    case CUZK_ERR_INVALID_ARG: return "invalid argument";
    case CUZK_ERR_IO: return "file could not be opened, read, mapped or written";
    case CUZK_ERR_TRUNCATED: return "input is truncated";
    case CUZK_ERR_BAD_MAGIC: return "input has the wrong magic bytes";
    case CUZK_ERR_BAD_VERSION: return "unsupported format version";
    case CUZK_ERR_BAD_HEADER: return "header fields are inconsistent";
    case CUZK_ERR_BAD_SECTION: return "section missing, duplicated, misplaced or of the wrong size";
    case CUZK_ERR_WRONG_PRIME: return "field is not the BLS12-381 scalar field";
    case CUZK_ERR_TOO_LARGE: return "count exceeds a supported limit";
    case CUZK_ERR_CHECKSUM: return "checksum does not match the contents";
    case CUZK_ERR_MISMATCH: return "input belongs to a different circuit";
    case CUZK_ERR_R1CS_ROW_PTR: return "sparse row offsets are not monotone or do not end at the entry count";
    case CUZK_ERR_R1CS_COLUMN: return "variable index out of range or row columns not strictly increasing";
    case CUZK_ERR_R1CS_COEFF: return "coefficient reference out of range or stored value zero or not below r";
    case CUZK_ERR_R1CS_DENSITY: return "density bitmaps disagree with the matrices";
    case CUZK_ERR_R1CS_UNSATISFIED: return "witness does not satisfy the constraint system";
    case CUZK_ERR_PROOF_INVALID: return "proof is invalid";
    case CUZK_ERR_WRONG_CURVE: return "not a BLS12-381 key or file";
    case CUZK_ERR_WRONG_PROTOCOL: return "not a Groth16 key";
    case CUZK_ERR_BAD_JSON: return "malformed JSON or missing field";
    case CUZK_ERR_DEVICE: return "GPU error";

    case CUZK_ERR_SHUTTING_DOWN: return "the engine is shutting down";
    case CUZK_ERR_OVER_BUDGET: return "needs more memory than the budget allows";
    case CUZK_ERR_NOT_FOUND: return "not found";
    case CUZK_ERR_BUSY: return "in use";

    case CUZK_ERR_UNSUPPORTED: return "not supported by this build (an optional dependency was missing)";
    case CUZK_STATUS_COUNT: break;
    }
    return "unknown status";
}
