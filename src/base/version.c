/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The project's version, given by the build (CMake's project version) so that every tool reports the same one. */
#include "cuzk/base.h"

#ifndef CUZK_VERSION_STRING
#define CUZK_VERSION_STRING "unknown"
#endif

const char *cuzk_version(void) { return CUZK_VERSION_STRING; }
