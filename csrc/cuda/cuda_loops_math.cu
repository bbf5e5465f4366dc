/* cuda_loops_math.cu - elementwise kernels of the elementary functions of
 * float16, bfloat16, float32 and float64: sqrt, exp, expm1, log, log1p,
 * log2, log10, the trigonometric and hyperbolic functions and their
 * inverses, power, arctan2, hypot, copysign, nextafter, logaddexp, angle,
 * and NumPy's further ufuncs fmod, fmax, fmin, gcd, lcm, heaviside,
 * logaddexp2, exp2, cbrt, fabs, deg2rad, rad2deg, ldexp, erf, erfc, lgamma (fmax and fmin of complex
 * and exp2 of complex in cuda_loops_complex.cu).
 * The complex ones are in cuda_loops_complex.cu (they are the slowest to
 * compile: Note [Kernel files] in cuda_loops.cuh).
 *
 * The kernels call ops_math.h's functions, which call CUDA's libm under
 * nvcc and the C library's on the CPU: Note [Device libm] in
 * cuda_loops_complex.cu says how close the values are.
 */
#include "cuda_loops.cuh"

#define DT_CU_LIST(M)                                                                       \
    M(POW, pow, FLOAT, BIN_SAME) M(ATAN2, atan2, FLOAT, BIN_SAME)                           \
    M(HYPOT, hypot, FLOAT, BIN_SAME) M(COPYSIGN, copysign, FLOAT, BIN_SAME)                 \
    M(NEXTAFTER, nextafter, FLOAT, BIN_SAME) M(LOGADDEXP, logaddexp, FLOAT, BIN_SAME)       \
    M(SQRT, sqrt, FLOAT, UN_SAME) M(EXP, exp, FLOAT, UN_SAME)                               \
    M(EXPM1, expm1, FLOAT, UN_SAME) M(LOG, log, FLOAT, UN_SAME)                             \
    M(LOG1P, log1p, FLOAT, UN_SAME) M(LOG2, log2, FLOAT, UN_SAME)                           \
    M(LOG10, log10, FLOAT, UN_SAME) M(SIN, sin, FLOAT, UN_SAME)                             \
    M(COS, cos, FLOAT, UN_SAME) M(TAN, tan, FLOAT, UN_SAME)                                 \
    M(ASIN, asin, FLOAT, UN_SAME) M(ACOS, acos, FLOAT, UN_SAME)                             \
    M(ATAN, atan, FLOAT, UN_SAME) M(SINH, sinh, FLOAT, UN_SAME)                             \
    M(COSH, cosh, FLOAT, UN_SAME) M(TANH, tanh, FLOAT, UN_SAME)                             \
    M(ASINH, asinh, FLOAT, UN_SAME) M(ACOSH, acosh, FLOAT, UN_SAME)                         \
    M(ATANH, atanh, FLOAT, UN_SAME) M(ANGLE, angle, FLOAT, UN_SAME)                         \
    M(FMOD, fmod, INT_FLOAT, BIN_SAME) M(FMAX, fmax, REAL, BIN_SAME)                        \
    M(FMIN, fmin, REAL, BIN_SAME) M(GCD, gcd, INT, BIN_SAME) M(LCM, lcm, INT, BIN_SAME)      \
    M(HEAVISIDE, heaviside, FLOAT, BIN_SAME) M(LOGADDEXP2, logaddexp2, FLOAT, BIN_SAME)     \
    M(EXP2, exp2, FLOAT, UN_SAME) M(CBRT, cbrt, FLOAT, UN_SAME) M(FABS, fabs, FLOAT, UN_SAME) \
    M(DEG2RAD, deg2rad, FLOAT, UN_SAME) M(RAD2DEG, rad2deg, FLOAT, UN_SAME)                 \
    M(LDEXP, ldexp, FLOAT, BIN_SAME)                                                        \
    M(ERF, erf, FLOAT, UN_SAME) M(ERFC, erfc, FLOAT, UN_SAME) M(LGAMMA, lgamma, FLOAT, UN_SAME)

DT_CU_LIST(DT_CU_DEFINE)

void dt_cuda_kernels::register_math(Registry &r)
{
    DT_CU_LIST(DT_CU_REGISTER)
}
