/* cpu_reduce.c - the CPU backend's reductions (backend.h's dt_reduce_loop):
 * SUM, PROD, MIN, MAX, ARGMIN, ARGMAX, ANY and ALL for every dtype, with
 * the semantics of csrc/core/reduce_ops.h.
 *
 * Note [Two reduction loops]
 * Each (op, dtype) provides a reducer: an accumulator, and functions that
 * fold a run of elements into one accumulator (`run`) or a row of elements
 * into a row of accumulators (`tile`).  Two drivers use them:
 *   INNER  when the reduced group holds the smallest stride: per output,
 *          runs along the reduced group's last axis (sum() of anything,
 *          sum(axis=1) of a C-order matrix);
 *   OUTER  when a kept axis holds it: per tile of outputs along
 *          that axis, every reduced element is folded into the tile's row
 *          of accumulators (sum(axis=0) of a C-order matrix), so memory is
 *          read in order and the fold vectorises instead of walking a
 *          column at a time.
 * Contiguous runs fold in 16 independent lanes the compiler vectorises;
 * SUM and PROD split runs pairwise down to blocks of 256 (the accuracy of
 * NumPy's pairwise summation, Note [Accumulating wide] in reduce_ops.h);
 * ARGMIN and ARGMAX find the run's extreme by lanes, then its first
 * position.  Threads take ranges of outputs or tiles; a reduction with few
 * outputs and one long run is cut into parts by size alone (not by thread
 * count), so its result does not depend on the number of threads.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3") /* Note [Vectorization] in cpu_loops.c */
#endif

#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>

#include "cpu_pairwise.h"
#include "cpu_parallel.h"
#include "cpu_reduce_simd.h"
#include "loop_check.h"
#include "reduce_ops.h"

/* the lane loops are built for AVX-512, AVX2 and the baseline, chosen at
 * load (as cpu_loops.c's float loops, Note [Vector math]) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

/* Note [Lanes in registers]
 * A leaf's sixteen lanes are sixteen variables, not an array, and every
 * step is written out: GCC's straight-line vectorizer packs them into
 * vector registers.  Kept as an array (lane[j] with a loop over j), GCC
 * left them on the stack, zeroed them with rep stos and folded them in a
 * loop with stores and reloads: several hundred cycles per leaf of ~150
 * elements, and float64 sum ran at a third of NumPy's speed.  Lane k takes
 * elements k, k + 16, ...; the tree folds the lanes 8, 4, 2, 1 apart, in
 * vector registers too; the last n % 16 elements (only the last leaf of a
 * run has them: Note [Whole leaves]) are then added in order.  Before, they went to lanes 0, 1, ... before the tree, which
 * kept every lane a scalar; the sum changes by a rounding or so there.
 * Only float32 and float64 take this leaf: GCC 12.2's loop vectorizer
 * (-O3, AVX2) miscompiles the same leaf for int8 and int16 widened to
 * int64 (a sum of 256 int8 came out wrong in tests/test_reductions.py and
 * in a ten-line reproducer), so every other dtype keeps the array leaf
 * (LEAF_ARRAY), whose speed matters less. */
#define LANES 16 /* SUMPROD's leaf is written out for 16: L16 below */

/* where each accumulator kind (reduce_ops.h's DT_ACC_X) keeps a leaf's
 * lanes: double's (float32 and float64) in registers (Note [Lanes in
 * registers]), the others in an array */
#define LANES_IN_D REGISTERS
#define LANES_IN_F ARRAY
#define LANES_IN_I ARRAY
#define LANES_IN_U ARRAY
#define LANES_IN_Z ARRAY

/* SUMPROD's lanes l0 ... l15 (Note [Lanes in registers]): M(k, a, b) for
 * k = 0 ... 15; in LANE_STEP the load names its lane LANE_K */
#define L16(M, a, b) M(0, a, b) M(1, a, b) M(2, a, b) M(3, a, b) M(4, a, b) M(5, a, b) M(6, a, b) \
    M(7, a, b) M(8, a, b) M(9, a, b) M(10, a, b) M(11, a, b) M(12, a, b) M(13, a, b) M(14, a, b) M(15, a, b)
#define LANE_DECL(k, T, init) T l##k = init;
#define LANE_STEP(k, OPF, load) { enum { LANE_K = k }; l##k = OPF(l##k, load); }
/* the lanes folded 8, 4, 2 and 1 apart, into l0 */
#define LANE_TREE(OPF)                                                                        \
    l0 = OPF(l0, l8); l1 = OPF(l1, l9); l2 = OPF(l2, l10); l3 = OPF(l3, l11);                 \
    l4 = OPF(l4, l12); l5 = OPF(l5, l13); l6 = OPF(l6, l14); l7 = OPF(l7, l15);               \
    l0 = OPF(l0, l4); l1 = OPF(l1, l5); l2 = OPF(l2, l6); l3 = OPF(l3, l7);                   \
    l0 = OPF(l0, l2); l1 = OPF(l1, l3);                                                       \
    l0 = OPF(l0, l1);
#define BLOCK 256        /* pairwise leaves: Note [Whole leaves] */
/* Note [Whole leaves]
 * A run longer than BLOCK is split at a multiple of BLOCK near its middle,
 * so every leaf but the last holds exactly BLOCK elements: the leaf's loop
 * always turns BLOCK / LANES times and has no tail, which the branch
 * predictor learns (split at n / 2, leaves were 128 to 256 elements long
 * and float32 sums ran about 30% slower).  The tree of the splits is still
 * balanced to within one leaf, so the error bound is pairwise's.
 * Where the accumulator is wider than the elements (float32 in double,
 * float16 in float, integers in 64 bits) leaves are WIDE_BLOCK long: a
 * lane then adds 128 elements in order, an error of about 128 roundings of
 * the wide type, far below one rounding of the narrow result (2^-46 of
 * float32's 2^-24), with an eighth of the leaves' fixed cost. */
#define WIDE_BLOCK 2048
/* Note [Leaves in memory order]
 * C leaves the order of a call's arguments open, and GCC evaluated
 * OPF(pairwise(first half), pairwise(second half)) second half first: the
 * leaves were read from the end of the run to its start, which the
 * hardware prefetcher does not follow, and out of cache a float32 or
 * float64 sum ran at two thirds of NumPy's bandwidth.  The first half is
 * summed into a variable first; the operations, and so the sum, are the
 * same. */
#define TILE_BYTES (32 * 1024) /* OUTER: a tile's accumulators, at most (in L1) */
#define GRAIN (1 << 15)  /* elements per thread chunk, at least */
#define PART (1 << 15)   /* elements per part of a split run, at least */
#define MAX_PARTS 64
#define ALIGNED(p, T) (((uintptr_t)(p) % _Alignof(T)) == 0)

typedef struct {
    _Alignas(16) unsigned char b[32];
} acc_buf;

typedef struct reducer {
    size_t size; /* of the accumulator */
    void (*init)(void *acc, const char *first, int64_t pos);
    void (*run)(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0);
    void (*merge)(void *acc, const void *later);
    void (*tile)(void *accs, const char *p, int64_t k, int64_t ks, int64_t pos);
    void (*store)(char *out, const void *acc, dt_dtype out_dtype);
} reducer;

#define LOAD(X, p) dt_load_##X(ld_##X(p))
#define LOADER(CODE, X) \
    static inline dt_T_##X ld_##X(const char *p) { dt_T_##X v; memcpy(&v, p, sizeof v); return v; }
DT_FOR_EACH_DTYPE(LOADER)

/* SUMPROD's leaf, the sum or product of n <= its block elements in LANES
 * lanes: in registers (Note [Lanes in registers]) or as an array; SUMPROD
 * expands the one its dtype's LANES_IN_ names */
#define LEAF_REGISTERS(NAME, X, OPF, IDF)                                                        \
    CLONES static NAME##_acc_##X NAME##_leaf_##X(const char *p, int64_t n, int64_t s)            \
    {                                                                                            \
        /* Note [Lanes in registers] */                                                         \
        L16(LANE_DECL, NAME##_acc_##X, IDF())                                                    \
        int64_t i = 0;                                                                           \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X)) {                            \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            NAME##_acc_##X fast;                                                                 \
            if (NAME##_avx2_leaf_##X(q, n, &fast)) /* Note [AVX2 sum leaves] */                   \
                return fast;                                                                     \
            for (; i + LANES <= n; i += LANES) {                                                 \
                L16(LANE_STEP, OPF, DT_ACC_LOAD(X, q[i + LANE_K]))                               \
            }                                                                                    \
        } else {                                                                                 \
            for (; i + LANES <= n; i += LANES) {                                                 \
                L16(LANE_STEP, OPF, DT_ACC_LOAD(X, ld_##X(p + (i + LANE_K) * s)))                \
            }                                                                                    \
        }                                                                                        \
        LANE_TREE(OPF)                                                                           \
        for (; i < n; i++)                                                                       \
            l0 = OPF(l0, DT_ACC_LOAD(X, ld_##X(p + i * s)));                                     \
        return l0;                                                                               \
    }

#define LEAF_ARRAY(NAME, X, OPF, IDF)                                                            \
    CLONES static NAME##_acc_##X NAME##_leaf_##X(const char *p, int64_t n, int64_t s)            \
    {                                                                                            \
        NAME##_acc_##X lane[LANES], r;                                                           \
        for (int j = 0; j < LANES; j++)                                                          \
            lane[j] = IDF();                                                                     \
        int64_t i = 0;                                                                           \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X)) {                            \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            for (; i + LANES <= n; i += LANES)                                                   \
                for (int j = 0; j < LANES; j++)                                                  \
                    lane[j] = OPF(lane[j], DT_ACC_LOAD(X, q[i + j]));                            \
        } else {                                                                                 \
            for (; i + LANES <= n; i += LANES)                                                   \
                for (int j = 0; j < LANES; j++)                                                  \
                    lane[j] = OPF(lane[j], DT_ACC_LOAD(X, ld_##X(p + (i + j) * s)));             \
        }                                                                                        \
        for (int j = 0; i < n; i++, j++)                                                         \
            lane[j] = OPF(lane[j], DT_ACC_LOAD(X, ld_##X(p + i * s)));                           \
        for (int w = LANES / 2; w > 0; w /= 2)                                                   \
            for (int j = 0; j < w; j++)                                                          \
                lane[j] = OPF(lane[j], lane[j + w]);                                             \
        r = lane[0];                                                                             \
        return r;                                                                                \
    }

/* the leaves with vectors written out (Note [AVX2 sum leaves] in
 * cpu_reduce_simd.c): 1 with the sum when the CPU has AVX2; products keep
 * the generic leaf */
static inline int sum_avx2_leaf_f64(const double *q, int64_t n, double *sum)
{
    if (!dt_cpu_reduce_has_avx2())
        return 0;
    *sum = dt_avx2_sum_leaf_f64(q, n);
    return 1;
}
static inline int sum_avx2_leaf_f32(const float *q, int64_t n, double *sum)
{
    if (!dt_cpu_reduce_has_avx2())
        return 0;
    *sum = dt_avx2_sum_leaf_f32(q, n);
    return 1;
}
static inline int prod_avx2_leaf_f64(const double *q, int64_t n, double *r) { (void)q, (void)n, (void)r; return 0; }
static inline int prod_avx2_leaf_f32(const float *q, int64_t n, double *r) { (void)q, (void)n, (void)r; return 0; }

/* ---- SUM and PROD: NAME is sum or prod, OPF the accumulator op ---- */
#define SUMPROD(NAME, X, OPF, IDF)                                                               \
    typedef DT_ACC_T(X) NAME##_acc_##X;                                                          \
    DT_RPASTE(LEAF_, DT_RPASTE(LANES_IN_, DT_ACC_##X))(NAME, X, OPF, IDF)                       \
    static NAME##_acc_##X NAME##_pairwise_##X(const char *p, int64_t n, int64_t s)               \
    {                                                                                            \
        /* Note [Whole leaves] */                                                               \
        const int64_t b = sizeof(dt_T_##X) < sizeof(NAME##_acc_##X) ? WIDE_BLOCK : BLOCK;          \
        if (n <= b)                                                                              \
            return NAME##_leaf_##X(p, n, s);                                                     \
        int64_t h = ((n + b - 1) / b / 2) * b;                                                   \
        /* the first half first: Note [Leaves in memory order] */                               \
        NAME##_acc_##X first = NAME##_pairwise_##X(p, h, s);                                     \
        return OPF(first, NAME##_pairwise_##X(p + h * s, n - h, s));                            \
    }                                                                                            \
    static void NAME##_init_##X(void *acc, const char *first, int64_t pos)                       \
    {                                                                                            \
        (void)first;                                                                             \
        (void)pos;                                                                               \
        *(NAME##_acc_##X *)acc = IDF();                                                          \
    }                                                                                            \
    static void NAME##_run_##X(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)     \
    {                                                                                            \
        (void)pos0;                                                                              \
        NAME##_acc_##X *a = (NAME##_acc_##X *)acc;                                               \
        *a = OPF(*a, NAME##_pairwise_##X(p, n, s));                                              \
    }                                                                                            \
    static void NAME##_merge_##X(void *acc, const void *later)                                   \
    {                                                                                            \
        NAME##_acc_##X *a = (NAME##_acc_##X *)acc;                                               \
        *a = OPF(*a, *(const NAME##_acc_##X *)later);                                            \
    }                                                                                            \
    CLONES static void NAME##_tile_##X(void *accs, const char *p, int64_t k, int64_t ks, int64_t pos) \
    {                                                                                            \
        (void)pos;                                                                               \
        NAME##_acc_##X *a = (NAME##_acc_##X *)accs;                                              \
        if (ks == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X)) {                           \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            for (int64_t j = 0; j < k; j++)                                                      \
                a[j] = OPF(a[j], DT_ACC_LOAD(X, q[j]));                                          \
            return;                                                                              \
        }                                                                                        \
        for (int64_t j = 0; j < k; j++)                                                          \
            a[j] = OPF(a[j], DT_ACC_LOAD(X, ld_##X(p + j * ks)));                                \
    }                                                                                            \
    static void NAME##_store_##X(char *out, const void *acc, dt_dtype o)                         \
    {                                                                                            \
        DT_RPASTE(dt_store_wide_, DT_ACC_##X)(out, *(const NAME##_acc_##X *)acc, o);                \
    }

/* ---- MIN and MAX (NaN wins: ops_math.h's dt_min/dt_max) ---- */
/* Note [Explicit vectors for float extremes]
 * GCC does not vectorise a float select by comparison (x > m ? x : m) in
 * a lane loop without -ffinite-math-only, which would break NaN.  So the
 * float32 and float64 folds and searches are written with GCC's vector
 * extensions (8 or 4 lanes of 32 bytes, two at a time), which compile to
 * compare-and-blend on every target_clones target; other dtypes use the
 * lane loops, which the compiler vectorises itself. */
#define VEXT(NAME, T, W, I)                                                                     \
    typedef T NAME##_v __attribute__((vector_size(32)));                                        \
    typedef I NAME##_m __attribute__((vector_size(32)));                                        \
    /* the extreme of n >= 0 elements and first (not NaN) into *out; false if a NaN is seen */ \
    CLONES static bool NAME##_vfold(T first, const T *q, int64_t n, int is_max, T *out)          \
    {                                                                                           \
        NAME##_v a, b;                                                                          \
        NAME##_m nan = {0};                                                                     \
        for (int j = 0; j < W; j++)                                                             \
            a[j] = first;                                                                       \
        b = a;                                                                                  \
        int64_t i = 0;                                                                          \
        for (; i + 2 * W <= n; i += 2 * W) {                                                    \
            NAME##_v x, y;                                                                      \
            memcpy(&x, q + i, sizeof x);                                                        \
            memcpy(&y, q + i + W, sizeof y);                                                    \
            NAME##_m gx = is_max ? x > a : x < a, gy = is_max ? y > b : y < b;                  \
            a = (NAME##_v)(((NAME##_m)x & gx) | ((NAME##_m)a & ~gx));                           \
            b = (NAME##_v)(((NAME##_m)y & gy) | ((NAME##_m)b & ~gy));                           \
            nan |= (x != x) | (y != y);                                                         \
        }                                                                                       \
        T m = first;                                                                            \
        bool any_nan = false;                                                                   \
        for (int j = 0; j < W; j++) {                                                           \
            any_nan |= nan[j] != 0;                                                             \
            m = (is_max ? a[j] > m : a[j] < m) ? a[j] : m;                                      \
            m = (is_max ? b[j] > m : b[j] < m) ? b[j] : m;                                      \
        }                                                                                       \
        for (; i < n; i++) {                                                                    \
            any_nan |= q[i] != q[i];                                                            \
            m = (is_max ? q[i] > m : q[i] < m) ? q[i] : m;                                      \
        }                                                                                       \
        *out = m;                                                                               \
        return !any_nan;                                                                        \
    }                                                                                           \
    /* the first i < n - 1 with q[i] == m (or NaN, if m is), else n - 1 */                      \
    CLONES static int64_t NAME##_vfind(T m, const T *q, int64_t n)                              \
    {                                                                                           \
        bool nan = m != m;                                                                      \
        int64_t i = 0;                                                                          \
        for (; i + 2 * W <= n; i += 2 * W) {                                                    \
            NAME##_v x, y;                                                                      \
            memcpy(&x, q + i, sizeof x);                                                        \
            memcpy(&y, q + i + W, sizeof y);                                                    \
            NAME##_m hit = nan ? (x != x) | (y != y) : (x == m) | (y == m);                     \
            I any = 0;                                                                          \
            for (int j = 0; j < W; j++)                                                         \
                any |= hit[j];                                                                  \
            if (any)                                                                            \
                break;                                                                          \
        }                                                                                       \
        for (; i < n - 1; i++)                                                                  \
            if (nan ? q[i] != q[i] : q[i] == m)                                                 \
                break;                                                                          \
        return i;                                                                               \
    }
#define VARG(NAME, T, W, I)                                                                     \
    /* the extreme of q[0, n) (0 < n <= INT32_MAX) and its first position; false if a NaN is  \
     * seen.  Four vectors of lanes at a time, so compare-and-blend latencies overlap. */      \
    CLONES static bool NAME##_vargfold(const T *q, int64_t n, int is_max, T *out, int64_t *pos)  \
    {                                                                                           \
        NAME##_v a[4], x;                                                                       \
        NAME##_m ia[4], at[4], nan = {0};                                                       \
        for (int k = 0; k < 4; k++)                                                             \
            for (int j = 0; j < W; j++) {                                                       \
                a[k][j] = q[0];                                                                 \
                ia[k][j] = 0;                                                                   \
                at[k][j] = (I)(k * W + j);                                                      \
            }                                                                                   \
        int64_t i = 0;                                                                          \
        for (; i + 4 * W <= n; i += 4 * W)                                                      \
            for (int k = 0; k < 4; k++) {                                                       \
                memcpy(&x, q + i + k * W, sizeof x);                                            \
                NAME##_m g = is_max ? x > a[k] : x < a[k];                                      \
                a[k] = (NAME##_v)(((NAME##_m)x & g) | ((NAME##_m)a[k] & ~g));                   \
                ia[k] = (at[k] & g) | (ia[k] & ~g);                                             \
                at[k] += (I)(4 * W);                                                            \
                nan |= x != x;                                                                  \
            }                                                                                   \
        T m = q[0];                                                                             \
        int64_t best = 0;                                                                       \
        bool any_nan = false;                                                                   \
        for (int j = 0; j < W; j++)                                                             \
            any_nan |= nan[j] != 0;                                                             \
        for (int k = 0; k < 4; k++)                                                             \
            for (int j = 0; j < W; j++)                                                         \
                if ((is_max ? a[k][j] > m : a[k][j] < m) || (a[k][j] == m && ia[k][j] < best)) { \
                    m = a[k][j];                                                                \
                    best = ia[k][j];                                                            \
                }                                                                               \
        for (; i < n; i++) {                                                                    \
            any_nan |= q[i] != q[i];                                                            \
            if (is_max ? q[i] > m : q[i] < m) {                                                 \
                m = q[i];                                                                       \
                best = i;                                                                       \
            }                                                                                   \
        }                                                                                       \
        *out = m;                                                                               \
        *pos = best;                                                                            \
        return !any_nan;                                                                        \
    }
VEXT(f32, float, 8, int32_t)
VEXT(f64, double, 4, int64_t)
VARG(f32, float, 8, int32_t)
VARG(f64, double, 4, int64_t)

/* the float32 and float64 folds and searches take the explicit vectors;
 * 0 (not taken) for the other dtypes */
#define NO_VEXT(CODE, X)                                                                        \
    static inline bool X##_vfold_any(dt_C_##X first, const char *p, int64_t n, int is_max, dt_C_##X *out) \
    {                                                                                           \
        (void)first, (void)p, (void)n, (void)is_max, (void)out;                                 \
        return false;                                                                           \
    }                                                                                           \
    static inline int64_t X##_vfind_any(dt_C_##X m, const char *p, int64_t n)                   \
    {                                                                                           \
        (void)m, (void)p, (void)n;                                                              \
        return -1;                                                                              \
    }                                                                                           \
    static inline bool X##_vargfold_any(const char *p, int64_t n, int is_max, dt_C_##X *out, int64_t *pos) \
    {                                                                                           \
        (void)p, (void)n, (void)is_max, (void)out, (void)pos;                                   \
        return false;                                                                           \
    }
DT_FOR_EACH_DTYPE(NO_VEXT)
#undef NO_VEXT
/* the widest vectors the CPU has, for runs long enough to gain from them
 * (Note [AVX-512 extremes] in cpu_reduce_simd.c) */
#define AVX512_RUN(n) ((n) >= DT_AVX512_MIN_RUN && dt_cpu_reduce_has_avx512())
#define f32_vargfold_any(p, n, is_max, out, pos)                                                \
    (AVX512_RUN(n) ? dt_avx512_argfold_f32((const float *)(p), n, is_max, out, pos) \
     : dt_cpu_reduce_has_avx2() ? dt_avx2_argfold_f32((const float *)(p), n, is_max, out, pos)   \
                                : (n) <= INT32_MAX && f32_vargfold((const float *)(p), n, is_max, out, pos))
#define f64_vargfold_any(p, n, is_max, out, pos)                                                \
    (AVX512_RUN(n) ? dt_avx512_argfold_f64((const double *)(p), n, is_max, out, pos) \
     : dt_cpu_reduce_has_avx2() ? dt_avx2_argfold_f64((const double *)(p), n, is_max, out, pos)   \
                                : f64_vargfold((const double *)(p), n, is_max, out, pos))
#define f32_vfold_any(first, p, n, is_max, out)                                                 \
    (AVX512_RUN(n) ? dt_avx512_fold_f32(first, (const float *)(p), n, is_max, out) \
     : dt_cpu_reduce_has_avx2() ? dt_avx2_fold_f32(first, (const float *)(p), n, is_max, out)   \
                                : f32_vfold(first, (const float *)(p), n, is_max, out))
#define f64_vfold_any(first, p, n, is_max, out)                                                 \
    (AVX512_RUN(n) ? dt_avx512_fold_f64(first, (const double *)(p), n, is_max, out) \
     : dt_cpu_reduce_has_avx2() ? dt_avx2_fold_f64(first, (const double *)(p), n, is_max, out)   \
                                : f64_vfold(first, (const double *)(p), n, is_max, out))
#define f32_vfind_any(m, p, n) f32_vfind(m, (const float *)(p), n)
#define f64_vfind_any(m, p, n) f64_vfind(m, (const double *)(p), n)

/* The fold keeps lanes by a plain comparison (BETTER: dt_gt or dt_lt),
 * which vectorises, and notes NaN on the side; a run with a NaN is folded
 * again in order by F, so the NaN NumPy returns is the one returned. */
#define IS_MAX_min 0
#define IS_MAX_max 1
#define MINMAX(NAME, X, F, BETTER)                                                               \
    CLONES static dt_C_##X NAME##_fold_##X(dt_C_##X first, const char *p, int64_t n, int64_t s)  \
    {                                                                                            \
        dt_C_##X vm;                                                                             \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X) && !dt_isnan_##X(first) &&   \
            X##_vfold_any(first, p, n, IS_MAX_##NAME, &vm))                                      \
            return vm;                                                                           \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X) && !dt_isnan_##X(first)) {   \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            dt_C_##X lane[LANES];                                                                \
            bool nan = false;                                                                    \
            for (int j = 0; j < LANES; j++)                                                      \
                lane[j] = first;                                                                 \
            int64_t i = 0;                                                                       \
            for (; i + LANES <= n; i += LANES)                                                   \
                for (int j = 0; j < LANES; j++) {                                                \
                    dt_C_##X v = dt_load_##X(q[i + j]);                                          \
                    nan |= dt_isnan_##X(v);                                                      \
                    lane[j] = BETTER(v, lane[j]) ? v : lane[j];                                  \
                }                                                                                \
            for (; i < n; i++) {                                                                 \
                dt_C_##X v = dt_load_##X(q[i]);                                                  \
                nan |= dt_isnan_##X(v);                                                          \
                lane[0] = BETTER(v, lane[0]) ? v : lane[0];                                      \
            }                                                                                    \
            if (!nan) {                                                                          \
                for (int j = 1; j < LANES; j++)                                                  \
                    lane[0] = BETTER(lane[j], lane[0]) ? lane[j] : lane[0];                      \
                return lane[0];                                                                  \
            }                                                                                    \
        }                                                                                        \
        dt_C_##X m = first;                                                                      \
        for (int64_t i = 0; i < n; i++)                                                          \
            m = F(m, LOAD(X, p + i * s));                                                        \
        return m;                                                                                \
    }                                                                                            \
    static void NAME##_init_##X(void *acc, const char *first, int64_t pos)                       \
    {                                                                                            \
        (void)pos;                                                                               \
        *(dt_C_##X *)acc = LOAD(X, first);                                                       \
    }                                                                                            \
    static void NAME##_run_##X(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)     \
    {                                                                                            \
        (void)pos0;                                                                              \
        dt_C_##X *a = (dt_C_##X *)acc;                                                           \
        *a = NAME##_fold_##X(*a, p, n, s);                                                       \
    }                                                                                            \
    static void NAME##_merge_##X(void *acc, const void *later)                                   \
    {                                                                                            \
        dt_C_##X *a = (dt_C_##X *)acc;                                                           \
        *a = F(*a, *(const dt_C_##X *)later);                                                    \
    }                                                                                            \
    CLONES static void NAME##_tile_##X(void *accs, const char *p, int64_t k, int64_t ks, int64_t pos) \
    {                                                                                            \
        (void)pos;                                                                               \
        dt_C_##X *a = (dt_C_##X *)accs;                                                          \
        if (ks == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X)) {                           \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            for (int64_t j = 0; j < k; j++)                                                      \
                a[j] = F(a[j], dt_load_##X(q[j]));                                               \
            return;                                                                              \
        }                                                                                        \
        for (int64_t j = 0; j < k; j++)                                                          \
            a[j] = F(a[j], LOAD(X, p + j * ks));                                                 \
    }                                                                                            \
    static void NAME##_store_##X(char *out, const void *acc, dt_dtype o)                         \
    {                                                                                            \
        (void)o;                                                                                 \
        dt_T_##X v = dt_store_##X(*(const dt_C_##X *)acc);                                       \
        memcpy(out, &v, sizeof v);                                                               \
    }

/* the first position in a run of n elements that holds m (its first NaN if
 * m is NaN); m is in the run.  Blocks of LANES are tested at once. */
#define FIRST_OF(CODE, X)                                                                        \
    CLONES static int64_t first_of_##X(dt_C_##X m, const char *p, int64_t n, int64_t s)         \
    {                                                                                            \
        bool nan = dt_isnan_##X(m);                                                              \
        int64_t i = 0;                                                                           \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X)) {                            \
            int64_t found = X##_vfind_any(m, p, n);                                              \
            if (found >= 0)                                                                      \
                return found;                                                                    \
            const dt_T_##X *q = (const dt_T_##X *)p;                                             \
            for (; i + LANES <= n; i += LANES) {                                                 \
                bool hit = false;                                                                \
                for (int j = 0; j < LANES; j++) {                                                \
                    dt_C_##X v = dt_load_##X(q[i + j]);                                          \
                    hit |= nan ? dt_isnan_##X(v) : dt_eq_##X(v, m);                              \
                }                                                                                \
                if (hit)                                                                         \
                    break;                                                                       \
            }                                                                                    \
        }                                                                                        \
        for (; i < n - 1; i++) {                                                                 \
            dt_C_##X v = LOAD(X, p + i * s);                                                     \
            if (nan ? dt_isnan_##X(v) : dt_eq_##X(v, m))                                         \
                break;                                                                           \
        }                                                                                        \
        return i;                                                                                \
    }
DT_FOR_EACH_DTYPE(FIRST_OF)

/* ---- ARGMIN and ARGMAX: the run's extreme by lanes (MIN/MAX's fold), then
 * its first position; NaN's first position if the extreme is NaN ---- */
#define ARGEXT(NAME, X, FOLD, MERGE, IS_MAX)                                                     \
    static void NAME##_init_##X(void *acc, const char *first, int64_t pos)                       \
    {                                                                                            \
        *(dt_arg_##X *)acc = dt_arg_make_##X(LOAD(X, first), pos);                               \
    }                                                                                            \
    static void NAME##_run_##X(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)     \
    {                                                                                            \
        dt_C_##X vm;                                                                             \
        int64_t at;                                                                              \
        if (s == (int64_t)sizeof(dt_T_##X) && ALIGNED(p, dt_T_##X) &&                            \
            X##_vargfold_any(p, n, IS_MAX, &vm, &at)) { /* one pass; else two, below */          \
            dt_arg_##X *a = (dt_arg_##X *)acc;                                                   \
            *a = MERGE(*a, dt_arg_make_##X(vm, pos0 + at));                                      \
            return;                                                                              \
        }                                                                                        \
        dt_C_##X m = FOLD(LOAD(X, p), p, n, s);                                                  \
        int64_t j = first_of_##X(m, p, n, s);                                                    \
        dt_arg_##X *a = (dt_arg_##X *)acc;                                                       \
        *a = MERGE(*a, dt_arg_make_##X(m, pos0 + j));                                            \
    }                                                                                            \
    static void NAME##_merge_##X(void *acc, const void *later)                                   \
    {                                                                                            \
        dt_arg_##X *a = (dt_arg_##X *)acc;                                                       \
        *a = MERGE(*a, *(const dt_arg_##X *)later);                                              \
    }                                                                                            \
    static void NAME##_tile_##X(void *accs, const char *p, int64_t k, int64_t ks, int64_t pos)   \
    {                                                                                            \
        dt_arg_##X *a = (dt_arg_##X *)accs;                                                      \
        for (int64_t j = 0; j < k; j++)                                                          \
            a[j] = MERGE(a[j], dt_arg_make_##X(LOAD(X, p + j * ks), pos));                       \
    }                                                                                            \
    static void NAME##_store_##X(char *out, const void *acc, dt_dtype o)                         \
    {                                                                                            \
        (void)o;                                                                                 \
        memcpy(out, &((const dt_arg_##X *)acc)->i, sizeof(int64_t));                             \
    }

/* ---- ANY and ALL: IS_ALL 0 or 1 ---- */
#define ANYALL(NAME, X, IS_ALL)                                                                  \
    static void NAME##_init_##X(void *acc, const char *first, int64_t pos)                       \
    {                                                                                            \
        (void)first;                                                                             \
        (void)pos;                                                                               \
        *(bool *)acc = IS_ALL;                                                                   \
    }                                                                                            \
    static void NAME##_run_##X(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)     \
    {                                                                                            \
        (void)pos0;                                                                              \
        bool *a = (bool *)acc;                                                                   \
        for (int64_t i = 0; i < n && *a == IS_ALL; i += BLOCK) {                                 \
            int64_t e = n - i < BLOCK ? n : i + BLOCK;                                           \
            bool hit = false; /* an element that decides: false for ALL, true for ANY */         \
            for (int64_t j = i; j < e; j++)                                                      \
                hit |= dt_truth_##X(LOAD(X, p + j * s)) != IS_ALL;                               \
            if (hit)                                                                             \
                *a = !IS_ALL;                                                                    \
        }                                                                                        \
    }                                                                                            \
    static void NAME##_merge_##X(void *acc, const void *later)                                   \
    {                                                                                            \
        bool *a = (bool *)acc, b = *(const bool *)later;                                         \
        *a = IS_ALL ? (*a && b) : (*a || b);                                                     \
    }                                                                                            \
    static void NAME##_tile_##X(void *accs, const char *p, int64_t k, int64_t ks, int64_t pos)   \
    {                                                                                            \
        (void)pos;                                                                               \
        bool *a = (bool *)accs;                                                                  \
        for (int64_t j = 0; j < k; j++) {                                                        \
            bool t = dt_truth_##X(LOAD(X, p + j * ks));                                          \
            a[j] = IS_ALL ? (a[j] && t) : (a[j] || t);                                           \
        }                                                                                        \
    }                                                                                            \
    static void NAME##_store_##X(char *out, const void *acc, dt_dtype o)                         \
    {                                                                                            \
        (void)o;                                                                                 \
        memcpy(out, acc, 1);                                                                     \
    }

#define ACC_ADD(X) DT_RPASTE(dt_acc_add_, DT_ACC_##X)
#define ACC_MUL(X) DT_RPASTE(dt_acc_mul_, DT_ACC_##X)
#define ACC_ZERO(X) DT_RPASTE(dt_acc_zero_, DT_ACC_##X)
#define ACC_ONE(X) DT_RPASTE(dt_acc_one_, DT_ACC_##X)

#define REDUCERS(CODE, X)                                                       \
    SUMPROD(sum, X, ACC_ADD(X), ACC_ZERO(X))                                    \
    SUMPROD(prod, X, ACC_MUL(X), ACC_ONE(X))                                    \
    MINMAX(min, X, dt_min_##X, dt_lt_##X)                                       \
    MINMAX(max, X, dt_max_##X, dt_gt_##X)                                       \
    ARGEXT(argmin, X, min_fold_##X, dt_argmin_merge_##X, 0)                     \
    ARGEXT(argmax, X, max_fold_##X, dt_argmax_merge_##X, 1)                     \
    ANYALL(any, X, 0)                                                           \
    ANYALL(all, X, 1)
DT_FOR_EACH_DTYPE(REDUCERS)

#define ENTRY_(NAME, X, ACC) \
    {sizeof(ACC), NAME##_init_##X, NAME##_run_##X, NAME##_merge_##X, NAME##_tile_##X, NAME##_store_##X},
#define ENTRIES(CODE, X)                                                                 \
    {ENTRY_(sum, X, sum_acc_##X) ENTRY_(prod, X, prod_acc_##X) ENTRY_(min, X, dt_C_##X)  \
     ENTRY_(max, X, dt_C_##X) ENTRY_(argmin, X, dt_arg_##X) ENTRY_(argmax, X, dt_arg_##X) \
     ENTRY_(any, X, bool) ENTRY_(all, X, bool)},
/* reducers[dtype][op], in the orders of dt_dtype and DT_REDUCE_LIST */
static const reducer reducers[DT_NUM_DTYPES][DT_NUM_REDUCE_OPS] = {DT_FOR_EACH_DTYPE(ENTRIES)};

/* SUM's runs of bool, int8 and uint8: contiguous ones by dt_avx2_sum_bytes
 * (Note [Byte sums] in cpu_reduce_simd.c), the rest by the table's */
#define BYTE_SUM_RUN(X, KIND)                                                                      \
    static void byte_sum_run_##X(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)   \
    {                                                                                            \
        if (s != 1) {                                                                            \
            sum_run_##X(acc, p, n, s, pos0);                                                     \
            return;                                                                              \
        }                                                                                        \
        sum_acc_##X *a = (sum_acc_##X *)acc;                                                     \
        *a = (sum_acc_##X)((uint64_t)*a + dt_avx2_sum_bytes((const unsigned char *)p, n, KIND)); \
    }
BYTE_SUM_RUN(b, DT_BYTES_BOOL)
BYTE_SUM_RUN(i8, DT_BYTES_INT8)
BYTE_SUM_RUN(u8, DT_BYTES_UINT8)

/* float64 SUM's runs: NumPy's order (Note [float64 sums are NumPy's] in
 * cpu_pairwise.c), read as suits data in cache or not; the rest of their
 * reducers is the table's */
#define IN_CACHE_BYTES (512 * 1024)
static void numpy_sum_run_f64(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)
{
    (void)pos0;
    *(double *)acc += dt_pairwise_f64(p, n, s, 0);
}

static void numpy_sum_run_cached_f64(void *acc, const char *p, int64_t n, int64_t s, int64_t pos0)
{
    (void)pos0;
    *(double *)acc += dt_pairwise_f64(p, n, s, 1);
}

static const reducer numpy_sum_f64 = {sizeof(double), sum_init_f64, numpy_sum_run_f64, sum_merge_f64,
                                      sum_tile_f64, sum_store_f64};
static const reducer numpy_sum_cached_f64 = {sizeof(double), sum_init_f64, numpy_sum_run_cached_f64,
                                             sum_merge_f64, sum_tile_f64, sum_store_f64};

/* Note [Eight rows at a time]
 * OUTER sums of float32 read eight rows per pass over the tile and add
 * them in float (in pairs, as a tree) before the double accumulator takes
 * the result: the float adds run at the input's vector width, and each
 * element is rounded at most three times in float before joining the
 * double sum, where NumPy's outer-axis sum rounds once per row. */
#define ROWS8 8
CLONES static void sum_tile8_f32(void *accs, const char *const *rows, int64_t k)
{
    double *a = (double *)accs;
    const float *r0 = (const float *)rows[0], *r1 = (const float *)rows[1], *r2 = (const float *)rows[2],
                *r3 = (const float *)rows[3], *r4 = (const float *)rows[4], *r5 = (const float *)rows[5],
                *r6 = (const float *)rows[6], *r7 = (const float *)rows[7];
    for (int64_t j = 0; j < k; j++)
        a[j] += (double)(((r0[j] + r1[j]) + (r2[j] + r3[j])) + ((r4[j] + r5[j]) + (r6[j] + r7[j])));
}

/* ---- drivers ---- */
typedef struct {
    const dt_reduce_loop *l;
    const reducer *r;
    int64_t tile; /* OUTER: outputs per tile */
    int eight;    /* OUTER: float32 SUM over aligned contiguous rows (Note [Eight rows at a time]) */
} job;

/* the byte offsets of position i in an axis group (C order) */
static void unravel(int64_t i, int nd, const int64_t *shape, const int64_t *s1, const int64_t *s2, int64_t *o1,
                    int64_t *o2)
{
    int64_t a = 0, b = 0;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t c = i % shape[d];
        i /= shape[d];
        a += c * s1[d];
        if (s2 != NULL)
            b += c * s2[d];
    }
    *o1 = a;
    if (o2 != NULL)
        *o2 = b;
}

/* fold every reduced element of the output whose input base is `base` */
static void inner_one(const job *jb, const char *base, void *acc)
{
    const dt_reduce_loop *l = jb->l;
    int nr = l->red_ndim;
    int64_t len = l->red_shape[nr - 1], s = l->red_strides[nr - 1], outer = l->n_red / len;
    jb->r->init(acc, base, 0);
    for (int64_t q = 0; q < outer; q++) {
        int64_t off;
        unravel(q, nr - 1, l->red_shape, l->red_strides, NULL, &off, NULL);
        jb->r->run(acc, base + off, len, s, q * len);
    }
}

static void inner_range(int64_t begin, int64_t end, void *ctx)
{
    const job *jb = (const job *)ctx;
    const dt_reduce_loop *l = jb->l;
    acc_buf acc;
    for (int64_t o = begin; o < end; o++) {
        int64_t in_off, out_off;
        unravel(o, l->kept_ndim, l->kept_shape, l->kept_in_strides, l->kept_out_strides, &in_off, &out_off);
        inner_one(jb, l->in + in_off, &acc);
        jb->r->store(l->out + out_off, &acc, l->out_dtype);
    }
}

/* one long run cut into parts (Note [Two reduction loops]) */
typedef struct {
    const job *jb;
    const char *base;
    int64_t n, s, per;
    acc_buf parts[MAX_PARTS];
} split;

static void split_range(int64_t begin, int64_t end, void *ctx)
{
    split *sp = (split *)ctx;
    for (int64_t k = begin; k < end; k++) {
        int64_t a = k * sp->per, n = sp->n - a < sp->per ? sp->n - a : sp->per;
        const char *p = sp->base + a * sp->s;
        sp->jb->r->init(&sp->parts[k], p, a);
        sp->jb->r->run(&sp->parts[k], p, n, sp->s, a);
    }
}

/* float64 SUM's long run: the subtrees of NumPy's recursion summed by
 * threads, then joined as the recursion joins them (cpu_pairwise.h) */
#define PAIRWISE_DEPTH 6 /* 64 subtrees: MAX_PARTS */
typedef struct {
    const char *base;
    int64_t s, starts[MAX_PARTS], lens[MAX_PARTS];
    double sums[MAX_PARTS];
} pairwise_parts;

static void pairwise_range(int64_t begin, int64_t end, void *ctx)
{
    pairwise_parts *pp = (pairwise_parts *)ctx;
    for (int64_t k = begin; k < end; k++)
        pp->sums[k] = dt_pairwise_f64(pp->base + pp->starts[k] * pp->s, pp->lens[k], pp->s, 0);
}

static void split_pairwise_outputs(const dt_reduce_loop *l)
{
    pairwise_parts pp;
    pp.s = l->red_strides[0];
    int nparts = dt_pairwise_split(l->n_red, PAIRWISE_DEPTH, pp.starts, pp.lens);
    for (int64_t o = 0; o < l->n_out; o++) {
        int64_t in_off, out_off;
        unravel(o, l->kept_ndim, l->kept_shape, l->kept_in_strides, l->kept_out_strides, &in_off, &out_off);
        pp.base = l->in + in_off;
        dt_cpu_parallel_for(nparts, 1, pairwise_range, &pp);
        double sum = 0. + dt_pairwise_join(l->n_red, PAIRWISE_DEPTH, pp.sums);
        sum_store_f64(l->out + out_off, &sum, l->out_dtype);
    }
}

static void split_outputs(const job *jb)
{
    if (jb->l->op == DT_REDUCE_SUM && jb->l->in_dtype == DT_FLOAT64) { /* Note [float64 sums are NumPy's] */
        split_pairwise_outputs(jb->l);
        return;
    }
    const dt_reduce_loop *l = jb->l;
    split sp;
    sp.jb = jb;
    sp.n = l->n_red;
    sp.s = l->red_strides[0];
    int64_t nparts = l->n_red / PART < MAX_PARTS ? l->n_red / PART : MAX_PARTS;
    sp.per = (l->n_red + nparts - 1) / nparts;
    nparts = (l->n_red + sp.per - 1) / sp.per;
    for (int64_t o = 0; o < l->n_out; o++) {
        int64_t in_off, out_off;
        unravel(o, l->kept_ndim, l->kept_shape, l->kept_in_strides, l->kept_out_strides, &in_off, &out_off);
        sp.base = l->in + in_off;
        dt_cpu_parallel_for(nparts, 1, split_range, &sp);
        for (int64_t k = 1; k < nparts; k++)
            jb->r->merge(&sp.parts[0], &sp.parts[k]);
        jb->r->store(l->out + out_off, &sp.parts[0], l->out_dtype);
    }
}

static void outer_range(int64_t begin, int64_t end, void *ctx)
{
    const job *jb = (const job *)ctx;
    const dt_reduce_loop *l = jb->l;
    const reducer *r = jb->r;
    int nk = l->kept_ndim;
    int64_t len = l->kept_shape[nk - 1], ks = l->kept_in_strides[nk - 1], os = l->kept_out_strides[nk - 1];
    int64_t tile = jb->tile, per_row = (len + tile - 1) / tile;
    _Alignas(16) char a[TILE_BYTES]; /* tile accumulators of r->size bytes */
    for (int64_t t = begin; t < end; t++) {
        int64_t row = t / per_row, j0 = (t % per_row) * tile, k = len - j0 < tile ? len - j0 : tile;
        int64_t in_off, out_off;
        unravel(row, nk - 1, l->kept_shape, l->kept_in_strides, l->kept_out_strides, &in_off, &out_off);
        const char *base = l->in + in_off + j0 * ks;
        for (int64_t j = 0; j < k; j++)
            r->init(a + j * r->size, base + j * ks, 0);
        int64_t q = 0;
        if (jb->eight) { /* Note [Eight rows at a time] */
            for (; q + ROWS8 <= l->n_red; q += ROWS8) {
                const char *rows[ROWS8];
                for (int i = 0; i < ROWS8; i++) {
                    int64_t off;
                    unravel(q + i, l->red_ndim, l->red_shape, l->red_strides, NULL, &off, NULL);
                    rows[i] = base + off;
                }
                sum_tile8_f32(a, rows, k);
            }
        }
        for (; q < l->n_red; q++) {
            int64_t off;
            unravel(q, l->red_ndim, l->red_shape, l->red_strides, NULL, &off, NULL);
            r->tile(a, base + off, k, ks, q);
        }
        char *out = l->out + out_off + j0 * os;
        for (int64_t j = 0; j < k; j++)
            r->store(out + j * os, a + j * r->size, l->out_dtype);
    }
}

/* OUTER's tile: as long as its accumulators fit TILE_BYTES, but short
 * enough that every thread gets tiles.  One thread keeps its tiles whole:
 * halves of rows gave it twice the read streams, and the sum over axis 0
 * of a 4000x1000 float32 ran at 0.91x NumPy's speed (1.04x with whole rows). */
static int64_t outer_tile(const dt_reduce_loop *l, const reducer *r)
{
    int64_t len = l->kept_shape[l->kept_ndim - 1], rows = l->n_out / len;
    int64_t tile = (int64_t)(TILE_BYTES / r->size), threads = dt_cpu_get_num_threads();
    if (threads > 1 && rows < 2 * threads) { /* cut each row in pieces: two per thread in all */
        int64_t pieces = (2 * threads + rows - 1) / rows;
        int64_t share = ((len + pieces - 1) / pieces + LANES - 1) / LANES * LANES;
        if (share < tile)
            tile = share;
    }
    return tile < LANES ? LANES : tile;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

dt_status dt_cpu_run_reduce(const dt_reduce_loop *l, dt_error *err)
{
    DT_TRY(dt_reduce_loop_check(l, err));
    job jb = {l, &reducers[l->in_dtype][l->op], 0, 0};
    if (l->op == DT_REDUCE_SUM && l->in_dtype == DT_FLOAT64) /* Note [float64 sums are NumPy's] */
        jb.r = l->n_red * l->n_out <= IN_CACHE_BYTES / 8 ? &numpy_sum_cached_f64 : &numpy_sum_f64;
    reducer bytes; /* Note [Byte sums] in cpu_reduce_simd.c */
    if (l->op == DT_REDUCE_SUM && dt_cpu_reduce_has_avx2() &&
        (l->in_dtype == DT_BOOL || l->in_dtype == DT_INT8 || l->in_dtype == DT_UINT8)) {
        bytes = *jb.r;
        bytes.run = l->in_dtype == DT_BOOL ? byte_sum_run_b : l->in_dtype == DT_INT8 ? byte_sum_run_i8 : byte_sum_run_u8;
        jb.r = &bytes;
    }
    int nk = l->kept_ndim, nr = l->red_ndim;
    if (nk > 0 && l->n_red > 1 && abs64(l->kept_in_strides[nk - 1]) < abs64(l->red_strides[nr - 1])) {
        jb.tile = outer_tile(l, jb.r);
        int all_aligned = 1; /* every row start: the base plus reduced strides, all multiples of 4 */
        all_aligned &= ALIGNED(l->in, float);
        for (int d = 0; d < nk; d++)
            all_aligned &= l->kept_in_strides[d] % 4 == 0;
        for (int d = 0; d < nr; d++)
            all_aligned &= l->red_strides[d] % 4 == 0;
        jb.eight = l->op == DT_REDUCE_SUM && l->in_dtype == DT_FLOAT32 && l->kept_in_strides[nk - 1] == 4 &&
                   all_aligned;
        int64_t len = l->kept_shape[nk - 1], tiles = (l->n_out / len) * ((len + jb.tile - 1) / jb.tile);
        int64_t work = l->n_red * (len < jb.tile ? len : jb.tile);
        dt_cpu_parallel_for(tiles, 1 + GRAIN / work, outer_range, &jb);
    } else if (nr == 1 && l->n_red >= 2 * PART && l->n_out < 4 * dt_cpu_get_num_threads()) {
        split_outputs(&jb);
    } else {
        dt_cpu_parallel_for(l->n_out, 1 + GRAIN / l->n_red, inner_range, &jb);
    }
    return DT_OK;
}
