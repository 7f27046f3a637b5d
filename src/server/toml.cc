// SPDX-License-Identifier: Apache-2.0 OR MIT
// The TOML shim (toml.h): toml++ parses, this file copies its tree into plain C nodes. Exceptions stay here.
#include "toml.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <toml++/toml.h>

namespace {

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p == nullptr) throw std::bad_alloc();
    std::memcpy(p, s.data(), s.size());
    p[s.size()] = '\0';
    return p;
}

void free_node(cuzk_toml_node *n)
{
    for (size_t i = 0; i < n->num_items; i++) free_node(&n->items[i]);
    std::free(n->items);
    std::free(n->key);
    std::free(n->str);
}

void fill(cuzk_toml_node *out, const toml::node &in);

// Members in the order they appear in the file (toml++ keeps tables sorted by key).
void fill_table(cuzk_toml_node *out, const toml::table &t)
{
    std::vector<std::pair<const toml::key *, const toml::node *>> members;
    for (auto &&[k, v] : t) members.emplace_back(&k, &v);
    std::stable_sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
        const auto &pa = a.first->source().begin, &pb = b.first->source().begin;
        return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
    });
    out->type = CUZK_TOML_TABLE;
    if (members.empty()) return;
    out->items = static_cast<cuzk_toml_node *>(std::calloc(members.size(), sizeof *out->items));
    if (out->items == nullptr) throw std::bad_alloc();
    for (const auto &[k, v] : members) {
        cuzk_toml_node *n = &out->items[out->num_items++];
        n->key = dup(std::string(k->str()));
        fill(n, *v);
        if (n->line == 0) n->line = k->source().begin.line; // an implicit table: where its name first appears
    }
}

void fill(cuzk_toml_node *out, const toml::node &in)
{
    out->line = in.source().begin.line;
    out->column = in.source().begin.column;
    switch (in.type()) {
    case toml::node_type::string:
        out->type = CUZK_TOML_STRING;
        out->str = dup(in.as_string()->get());
        break;
    case toml::node_type::integer:
        out->type = CUZK_TOML_INTEGER;
        out->integer = in.as_integer()->get();
        break;
    case toml::node_type::floating_point:
        out->type = CUZK_TOML_FLOAT;
        out->number = in.as_floating_point()->get();
        break;
    case toml::node_type::boolean:
        out->type = CUZK_TOML_BOOLEAN;
        out->boolean = in.as_boolean()->get();
        break;
    case toml::node_type::array: {
        const toml::array &a = *in.as_array();
        out->type = CUZK_TOML_ARRAY;
        if (a.empty()) break;
        out->items = static_cast<cuzk_toml_node *>(std::calloc(a.size(), sizeof *out->items));
        if (out->items == nullptr) throw std::bad_alloc();
        for (const toml::node &el : a) fill(&out->items[out->num_items++], el);
        break;
    }
    case toml::node_type::table: fill_table(out, *in.as_table()); break;
    default: {
        out->type = CUZK_TOML_DATETIME;
        std::ostringstream os;
        if (const auto *d = in.as_date()) os << *d;
        else if (const auto *t = in.as_time()) os << *t;
        else if (const auto *dt = in.as_date_time()) os << *dt;
        out->str = dup(os.str());
        break;
    }
    }
}

} // namespace

namespace {

// Parses with `parse` (a file or a string) into a new root; the error as "line L, column C: what".
template <typename Parse> bool parse_into(Parse parse, cuzk_toml_node **root, char *err, size_t errlen)
{
    *root = nullptr;
    cuzk_toml_node *r = static_cast<cuzk_toml_node *>(std::calloc(1, sizeof *r));
    if (r == nullptr) {
        std::snprintf(err, errlen, "out of memory");
        return false;
    }
    try {
        toml::table t = parse();
        fill_table(r, t);
    } catch (const toml::parse_error &e) {
        const auto &at = e.source().begin;
        std::string what(e.description());
        // toml++ words a file it cannot read as a parse error at line 0
        if (at.line == 0) std::snprintf(err, errlen, "%s", what.c_str());
        else std::snprintf(err, errlen, "line %u, column %u: %s", (unsigned)at.line, (unsigned)at.column, what.c_str());
        cuzk_toml_free(r);
        return false;
    } catch (const std::exception &e) {
        std::snprintf(err, errlen, "%s", e.what());
        cuzk_toml_free(r);
        return false;
    }
    *root = r;
    return true;
}

} // namespace

extern "C" bool cuzk_toml_parse_file(const char *path, cuzk_toml_node **root, char *err, size_t errlen)
{
    return parse_into([path] { return toml::parse_file(path); }, root, err, errlen);
}

extern "C" bool cuzk_toml_parse_string(const char *text, cuzk_toml_node **root, char *err, size_t errlen)
{
    return parse_into([text] { return toml::parse(std::string_view(text)); }, root, err, errlen);
}

extern "C" void cuzk_toml_free(cuzk_toml_node *root)
{
    if (root == nullptr) return;
    free_node(root);
    std::free(root);
}

extern "C" const char *cuzk_toml_type_name(cuzk_toml_type t)
{
    switch (t) {
    case CUZK_TOML_STRING: return "a string";
    case CUZK_TOML_INTEGER: return "an integer";
    case CUZK_TOML_FLOAT: return "a float";
    case CUZK_TOML_BOOLEAN: return "a boolean";
    case CUZK_TOML_DATETIME: return "a date or time";
    case CUZK_TOML_ARRAY: return "an array";
    case CUZK_TOML_TABLE: return "a table";
    }
    return "a value";
}
