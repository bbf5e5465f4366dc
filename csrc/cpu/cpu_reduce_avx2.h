/* cpu_reduce_avx2.h - AVX2 folds for float32/float64 extremes (Note [AVX2
 * extremes] in cpu_reduce_avx2.c) and sum leaves (Note [AVX2 sum leaves]).  Each returns 1 with the extreme (and
 * its first position) of q[0, n), or 0 if a NaN is in the run (the caller
 * then folds in order); `first` is not NaN.  Call them only when
 * dt_cpu_reduce_has_avx2() is 1. */
#ifndef DT_CPU_REDUCE_AVX2_H
#define DT_CPU_REDUCE_AVX2_H

#include <stdint.h>

int dt_cpu_reduce_has_avx2(void);
int dt_avx2_fold_f64(double first, const double *q, int64_t n, int is_max, double *out);
int dt_avx2_fold_f32(float first, const float *q, int64_t n, int is_max, float *out);
/* n >= 1 */
int dt_avx2_argfold_f64(const double *q, int64_t n, int is_max, double *out, int64_t *pos);
int dt_avx2_argfold_f32(const float *q, int64_t n, int is_max, float *out, int64_t *pos);
/* The sum of q[0, n) in cpu_reduce.c's sixteen-lane order, bit for bit
 * (Note [AVX2 sum leaves]). */
double dt_avx2_sum_leaf_f64(const double *q, int64_t n);
double dt_avx2_sum_leaf_f32(const float *q, int64_t n);

#endif /* DT_CPU_REDUCE_AVX2_H */
