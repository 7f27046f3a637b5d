#include "bench.h"

void bench_micro_ec(const bench_opts *o) { (void)o; }
