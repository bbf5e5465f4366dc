/* cpu_reduce_avx2.c - AVX2 folds for the float32 and float64 extremes
 * (min, max, argmin, argmax) and sum leaves of cpu_reduce.c, chosen at
 * run time.
 *
 * Note [AVX2 extremes]
 * GCC compiles a float select by comparison into integer-domain blends
 * under generic tuning, about half NumPy's speed on this project's
 * machines; NumPy's own loops use the max/min and blend instructions.  So
 * these folds are written with AVX2 intrinsics in functions built for
 * AVX2 (the target attribute), called only when the CPU has it
 * (dt_cpu_reduce_has_avx2).  max_ps/max_pd return their second operand
 * when either is NaN, so NaN is never kept in a lane; it is noted on the
 * side instead and the caller then folds in order (Note [Explicit vectors
 * for float extremes] in cpu_reduce.c).  Four accumulators hide the
 * instructions' latency.  Other targets build the stubs at the end.
 */
#include "cpu_reduce_avx2.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3") /* the accumulator arrays stay in registers only at -O3 */
#endif

int dt_cpu_reduce_has_avx2(void)
{
    static int has = -1;
    if (has < 0) {
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return has;
}

/* ---- float64 ---- */
AVX2 int dt_avx2_fold_f64(double first, const double *q, int64_t n, int is_max, double *out)
{
    __m256d a[4], nan = _mm256_setzero_pd();
    for (int k = 0; k < 4; k++)
        a[k] = _mm256_set1_pd(first);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 4; k++) {
            __m256d x = _mm256_loadu_pd(q + i + 4 * k);
            a[k] = is_max ? _mm256_max_pd(x, a[k]) : _mm256_min_pd(x, a[k]);
            nan = _mm256_or_pd(nan, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
        }
    double lanes[16], m = first;
    for (int k = 0; k < 4; k++)
        _mm256_storeu_pd(lanes + 4 * k, a[k]);
    int any_nan = _mm256_movemask_pd(nan) != 0;
    for (int j = 0; j < 16; j++)
        m = (is_max ? lanes[j] > m : lanes[j] < m) ? lanes[j] : m;
    for (; i < n; i++) {
        any_nan |= q[i] != q[i];
        m = (is_max ? q[i] > m : q[i] < m) ? q[i] : m;
    }
    *out = m;
    return !any_nan;
}

/* ---- float32 ---- */
AVX2 int dt_avx2_fold_f32(float first, const float *q, int64_t n, int is_max, float *out)
{
    __m256 a[4], nan = _mm256_setzero_ps();
    for (int k = 0; k < 4; k++)
        a[k] = _mm256_set1_ps(first);
    int64_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            __m256 x = _mm256_loadu_ps(q + i + 8 * k);
            a[k] = is_max ? _mm256_max_ps(x, a[k]) : _mm256_min_ps(x, a[k]);
            nan = _mm256_or_ps(nan, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        }
    float lanes[32], m = first;
    for (int k = 0; k < 4; k++)
        _mm256_storeu_ps(lanes + 8 * k, a[k]);
    int any_nan = _mm256_movemask_ps(nan) != 0;
    for (int j = 0; j < 32; j++)
        m = (is_max ? lanes[j] > m : lanes[j] < m) ? lanes[j] : m;
    for (; i < n; i++) {
        any_nan |= q[i] != q[i];
        m = (is_max ? q[i] > m : q[i] < m) ? q[i] : m;
    }
    *out = m;
    return !any_nan;
}

/* ---- argmin / argmax: block by block ----
 * Each block of ARG_BLOCK elements is folded as above; the first block
 * whose extreme beats every earlier block's holds the first position of
 * the run's extreme, which one more pass over that block (in L1) finds.
 * So the run is read once, at the fold's speed. */
#define ARG_BLOCK 2048
#define ARGFOLD(X, T)                                                                           \
    AVX2 int dt_avx2_argfold_##X(const T *q, int64_t n, int is_max, T *out, int64_t *pos)      \
    {                                                                                           \
        T m = q[0];                                                                             \
        int64_t block = 0;                                                                      \
        for (int64_t b = 0; b < n; b += ARG_BLOCK) {                                            \
            T bm;                                                                               \
            int64_t len = n - b < ARG_BLOCK ? n - b : ARG_BLOCK;                                \
            if (!dt_avx2_fold_##X(q[b], q + b, len, is_max, &bm))                               \
                return 0;                                                                       \
            if (is_max ? bm > m : bm < m) {                                                     \
                m = bm;                                                                         \
                block = b;                                                                      \
            }                                                                                   \
        }                                                                                       \
        int64_t i = block;                                                                      \
        while (q[i] != m)                                                                       \
            i++;                                                                                \
        *out = m;                                                                               \
        *pos = i;                                                                               \
        return 1;                                                                               \
    }
ARGFOLD(f64, double)
ARGFOLD(f32, float)

/* Note [AVX2 sum leaves]
 * GCC 12 compiled cpu_reduce.c's sixteen-lane sum leaf (Note [Lanes in
 * registers]) for float32 and float64 into scalar code: a load, a widening
 * and an add per element, so many instructions that out of cache the
 * processor's window held only a few cache lines of loads, and a sum of
 * more than the L3 ran at two thirds of NumPy's bandwidth.  These leaves
 * keep the same sixteen lanes in four vectors (vector j holds lanes 4j to
 * 4j + 3: elements i + 4j ... i + 4j + 3, widened to double for float32)
 * and fold them in the same order (8 apart, 4 apart, 2 apart, 1 apart,
 * then the tail in order), so their sums are bit for bit the scalar
 * leaf's. */
#define SUM_LEAF(X, T, LOAD4)                                                                   \
    AVX2 double dt_avx2_sum_leaf_##X(const T *q, int64_t n)                                     \
    {                                                                                           \
        __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;                            \
        int64_t i = 0;                                                                          \
        for (; i + 16 <= n; i += 16) {                                                          \
            a0 = _mm256_add_pd(a0, LOAD4(q + i));                                               \
            a1 = _mm256_add_pd(a1, LOAD4(q + i + 4));                                           \
            a2 = _mm256_add_pd(a2, LOAD4(q + i + 8));                                           \
            a3 = _mm256_add_pd(a3, LOAD4(q + i + 12));                                          \
        }                                                                                       \
        a0 = _mm256_add_pd(a0, a2); /* lanes 0-3 += 8-11, 4-7 += 12-15 */                       \
        a1 = _mm256_add_pd(a1, a3);                                                             \
        a0 = _mm256_add_pd(a0, a1); /* lanes 0-3 += 4-7 */                                      \
        __m128d h = _mm_add_pd(_mm256_castpd256_pd128(a0), _mm256_extractf128_pd(a0, 1));      \
        double sum = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));                       \
        for (; i < n; i++)                                                                      \
            sum += (double)q[i];                                                                \
        return sum;                                                                             \
    }
#define LOAD4_F64(p) _mm256_loadu_pd(p)
#define LOAD4_F32(p) _mm256_cvtps_pd(_mm_loadu_ps(p))
SUM_LEAF(f64, double, LOAD4_F64)
SUM_LEAF(f32, float, LOAD4_F32)

#else /* not GCC-compatible x86-64: the generic folds of cpu_reduce.c */

double dt_avx2_sum_leaf_f64(const double *q, int64_t n)
{
    (void)q, (void)n;
    return 0.0;
}
double dt_avx2_sum_leaf_f32(const float *q, int64_t n)
{
    (void)q, (void)n;
    return 0.0;
}

int dt_cpu_reduce_has_avx2(void) { return 0; }
int dt_avx2_fold_f64(double first, const double *q, int64_t n, int is_max, double *out)
{
    (void)first, (void)q, (void)n, (void)is_max, (void)out;
    return 0;
}
int dt_avx2_argfold_f64(const double *q, int64_t n, int is_max, double *out, int64_t *pos)
{
    (void)q, (void)n, (void)is_max, (void)out, (void)pos;
    return 0;
}
int dt_avx2_fold_f32(float first, const float *q, int64_t n, int is_max, float *out)
{
    (void)first, (void)q, (void)n, (void)is_max, (void)out;
    return 0;
}
int dt_avx2_argfold_f32(const float *q, int64_t n, int is_max, float *out, int64_t *pos)
{
    (void)q, (void)n, (void)is_max, (void)out, (void)pos;
    return 0;
}
#endif
