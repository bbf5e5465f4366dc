/* cpu_reduce_simd.h - AVX2 and AVX-512 folds for float32/float64 extremes
 * (Note [AVX2 extremes], Note [AVX-512 extremes] in cpu_reduce_simd.c),
 * AVX2 sum leaves (Note [AVX2 sum leaves]) and byte sums (Note [Byte
 * sums]).  Each fold returns 1 with the
 * extreme (and its first position) of q[0, n), or 0 if a NaN is in the run
 * (the caller then folds in order); `first` is not NaN.  Call the AVX2 ones
 * only when dt_cpu_reduce_has_avx2() is 1, the AVX-512 ones only when
 * dt_cpu_reduce_has_avx512() is. */
#ifndef DT_CPU_REDUCE_SIMD_H
#define DT_CPU_REDUCE_SIMD_H

#include <stdint.h>

int dt_cpu_reduce_has_avx2(void);
int dt_avx2_fold_f64(double first, const double *q, int64_t n, int is_max, double *out);
int dt_avx2_fold_f32(float first, const float *q, int64_t n, int is_max, float *out);
/* n >= 1 */
int dt_avx2_argfold_f64(const double *q, int64_t n, int is_max, double *out, int64_t *pos);
int dt_avx2_argfold_f32(const float *q, int64_t n, int is_max, float *out, int64_t *pos);
/* Runs shorter than this use the AVX2 folds (Note [AVX-512 extremes]) */
#define DT_AVX512_MIN_RUN 4096
/* 0 where the CPU lacks AVX-512F or DEVTENSOR_CPU_AVX512=0 */
int dt_cpu_reduce_has_avx512(void);
int dt_avx512_fold_f64(double first, const double *q, int64_t n, int is_max, double *out);
int dt_avx512_fold_f32(float first, const float *q, int64_t n, int is_max, float *out);
int dt_avx512_argfold_f64(const double *q, int64_t n, int is_max, double *out, int64_t *pos);
int dt_avx512_argfold_f32(const float *q, int64_t n, int is_max, float *out, int64_t *pos);
/* The sum of q[0, n) in cpu_reduce.c's sixteen-lane order, bit for bit
 * (Note [AVX2 sum leaves]). */
double dt_avx2_sum_leaf_f64(const double *q, int64_t n);
double dt_avx2_sum_leaf_f32(const float *q, int64_t n);
/* The sum of n contiguous bytes read as bool (0 or 1), int8 or uint8, as
 * a 64-bit integer (two's complement for int8; Note [Byte sums]). */
typedef enum dt_byte_kind { DT_BYTES_BOOL, DT_BYTES_INT8, DT_BYTES_UINT8 } dt_byte_kind;
uint64_t dt_avx2_sum_bytes(const unsigned char *q, int64_t n, dt_byte_kind kind);

#endif /* DT_CPU_REDUCE_SIMD_H */
