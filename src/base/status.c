/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Status codes: one table row per code, its name and its text. */
#include <stdarg.h>
#include <stdio.h>

#include "cuzk/base.h"

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

#define S(code, text) [code] = {#code, text}
static const struct {
    const char *name, *text;
} STATUS[CUZK_STATUS_COUNT] = {
    S(CUZK_OK, "ok"),
    S(CUZK_ERR_NOT_CANONICAL, "field element is not canonical (value >= modulus)"),
    S(CUZK_ERR_NO_SQRT, "value has no square root"),
    S(CUZK_ERR_BAD_ROOT_ORDER, "root of unity order exceeds the field's two-adicity"),
    S(CUZK_ERR_BAD_LENGTH, "encoding has the wrong length"),
    S(CUZK_ERR_BAD_FLAGS, "encoding flag bits are invalid"),
    S(CUZK_ERR_COORD_RANGE, "point coordinate is not below the field modulus"),
    S(CUZK_ERR_NOT_ON_CURVE, "point is not on the curve"),
    S(CUZK_ERR_NOT_IN_SUBGROUP, "point is not in the prime-order subgroup"),
    S(CUZK_ERR_INFINITY, "point at infinity is not allowed here"),
    S(CUZK_ERR_NOT_COMPRESSIBLE, "compressed x-coordinate has no matching point"),
    S(CUZK_ERR_SCALAR_RANGE, "scalar is not below the group order r"),
    S(CUZK_ERR_NOMEM, "out of memory"),
    S(CUZK_ERR_INVALID_ARG, "invalid argument"),
    S(CUZK_ERR_IO, "file could not be opened, read, mapped or written"),
    S(CUZK_ERR_TRUNCATED, "input is truncated"),
    S(CUZK_ERR_BAD_MAGIC, "input has the wrong magic bytes"),
    S(CUZK_ERR_BAD_VERSION, "unsupported format version"),
    S(CUZK_ERR_BAD_HEADER, "header fields are inconsistent"),
    S(CUZK_ERR_BAD_SECTION, "section missing, duplicated, misplaced or of the wrong size"),
    S(CUZK_ERR_WRONG_PRIME, "field is not the BLS12-381 scalar field"),
    S(CUZK_ERR_TOO_LARGE, "count exceeds a supported limit"),
    S(CUZK_ERR_CHECKSUM, "checksum does not match the contents"),
    S(CUZK_ERR_MISMATCH, "input belongs to a different circuit"),
    S(CUZK_ERR_R1CS_ROW_PTR, "sparse row offsets are not monotone or do not end at the entry count"),
    S(CUZK_ERR_R1CS_COLUMN, "variable index out of range or row columns not strictly increasing"),
    S(CUZK_ERR_R1CS_COEFF, "coefficient reference out of range or stored value zero or not below r"),
    S(CUZK_ERR_R1CS_DENSITY, "density bitmaps disagree with the matrices"),
    S(CUZK_ERR_R1CS_UNSATISFIED, "witness does not satisfy the constraint system"),
    S(CUZK_ERR_PROOF_INVALID, "proof is invalid"),
    S(CUZK_ERR_WRONG_CURVE, "not a BLS12-381 key or file"),
    S(CUZK_ERR_WRONG_PROTOCOL, "not a Groth16 key"),
    S(CUZK_ERR_BAD_JSON, "malformed JSON or missing field"),
    S(CUZK_ERR_DEVICE, "GPU error"),
    S(CUZK_ERR_SHUTTING_DOWN, "the engine is shutting down"),
    S(CUZK_ERR_OVER_BUDGET, "needs more memory than the budget allows"),
    S(CUZK_ERR_NOT_FOUND, "not found"),
    S(CUZK_ERR_BUSY, "in use"),
    S(CUZK_ERR_UNSUPPORTED, "not supported by this build (an optional dependency was missing)"),
};
#undef S

const char *cuzk_status_str(cuzk_status s)
{
    return (unsigned)s < CUZK_STATUS_COUNT && STATUS[s].text != NULL ? STATUS[s].text : "unknown status";
}

const char *cuzk_status_name(cuzk_status s)
{
    return (unsigned)s < CUZK_STATUS_COUNT && STATUS[s].name != NULL ? STATUS[s].name : "CUZK_STATUS_UNKNOWN";
}
