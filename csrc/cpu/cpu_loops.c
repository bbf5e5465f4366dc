/* cpu_loops.c - inner loops for every op and dtype, expanded from ops.h,
 * and the outer iteration that drives them over a dt_loop.
 *
 * Note [Contiguous fast paths]
 * Each loop has a path for aligned contiguous operands (and for a
 * broadcast scalar second operand) written as plain indexed loops that the
 * compiler vectorizes, and a general strided path that loads and stores
 * through memcpy, so unaligned NumPy buffers are safe.
 */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>
#include "ops.h"
#include "philox.h"

#define ALIGNED(p, T) (((uintptr_t)(p) % _Alignof(T)) == 0)

/* ---- binary ops: out = OP(a, b) ---- */
#define DT_BINARY_LOOP(OPNAME, X, OUT_T, STORE)                                           \
    static void loop_##OPNAME##_##X(char **data, const int64_t *s, int64_t n)              \
    {                                                                                      \
        char *o = data[0], *a = data[1], *b = data[2];                                     \
        const int64_t so = (int64_t)sizeof(OUT_T), si = (int64_t)sizeof(dt_T_##X);         \
        if (s[0] == so && s[1] == si && (s[2] == si || s[2] == 0) && ALIGNED(o, OUT_T) &&  \
            ALIGNED(a, dt_T_##X) && ALIGNED(b, dt_T_##X)) {                                \
            OUT_T *op = (OUT_T *)o;                                                        \
            const dt_T_##X *ap = (const dt_T_##X *)a, *bp = (const dt_T_##X *)b;           \
            if (s[2] == 0) {                                                               \
                const dt_C_##X bv = dt_load_##X(*bp);                                      \
                for (int64_t i = 0; i < n; i++)                                            \
                    op[i] = STORE(dt_##OPNAME##_##X(dt_load_##X(ap[i]), bv));              \
            } else {                                                                       \
                for (int64_t i = 0; i < n; i++)                                            \
                    op[i] = STORE(dt_##OPNAME##_##X(dt_load_##X(ap[i]), dt_load_##X(bp[i]))); \
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
#define DT_ARITH_LOOPS(CODE, X)                                    \
    DT_BINARY_LOOP(add, X, dt_T_##X, dt_store_##X)                 \
    DT_BINARY_LOOP(sub, X, dt_T_##X, dt_store_##X)                 \
    DT_BINARY_LOOP(mul, X, dt_T_##X, dt_store_##X)
#define DT_DIV_LOOPS(X) DT_BINARY_LOOP(div, X, dt_T_##X, dt_store_##X)
#define DT_COMPARE_LOOPS(CODE, X)                                  \
    DT_BINARY_LOOP(eq, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(ne, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(lt, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(le, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(gt, X, bool, DT_STORE_BOOL)                     \
    DT_BINARY_LOOP(ge, X, bool, DT_STORE_BOOL)

DT_FOR_EACH_DTYPE(DT_ARITH_LOOPS)
DT_FOR_EACH_DTYPE(DT_COMPARE_LOOPS)
DT_DIV_LOOPS(f16) DT_DIV_LOOPS(bf16) DT_DIV_LOOPS(f32) DT_DIV_LOOPS(f64)
DT_DIV_LOOPS(c64) DT_DIV_LOOPS(c128)

#define DT_ROW(OPNAME) \
    { loop_##OPNAME##_b, loop_##OPNAME##_i8, loop_##OPNAME##_i16, loop_##OPNAME##_i32,     \
      loop_##OPNAME##_i64, loop_##OPNAME##_u8, loop_##OPNAME##_u16, loop_##OPNAME##_u32,   \
      loop_##OPNAME##_u64, loop_##OPNAME##_f16, loop_##OPNAME##_bf16, loop_##OPNAME##_f32, \
      loop_##OPNAME##_f64, loop_##OPNAME##_c64, loop_##OPNAME##_c128 }

static const dt_cpu_inner_loop binary_loops[DT_NUM_OPS][DT_NUM_DTYPES] = {
    [DT_OP_ADD] = DT_ROW(add),
    [DT_OP_SUB] = DT_ROW(sub),
    [DT_OP_MUL] = DT_ROW(mul),
    [DT_OP_DIV] = {[DT_FLOAT16] = loop_div_f16, [DT_BFLOAT16] = loop_div_bf16,
                   [DT_FLOAT32] = loop_div_f32, [DT_FLOAT64] = loop_div_f64,
                   [DT_COMPLEX64] = loop_div_c64, [DT_COMPLEX128] = loop_div_c128},
    [DT_OP_EQ] = DT_ROW(eq),
    [DT_OP_NE] = DT_ROW(ne),
    [DT_OP_LT] = DT_ROW(lt),
    [DT_OP_LE] = DT_ROW(le),
    [DT_OP_GT] = DT_ROW(gt),
    [DT_OP_GE] = DT_ROW(ge),
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
    if (op < 0 || op >= DT_NUM_OPS)
        return NULL;
    for (int k = 0; k < 3; k++)
        if (!dt_dtype_is_valid((int)dtypes[k]))
            return NULL;
    if (op == DT_OP_COPY)
        return cast_loops[dtypes[1]][dtypes[0]];
    if (dtypes[1] != dtypes[2])
        return NULL;
    dt_dtype out = op >= DT_OP_EQ ? DT_BOOL : dtypes[1];
    return dtypes[0] == out ? binary_loops[op][dtypes[1]] : NULL;
}

/* ---- the outer iteration ---- */

dt_status dt_cpu_run_loop(const dt_loop *loop, dt_error *err)
{
    dt_dtype dtypes[3] = {loop->dtypes[0], loop->dtypes[1],
                          loop->nop > 2 ? loop->dtypes[2] : loop->dtypes[1]};
    dt_cpu_inner_loop inner = dt_cpu_find_loop(loop->op, dtypes);
    if (inner == NULL)
        return dt_error_set(err, DT_ERR_TYPE, "no CPU loop for op %d with dtypes %s, %s", loop->op,
                            dt_dtype_get_info(dtypes[1]) ? dt_dtype_get_info(dtypes[1])->name : "?",
                            dt_dtype_get_info(dtypes[0]) ? dt_dtype_get_info(dtypes[0])->name : "?");
    int nd = loop->ndim, nop = loop->nop;
    int64_t n = loop->shape[nd - 1], outer = loop->numel / n;
    char *ptrs[DT_MAX_OPERANDS];
    int64_t inner_strides[DT_MAX_OPERANDS], idx[DT_MAX_NDIM] = {0};
    for (int k = 0; k < nop; k++) {
        ptrs[k] = loop->data[k];
        inner_strides[k] = loop->strides[k][nd - 1];
    }
    for (int64_t o = 0; o < outer; o++) {
        inner(ptrs, inner_strides, n);
        for (int d = nd - 2; d >= 0; d--) {
            for (int k = 0; k < nop; k++)
                ptrs[k] += loop->strides[k][d];
            if (++idx[d] < loop->shape[d])
                break;
            for (int k = 0; k < nop; k++)
                ptrs[k] -= loop->strides[k][d] * loop->shape[d];
            idx[d] = 0;
        }
    }
    return DT_OK;
}

/* ---- generation (dt_gen) ---- */

#define GEN_CHUNK 512

static int uniform_bits(dt_dtype d)
{
    switch (d) {
    case DT_FLOAT16: return DT_PHILOX_BITS_FLOAT16;
    case DT_BFLOAT16: return DT_PHILOX_BITS_BFLOAT16;
    case DT_FLOAT32: return DT_PHILOX_BITS_FLOAT32;
    default: return DT_PHILOX_BITS_FLOAT64;
    }
}

static void fill_bytes(char *dst, const unsigned char *value, int64_t itemsize, int64_t n)
{
    if (itemsize == 1) {
        memset(dst, value[0], (size_t)n);
        return;
    }
    memcpy(dst, value, (size_t)itemsize);
    int64_t done = 1;
    while (done < n) { /* double the filled prefix */
        int64_t m = done <= n - done ? done : n - done;
        memcpy(dst + done * itemsize, dst, (size_t)(m * itemsize));
        done += m;
    }
}

dt_status dt_cpu_generate(const dt_gen *g, dt_error *err)
{
    const dt_dtype_info *info = dt_dtype_get_info(g->dtype);
    if (info == NULL)
        return dt_error_set(err, DT_ERR_TYPE, "invalid dtype");
    int64_t itemsize = info->itemsize;
    if (g->kind == DT_GEN_FILL) {
        fill_bytes(g->data, g->value.bytes, itemsize, g->n);
        return DT_OK;
    }
    /* Other kinds compute a chunk of int64 or float64 values, then cast. */
    int integral = g->kind == DT_GEN_RANDINT ||
                   (g->kind == DT_GEN_AFFINE && (info->kind == DT_KIND_INT ||
                                                 info->kind == DT_KIND_UINT ||
                                                 info->kind == DT_KIND_BOOL));
    dt_dtype wide = integral ? DT_INT64 : DT_FLOAT64;
    dt_dtype cast_types[3] = {g->dtype, wide, wide};
    dt_cpu_inner_loop cast = dt_cpu_find_loop(DT_OP_COPY, cast_types);
    int bits = uniform_bits(g->dtype);
    union { int64_t i[GEN_CHUNK]; double f[GEN_CHUNK]; } buf;
    for (int64_t start = 0; start < g->n; start += GEN_CHUNK) {
        int64_t m = g->n - start < GEN_CHUNK ? g->n - start : GEN_CHUNK;
        for (int64_t j = 0; j < m; j++) {
            int64_t i = start + j;
            uint64_t counter = g->offset + (uint64_t)i;
            switch (g->kind) {
            case DT_GEN_AFFINE:
                if (integral)
                    buf.i[j] = (int64_t)((uint64_t)g->istart + (uint64_t)i * (uint64_t)g->istep);
                else
                    buf.f[j] = g->start + (double)i * g->step;
                break;
            case DT_GEN_UNIFORM:
                buf.f[j] = dt_philox_uniform(g->seed, counter, bits, g->low, g->high);
                break;
            case DT_GEN_NORMAL:
                buf.f[j] = dt_philox_normal(g->seed, counter, g->low, g->high);
                break;
            default: /* DT_GEN_RANDINT */
                buf.i[j] = dt_philox_randint(g->seed, counter, g->ilow, g->ihigh);
                break;
            }
        }
        char *ptrs[2] = {(char *)g->data + start * itemsize, (char *)&buf};
        int64_t strides[2] = {itemsize, 8};
        cast(ptrs, strides, m);
    }
    return DT_OK;
}
