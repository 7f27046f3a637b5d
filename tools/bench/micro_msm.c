#include "bench.h"

void bench_micro_msm(const bench_opts *o) { (void)o; }
