/* cpu_reduce_simd.c - x86 vector folds for the float32 and float64
 * extremes (min, max, argmin, argmax; AVX2, and AVX-512 where the CPU has
 * it), the sum leaves (AVX2) and the sums of bytes (AVX2: bool, int8,
 * uint8) of cpu_reduce.c, chosen at run time.
 *
 * Note [AVX2 extremes]
 * GCC compiles a float select by comparison into integer-domain blends
 * under generic tuning, about half NumPy's speed on this project's
 * machines; NumPy's own loops use the max/min and blend instructions.  So
 * these folds are written with intrinsics in functions built for AVX2 or
 * AVX-512 (the target attribute), called only when the CPU has it
 * (dt_cpu_reduce_has_avx2, dt_cpu_reduce_has_avx512).  max/min return
 * their second operand when either is NaN, so NaN is never kept in a
 * lane; it is noted on the side instead, one unordered comparison per pair
 * of loaded vectors (true where either holds a NaN), and the caller then
 * folds in order (Note [Explicit vectors for float extremes] in
 * cpu_reduce.c).  Four accumulators hide the instructions' latency.
 *
 * Note [AVX-512 extremes]
 * Out of cache, a float64 max over 10^7 elements with AVX2 ran at 0.84x
 * NumPy's speed (which uses AVX-512 there); with 64-byte vectors, 0.97x
 * (2.81 ms for NumPy's 2.74, the AVX2 fold 3.2, one process, 2026-12-06).
 * They serve runs of at least DT_AVX512_MIN_RUN elements: on 16, the
 * wider lanes' set-up and final fold made t.max() 45 ns slower (190 ns
 * for 145).  They keep twice the lanes (32 for float64, 64 for float32),
 * so where +0.0 and -0.0 tie for the extreme, which one is returned may
 * differ between a CPU with AVX-512 and one without, and between short
 * and long runs, as it does in NumPy; every other result is the same.
 * DEVTENSOR_CPU_AVX512=0 selects the AVX2 folds on any CPU, for tests.
 * Other targets build the stubs at the end.
 */
#include "cpu_reduce_simd.h"

#include "env.h"

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

int dt_cpu_reduce_has_avx512(void)
{
    static int has = -1; /* read once; threads that race write the same */
    if (has < 0) {
        int flag = 1;
        __builtin_cpu_init();
        has = __builtin_cpu_supports("avx512f") && !(dt_env_flag("DEVTENSOR_CPU_AVX512", &flag) == 1 && !flag);
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
    for (; i + 16 <= n; i += 16) {
        __m256d x[4];
        for (int k = 0; k < 4; k++) {
            x[k] = _mm256_loadu_pd(q + i + 4 * k);
            a[k] = is_max ? _mm256_max_pd(x[k], a[k]) : _mm256_min_pd(x[k], a[k]);
        }
        nan = _mm256_or_pd(nan, _mm256_or_pd(_mm256_cmp_pd(x[0], x[1], _CMP_UNORD_Q),
                                             _mm256_cmp_pd(x[2], x[3], _CMP_UNORD_Q)));
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
    for (; i + 32 <= n; i += 32) {
        __m256 x[4];
        for (int k = 0; k < 4; k++) {
            x[k] = _mm256_loadu_ps(q + i + 8 * k);
            a[k] = is_max ? _mm256_max_ps(x[k], a[k]) : _mm256_min_ps(x[k], a[k]);
        }
        nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_cmp_ps(x[0], x[1], _CMP_UNORD_Q),
                                             _mm256_cmp_ps(x[2], x[3], _CMP_UNORD_Q)));
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

/* ---- AVX-512 (Note [AVX-512 extremes]) ---- */
#define AVX512 __attribute__((target("avx512f")))
#define FOLD512(X, T, V, W, LOADU, MAX, MIN, SET1, STOREU, CMP)                                  \
    AVX512 int dt_avx512_fold_##X(T first, const T *q, int64_t n, int is_max, T *out)          \
    {                                                                                           \
        V a[4];                                                                                 \
        unsigned nan = 0;                                                                       \
        for (int k = 0; k < 4; k++)                                                             \
            a[k] = SET1(first);                                                                 \
        int64_t i = 0;                                                                          \
        for (; i + 4 * W <= n; i += 4 * W) {                                                    \
            V x[4];                                                                             \
            for (int k = 0; k < 4; k++) {                                                       \
                x[k] = LOADU(q + i + W * k);                                                    \
                a[k] = is_max ? MAX(x[k], a[k]) : MIN(x[k], a[k]);                              \
            }                                                                                   \
            nan |= CMP(x[0], x[1], _CMP_UNORD_Q) | CMP(x[2], x[3], _CMP_UNORD_Q);               \
        }                                                                                       \
        T lanes[4 * W], m = first;                                                              \
        for (int k = 0; k < 4; k++)                                                             \
            STOREU(lanes + W * k, a[k]);                                                        \
        int any_nan = nan != 0;                                                                 \
        for (int j = 0; j < 4 * W; j++)                                                         \
            m = (is_max ? lanes[j] > m : lanes[j] < m) ? lanes[j] : m;                          \
        for (; i < n; i++) {                                                                    \
            any_nan |= q[i] != q[i];                                                            \
            m = (is_max ? q[i] > m : q[i] < m) ? q[i] : m;                                      \
        }                                                                                       \
        *out = m;                                                                               \
        return !any_nan;                                                                        \
    }
FOLD512(f64, double, __m512d, 8, _mm512_loadu_pd, _mm512_max_pd, _mm512_min_pd, _mm512_set1_pd,
        _mm512_storeu_pd, _mm512_cmp_pd_mask)
FOLD512(f32, float, __m512, 16, _mm512_loadu_ps, _mm512_max_ps, _mm512_min_ps, _mm512_set1_ps,
        _mm512_storeu_ps, _mm512_cmp_ps_mask)

/* ---- argmin / argmax: block by block ----
 * Each block of ARG_BLOCK elements is folded as above; the first block
 * whose extreme beats every earlier block's holds the first position of
 * the run's extreme, which one more pass over that block (in L1) finds.
 * So the run is read once, at the fold's speed. */
#define ARG_BLOCK 2048
#define ARGFOLD(ISA, TARGET, X, T)                                                              \
    TARGET int dt_##ISA##_argfold_##X(const T *q, int64_t n, int is_max, T *out, int64_t *pos) \
    {                                                                                           \
        T m = q[0];                                                                             \
        int64_t block = 0;                                                                      \
        for (int64_t b = 0; b < n; b += ARG_BLOCK) {                                            \
            T bm;                                                                               \
            int64_t len = n - b < ARG_BLOCK ? n - b : ARG_BLOCK;                                \
            if (!dt_##ISA##_fold_##X(q[b], q + b, len, is_max, &bm))                            \
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
ARGFOLD(avx2, AVX2, f64, double)
ARGFOLD(avx2, AVX2, f32, float)
ARGFOLD(avx512, AVX512, f64, double)
ARGFOLD(avx512, AVX512, f32, float)

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

/* Note [Byte sums]
 * count_nonzero of a bool tensor is its int64 sum, and through the generic
 * sixteen-lane leaf (each byte widened to 64 bits) 10^7 bools took 3.7 ms,
 * ten times NumPy's count_nonzero (0.38).  Here 32 bytes at a time go
 * through psadbw, which adds each 8 bytes into a 64-bit lane: a bool is
 * first made 0 or 1 (min with 1, so any non-zero byte is true, as
 * dt_load_b reads it), an int8 offset by 128 (then 128 n subtracted).  The
 * sums are exact integers, so the order of adding does not matter. */
AVX2 uint64_t dt_avx2_sum_bytes(const unsigned char *q, int64_t n, dt_byte_kind kind)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi8(1), flip = _mm256_set1_epi8((char)0x80);
    __m256i a0 = zero, a1 = zero;
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i x0 = _mm256_loadu_si256((const __m256i *)(q + i));
        __m256i x1 = _mm256_loadu_si256((const __m256i *)(q + i + 32));
        if (kind == DT_BYTES_BOOL)
            x0 = _mm256_min_epu8(x0, one), x1 = _mm256_min_epu8(x1, one);
        else if (kind == DT_BYTES_INT8)
            x0 = _mm256_xor_si256(x0, flip), x1 = _mm256_xor_si256(x1, flip);
        a0 = _mm256_add_epi64(a0, _mm256_sad_epu8(x0, zero));
        a1 = _mm256_add_epi64(a1, _mm256_sad_epu8(x1, zero));
    }
    a0 = _mm256_add_epi64(a0, a1);
    uint64_t lanes[4], sum = 0;
    _mm256_storeu_si256((__m256i *)lanes, a0);
    sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    if (kind == DT_BYTES_INT8)
        sum -= 128 * (uint64_t)i;
    for (; i < n; i++)
        sum += kind == DT_BYTES_BOOL ? (uint64_t)(q[i] != 0)
             : kind == DT_BYTES_INT8 ? (uint64_t)(int64_t)(signed char)q[i] : (uint64_t)q[i];
    return sum;
}

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

uint64_t dt_avx2_sum_bytes(const unsigned char *q, int64_t n, dt_byte_kind kind)
{
    (void)q, (void)n, (void)kind;
    return 0;
}

int dt_cpu_reduce_has_avx2(void) { return 0; }
int dt_cpu_reduce_has_avx512(void) { return 0; }
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
int dt_avx512_fold_f64(double first, const double *q, int64_t n, int is_max, double *out)
{
    (void)first, (void)q, (void)n, (void)is_max, (void)out;
    return 0;
}
int dt_avx512_argfold_f64(const double *q, int64_t n, int is_max, double *out, int64_t *pos)
{
    (void)q, (void)n, (void)is_max, (void)out, (void)pos;
    return 0;
}
int dt_avx512_fold_f32(float first, const float *q, int64_t n, int is_max, float *out)
{
    (void)first, (void)q, (void)n, (void)is_max, (void)out;
    return 0;
}
int dt_avx512_argfold_f32(const float *q, int64_t n, int is_max, float *out, int64_t *pos)
{
    (void)q, (void)n, (void)is_max, (void)out, (void)pos;
    return 0;
}
#endif
