/* cuda_loops_complex.cu - elementwise kernels of the elementary functions
 * of complex64 and complex128 (complex_math.h through ops_math.h): power,
 * sign, sqrt, exp, expm1, log, log1p, log2, log10, the trigonometric and
 * hyperbolic functions and their inverses, angle.
 *
 * Note [Device libm]
 * The kernels run the same formulas as the CPU loops (ops_math.h,
 * complex_math.h, compiled with --fmad=false so that no a*b+c is fused),
 * but the real functions underneath (exp, sin, log, pow, ...) are CUDA's
 * libm on the GPU and the C library's on the CPU.  Both are faithful to a
 * few ulps (CUDA documents its bounds: e.g. 1 ulp for exp, 2 for sin in
 * double precision; 2 ulps for sinf), not bit-identical: arithmetic,
 * comparisons, casts, rounding, integer ops and where give the same bits
 * on both backends; the transcendental functions agree to a few ulps, and
 * the GPU tests compare them with NumPy under a matching tolerance.
 */
#include "cuda_loops.cuh"

#define DT_CU_LIST(M)                                                                       \
    M(POW, pow, COMPLEX, BIN_SAME) M(SIGN, sign, COMPLEX, UN_SAME)                          \
    M(SQRT, sqrt, COMPLEX, UN_SAME) M(EXP, exp, COMPLEX, UN_SAME)                           \
    M(EXPM1, expm1, COMPLEX, UN_SAME) M(LOG, log, COMPLEX, UN_SAME)                         \
    M(LOG1P, log1p, COMPLEX, UN_SAME) M(LOG2, log2, COMPLEX, UN_SAME)                       \
    M(LOG10, log10, COMPLEX, UN_SAME) M(SIN, sin, COMPLEX, UN_SAME)                         \
    M(COS, cos, COMPLEX, UN_SAME) M(TAN, tan, COMPLEX, UN_SAME)                             \
    M(ASIN, asin, COMPLEX, UN_SAME) M(ACOS, acos, COMPLEX, UN_SAME)                         \
    M(ATAN, atan, COMPLEX, UN_SAME) M(SINH, sinh, COMPLEX, UN_SAME)                         \
    M(COSH, cosh, COMPLEX, UN_SAME) M(TANH, tanh, COMPLEX, UN_SAME)                         \
    M(ASINH, asinh, COMPLEX, UN_SAME) M(ACOSH, acosh, COMPLEX, UN_SAME)                     \
    M(ATANH, atanh, COMPLEX, UN_SAME) M(ANGLE, angle, COMPLEX, UN_REAL)                     \
    M(EXP2, exp2, COMPLEX, UN_SAME) M(FMAX, fmax, COMPLEX, BIN_SAME) M(FMIN, fmin, COMPLEX, BIN_SAME)

DT_CU_LIST(DT_CU_DEFINE)

void dt_cuda_kernels::register_complex(Registry &r)
{
    DT_CU_LIST(DT_CU_REGISTER)
}
