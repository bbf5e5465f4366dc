/* philox.h - the counter-based random generator shared by every backend.
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
 * 1, 2, 3", SC'11).  Element i of a random tensor is a pure function of
 * (seed, offset + i), so one seed gives the same numbers on the CPU, on
 * emulated devices and on a GPU, however the work is split.
 *
 * Note [Same numbers everywhere]
 * Uniform and integer draws are exact integer arithmetic, identical on
 * every device.  The affine step (low + (high - low) * u) uses explicitly
 * rounded operations so that nvcc cannot fuse it into an FMA.  Normal draws
 * call log/sqrt/cos, whose last bit may differ between libm, libmvec (the
 * CPU's, Note [Normals through vector math] in cpu_random.c) and CUDA's.
 */
#ifndef DT_PHILOX_H
#define DT_PHILOX_H

#include <math.h>
#include <stdint.h>
#include "compat.h"

#define DT_PHILOX_M0 0xD2511F53u
#define DT_PHILOX_M1 0xCD9E8D57u
#define DT_PHILOX_W0 0x9E3779B9u
#define DT_PHILOX_W1 0xBB67AE85u

/* out = philox4x32_10(counter = {lo, hi, 0, 0} of `counter`, key = seed) */
DT_FN void dt_philox4x32_10(uint64_t seed, uint64_t counter, uint32_t out[4])
{
    uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)DT_PHILOX_M0 * c0, p1 = (uint64_t)DT_PHILOX_M1 * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1, n3 = (uint32_t)p0;
        c0 = n0; c1 = n1; c2 = n2; c3 = n3;
        k0 += DT_PHILOX_W0;
        k1 += DT_PHILOX_W1;
    }
    out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

#if defined(__CUDA_ARCH__)
#define DT_DMUL_RN(a, b) __dmul_rn((a), (b))
#define DT_DADD_RN(a, b) __dadd_rn((a), (b))
#else
#define DT_DMUL_RN(a, b) ((a) * (b))
#define DT_DADD_RN(a, b) ((a) + (b))
#endif

/* Uniform in [0, 1) with `bits` random significand bits (1..53): pick the
 * target dtype's precision so that the result is exact in it, hence < 1. */
DT_FN double dt_philox_unit(uint64_t seed, uint64_t counter, int bits)
{
    uint32_t r[4];
    dt_philox4x32_10(seed, counter, r);
    uint64_t x = ((uint64_t)r[0] << 32 | r[1]) >> (64 - bits);
    return (double)x * ldexp(1.0, -bits);
}

DT_FN double dt_philox_uniform(uint64_t seed, uint64_t counter, int bits, double low, double high)
{
    double u = dt_philox_unit(seed, counter, bits);
    return DT_DADD_RN(low, DT_DMUL_RN(high - low, u));
}

/* Box-Muller, cosine branch; u1 in (0, 1] so the log is finite. */
DT_FN double dt_philox_normal(uint64_t seed, uint64_t counter, double mean, double std)
{
    uint32_t r[4];
    dt_philox4x32_10(seed, counter, r);
    double u1 = (double)((((uint64_t)r[0] << 32 | r[1]) >> 11) + 1) * ldexp(1.0, -53);
    double u2 = (double)(((uint64_t)r[2] << 32 | r[3]) >> 11) * ldexp(1.0, -53);
    double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
    return DT_DADD_RN(mean, DT_DMUL_RN(std, z));
}

DT_FN uint64_t dt_mulhi64(uint64_t a, uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* Integer in [low, high), high > low: Lemire's multiply-shift without
 * rejection (bias below range / 2^64). */
DT_FN int64_t dt_philox_randint(uint64_t seed, uint64_t counter, int64_t low, int64_t high)
{
    uint32_t r[4];
    dt_philox4x32_10(seed, counter, r);
    uint64_t range = (uint64_t)high - (uint64_t)low;
    uint64_t x = (uint64_t)r[0] << 32 | r[1];
    return (int64_t)((uint64_t)low + dt_mulhi64(x, range));
}

/* Random significand bits for a floating dtype's uniform draws. */
#define DT_PHILOX_BITS_FLOAT16 11
#define DT_PHILOX_BITS_BFLOAT16 8
#define DT_PHILOX_BITS_FLOAT32 24
#define DT_PHILOX_BITS_FLOAT64 53

#endif /* DT_PHILOX_H */
