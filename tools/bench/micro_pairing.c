#include "bench.h"

void bench_micro_pairing(const bench_opts *o) { (void)o; }
