#include "cuzk/status.h"

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
    case CUZK_STATUS_COUNT: break;
    }
    return "unknown status";
}
