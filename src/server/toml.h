/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A TOML file as a tree of plain C nodes, for the configuration's key table to walk (config.c). Parsed by toml++
 * (Debian's libtomlplusplus) in toml.cc, the one C++ file of the project; nothing of C++ crosses this header. */
#ifndef CUZK_SERVER_TOML_H
#define CUZK_SERVER_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUZK_TOML_STRING,
    CUZK_TOML_INTEGER,
    CUZK_TOML_FLOAT,
    CUZK_TOML_BOOLEAN,
    CUZK_TOML_DATETIME, /* dates and times: no key takes one; str holds the text */
    CUZK_TOML_ARRAY,
    CUZK_TOML_TABLE,
} cuzk_toml_type;

typedef struct cuzk_toml_node {
    char *key; /* in its table; NULL for array elements and the root */
    cuzk_toml_type type;
    unsigned line, column; /* where the value starts (1-based; 0 for tables made implicitly) */
    char *str;             /* STRING (its contents, without quotes or escapes), DATETIME (as written) */
    int64_t integer;
    double number;
    bool boolean;
    struct cuzk_toml_node *items; /* ARRAY elements in order, TABLE members in the file's order */
    size_t num_items;
} cuzk_toml_node;

/* Parses a file into *root (a TABLE; cuzk_toml_free it). False on failure with err as "line L, column C: what", or
 * the reason the file cannot be read; *root is then NULL. */
bool cuzk_toml_parse_file(const char *path, cuzk_toml_node **root, char *err, size_t errlen);
/* The same from a NUL-terminated document in memory. */
bool cuzk_toml_parse_string(const char *text, cuzk_toml_node **root, char *err, size_t errlen);
void cuzk_toml_free(cuzk_toml_node *root);
/* The type's name in messages: "a string", "an integer", ... */
const char *cuzk_toml_type_name(cuzk_toml_type t);

#ifdef __cplusplus
}
#endif

#endif
