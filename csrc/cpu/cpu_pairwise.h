/* cpu_pairwise.h - float64 sums in NumPy's pairwise order, bit for bit
 * (Note [float64 sums are NumPy's] in cpu_pairwise.c).  NumPy's add.reduce
 * of a run is 0.0 + dt_pairwise_f64(run). */
#ifndef DT_CPU_PAIRWISE_H
#define DT_CPU_PAIRWISE_H

#include <stdint.h>

/* NumPy's pairwise sum of the n float64 at p, p + s, ... (s in bytes);
 * in_cache: the caller's data is in cache (a faster order of reads there) */
double dt_pairwise_f64(const char *p, int64_t n, int64_t s, int in_cache);

/* NumPy's recursion over n elements cut `depth` levels down (or at its
 * leaves): the subtrees' [starts[k], starts[k] + lens[k]) in order, at most
 * 2^depth of them; their count is returned. */
int dt_pairwise_split(int64_t n, int depth, int64_t *starts, int64_t *lens);
/* dt_pairwise_f64 of the whole run from its subtrees' sums (the same n and
 * depth as dt_pairwise_split), bit for bit */
double dt_pairwise_join(int64_t n, int depth, const double *sums);

#endif /* DT_CPU_PAIRWISE_H */
