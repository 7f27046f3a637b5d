/* Pairing micro-benchmarks on the generators: one full pairing, its Miller loop, its final exponentiation, and
 * a Miller loop over prepared G2 lines. Each figure is the best of several rounds (the machine is shared). */
#include "bench.h"
#include "cuzk/pairing.h"

#define ROUNDS 5
#define REPS 100

typedef enum { B_PAIRING, B_MILLER, B_FINAL_EXP, B_MILLER_PREPARED } bench_kind;

/* Each round REPS operations; the figure per operation. */
static bench_stat run(bench_kind k, const cuzk_g1_affine_t *p, const cuzk_g2_affine_t *q,
                      const cuzk_g2_prepared_t *prep)
{
    bench_runs runs = {0};
    cuzk_fp12_t f;
    cuzk_miller_loop(&f, p, q, 1);
    for (int round = 0; round < ROUNDS; round++) {
        bench_run_start(&runs);
        for (int i = 0; i < REPS; i++) {
            switch (k) {
            case B_PAIRING: cuzk_pairing(&f, p, q); break;
            case B_MILLER: cuzk_miller_loop(&f, p, q, 1); break;
            case B_FINAL_EXP: cuzk_final_exponentiation(&f, &f); break;
            case B_MILLER_PREPARED: cuzk_miller_loop_prepared(&f, p, prep, 1); break;
            }
            BENCH_KEEP(f);
        }
        bench_run_stop(&runs);
    }
    return bench_stat_of(&runs);
}

void bench_micro_pairing(const bench_opts *o)
{
    static cuzk_g2_prepared_t prep;
    cuzk_g1_affine_t p;
    cuzk_g2_affine_t q;
    cuzk_g1_generator(&p);
    cuzk_g2_generator(&q);
    cuzk_g2_prepare(&prep, &q);
    static const struct { const char *name; bench_kind kind; } cases[] = {
        {"pairing", B_PAIRING},
        {"miller_loop", B_MILLER},
        {"final_exp", B_FINAL_EXP},
        {"miller_loop_prepared", B_MILLER_PREPARED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (!bench_selected(o, cases[i].name)) continue;
        bench_stat s = run(cases[i].kind, &p, &q, &prep);
        bench_report_runs(cases[i].name, 1, 1, &s, 1e-3 / REPS, "us", NULL);
    }
}
