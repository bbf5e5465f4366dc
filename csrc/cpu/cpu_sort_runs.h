/* cpu_sort_runs.h - an unstable sort of contiguous rows across the CPU
 * pool's threads, each piece sorted by a caller's function (Note [Sorting
 * runs with NumPy's sort] in cpu_sort_runs.c). */
#ifndef DT_CPU_SORT_RUNS_H
#define DT_CPU_SORT_RUNS_H

#include <stdint.h>

#include "dtype.h"
#include "error.h"

/* Sort n contiguous elements in place; 0, or nonzero on failure (out of
 * memory).  Called from the pool's threads at once: it must be reentrant. */
typedef int (*dt_cpu_piece_sort)(void *data, int64_t n, void *ctx);

/* 1 for the dtypes dt_cpu_sort_runs merges: bool, the integers, float32
 * and float64. */
int dt_cpu_sort_runs_supports(dt_dtype dtype);

/* dst (rows x n, contiguous) = the contiguous src with each row sorted in
 * NumPy's order (NaN last) by `sort`.  Several rows go across threads; a
 * single row is cut into runs that are sorted, then merged through a
 * scratch block from the host cache (without one, the row sorts on one
 * thread). */
dt_status dt_cpu_sort_runs(dt_dtype dtype, const void *src, void *dst, int64_t rows, int64_t n,
                           dt_cpu_piece_sort sort, void *sort_ctx, dt_error *err);

#endif /* DT_CPU_SORT_RUNS_H */
