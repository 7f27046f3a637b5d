/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The typed-section container of circom/snarkjs files (docs/formats/iden3-container.md): every length is checked
 * against what remains of the input before it is used. */
#include "cuzk/base.h"

cuzk_status cuzk_iden3_check(const uint8_t *buf, size_t len, const char magic[4], uint32_t version, const char *what,
                             cuzk_errmsg *err)
{
    if (len < 4) return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: %zu bytes, shorter than the magic", what, len);
    if (memcmp(buf, magic, 4) != 0) return cuzk_fail(err, CUZK_ERR_BAD_MAGIC, "%s: magic is not \"%.4s\"", what, magic);
    if (len < 12) return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: %zu bytes, shorter than the file header", what, len);
    if (cuzk_load_le32(buf + 4) != version)
        return cuzk_fail(err, CUZK_ERR_BAD_VERSION, "%s: version %u, expected %u", what, cuzk_load_le32(buf + 4),
                         version);
    uint64_t end;
    cuzk_status s = cuzk_iden3_measure(buf, len, &end, what, err);
    if (s != CUZK_OK) return s;
    if (end != len)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "%s: %zu bytes after the last section", what, len - (size_t)end);
    return CUZK_OK;
}

cuzk_status cuzk_iden3_measure(const uint8_t *buf, size_t len, uint64_t *end, const char *what, cuzk_errmsg *err)
{
    *end = 0;
    if (len < 12) return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: %zu bytes, shorter than the file header", what, len);
    uint32_t nsect = cuzk_load_le32(buf + 8);
    size_t pos = 12;
    for (uint32_t i = 0; i < nsect; i++) {
        if (len - pos < 12)
            return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: section %u of %u header at %zu is past the end (%zu)", what,
                             i, nsect, pos, len);
        uint64_t size = cuzk_load_le64(buf + pos + 4);
        pos += 12;
        if (size > len - pos)
            return cuzk_fail(err, CUZK_ERR_TRUNCATED, "%s: section %u (type %u) length %llu exceeds the %zu bytes left",
                             what, i, cuzk_load_le32(buf + pos - 12), (unsigned long long)size, len - pos);
        pos += (size_t)size;
    }
    *end = pos;
    return CUZK_OK;
}

cuzk_status cuzk_iden3_find(const uint8_t *buf, uint32_t type, const uint8_t **sec, uint64_t *size, const char *what,
                            cuzk_errmsg *err)
{
    uint32_t nsect = cuzk_load_le32(buf + 8), found = 0;
    size_t pos = 12;
    for (uint32_t i = 0; i < nsect; i++) {
        uint64_t sz = cuzk_load_le64(buf + pos + 4);
        if (cuzk_load_le32(buf + pos) == type) {
            *sec = buf + pos + 12;
            *size = sz;
            found++;
        }
        pos += 12 + (size_t)sz;
    }
    if (found != 1)
        return cuzk_fail(err, CUZK_ERR_BAD_SECTION, "%s: section type %u appears %u times, expected once", what, type,
                         found);
    return CUZK_OK;
}
