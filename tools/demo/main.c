/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-demo: `cuzk demo` on its own, linked with the layers it needs only (cuzk_core: no Filecoin layer), so that the
 * main job (scripts/main.sh) compiles no more than the demo runs. Same options, output and exit status. */
#include "cli.h"

int main(int argc, char **argv) { return cmd_demo(argc - 1, argv + 1); }
