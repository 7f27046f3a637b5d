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
    CUZK_STATUS_COUNT
} cuzk_status;

const char *cuzk_status_str(cuzk_status s);

#endif
