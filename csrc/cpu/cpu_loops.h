/* cpu_loops.h - the CPU's inner loops and the driver that runs a dt_loop,
 * for the CPU backend (cpu_backend.c). */
#ifndef DT_CPU_LOOPS_H
#define DT_CPU_LOOPS_H

#include "backend.h"

/* NumPy-style inner loop: n elements, data[k] and strides[k] (bytes) for
 * each operand, output first. */
typedef void (*dt_cpu_inner_loop)(char **data, const int64_t *strides, int64_t n);

/* Inner loop of an op for its dtypes, or NULL if there is none. */
dt_cpu_inner_loop dt_cpu_find_loop(int op, const dt_dtype *dtypes);

/* Run a whole loop on host memory. */
dt_status dt_cpu_run_loop(const dt_loop *loop, dt_error *err);
/* Fill host memory (dt_gen). */
dt_status dt_cpu_generate(const dt_gen *gen, dt_error *err);
/* The index kernels (backend.h's dt_index_loop; cpu_index.c). */
dt_status dt_cpu_run_index(const dt_index_loop *loop, dt_error *err);
/* The reductions (backend.h's dt_reduce_loop; cpu_reduce.c). */
dt_status dt_cpu_run_reduce(const dt_reduce_loop *loop, dt_error *err);
/* The scans (backend.h's dt_scan_loop; cpu_scan.c). */
dt_status dt_cpu_run_scan(const dt_scan_loop *loop, dt_error *err);
/* Binary search (backend.h's dt_search_loop; cpu_search.c). */
dt_status dt_cpu_run_search(const dt_search_loop *loop, dt_error *err);
/* Sorting (backend.h's dt_sort_loop; cpu_sort.c). */
dt_status dt_cpu_run_sort(const dt_sort_loop *loop, dt_error *err);
/* Matrix products (backend.h's dt_matmul_loop; cpu_matmul.c). */
dt_status dt_cpu_run_matmul(const dt_matmul_loop *loop, dt_error *err);
/* Factorizations (backend.h's dt_linalg_loop; cpu_linalg.c). */
dt_status dt_cpu_run_linalg(const dt_linalg_loop *loop, dt_error *err);

#endif /* DT_CPU_LOOPS_H */
