/* cuda_loops_arith.cu - elementwise kernels of the arithmetic family:
 * + - * /, floor_divide, remainder, integer power, maximum, minimum,
 * bitwise ops and shifts, negative, positive, absolute, square,
 * reciprocal, sign (real), floor, ceil, trunc, rint, invert, bitwise_count,
 * conjugate, real, imag.
 *
 * Only the op list lives here: the kernels are cuda_loops.cuh's templates
 * over the scalar functions of ops.h / ops_math.h (the ones the CPU loops
 * call), and cuda_loops.cu launches them (Note [One launcher]).
 *
 * Note [Identity ops]
 * positive, conjugate and real of a real dtype, floor/ceil/trunc of bool
 * and integers, and absolute of bool and unsigned integers return their
 * input unchanged (ops_math.h): for the dtypes whose stored value passes
 * through the function bit for bit (not float16/bfloat16, whose compute
 * round trip quiets a signalling NaN as the CPU loop does) they run as
 * raw copies (cudaMemcpyAsync when contiguous), which saves some 150
 * kernels of compile time and gives the same bits.
 */
#include "cuda_loops.cuh"

#define DT_CU_LIST(M)                                                                       \
    M(ADD, add, ALL, BIN_SAME) M(SUB, sub, NUMBER, BIN_SAME) M(MUL, mul, ALL, BIN_SAME)        \
    M(DIV, div, INEXACT, BIN_SAME)                                                          \
    M(FLOOR_DIVIDE, fdiv, INT_FLOAT, BIN_SAME) M(REMAINDER, rem, INT_FLOAT, BIN_SAME)       \
    M(POW, pow, INT, BIN_SAME)                                                              \
    M(MAXIMUM, max, ALL, BIN_SAME) M(MINIMUM, min, ALL, BIN_SAME)                           \
    M(BITWISE_AND, and, BOOL_INT, BIN_SAME) M(BITWISE_OR, or, BOOL_INT, BIN_SAME)           \
    M(BITWISE_XOR, xor, BOOL_INT, BIN_SAME)                                                 \
    M(LEFT_SHIFT, lsh, INT, BIN_SAME) M(RIGHT_SHIFT, rsh, INT, BIN_SAME)                    \
    M(NEGATIVE, neg, NUMBER, UN_SAME)                                                       \
    M(POSITIVE, pos, INT, RAW) M(POSITIVE, pos, FLOAT3264, RAW)                             \
    M(POSITIVE, pos, FLOAT16, UN_SAME) M(POSITIVE, pos, COMPLEX, RAW)                       \
    M(ABS, abs, BOOL, RAW) M(ABS, abs, SIGNED, UN_SAME) M(ABS, abs, UNSIGNED, RAW)          \
    M(ABS, abs, FLOAT, UN_SAME) M(ABS, abs, COMPLEX, UN_REAL)                               \
    M(SQUARE, square, NUMBER, UN_SAME) M(RECIPROCAL, recip, NUMBER, UN_SAME)                \
    M(SIGN, sign, INT_FLOAT, UN_SAME)                                                       \
    M(FLOOR, floor, BOOL_INT, RAW) M(FLOOR, floor, FLOAT, UN_SAME)                          \
    M(CEIL, ceil, BOOL_INT, RAW) M(CEIL, ceil, FLOAT, UN_SAME)                              \
    M(TRUNC, trunc, BOOL_INT, RAW) M(TRUNC, trunc, FLOAT, UN_SAME)                          \
    M(RINT, rint, INEXACT, UN_SAME)                                                         \
    M(INVERT, invert, BOOL_INT, UN_SAME) M(BITWISE_COUNT, bcount, INT, UN_U8)                \
    M(CONJ, conj, INT, RAW) M(CONJ, conj, FLOAT3264, RAW) M(CONJ, conj, FLOAT16, UN_SAME)   \
    M(CONJ, conj, COMPLEX, UN_SAME)                                                         \
    M(REAL, real, EXACT, RAW) M(REAL, real, FLOAT16, UN_SAME) M(REAL, real, COMPLEX, UN_REAL) \
    M(IMAG, imag, REAL, UN_SAME) M(IMAG, imag, COMPLEX, UN_REAL)

DT_CU_LIST(DT_CU_DEFINE)

void dt_cuda_kernels::register_arith(Registry &r)
{
    DT_CU_LIST(DT_CU_REGISTER)
}
