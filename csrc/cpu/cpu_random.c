/* cpu_random.c - Philox4x32-10 for a block of consecutive counters on the
 * CPU, vectorized: the random draws of dt_gen (cpu_run.c).
 *
 * Note [Philox in blocks]
 * Element i of a random tensor is philox(seed, offset + i) (Note [Same
 * numbers everywhere] in philox.h).  Called once per element, with the
 * kind chosen per element and ldexp called per element, 10^7 uniform
 * float64 took 217 ms on one AVX2 core (NumPy's PCG64: 37).  Here a block
 * of counters goes through the ten rounds together: in AVX-512 or AVX2
 * registers where the CPU has them (Note [Philox rounds in AVX2]; 37.6 ms
 * in AVX2), else in a loop GCC vectorizes for the baseline.  The uniform, integer
 * and normal draws are then made from the words by the same arithmetic as
 * philox.h's scalar functions, so every device still gives the same
 * numbers (normals to their last bit or two: Note [Normals through vector
 * math]).
 */
#include "cpu_random.h"

#pragma GCC optimize("O3") /* Note [Vectorization] in cpu_loops.c */

#include <math.h>
#include <stddef.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

/* hi[j] = words 0 and 1, lo[j] = words 2 and 3 (NULL: not wanted) of
 * philox(seed, counter + j), for j < n */
CLONES static void philox_words(uint64_t seed, uint64_t counter, int64_t n, uint64_t *restrict hi,
                                uint64_t *restrict lo)
{
    for (int64_t j = 0; j < n; j++) {
        uint32_t c[4];
        dt_philox4x32_10(seed, counter + (uint64_t)j, c); /* inlined: philox.h's rounds */
        hi[j] = (uint64_t)c[0] << 32 | c[1];
        if (lo != NULL)
            lo[j] = (uint64_t)c[2] << 32 | c[3];
    }
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX2_WORDS 1

/* Note [Philox rounds in AVX2]
 * GCC's own vectorization of philox_words mixes 32-bit and 64-bit lanes
 * and spends most of its time shuffling between them.  Here each of the
 * four words lives in the low half of a 64-bit lane, so a round is two
 * vpmuludq (the 32x32->64-bit products), shifts, masks and XORs, four
 * counters per register and two registers at once for the multiplier's
 * latency. */
#define ROUND(C0, C1, C2, C3, K0, K1)                                                \
    {                                                                                \
        __m256i p0 = _mm256_mul_epu32(C0, m0), p1 = _mm256_mul_epu32(C2, m1);        \
        C0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), C1), K0);  \
        C2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), C3), K1);  \
        C1 = _mm256_and_si256(p1, low32);                                            \
        C3 = _mm256_and_si256(p0, low32);                                            \
    }

__attribute__((target("avx2"))) static int64_t philox_words_avx2(uint64_t seed, uint64_t counter, int64_t n,
                                                                  uint64_t *restrict hi, uint64_t *restrict lo)
{
    const __m256i m0 = _mm256_set1_epi64x(DT_PHILOX_M0), m1 = _mm256_set1_epi64x(DT_PHILOX_M1);
    const __m256i low32 = _mm256_set1_epi64x(0xffffffffll);
    __m256i k0s[10], k1s[10];
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++, k0 += DT_PHILOX_W0, k1 += DT_PHILOX_W1) {
        k0s[r] = _mm256_set1_epi64x(k0);
        k1s[r] = _mm256_set1_epi64x(k1);
    }
    const __m256i lanes = _mm256_set_epi64x(3, 2, 1, 0), four = _mm256_set1_epi64x(4);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256i ctr_a = _mm256_add_epi64(_mm256_set1_epi64x((long long)(counter + (uint64_t)j)), lanes);
        __m256i ctr_b = _mm256_add_epi64(ctr_a, four);
        __m256i a0 = _mm256_and_si256(ctr_a, low32), a1 = _mm256_srli_epi64(ctr_a, 32);
        __m256i b0 = _mm256_and_si256(ctr_b, low32), b1 = _mm256_srli_epi64(ctr_b, 32);
        __m256i a2 = _mm256_setzero_si256(), a3 = a2, b2 = a2, b3 = a2;
        for (int r = 0; r < 10; r++) {
            ROUND(a0, a1, a2, a3, k0s[r], k1s[r])
            ROUND(b0, b1, b2, b3, k0s[r], k1s[r])
        }
        _mm256_storeu_si256((__m256i *)(hi + j), _mm256_or_si256(_mm256_slli_epi64(a0, 32), a1));
        _mm256_storeu_si256((__m256i *)(hi + j + 4), _mm256_or_si256(_mm256_slli_epi64(b0, 32), b1));
        if (lo != NULL) {
            _mm256_storeu_si256((__m256i *)(lo + j), _mm256_or_si256(_mm256_slli_epi64(a2, 32), a3));
            _mm256_storeu_si256((__m256i *)(lo + j + 4), _mm256_or_si256(_mm256_slli_epi64(b2, 32), b3));
        }
    }
    return j;
}
#undef ROUND

/* The same rounds on 512-bit registers where the CPU has AVX-512: eight
 * counters per register, 16 at a time. */
#define ROUND(C0, C1, C2, C3, K0, K1)                                                \
    {                                                                                \
        __m512i p0 = _mm512_mul_epu32(C0, m0), p1 = _mm512_mul_epu32(C2, m1);        \
        C0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), C1), K0);  \
        C2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), C3), K1);  \
        C1 = _mm512_and_si512(p1, low32);                                            \
        C3 = _mm512_and_si512(p0, low32);                                            \
    }

__attribute__((target("avx512f"))) static int64_t philox_words_avx512(uint64_t seed, uint64_t counter, int64_t n,
                                                                      uint64_t *restrict hi, uint64_t *restrict lo)
{
    const __m512i m0 = _mm512_set1_epi64(DT_PHILOX_M0), m1 = _mm512_set1_epi64(DT_PHILOX_M1);
    const __m512i low32 = _mm512_set1_epi64(0xffffffffll);
    __m512i k0s[10], k1s[10];
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++, k0 += DT_PHILOX_W0, k1 += DT_PHILOX_W1) {
        k0s[r] = _mm512_set1_epi64(k0);
        k1s[r] = _mm512_set1_epi64(k1);
    }
    const __m512i lanes = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), eight = _mm512_set1_epi64(8);
    int64_t j = 0;
    for (; j + 16 <= n; j += 16) {
        __m512i ctr_a = _mm512_add_epi64(_mm512_set1_epi64((long long)(counter + (uint64_t)j)), lanes);
        __m512i ctr_b = _mm512_add_epi64(ctr_a, eight);
        __m512i a0 = _mm512_and_si512(ctr_a, low32), a1 = _mm512_srli_epi64(ctr_a, 32);
        __m512i b0 = _mm512_and_si512(ctr_b, low32), b1 = _mm512_srli_epi64(ctr_b, 32);
        __m512i a2 = _mm512_setzero_si512(), a3 = a2, b2 = a2, b3 = a2;
        for (int r = 0; r < 10; r++) {
            ROUND(a0, a1, a2, a3, k0s[r], k1s[r])
            ROUND(b0, b1, b2, b3, k0s[r], k1s[r])
        }
        _mm512_storeu_si512((void *)(hi + j), _mm512_or_si512(_mm512_slli_epi64(a0, 32), a1));
        _mm512_storeu_si512((void *)(hi + j + 8), _mm512_or_si512(_mm512_slli_epi64(b0, 32), b1));
        if (lo != NULL) {
            _mm512_storeu_si512((void *)(lo + j), _mm512_or_si512(_mm512_slli_epi64(a2, 32), a3));
            _mm512_storeu_si512((void *)(lo + j + 8), _mm512_or_si512(_mm512_slli_epi64(b2, 32), b3));
        }
    }
    return j;
}
#undef ROUND
#endif

/* philox_words, through the AVX-512 rounds and then the AVX2 ones where
 * the CPU has them: a block's last 8 to 15 counters take the AVX2 rounds,
 * so that both run (and are tested) on an AVX-512 machine */
static void draw_words(uint64_t seed, uint64_t counter, int64_t n, uint64_t *hi, uint64_t *lo)
{
    int64_t done = 0;
#ifdef HAVE_AVX2_WORDS
    if (__builtin_cpu_supports("avx512f"))
        done = philox_words_avx512(seed, counter, n, hi, lo);
    if (__builtin_cpu_supports("avx2"))
        done += philox_words_avx2(seed, counter + (uint64_t)done, n - done, hi + done, lo != NULL ? lo + done : NULL);
#endif
    philox_words(seed, counter + (uint64_t)done, n - done, hi + done, lo != NULL ? lo + done : NULL);
}

void dt_cpu_philox_uniform(uint64_t seed, uint64_t counter, int64_t n, int bits, double low, double high,
                           double *out, uint64_t *words)
{
    draw_words(seed, counter, n, words, NULL);
    const double scale = ldexp(1.0, -bits), span = high - low;
    for (int64_t j = 0; j < n; j++) {
        double u = (double)(words[j] >> (64 - bits)) * scale; /* dt_philox_unit */
        out[j] = low + span * u;                            /* dt_philox_uniform */
    }
}

/* Note [Normals through vector math]
 * Box-Muller's log, sqrt and cos cost most of a normal draw: called once
 * per element from the scalar libm they made 10^7 float64 normals 2.3x
 * NumPy's ziggurat on one core.  So the unit draws are made first and the
 * transform runs on 8 of them at a time through libmvec's log and cos
 * (cpu_vecmath.h's Note [Vector math]; within 4 ulp, where the scalar libm
 * is within 1): the AVX-512 ones where the CPU has them, else the AVX2
 * ones, else the scalar libm.  Every element takes the same path, a block's
 * tail padded to 8, so an element's normal does not depend on where it
 * sits (standard_normal(20) is four standard_normal(5) to the bit), as
 * automatic vectorization with its scalar tail would make it.  The words,
 * and so the unit draws, are philox.h's for its counter, as on every
 * device; the last bit or two of a normal may differ from the emulated
 * devices' and a GPU's (CUDA's own log and cos already made them differ:
 * Note [Same numbers everywhere] in philox.h), and between CPUs with and
 * without AVX-512. */
#define BOX_MULLER_LANES 8
#define TWO_PI 6.283185307179586

static void box_muller_scalar(int64_t n, const double *u1, const double *u2, double mean, double std, double *out)
{
    for (int64_t j = 0; j < n; j++)
        out[j] = mean + std * (sqrt(-2.0 * log(u1[j])) * cos(TWO_PI * u2[j]));
}

#if defined(DT_HAVE_LIBMVEC) && defined(HAVE_AVX2_WORDS) && defined(__GLIBC__)
#define HAVE_VECTOR_BOX_MULLER 1
/* libmvec's own entry points (the x86-64 vector function ABI) */
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_log(__m512d);
__attribute__((target("avx512f"))) __m512d _ZGVeN8v_cos(__m512d);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_log(__m256d);
__attribute__((target("avx2"))) __m256d _ZGVdN4v_cos(__m256d);

/* the scalar loop's operations in its order, 8 lanes at a time (n a multiple of 8) */
__attribute__((target("avx512f"))) static void box_muller_avx512(int64_t n, const double *u1, const double *u2,
                                                                  double mean, double std, double *out)
{
    const __m512d minus2 = _mm512_set1_pd(-2.0), two_pi = _mm512_set1_pd(TWO_PI);
    const __m512d vmean = _mm512_set1_pd(mean), vstd = _mm512_set1_pd(std);
    for (int64_t j = 0; j < n; j += 8) {
        __m512d r = _mm512_sqrt_pd(_mm512_mul_pd(minus2, _ZGVeN8v_log(_mm512_loadu_pd(u1 + j))));
        __m512d z = _mm512_mul_pd(r, _ZGVeN8v_cos(_mm512_mul_pd(two_pi, _mm512_loadu_pd(u2 + j))));
        _mm512_storeu_pd(out + j, _mm512_add_pd(vmean, _mm512_mul_pd(vstd, z)));
    }
}

__attribute__((target("avx2"))) static void box_muller_avx2(int64_t n, const double *u1, const double *u2,
                                                            double mean, double std, double *out)
{
    const __m256d minus2 = _mm256_set1_pd(-2.0), two_pi = _mm256_set1_pd(TWO_PI);
    const __m256d vmean = _mm256_set1_pd(mean), vstd = _mm256_set1_pd(std);
    for (int64_t j = 0; j < n; j += 4) {
        __m256d r = _mm256_sqrt_pd(_mm256_mul_pd(minus2, _ZGVdN4v_log(_mm256_loadu_pd(u1 + j))));
        __m256d z = _mm256_mul_pd(r, _ZGVdN4v_cos(_mm256_mul_pd(two_pi, _mm256_loadu_pd(u2 + j))));
        _mm256_storeu_pd(out + j, _mm256_add_pd(vmean, _mm256_mul_pd(vstd, z)));
    }
}
#endif

/* out[j] = mean + std * z(u1[j], u2[j]) for j < n, n a multiple of BOX_MULLER_LANES */
static void box_muller(int64_t n, const double *u1, const double *u2, double mean, double std, double *out)
{
#ifdef HAVE_VECTOR_BOX_MULLER
    if (__builtin_cpu_supports("avx512f")) {
        box_muller_avx512(n, u1, u2, mean, std, out);
        return;
    }
    if (__builtin_cpu_supports("avx2")) {
        box_muller_avx2(n, u1, u2, mean, std, out);
        return;
    }
#endif
    box_muller_scalar(n, u1, u2, mean, std, out);
}

void dt_cpu_philox_normal(uint64_t seed, uint64_t counter, int64_t n, double mean, double std, double *out,
                          uint64_t *words, uint64_t *words2)
{
    draw_words(seed, counter, n, words, words2);
    const double unit = ldexp(1.0, -53);
    double u1[256], u2[256], z[256]; /* 256: a multiple of BOX_MULLER_LANES */
    for (int64_t start = 0; start < n; start += 256) { /* Note [Normals through vector math] */
        int64_t m = n - start < 256 ? n - start : 256;
        int64_t padded = (m + BOX_MULLER_LANES - 1) / BOX_MULLER_LANES * BOX_MULLER_LANES;
        for (int64_t j = 0; j < m; j++) { /* dt_philox_normal's unit draws; u1 in (0, 1] */
            u1[j] = (double)((words[start + j] >> 11) + 1) * unit;
            u2[j] = (double)(words2[start + j] >> 11) * unit;
        }
        for (int64_t j = m; j < padded; j++) { /* the tail's lanes: finite, unused */
            u1[j] = 1.0;
            u2[j] = 0.0;
        }
        box_muller(padded, u1, u2, mean, std, z);
        memcpy(out + start, z, (size_t)m * sizeof *z);
    }
}

void dt_cpu_philox_randint(uint64_t seed, uint64_t counter, int64_t n, int64_t low, int64_t high, int64_t *out,
                           uint64_t *words)
{
    draw_words(seed, counter, n, words, NULL);
    const uint64_t range = (uint64_t)high - (uint64_t)low;
    for (int64_t j = 0; j < n; j++) /* dt_philox_randint */
        out[j] = (int64_t)((uint64_t)low + (uint64_t)(((unsigned __int128)words[j] * range) >> 64));
}
