/* cpu_matmul.c - the CPU backend's matrix products (backend.h's
 * dt_matmul_loop): OpenBLAS for floating and complex dtypes, our own loops
 * for integers and bool.
 *
 * Note [BLAS calls on the CPU]
 * Each problem of the batch is one BLAS call in row-major CBLAS terms: an
 * operand with a unit column stride is passed as it is (NoTrans, its row
 * stride the leading dimension), one with a unit row stride as the
 * transpose of what is stored (Trans), so a.T @ b copies nothing.  As
 * NumPy does, a matrix times a vector is gemv and a vector times a
 * vector dot, which are faster than a gemm with a side of 1.  float16 and
 * bfloat16 have no BLAS: each problem is widened to float32, multiplied
 * by sgemm (sums in float, as backend.h asks) and rounded back.  A batch
 * of small problems is split over devtensor's threads (each BLAS call is
 * then too small for OpenBLAS's own threads); a large problem runs alone
 * on OpenBLAS's threads, whose number is devtensor's.
 */
#pragma GCC optimize("O3") /* Note [Vectorization] in cpu_loops.c */

#include <stdlib.h>
#include <string.h>

#include "cpu_blas.h"
#include "cpu_loops.h"
#include "cpu_parallel.h"
#include "loop_check.h"
#include "scalar.h"
#include "tensor.h"

/* a problem with fewer multiply-adds runs on one thread inside OpenBLAS */
#define SMALL_PROBLEM_FLOPS (64 * 64 * 64)

/* the byte offsets of problem p in a, b and out (C order over the batch),
 * and p's index along each batch dim */
static void problem_offsets(const dt_matmul_loop *l, int64_t p, int64_t off[3], int64_t at[])
{
    off[0] = off[1] = off[2] = 0;
    for (int d = l->batch_ndim - 1; d >= 0; d--) {
        at[d] = p % l->batch_shape[d];
        p /= l->batch_shape[d];
        for (int k = 0; k < 3; k++)
            off[k] += at[d] * l->batch_strides[k][d];
    }
}

/* off and at from problem p to p + 1, without the divisions of
 * problem_offsets (their cost showed in a batch of 8 x 8 products) */
static inline void next_problem(const dt_matmul_loop *l, int64_t off[3], int64_t at[])
{
    for (int d = l->batch_ndim - 1; d >= 0; d--) {
        for (int k = 0; k < 3; k++)
            off[k] += l->batch_strides[k][d];
        if (++at[d] < l->batch_shape[d])
            return;
        for (int k = 0; k < 3; k++)
            off[k] -= at[d] * l->batch_strides[k][d];
        at[d] = 0;
    }
}

/* ---- BLAS (float32, float64, complex64, complex128) ---- */

/* An operand as row-major CBLAS takes it (Note [BLAS calls on the CPU]). */
typedef struct blas_operand {
    CBLAS_TRANSPOSE trans;
    blasint ld;
} blas_operand;

static blas_operand as_blas(int64_t rs, int64_t cs, int64_t s)
{
    blas_operand o;
    if (cs == s) {
        o.trans = CblasNoTrans;
        o.ld = (blasint)(rs / s);
    } else {
        o.trans = CblasTrans;
        o.ld = (blasint)(cs / s);
    }
    return o;
}

/* out (m x n, row-major) = a @ b for one problem of a BLAS dtype, with the
 * strides and sizes of l (or of a widened float32 copy: see widened). */
static void blas_problem(const dt_cpu_blas *bl, dt_dtype dt, int64_t m, int64_t n, int64_t k,
                         const char *a, int64_t a_rs, int64_t a_cs, const char *b, int64_t b_rs,
                         int64_t b_cs, char *out)
{
    int64_t s = dt == DT_FLOAT32 ? 4 : dt == DT_FLOAT64 || dt == DT_COMPLEX64 ? 8 : 16;
    static const float c64_one[2] = {1.0f, 0.0f}, c64_zero[2] = {0.0f, 0.0f};
    static const double c128_one[2] = {1.0, 0.0}, c128_zero[2] = {0.0, 0.0};
    if (m == 1 && n == 1) { /* dot */
        blasint incx = (blasint)(a_cs / s), incy = (blasint)(b_rs / s);
        switch (dt) {
        case DT_FLOAT32: *(float *)out = bl->sdot(k, (const float *)a, incx, (const float *)b, incy); break;
        case DT_FLOAT64: *(double *)out = bl->ddot(k, (const double *)a, incx, (const double *)b, incy); break;
        case DT_COMPLEX64: bl->cdotu_sub(k, a, incx, b, incy, out); break;
        default: bl->zdotu_sub(k, a, incx, b, incy, out); break;
        }
        return;
    }
    if (m == 1 || n == 1) { /* gemv: y = A x or y = B^T x */
        blas_operand M;
        blasint rows, cols, incx;
        const char *mat, *x;
        CBLAS_TRANSPOSE t;
        if (n == 1) {
            M = as_blas(a_rs, a_cs, s), mat = a, x = b, incx = (blasint)(b_rs / s);
            t = M.trans; /* NoTrans: stored m x k; Trans: stored k x m */
            rows = M.trans == CblasNoTrans ? m : k, cols = M.trans == CblasNoTrans ? k : m;
        } else {
            M = as_blas(b_rs, b_cs, s), mat = b, x = a, incx = (blasint)(a_cs / s);
            t = M.trans == CblasNoTrans ? CblasTrans : CblasNoTrans;
            rows = M.trans == CblasNoTrans ? k : n, cols = M.trans == CblasNoTrans ? n : k;
        }
        switch (dt) {
        case DT_FLOAT32:
            bl->sgemv(CblasRowMajor, t, rows, cols, 1.0f, (const float *)mat, M.ld, (const float *)x,
                      incx, 0.0f, (float *)out, 1);
            break;
        case DT_FLOAT64:
            bl->dgemv(CblasRowMajor, t, rows, cols, 1.0, (const double *)mat, M.ld, (const double *)x,
                      incx, 0.0, (double *)out, 1);
            break;
        case DT_COMPLEX64:
            bl->cgemv(CblasRowMajor, t, rows, cols, c64_one, mat, M.ld, x, incx, c64_zero, out, 1);
            break;
        default:
            bl->zgemv(CblasRowMajor, t, rows, cols, c128_one, mat, M.ld, x, incx, c128_zero, out, 1);
            break;
        }
        return;
    }
    blas_operand A = as_blas(a_rs, a_cs, s), B = as_blas(b_rs, b_cs, s);
    switch (dt) {
    case DT_FLOAT32:
        bl->sgemm(CblasRowMajor, A.trans, B.trans, m, n, k, 1.0f, (const float *)a, A.ld,
                  (const float *)b, B.ld, 0.0f, (float *)out, n);
        break;
    case DT_FLOAT64:
        bl->dgemm(CblasRowMajor, A.trans, B.trans, m, n, k, 1.0, (const double *)a, A.ld,
                  (const double *)b, B.ld, 0.0, (double *)out, n);
        break;
    case DT_COMPLEX64:
        bl->cgemm(CblasRowMajor, A.trans, B.trans, m, n, k, c64_one, a, A.ld, b, B.ld, c64_zero,
                  out, n);
        break;
    default:
        bl->zgemm(CblasRowMajor, A.trans, B.trans, m, n, k, c128_one, a, A.ld, b, B.ld, c128_zero,
                  out, n);
        break;
    }
}

/* ---- float16 and bfloat16: widened to float32 ---- */

static float narrow_to_float(dt_dtype dt, const char *p)
{
    uint16_t bits;
    memcpy(&bits, p, 2);
    return dt == DT_FLOAT16 ? dt_half_to_float(bits) : dt_bf16_to_float(bits);
}

static void widen(dt_dtype dt, const char *src, int64_t rows, int64_t cols, int64_t rs, int64_t cs,
                  float *dst)
{
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            dst[i * cols + j] = narrow_to_float(dt, src + i * rs + j * cs);
}

static void widened(const dt_cpu_blas *bl, const dt_matmul_loop *l, const char *a, const char *b,
                    char *out, float *buf)
{
    int64_t m = l->m, n = l->n, k = l->k;
    float *a32 = buf, *b32 = a32 + m * k, *o32 = b32 + k * n;
    widen(l->dtype, a, m, k, l->a_rs, l->a_cs, a32);
    widen(l->dtype, b, k, n, l->b_rs, l->b_cs, b32);
    blas_problem(bl, DT_FLOAT32, m, n, k, (const char *)a32, k * 4, 4, (const char *)b32, n * 4, 4,
                 (char *)o32);
    uint16_t *o = (uint16_t *)out;
    for (int64_t i = 0; i < m * n; i++)
        o[i] = l->dtype == DT_FLOAT16 ? dt_float_to_half(o32[i]) : dt_float_to_bf16(o32[i]);
}

/* ---- integers and bool: our loops ---- */

/* Row i of out accumulates a[i, p] * b[p, :] over p (the inner loop runs
 * along a row of b, contiguous in the common case, and vectorizes).  The
 * sums wrap in the dtype: computed in an unsigned type M at least as wide
 * as int (so nothing is promoted to a signed int that could overflow) and
 * stored as the unsigned type U of the dtype's width. */
#define DT_INT_MATMUL(NAME, T, U, M)                                                        \
    static void NAME(const dt_matmul_loop *l, const char *a, const char *b, char *out)      \
    {                                                                                       \
        int64_t m = l->m, n = l->n, k = l->k;                                               \
        for (int64_t i = 0; i < m; i++) {                                                   \
            U *row = (U *)out + i * n;                                                      \
            for (int64_t j = 0; j < n; j++)                                                 \
                row[j] = 0;                                                                 \
            for (int64_t p = 0; p < k; p++) {                                               \
                M av = (M)(U) * (const T *)(a + i * l->a_rs + p * l->a_cs);                 \
                const char *brow = b + p * l->b_rs;                                         \
                if (l->b_cs == (int64_t)sizeof(T)) {                                        \
                    const T *bp = (const T *)brow;                                          \
                    for (int64_t j = 0; j < n; j++)                                         \
                        row[j] = (U)(row[j] + av * (M)(U)bp[j]);                            \
                } else {                                                                    \
                    for (int64_t j = 0; j < n; j++)                                         \
                        row[j] = (U)(row[j] + av * (M)(U) * (const T *)(brow + j * l->b_cs)); \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
    }
DT_INT_MATMUL(matmul_i8, int8_t, uint8_t, uint32_t)
DT_INT_MATMUL(matmul_i16, int16_t, uint16_t, uint32_t)
DT_INT_MATMUL(matmul_i32, int32_t, uint32_t, uint32_t)
DT_INT_MATMUL(matmul_i64, int64_t, uint64_t, uint64_t)
#undef DT_INT_MATMUL

static void matmul_bool(const dt_matmul_loop *l, const char *a, const char *b, char *out)
{
    int64_t m = l->m, n = l->n, k = l->k;
    for (int64_t i = 0; i < m; i++) {
        unsigned char *row = (unsigned char *)out + i * n;
        memset(row, 0, (size_t)n);
        for (int64_t p = 0; p < k; p++) {
            if (!a[i * l->a_rs + p * l->a_cs])
                continue;
            const char *brow = b + p * l->b_rs;
            for (int64_t j = 0; j < n; j++)
                row[j] |= brow[j * l->b_cs] != 0;
        }
    }
}

typedef void (*int_matmul_fn)(const dt_matmul_loop *, const char *, const char *, char *);

static int_matmul_fn int_loop(dt_dtype d)
{
    switch (d) {
    case DT_BOOL: return matmul_bool;
    case DT_INT8: case DT_UINT8: return matmul_i8;
    case DT_INT16: case DT_UINT16: return matmul_i16;
    case DT_INT32: case DT_UINT32: return matmul_i32;
    case DT_INT64: case DT_UINT64: return matmul_i64;
    default: return NULL;
    }
}

/* ---- small float problems: our loop ---- */

/* Note [Small products]
 * A BLAS call costs about 100 ns before it multiplies anything (argument
 * checks, dispatch, its threading decision), more than a whole 8 x 8
 * product takes: problems of at most SMALL_LOOP_FLOPS multiply-adds
 * (16 x 16 x 16) of float32 or float64 run this loop instead, which sums
 * each out[i, j] over p in order, in the dtype, as a BLAS kernel does (no
 * fused multiply-add: -ffp-contract=off).  Where b's rows are contiguous,
 * two vectors of columns of a row of out (then one, then a 32-byte one,
 * then a 16-byte one) are summed at once in registers: 64-byte vectors
 * where the CPU has AVX-512 (a function of its own, chosen at run time:
 * 16 x 16 float64 products took twice NumPy's time in 32-byte ones),
 * 32-byte ones elsewhere; the columns left over, and strided b, are summed
 * one element at a time.  Every width sums each column in the same order,
 * so results do not depend on the CPU. */
#define SMALL_LOOP_FLOPS (16 * 16 * 16)
#define SMALL_VEC_BYTES 32 /* one AVX2 register */

/* Columns j0 .. j0 + R * lanes - 1 of every row of out, summed at once in R
 * vectors of GCC's vector extension per row (32 bytes each: a 64-byte
 * vector on AVX2 was split and spilled to the stack on every step, 8x8
 * float64 products ran at a third of NumPy's speed), each column still a
 * sum over p in order, products and sums rounded apart; four rows at a
 * time, so that 4 * R independent chains of additions hide the adder's
 * latency, all in registers (4 * R + R of the 16 on AVX2). */
#define DT_SMALL_A(T, i, p) (*(const T *)(a + (i) * l->a_rs + (p) * l->a_cs))
#define DT_SMALL_COLUMNS(T, V, R)                                                           \
    for (const int64_t w = (R) * (int64_t)(sizeof(V) / sizeof(T)); j0 + w <= n; j0 += w) { \
        int64_t i = 0;                                                                      \
        for (; i + 4 <= m; i += 4) { /* four rows at once */                                \
            V acc[4][R];                                                                    \
            memset(acc, 0, sizeof acc);                                                     \
            for (int64_t p = 0; p < k; p++) {                                               \
                const T *brow = (const T *)(b + p * l->b_rs) + j0;                          \
                T a0 = DT_SMALL_A(T, i, p), a1 = DT_SMALL_A(T, i + 1, p);                   \
                T a2 = DT_SMALL_A(T, i + 2, p), a3 = DT_SMALL_A(T, i + 3, p);               \
                for (int r = 0; r < (R); r++) {                                             \
                    V bv;                                                                   \
                    memcpy(&bv, brow + r * (sizeof(V) / sizeof(T)), sizeof bv);         \
                    acc[0][r] += a0 * bv;                                                   \
                    acc[1][r] += a1 * bv;                                                   \
                    acc[2][r] += a2 * bv;                                                   \
                    acc[3][r] += a3 * bv;                                                   \
                }                                                                           \
            }                                                                               \
            for (int q = 0; q < 4; q++)                                                     \
                memcpy((T *)out + (i + q) * n + j0, acc[q], sizeof acc[q]);                 \
        }                                                                                   \
        for (; i < m; i++) {                                                                \
            V acc[R];                                                                       \
            memset(acc, 0, sizeof acc);                                                     \
            for (int64_t p = 0; p < k; p++) {                                               \
                const T *brow = (const T *)(b + p * l->b_rs) + j0;                          \
                T ai = DT_SMALL_A(T, i, p);                                                 \
                for (int r = 0; r < (R); r++) {                                             \
                    V bv;                                                                   \
                    memcpy(&bv, brow + r * (sizeof(V) / sizeof(T)), sizeof bv);         \
                    acc[r] += ai * bv;                                                      \
                }                                                                           \
            }                                                                               \
            memcpy((T *)out + i * n + j0, acc, sizeof acc);                                 \
        }                                                                                   \
    }

#define DT_SMALL_MATMUL(NAME, T, TARGET, WIDE_BYTES)                                       \
    typedef T NAME##_wide __attribute__((vector_size(WIDE_BYTES)));                         \
    typedef T NAME##_vec __attribute__((vector_size(SMALL_VEC_BYTES)));                     \
    typedef T NAME##_half __attribute__((vector_size(SMALL_VEC_BYTES / 2)));                \
    TARGET static void NAME(const dt_matmul_loop *l, const char *a, const char *b, char *out) \
    {                                                                                       \
        int64_t m = l->m, n = l->n, k = l->k, j0 = 0;                                       \
        if (l->b_cs == (int64_t)sizeof(T)) {                                                \
            DT_SMALL_COLUMNS(T, NAME##_wide, 2)                                             \
            DT_SMALL_COLUMNS(T, NAME##_wide, 1)                                             \
            DT_SMALL_COLUMNS(T, NAME##_vec, 1)                                              \
            DT_SMALL_COLUMNS(T, NAME##_half, 1)                                             \
        }                                                                                   \
        for (int64_t j = j0; j < n; j++) /* the columns left: one sum each */               \
            for (int64_t i = 0; i < m; i++) {                                               \
                T sum = 0;                                                                  \
                for (int64_t p = 0; p < k; p++)                                             \
                    sum += *(const T *)(a + i * l->a_rs + p * l->a_cs) *                    \
                           *(const T *)(b + p * l->b_rs + j * l->b_cs);                     \
                ((T *)out)[i * n + j] = sum;                                                \
            }                                                                               \
    }
#define DT_CLONES __attribute__((target_clones("avx2", "default")))
DT_SMALL_MATMUL(small_f32, float, DT_CLONES, SMALL_VEC_BYTES)
DT_SMALL_MATMUL(small_f64, double, DT_CLONES, SMALL_VEC_BYTES)
#undef DT_CLONES
#if defined(__GNUC__) && defined(__x86_64__)
#define DT_HAVE_SMALL_AVX512 1
DT_SMALL_MATMUL(small_f32_avx512, float, __attribute__((target("avx512f"))), 64)
DT_SMALL_MATMUL(small_f64_avx512, double, __attribute__((target("avx512f"))), 64)
#endif
#undef DT_SMALL_MATMUL
#undef DT_SMALL_COLUMNS
#undef DT_SMALL_A

/* the small-product loop of float32 or float64 for this CPU */
static int_matmul_fn small_loop(dt_dtype d)
{
#ifdef DT_HAVE_SMALL_AVX512
    static int avx512 = -1; /* threads that race write the same */
    if (avx512 < 0) {
        __builtin_cpu_init();
        avx512 = __builtin_cpu_supports("avx512f") ? 1 : 0;
    }
    if (avx512)
        return d == DT_FLOAT32 ? small_f32_avx512 : small_f64_avx512;
#endif
    return d == DT_FLOAT32 ? small_f32 : small_f64;
}

/* ---- the batch ---- */

typedef struct batch_ctx {
    const dt_matmul_loop *l;
    const dt_cpu_blas *blas;  /* BLAS dtypes */
    int_matmul_fn int_fn;     /* integer and bool dtypes; small float problems */
    int64_t buf_floats;       /* float16 and bfloat16: per-thread buffer */
    int failed;               /* a buffer could not be allocated */
} batch_ctx;

static void run_problems(int64_t begin, int64_t end, void *arg)
{
    batch_ctx *c = arg;
    const dt_matmul_loop *l = c->l;
    float *buf = NULL;
    if (c->buf_floats > 0) {
        buf = malloc((size_t)c->buf_floats * sizeof(float));
        if (buf == NULL) {
            __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
            return;
        }
    }
    int64_t off[3], at[DT_MAX_NDIM];
    problem_offsets(l, begin, off, at);
    for (int64_t p = begin; p < end; p++, next_problem(l, off, at)) {
        const char *a = l->a + off[0], *b = l->b + off[1];
        char *out = l->out + off[2];
        if (c->int_fn)
            c->int_fn(l, a, b, out);
        else if (buf)
            widened(c->blas, l, a, b, out, buf);
        else
            blas_problem(c->blas, l->dtype, l->m, l->n, l->k, a, l->a_rs, l->a_cs, b, l->b_rs,
                         l->b_cs, out);
    }
    free(buf);
}

dt_status dt_cpu_run_matmul(const dt_matmul_loop *l, dt_error *err)
{
    DT_TRY(dt_matmul_loop_check(l, err));
    batch_ctx c;
    memset(&c, 0, sizeof c);
    c.l = l;
    c.int_fn = int_loop(l->dtype);
    double small = (double)l->m * (double)l->n * (double)l->k;
    if (small <= SMALL_LOOP_FLOPS && (l->dtype == DT_FLOAT32 || l->dtype == DT_FLOAT64))
        c.int_fn = small_loop(l->dtype); /* Note [Small products] */
    if (c.int_fn == NULL) {
        dt_dtype d = l->dtype;
        if (d != DT_FLOAT16 && d != DT_BFLOAT16 && d != DT_FLOAT32 && d != DT_FLOAT64 &&
            d != DT_COMPLEX64 && d != DT_COMPLEX128)
            return dt_error_set(err, DT_ERR_TYPE, "matmul: no CPU loop for dtype %s",
                                dt_dtype_get_info(d)->name);
        c.blas = dt_cpu_blas_get(err);
        if (c.blas == NULL)
            return err->status;
        if (d == DT_FLOAT16 || d == DT_BFLOAT16) {
            int64_t mk, kn, mn;
            if (dt_mul_overflow_i64(l->m, l->k, &mk, err) != DT_OK ||
                dt_mul_overflow_i64(l->k, l->n, &kn, err) != DT_OK ||
                dt_mul_overflow_i64(l->m, l->n, &mn, err) != DT_OK ||
                mk > INT64_MAX / 4 - kn - mn)
                return dt_error_set(err, DT_ERR_NOMEM, "matmul: the float32 copies are too large");
            c.buf_floats = mk + kn + mn;
        }
    }
    int64_t count = 1;
    for (int d = 0; d < l->batch_ndim; d++)
        count *= l->batch_shape[d];
    /* multiply-adds per problem, saturated */
    double flops = (double)l->m * (double)l->n * (double)l->k;
    int64_t grain = flops >= SMALL_PROBLEM_FLOPS ? count
                                                 : (int64_t)(SMALL_PROBLEM_FLOPS / (flops > 1 ? flops : 1)) + 1;
    if (c.int_fn != NULL && count == 1 && flops >= SMALL_PROBLEM_FLOPS) {
        /* one large integer problem: our loops are the only threads, so split
         * its rows (each is a problem of m = 1 over a's row and out's row) */
        dt_matmul_loop rows = *l;
        rows.m = 1;
        rows.batch_ndim = 1;
        rows.batch_shape[0] = l->m;
        rows.batch_strides[0][0] = l->a_rs;
        rows.batch_strides[1][0] = 0;
        rows.batch_strides[2][0] = l->n * dt_dtype_get_info(l->dtype)->itemsize;
        c.l = &rows;
        int64_t row_grain = (int64_t)(SMALL_PROBLEM_FLOPS / ((double)l->n * (double)l->k)) + 1;
        dt_cpu_parallel_for(l->m, row_grain, run_problems, &c);
    } else if (grain >= count) {
        run_problems(0, count, &c);
    } else {
        dt_cpu_parallel_for(count, grain, run_problems, &c);
    }
    if (c.failed)
        return dt_error_set(err, DT_ERR_NOMEM, "matmul: out of memory for the float32 copies");
    return DT_OK;
}
