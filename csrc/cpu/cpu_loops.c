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
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>
#include "ops.h"

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
