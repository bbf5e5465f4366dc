/* cpu_loops.c - inner loops for every op and dtype, expanded from ops.h,
 * and the outer iteration that drives them over a dt_loop.
 *
 * Note [Contiguous fast paths]
 * Each loop has a path for aligned contiguous operands (and for a
 * broadcast scalar second operand) written as plain indexed loops that the
 * compiler vectorizes, and a general strided path that loads and stores
 * through memcpy, so unaligned NumPy buffers are safe.
 * The driver that runs these loops over a dt_loop is cpu_run.c.
 */
/* Note [Vectorization]
 * GCC's -O2 vectorizes only loops whose trip count it knows; these loops
 * take n at run time, so this file is built at -O3, whose cost model lets
 * the contiguous paths use SIMD (with a run-time alias check). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include "cpu_loops.h"
#include "cpu_vecmath.h"

#include <stdint.h>
#include <string.h>
#include "ops_math.h"

#define ALIGNED(p, T) (((uintptr_t)(p) % _Alignof(T)) == 0)

/* float32 and float64 loops get SIMD clones (Note [Vector math]) */
#define DT_CLONES_f32 DT_VECTOR_CLONES
#define DT_CLONES_f64 DT_VECTOR_CLONES
#define DT_CLONES_b
#define DT_CLONES_i8
#define DT_CLONES_i16
#define DT_CLONES_i32
#define DT_CLONES_i64
#define DT_CLONES_u8
#define DT_CLONES_u16
#define DT_CLONES_u32
#define DT_CLONES_u64
#define DT_CLONES_f16
#define DT_CLONES_bf16
/* complex loops call the scalar libm, never libmvec: NumPy's complex functions
 * are glibc's scalar ones, and a 4-ulp log or hypot inside log1p or expm1
 * grows to many ulps of the complex result (complex_math.h).  A function
 * with its own optimize attribute gets nothing inlined from the others
 * (GCC: "optimization level attribute mismatch"), so each element's load,
 * add and store was a call through the stack, 5 to 40 times NumPy's time:
 * flatten inlines them (and O3 repeats the file's level). */
#if defined(__GNUC__) && !defined(__clang__)
#define DT_CLONES_c64 __attribute__((optimize("O3", "no-tree-vectorize"), flatten))
#else
#define DT_CLONES_c64
#endif
#define DT_CLONES_c128 DT_CLONES_c64

/* Note [Every element through one loop]
 * The float32 and float64 loops call libmvec's vector functions where GCC
 * vectorizes them (Note [Vector math]), and they differ from the scalar
 * libm by an ulp or two.  A vectorized loop ends in a scalar epilogue, and
 * a strided loop is scalar, so exp(x)[4] differed from exp(x[4:5]) and
 * exp(x[::2]) from exp(x)[::2].  So every element of these dtypes goes
 * through one loop, written once per function: a contiguous operand's
 * multiple of DT_LANES elements in place, and the rest (the tail, or a
 * strided operand in blocks) through DT_LANES-element buffers padded with
 * a copy of their first element.  DT_LANES is a multiple of every vector
 * width, so the loop never reaches its epilogue.  Other dtypes (DT_LANES
 * 1) keep their contiguous and strided loops. */
#define DT_LANES_f32 16
#define DT_LANES_f64 16
#define DT_LANES_b 1
#define DT_LANES_i8 1
#define DT_LANES_i16 1
#define DT_LANES_i32 1
#define DT_LANES_i64 1
#define DT_LANES_u8 1
#define DT_LANES_u16 1
#define DT_LANES_u32 1
#define DT_LANES_u64 1
#define DT_LANES_f16 1
#define DT_LANES_bf16 1
#define DT_LANES_c64 1
#define DT_LANES_c128 1

/* A block of Note [Every element through one loop] through its buffers:
 * GATHER_ copies the R elements of type T from P (byte stride S) starting
 * at element DONE into BUF and pads it to L with BUF[0]; SCATTER_ copies
 * the first R of BUF back out. */
#define DT_GATHER_(T, BUF, P, S, DONE, R, L)                                               \
    do {                                                                                   \
        for (int64_t j_ = 0; j_ < (R); j_++)                                               \
            memcpy(&(BUF)[j_], (P) + ((DONE) + j_) * (S), sizeof(T));                      \
        for (int64_t j_ = (R); j_ < (L); j_++)                                             \
            (BUF)[j_] = (BUF)[0];                                                          \
    } while (0)
#define DT_SCATTER_(BUF, P, S, DONE, R)                                                    \
    for (int64_t j_ = 0; j_ < (R); j_++)                                                   \
        memcpy((P) + ((DONE) + j_) * (S), &(BUF)[j_], sizeof((BUF)[0]))

/* ---- binary ops: out = OP(a, b) ---- */
#define DT_BINARY_LOOP(OPNAME, X, OUT_T, STORE)                                           \
    DT_BINARY_LOOP_CLONES(OPNAME, X, OUT_T, STORE, DT_CLONES_##X)
#define DT_BINARY_LOOP_CLONES(OPNAME, X, OUT_T, STORE, CLONES)                             \
    CLONES static void loop_##OPNAME##_##X(char **data, const int64_t *s, int64_t n)        \
    {                                                                                      \
        enum { L = DT_LANES_##X };                                                         \
        char *o = data[0], *a = data[1], *b = data[2];                                     \
        const int64_t so = (int64_t)sizeof(OUT_T), si = (int64_t)sizeof(dt_T_##X);         \
        const int cont = s[0] == so && s[1] == si && (s[2] == si || s[2] == 0) &&          \
                         ALIGNED(o, OUT_T) && ALIGNED(a, dt_T_##X) && ALIGNED(b, dt_T_##X); \
        if (cont || L > 1) {                                                               \
            dt_T_##X ta[L], tb[L];                                                         \
            OUT_T to[L];                                                                   \
            if (s[2] == 0) {                                                               \
                dt_T_##X braw;                                                             \
                memcpy(&braw, b, sizeof braw);                                             \
                const dt_C_##X bv = dt_load_##X(braw);                                     \
                for (int64_t done = 0; done < n;) {                                        \
                    int64_t m = L, r = n - done < L ? n - done : L;                        \
                    const dt_T_##X *ap = ta;                                               \
                    OUT_T *op = to;                                                        \
                    if (cont && n - done >= L) {                                           \
                        m = r = (n - done) - (n - done) % L;                               \
                        ap = (const dt_T_##X *)a + done, op = (OUT_T *)o + done;           \
                    } else {                                                               \
                        DT_GATHER_(dt_T_##X, ta, a, s[1], done, r, L);                     \
                    }                                                                      \
                    for (int64_t i = 0; i < m; i++)                                        \
                        op[i] = STORE(dt_##OPNAME##_##X(dt_load_##X(ap[i]), bv));          \
                    if (op == to)                                                          \
                        DT_SCATTER_(to, o, s[0], done, r);                                 \
                    done += r;                                                             \
                }                                                                          \
                return;                                                                    \
            }                                                                              \
            for (int64_t done = 0; done < n;) {                                            \
                int64_t m = L, r = n - done < L ? n - done : L;                            \
                const dt_T_##X *ap = ta, *bp = tb;                                         \
                OUT_T *op = to;                                                            \
                if (cont && n - done >= L) {                                               \
                    m = r = (n - done) - (n - done) % L;                                   \
                    ap = (const dt_T_##X *)a + done, bp = (const dt_T_##X *)b + done;      \
                    op = (OUT_T *)o + done;                                                \
                } else {                                                                   \
                    DT_GATHER_(dt_T_##X, ta, a, s[1], done, r, L);                         \
                    DT_GATHER_(dt_T_##X, tb, b, s[2], done, r, L);                         \
                }                                                                          \
                for (int64_t i = 0; i < m; i++)                                            \
                    op[i] = STORE(dt_##OPNAME##_##X(dt_load_##X(ap[i]), dt_load_##X(bp[i]))); \
                if (op == to)                                                              \
                    DT_SCATTER_(to, o, s[0], done, r);                                     \
                done += r;                                                                 \
            }                                                                              \
            return;                                                                        \
        }                                                                                  \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1], b += s[2]) {                 \
            dt_T_##X av, bv;                                                               \
            memcpy(&av, a, sizeof av);                                                     \
            memcpy(&bv, b, sizeof bv);                                                     \
            OUT_T r = STORE(dt_##OPNAME##_##X(dt_load_##X(av), dt_load_##X(bv)));          \
            memcpy(o, &r, sizeof r);                                                       \
        }                                                                                  \
    }

#define DT_STORE_BOOL(v) (v)
#define DT_DIV_LOOPS(X) DT_BINARY_LOOP(div, X, dt_T_##X, dt_store_##X)
#define DT_COMPARE_LOOPS(CODE, X)                                  \
    DT_BINARY_LOOP(eq, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(ne, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(lt, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(le, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(gt, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(ge, X, bool, DT_STORE_BOOL)

DT_FOR_EACH_DTYPE(DT_COMPARE_LOOPS)
DT_DIV_LOOPS(f16) DT_DIV_LOOPS(bf16) DT_DIV_LOOPS(f32) DT_DIV_LOOPS(f64)
DT_DIV_LOOPS(c64) DT_DIV_LOOPS(c128)

/* ---- unary ops: out = FN(a) ---- */
#define DT_UNARY_LOOP(FN, X, OUT_T, STORE) DT_UNARY_LOOP_CLONES(FN, X, OUT_T, STORE, DT_CLONES_##X)
#define DT_UNARY_LOOP_CLONES(FN, X, OUT_T, STORE, CLONES)                                  \
    CLONES static void loop_##FN##_##X(char **data, const int64_t *s, int64_t n)            \
    {                                                                                      \
        enum { L = DT_LANES_##X };                                                         \
        char *o = data[0], *a = data[1];                                                   \
        const int cont = s[0] == (int64_t)sizeof(OUT_T) && s[1] == (int64_t)sizeof(dt_T_##X) && \
                         ALIGNED(o, OUT_T) && ALIGNED(a, dt_T_##X);                        \
        if (cont || L > 1) { /* Note [Every element through one loop] */                   \
            dt_T_##X ta[L];                                                                \
            OUT_T to[L];                                                                   \
            for (int64_t done = 0; done < n;) {                                            \
                int64_t m = L, r = n - done < L ? n - done : L;                            \
                const dt_T_##X *ap = ta;                                                   \
                OUT_T *op = to;                                                            \
                if (cont && n - done >= L) {                                               \
                    m = r = (n - done) - (n - done) % L;                                   \
                    ap = (const dt_T_##X *)a + done, op = (OUT_T *)o + done;               \
                } else {                                                                   \
                    DT_GATHER_(dt_T_##X, ta, a, s[1], done, r, L);                         \
                }                                                                          \
                for (int64_t i = 0; i < m; i++)                                            \
                    op[i] = STORE(dt_##FN##_##X(dt_load_##X(ap[i])));                      \
                if (op == to)                                                              \
                    DT_SCATTER_(to, o, s[0], done, r);                                     \
                done += r;                                                                 \
            }                                                                              \
            return;                                                                        \
        }                                                                                  \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1]) {                            \
            dt_T_##X av;                                                                   \
            memcpy(&av, a, sizeof av);                                                     \
            OUT_T r = STORE(dt_##FN##_##X(dt_load_##X(av)));                               \
            memcpy(o, &r, sizeof r);                                                       \
        }                                                                                  \
    }

/* where: out = cond ? a : b, moving stored values untouched */
#define DT_WHERE_LOOP(CODE, X)                                                             \
    static void loop_where_##X(char **data, const int64_t *s, int64_t n)                   \
    {                                                                                      \
        char *o = data[0], *c = data[1], *a = data[2], *b = data[3];                       \
        for (int64_t i = 0; i < n; i++, o += s[0], c += s[1], a += s[2], b += s[3])        \
            memcpy(o, *(const uint8_t *)c != 0 ? a : b, sizeof(dt_T_##X));                         \
    }
DT_FOR_EACH_DTYPE(DT_WHERE_LOOP)

/* Families of tags, so each op lists the dtypes NumPy has a loop for. */
#define DT_TAGS_INT(M, FN) M(FN, i8) M(FN, i16) M(FN, i32) M(FN, i64) \
    M(FN, u8) M(FN, u16) M(FN, u32) M(FN, u64)
#define DT_TAGS_FLOAT(M, FN) M(FN, f16) M(FN, bf16) M(FN, f32) M(FN, f64)
#define DT_TAGS_COMPLEX(M, FN) M(FN, c64) M(FN, c128)
#define DT_TAGS_BOOL(M, FN) M(FN, b)
#define DT_TAGS_INT_FLOAT(M, FN) DT_TAGS_INT(M, FN) DT_TAGS_FLOAT(M, FN)
#define DT_TAGS_NUMBER(M, FN) DT_TAGS_INT_FLOAT(M, FN) DT_TAGS_COMPLEX(M, FN)
#define DT_TAGS_INEXACT(M, FN) DT_TAGS_FLOAT(M, FN) DT_TAGS_COMPLEX(M, FN)
#define DT_TAGS_BOOL_INT(M, FN) DT_TAGS_BOOL(M, FN) DT_TAGS_INT(M, FN)
#define DT_TAGS_REAL(M, FN) DT_TAGS_BOOL_INT(M, FN) DT_TAGS_FLOAT(M, FN)
#define DT_TAGS_ALL(M, FN) DT_TAGS_REAL(M, FN) DT_TAGS_COMPLEX(M, FN)

#define DT_BIN_SAME(FN, X) DT_BINARY_LOOP(FN, X, dt_T_##X, dt_store_##X)
/* Note [Complex loops that vectorize]
 * Complex add, subtract, multiply, negate, conjugate and square, and |z|,
 * call no libm, so their loops may use SIMD (without fp contraction a
 * vector lane computes the scalar code's bits): complex64 a * a took 0.97
 * ms for 10^6 values, NumPy's SIMD loop 0.67, now 0.33. */
#define DT_BIN_VEC(FN, X) DT_BINARY_LOOP_CLONES(FN, X, dt_T_##X, dt_store_##X, DT_VECTOR_CLONES)
#define DT_UN_VEC(FN, X) DT_UNARY_LOOP_CLONES(FN, X, dt_T_##X, dt_store_##X, DT_VECTOR_CLONES)
#define DT_BIN_BOOL(FN, X) DT_BINARY_LOOP(FN, X, bool, DT_STORE_BOOL)
#define DT_UN_SAME(FN, X) DT_UNARY_LOOP(FN, X, dt_T_##X, dt_store_##X)
#define DT_UN_BOOL(FN, X) DT_UNARY_LOOP(FN, X, bool, DT_STORE_BOOL)
#define DT_UN_REAL(FN, X) DT_UNARY_LOOP(FN, X, dt_real_T_##X, DT_STORE_BOOL)
/* bitwise_count: a clone with the popcnt instruction (10^5 int64: 3.4 ns an
 * element by the count in halves and nibbles, NumPy's 1.2) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define DT_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define DT_POPCNT_CLONES
#endif
#define DT_UN_U8(FN, X) DT_UNARY_LOOP_CLONES(FN, X, uint8_t, DT_STORE_BOOL, DT_POPCNT_CLONES)
typedef float dt_real_T_c64;
typedef double dt_real_T_c128;

/* the loops: (family, generator) per function */
DT_TAGS_INT_FLOAT(DT_BIN_SAME, fdiv) DT_TAGS_INT_FLOAT(DT_BIN_SAME, rem)
DT_TAGS_REAL(DT_BIN_SAME, add) DT_TAGS_COMPLEX(DT_BIN_VEC, add)
DT_TAGS_REAL(DT_BIN_SAME, mul) DT_TAGS_COMPLEX(DT_BIN_VEC, mul)
DT_TAGS_INT_FLOAT(DT_BIN_SAME, sub) DT_TAGS_COMPLEX(DT_BIN_VEC, sub)
DT_TAGS_NUMBER(DT_BIN_SAME, pow)
DT_TAGS_ALL(DT_BIN_SAME, max) DT_TAGS_ALL(DT_BIN_SAME, min)
DT_TAGS_FLOAT(DT_BIN_SAME, atan2) DT_TAGS_FLOAT(DT_BIN_SAME, hypot)
DT_TAGS_FLOAT(DT_BIN_SAME, copysign) DT_TAGS_FLOAT(DT_BIN_SAME, nextafter)
DT_TAGS_FLOAT(DT_BIN_SAME, logaddexp)
DT_TAGS_INT_FLOAT(DT_BIN_SAME, fmod) DT_TAGS_ALL(DT_BIN_SAME, fmax) DT_TAGS_ALL(DT_BIN_SAME, fmin)
DT_TAGS_INT(DT_BIN_SAME, gcd) DT_TAGS_INT(DT_BIN_SAME, lcm)
DT_TAGS_FLOAT(DT_BIN_SAME, heaviside) DT_TAGS_FLOAT(DT_BIN_SAME, logaddexp2)
DT_TAGS_INEXACT(DT_UN_SAME, exp2) DT_TAGS_FLOAT(DT_UN_SAME, cbrt) DT_TAGS_FLOAT(DT_UN_SAME, fabs)
DT_TAGS_FLOAT(DT_UN_SAME, erf) DT_TAGS_FLOAT(DT_UN_SAME, erfc) DT_TAGS_FLOAT(DT_UN_SAME, lgamma)
DT_TAGS_FLOAT(DT_UN_SAME, deg2rad) DT_TAGS_FLOAT(DT_UN_SAME, rad2deg)
DT_TAGS_FLOAT(DT_BIN_SAME, ldexp)
DT_TAGS_BOOL_INT(DT_BIN_SAME, and) DT_TAGS_BOOL_INT(DT_BIN_SAME, or)
DT_TAGS_BOOL_INT(DT_BIN_SAME, xor)
DT_TAGS_INT(DT_BIN_SAME, lsh) DT_TAGS_INT(DT_BIN_SAME, rsh)
DT_TAGS_ALL(DT_BIN_BOOL, land) DT_TAGS_ALL(DT_BIN_BOOL, lor) DT_TAGS_ALL(DT_BIN_BOOL, lxor)
DT_TAGS_INT_FLOAT(DT_UN_SAME, neg) DT_TAGS_COMPLEX(DT_UN_VEC, neg)
DT_TAGS_INT_FLOAT(DT_UN_SAME, pos) DT_TAGS_COMPLEX(DT_UN_VEC, pos)
/* |z| (Note [abs of complex128]) computes every value and then selects, but
 * GCC keeps a select's unused arm behind a branch, which blocks the vector
 * loop, unless it may assume that no operation traps (devtensor reads no
 * floating-point flags); the optimize attribute needs flatten (above). */
#if defined(__GNUC__) && !defined(__clang__)
#define DT_NO_TRAP_CLONES __attribute__((optimize("O3", "no-trapping-math"), flatten)) DT_VECTOR_CLONES
#else
#define DT_NO_TRAP_CLONES DT_VECTOR_CLONES
#endif
DT_TAGS_REAL(DT_UN_SAME, abs)
DT_UNARY_LOOP_CLONES(abs, c64, float, DT_STORE_BOOL, DT_NO_TRAP_CLONES)
DT_UNARY_LOOP_CLONES(abs, c128, double, DT_STORE_BOOL, DT_NO_TRAP_CLONES)
DT_TAGS_INT_FLOAT(DT_UN_SAME, square) DT_TAGS_COMPLEX(DT_UN_VEC, square)
DT_TAGS_NUMBER(DT_UN_SAME, recip)
DT_TAGS_NUMBER(DT_UN_SAME, sign)
DT_TAGS_INEXACT(DT_UN_SAME, sqrt) DT_TAGS_INEXACT(DT_UN_SAME, exp)
DT_TAGS_INEXACT(DT_UN_SAME, expm1) DT_TAGS_INEXACT(DT_UN_SAME, log)
DT_TAGS_INEXACT(DT_UN_SAME, log1p) DT_TAGS_INEXACT(DT_UN_SAME, log2)
DT_TAGS_INEXACT(DT_UN_SAME, log10) DT_TAGS_INEXACT(DT_UN_SAME, sin)
DT_TAGS_INEXACT(DT_UN_SAME, cos) DT_TAGS_INEXACT(DT_UN_SAME, tan)
DT_TAGS_INEXACT(DT_UN_SAME, asin) DT_TAGS_INEXACT(DT_UN_SAME, acos)
DT_TAGS_INEXACT(DT_UN_SAME, atan) DT_TAGS_INEXACT(DT_UN_SAME, sinh)
DT_TAGS_INEXACT(DT_UN_SAME, cosh) DT_TAGS_INEXACT(DT_UN_SAME, tanh)
DT_TAGS_INEXACT(DT_UN_SAME, asinh) DT_TAGS_INEXACT(DT_UN_SAME, acosh)
DT_TAGS_INEXACT(DT_UN_SAME, atanh)
DT_TAGS_REAL(DT_UN_SAME, floor) DT_TAGS_REAL(DT_UN_SAME, ceil) DT_TAGS_REAL(DT_UN_SAME, trunc)
DT_TAGS_INEXACT(DT_UN_SAME, rint)
DT_TAGS_BOOL_INT(DT_UN_SAME, invert) DT_TAGS_INT(DT_UN_U8, bcount)
DT_TAGS_ALL(DT_UN_BOOL, lnot) DT_TAGS_ALL(DT_UN_BOOL, isnan) DT_TAGS_ALL(DT_UN_BOOL, isinf)
DT_TAGS_ALL(DT_UN_BOOL, isfinite) DT_TAGS_REAL(DT_UN_BOOL, signbit)
DT_TAGS_INT_FLOAT(DT_UN_SAME, conj) DT_TAGS_COMPLEX(DT_UN_VEC, conj)
DT_TAGS_REAL(DT_UN_SAME, real) DT_TAGS_COMPLEX(DT_UN_REAL, real)
DT_TAGS_REAL(DT_UN_SAME, imag) DT_TAGS_COMPLEX(DT_UN_REAL, imag)
DT_TAGS_FLOAT(DT_UN_SAME, angle) DT_TAGS_COMPLEX(DT_UN_REAL, angle)

/* comparisons of int64 with uint64 (either order), exact */
#define DT_MIXED_LOOP(NAME, EXPR_IU, EXPR_UI)                                              \
    static void loop_mixed_##NAME##_iu(char **data, const int64_t *s, int64_t n)            \
    {                                                                                      \
        char *o = data[0], *a = data[1], *b = data[2];                                     \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1], b += s[2]) {                 \
            int64_t x;                                                                     \
            uint64_t y;                                                                    \
            memcpy(&x, a, 8);                                                              \
            memcpy(&y, b, 8);                                                              \
            *(bool *)o = (EXPR_IU);                                                        \
        }                                                                                  \
    }                                                                                      \
    static void loop_mixed_##NAME##_ui(char **data, const int64_t *s, int64_t n)            \
    {                                                                                      \
        char *o = data[0], *a = data[1], *b = data[2];                                     \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1], b += s[2]) {                 \
            uint64_t y;                                                                    \
            int64_t x;                                                                     \
            memcpy(&y, a, 8);                                                              \
            memcpy(&x, b, 8);                                                              \
            *(bool *)o = (EXPR_UI);                                                        \
        }                                                                                  \
    }
/* x is the int64 operand, y the uint64 one; _iu has x first, _ui has y first */
DT_MIXED_LOOP(eq, dt_mixed_eq(x, y), dt_mixed_eq(x, y))
DT_MIXED_LOOP(ne, !dt_mixed_eq(x, y), !dt_mixed_eq(x, y))
DT_MIXED_LOOP(lt, dt_mixed_lt(x, y), dt_mixed_gt(x, y))
DT_MIXED_LOOP(le, !dt_mixed_gt(x, y), !dt_mixed_lt(x, y))
DT_MIXED_LOOP(gt, dt_mixed_gt(x, y), dt_mixed_lt(x, y))
DT_MIXED_LOOP(ge, !dt_mixed_lt(x, y), !dt_mixed_gt(x, y))

/* mixed_loops[op - DT_OP_EQ][0: int64 first, 1: uint64 first] */
static const dt_cpu_inner_loop mixed_loops[6][2] = {
    {loop_mixed_eq_iu, loop_mixed_eq_ui}, {loop_mixed_ne_iu, loop_mixed_ne_ui},
    {loop_mixed_lt_iu, loop_mixed_lt_ui}, {loop_mixed_le_iu, loop_mixed_le_ui},
    {loop_mixed_gt_iu, loop_mixed_gt_ui}, {loop_mixed_ge_iu, loop_mixed_ge_ui},
};

/* table rows: [dtype code] = loop */
#define DT_ENTRY(FN, X) [DT_CODE_##X] = loop_##FN##_##X,
#define DT_ROW(FAMILY, FN) {FAMILY(DT_ENTRY, FN)}
#define DT_ROW2(F1, F2, FN) {F1(DT_ENTRY, FN) F2(DT_ENTRY, FN)}
#define DT_WHERE_ENTRY(CODE, X) [CODE] = loop_where_##X,

/* loops[op][loop dtype]; NULL where NumPy has no loop */
static const dt_cpu_inner_loop op_loops[DT_NUM_OPS][DT_NUM_DTYPES] = {
    [DT_OP_ADD] = DT_ROW(DT_TAGS_ALL, add),
    [DT_OP_SUB] = DT_ROW(DT_TAGS_NUMBER, sub), /* NumPy refuses bool - bool */
    [DT_OP_MUL] = DT_ROW(DT_TAGS_ALL, mul),
    [DT_OP_DIV] = DT_ROW(DT_TAGS_INEXACT, div),
    [DT_OP_EQ] = DT_ROW(DT_TAGS_ALL, eq),
    [DT_OP_NE] = DT_ROW(DT_TAGS_ALL, ne),
    [DT_OP_LT] = DT_ROW(DT_TAGS_ALL, lt),
    [DT_OP_LE] = DT_ROW(DT_TAGS_ALL, le),
    [DT_OP_GT] = DT_ROW(DT_TAGS_ALL, gt),
    [DT_OP_GE] = DT_ROW(DT_TAGS_ALL, ge),
    [DT_OP_FLOOR_DIVIDE] = DT_ROW(DT_TAGS_INT_FLOAT, fdiv),
    [DT_OP_REMAINDER] = DT_ROW(DT_TAGS_INT_FLOAT, rem),
    [DT_OP_POW] = DT_ROW(DT_TAGS_NUMBER, pow),
    [DT_OP_MAXIMUM] = DT_ROW(DT_TAGS_ALL, max),
    [DT_OP_MINIMUM] = DT_ROW(DT_TAGS_ALL, min),
    [DT_OP_ATAN2] = DT_ROW(DT_TAGS_FLOAT, atan2),
    [DT_OP_HYPOT] = DT_ROW(DT_TAGS_FLOAT, hypot),
    [DT_OP_COPYSIGN] = DT_ROW(DT_TAGS_FLOAT, copysign),
    [DT_OP_NEXTAFTER] = DT_ROW(DT_TAGS_FLOAT, nextafter),
    [DT_OP_LOGADDEXP] = DT_ROW(DT_TAGS_FLOAT, logaddexp),
    [DT_OP_FMOD] = DT_ROW(DT_TAGS_INT_FLOAT, fmod),
    [DT_OP_FMAX] = DT_ROW(DT_TAGS_ALL, fmax),
    [DT_OP_FMIN] = DT_ROW(DT_TAGS_ALL, fmin),
    [DT_OP_GCD] = DT_ROW(DT_TAGS_INT, gcd),
    [DT_OP_LCM] = DT_ROW(DT_TAGS_INT, lcm),
    [DT_OP_HEAVISIDE] = DT_ROW(DT_TAGS_FLOAT, heaviside),
    [DT_OP_LOGADDEXP2] = DT_ROW(DT_TAGS_FLOAT, logaddexp2),
    [DT_OP_EXP2] = DT_ROW(DT_TAGS_INEXACT, exp2),
    [DT_OP_CBRT] = DT_ROW(DT_TAGS_FLOAT, cbrt),
    [DT_OP_ERF] = DT_ROW(DT_TAGS_FLOAT, erf),
    [DT_OP_ERFC] = DT_ROW(DT_TAGS_FLOAT, erfc),
    [DT_OP_LGAMMA] = DT_ROW(DT_TAGS_FLOAT, lgamma),
    [DT_OP_DEG2RAD] = DT_ROW(DT_TAGS_FLOAT, deg2rad),
    [DT_OP_RAD2DEG] = DT_ROW(DT_TAGS_FLOAT, rad2deg),
    [DT_OP_FABS] = DT_ROW(DT_TAGS_FLOAT, fabs),
    [DT_OP_LDEXP] = DT_ROW(DT_TAGS_FLOAT, ldexp),
    [DT_OP_BITWISE_AND] = DT_ROW(DT_TAGS_BOOL_INT, and),
    [DT_OP_BITWISE_OR] = DT_ROW(DT_TAGS_BOOL_INT, or),
    [DT_OP_BITWISE_XOR] = DT_ROW(DT_TAGS_BOOL_INT, xor),
    [DT_OP_LEFT_SHIFT] = DT_ROW(DT_TAGS_INT, lsh),
    [DT_OP_RIGHT_SHIFT] = DT_ROW(DT_TAGS_INT, rsh),
    [DT_OP_LOGICAL_AND] = DT_ROW(DT_TAGS_ALL, land),
    [DT_OP_LOGICAL_OR] = DT_ROW(DT_TAGS_ALL, lor),
    [DT_OP_LOGICAL_XOR] = DT_ROW(DT_TAGS_ALL, lxor),
    [DT_OP_NEGATIVE] = DT_ROW(DT_TAGS_NUMBER, neg),
    [DT_OP_POSITIVE] = DT_ROW(DT_TAGS_NUMBER, pos),
    [DT_OP_ABS] = DT_ROW(DT_TAGS_ALL, abs),
    [DT_OP_SQUARE] = DT_ROW(DT_TAGS_NUMBER, square),
    [DT_OP_SQRT] = DT_ROW(DT_TAGS_INEXACT, sqrt),
    [DT_OP_RECIPROCAL] = DT_ROW(DT_TAGS_NUMBER, recip),
    [DT_OP_SIGN] = DT_ROW(DT_TAGS_NUMBER, sign),
    [DT_OP_EXP] = DT_ROW(DT_TAGS_INEXACT, exp),
    [DT_OP_EXPM1] = DT_ROW(DT_TAGS_INEXACT, expm1),
    [DT_OP_LOG] = DT_ROW(DT_TAGS_INEXACT, log),
    [DT_OP_LOG1P] = DT_ROW(DT_TAGS_INEXACT, log1p),
    [DT_OP_LOG2] = DT_ROW(DT_TAGS_INEXACT, log2),
    [DT_OP_LOG10] = DT_ROW(DT_TAGS_INEXACT, log10),
    [DT_OP_SIN] = DT_ROW(DT_TAGS_INEXACT, sin),
    [DT_OP_COS] = DT_ROW(DT_TAGS_INEXACT, cos),
    [DT_OP_TAN] = DT_ROW(DT_TAGS_INEXACT, tan),
    [DT_OP_ASIN] = DT_ROW(DT_TAGS_INEXACT, asin),
    [DT_OP_ACOS] = DT_ROW(DT_TAGS_INEXACT, acos),
    [DT_OP_ATAN] = DT_ROW(DT_TAGS_INEXACT, atan),
    [DT_OP_SINH] = DT_ROW(DT_TAGS_INEXACT, sinh),
    [DT_OP_COSH] = DT_ROW(DT_TAGS_INEXACT, cosh),
    [DT_OP_TANH] = DT_ROW(DT_TAGS_INEXACT, tanh),
    [DT_OP_ASINH] = DT_ROW(DT_TAGS_INEXACT, asinh),
    [DT_OP_ACOSH] = DT_ROW(DT_TAGS_INEXACT, acosh),
    [DT_OP_ATANH] = DT_ROW(DT_TAGS_INEXACT, atanh),
    [DT_OP_FLOOR] = DT_ROW(DT_TAGS_REAL, floor),
    [DT_OP_CEIL] = DT_ROW(DT_TAGS_REAL, ceil),
    [DT_OP_TRUNC] = DT_ROW(DT_TAGS_REAL, trunc),
    [DT_OP_RINT] = DT_ROW(DT_TAGS_INEXACT, rint),
    [DT_OP_INVERT] = DT_ROW(DT_TAGS_BOOL_INT, invert),
    [DT_OP_BITWISE_COUNT] = DT_ROW(DT_TAGS_INT, bcount),
    [DT_OP_LOGICAL_NOT] = DT_ROW(DT_TAGS_ALL, lnot),
    [DT_OP_ISNAN] = DT_ROW(DT_TAGS_ALL, isnan),
    [DT_OP_ISINF] = DT_ROW(DT_TAGS_ALL, isinf),
    [DT_OP_ISFINITE] = DT_ROW(DT_TAGS_ALL, isfinite),
    [DT_OP_SIGNBIT] = DT_ROW(DT_TAGS_REAL, signbit),
    [DT_OP_CONJ] = DT_ROW(DT_TAGS_NUMBER, conj),
    [DT_OP_REAL] = DT_ROW(DT_TAGS_ALL, real),
    [DT_OP_IMAG] = DT_ROW(DT_TAGS_ALL, imag),
    [DT_OP_ANGLE] = DT_ROW(DT_TAGS_INEXACT, angle),
    [DT_OP_WHERE] = {DT_FOR_EACH_DTYPE(DT_WHERE_ENTRY)},
};

/* ---- casts: out = (TO) in ---- */
#define DT_CAST_LOOP(F, T)                                                             \
    static void cast_##F##_##T(char **data, const int64_t *s, int64_t n)               \
    {                                                                                  \
        char *o = data[0], *a = data[1];                                               \
        if (s[0] == (int64_t)sizeof(dt_T_##T) && s[1] == (int64_t)sizeof(dt_T_##F) &&  \
            ALIGNED(o, dt_T_##T) && ALIGNED(a, dt_T_##F)) {                            \
            dt_T_##T *op = (dt_T_##T *)o;                                              \
            const dt_T_##F *ap = (const dt_T_##F *)a;                                  \
            for (int64_t i = 0; i < n; i++)                                            \
                op[i] = DT_CAST(F, T, ap[i]);                                          \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = 0; i < n; i++, o += s[0], a += s[1]) {                        \
            dt_T_##F v;                                                                \
            memcpy(&v, a, sizeof v);                                                   \
            dt_T_##T r = DT_CAST(F, T, v);                                             \
            memcpy(o, &r, sizeof r);                                                   \
        }                                                                              \
    }
#define DT_CAST_FROM(CODE, F) DT_CAST_LOOPS_TO(F)
#define DT_CAST_LOOPS_TO(F)                                                              \
    DT_CAST_LOOP(F, b) DT_CAST_LOOP(F, i8) DT_CAST_LOOP(F, i16) DT_CAST_LOOP(F, i32)     \
    DT_CAST_LOOP(F, i64) DT_CAST_LOOP(F, u8) DT_CAST_LOOP(F, u16) DT_CAST_LOOP(F, u32)   \
    DT_CAST_LOOP(F, u64) DT_CAST_LOOP(F, f16) DT_CAST_LOOP(F, bf16) DT_CAST_LOOP(F, f32) \
    DT_CAST_LOOP(F, f64) DT_CAST_LOOP(F, c64) DT_CAST_LOOP(F, c128)
DT_FOR_EACH_DTYPE(DT_CAST_FROM)

#define DT_CAST_ROW(CODE, F)                                                             \
    [CODE] = {cast_##F##_b, cast_##F##_i8, cast_##F##_i16, cast_##F##_i32, cast_##F##_i64, \
              cast_##F##_u8, cast_##F##_u16, cast_##F##_u32, cast_##F##_u64,            \
              cast_##F##_f16, cast_##F##_bf16, cast_##F##_f32, cast_##F##_f64,          \
              cast_##F##_c64, cast_##F##_c128},
/* cast_loops[from][to] */
static const dt_cpu_inner_loop cast_loops[DT_NUM_DTYPES][DT_NUM_DTYPES] = {
    DT_FOR_EACH_DTYPE(DT_CAST_ROW)
};

dt_cpu_inner_loop dt_cpu_find_loop(int op, const dt_dtype *dtypes)
{
    if (op < 0 || op >= DT_NUM_OPS || !dt_dtype_is_valid((int)dtypes[0]) ||
        !dt_dtype_is_valid((int)dtypes[1]))
        return NULL;
    if (op == DT_OP_COPY)
        return cast_loops[dtypes[1]][dtypes[0]];
    if (op >= DT_OP_EQ && op <= DT_OP_GE && dtypes[1] != dtypes[2]) {
        if (dtypes[1] == DT_INT64 && dtypes[2] == DT_UINT64)
            return mixed_loops[op - DT_OP_EQ][0];
        if (dtypes[1] == DT_UINT64 && dtypes[2] == DT_INT64)
            return mixed_loops[op - DT_OP_EQ][1];
        return NULL;
    }
    /* the loop dtype: the first input's, or the values' for where */
    return op_loops[op][op == DT_OP_WHERE ? dtypes[2] : dtypes[1]];
}
