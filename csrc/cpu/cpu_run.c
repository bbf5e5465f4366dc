/* cpu_run.c - runs the CPU's inner loops over a whole dt_loop (the outer
 * iteration over the coalesced dimensions) and fills dt_gen requests,
 * splitting big ones across the thread pool (cpu_parallel.h).
 *
 * Note [Splitting loops across threads]
 * A loop is split over its flattened C-order element range: each chunk
 * unravels its first index, then runs the same inner loop on partial and
 * whole rows, so a 1-d loop splits its inner range and an n-d loop splits
 * rows (a (3, 10^7) broadcast still splits evenly).  Chunks write disjoint
 * outputs and every element is computed by the same loop function as in a
 * single-threaded run, so results are bit-identical for any thread count.
 * Chunk bounds are multiples of DT_CPU_SPLIT_ALIGN elements so that chunks
 * of contiguous outputs do not share cache lines (and vector loops keep
 * their alignment).
 *
 * Note [Split thresholds]
 * Measured on a 2-core x86-64 (AMD EPYC VM, GCC 12 -O2; csrc/cpu loops not
 * yet vectorized): handing a range to a worker costs ~1 us when the worker
 * is still spinning from the previous op (Note [Spinning before sleeping]
 * in cpu_parallel.c) and ~10-40 us when it has to be woken, more on a
 * machine whose other cores are busy.  So a range is split only when one
 * thread would need well over 40 us for it:
 *   - memory-bound loops (arithmetic, comparisons, casts, where): from 2^17
 *     elements (a float32 add of 2^17 takes ~35 us scalar, ~9 us vectorized;
 *     at 2^18 two threads were 1.7-1.9x faster, at 2^16 no faster);
 *   - transcendental loops (exp, log, sin, pow, ... ~5-15 ns an element):
 *     from 2^14 elements;
 *   - random draws (Philox ~12 ns an element, normals ~33 ns): from 2^13;
 *   - arange/linspace (~1.3 ns an element): from 2^17, like loops;
 *   - fills (memset speed, ~0.04 ns an element; page faults dominate): from
 *     2^19 elements.
 * Chunks are at least DT_CPU_GRAIN elements (4096), so a worker that wakes
 * late still finds work and a preempted one holds up little.
 */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>
#include "cpu_parallel.h"
#include "ops.h"
#include "cpu_random.h"

#define DT_CPU_SPLIT_ALIGN 64
/* Split from this many elements (Note [Split thresholds]; -D overrides
 * them for measuring) ... */
#ifndef DT_CPU_LOOP_MIN_NUMEL
#define DT_CPU_LOOP_MIN_NUMEL ((int64_t)1 << 17)
#endif
#ifndef DT_CPU_MATH_MIN_NUMEL
#define DT_CPU_MATH_MIN_NUMEL ((int64_t)1 << 14)
#endif
#ifndef DT_CPU_RANDOM_MIN_NUMEL
#define DT_CPU_RANDOM_MIN_NUMEL ((int64_t)1 << 13)
#endif
#ifndef DT_CPU_AFFINE_MIN_NUMEL
#define DT_CPU_AFFINE_MIN_NUMEL ((int64_t)1 << 17)
#endif
#ifndef DT_CPU_FILL_MIN_NUMEL
#define DT_CPU_FILL_MIN_NUMEL ((int64_t)1 << 19)
#endif
/* ... in chunks of at least this many. */
#define DT_CPU_GRAIN ((int64_t)1 << 12)

/* The split threshold of a loop: lower for ops that call libm. */
static int64_t dt_cpu_loop_min_numel(int op)
{
    switch (op) {
    case DT_OP_POW: case DT_OP_ATAN2: case DT_OP_HYPOT: case DT_OP_LOGADDEXP:
    case DT_OP_EXP: case DT_OP_EXPM1: case DT_OP_LOG: case DT_OP_LOG1P: case DT_OP_LOG2:
    case DT_OP_LOG10: case DT_OP_SIN: case DT_OP_COS: case DT_OP_TAN: case DT_OP_ASIN:
    case DT_OP_ACOS: case DT_OP_ATAN: case DT_OP_SINH: case DT_OP_COSH: case DT_OP_TANH:
    case DT_OP_ASINH: case DT_OP_ACOSH: case DT_OP_ATANH:
        return DT_CPU_MATH_MIN_NUMEL;
    default:
        return DT_CPU_LOOP_MIN_NUMEL;
    }
}

/* ---- the outer iteration ---- */

/* Run elements [begin, end) of the flattened C-order iteration space. */
static void dt_cpu_loop_run_range(const dt_loop *loop, dt_cpu_inner_loop inner, int64_t begin,
                                  int64_t end)
{
    int nd = loop->ndim, nop = loop->nop;
    int64_t n = loop->shape[nd - 1];
    char *ptrs[DT_MAX_OPERANDS], *args[DT_MAX_OPERANDS];
    int64_t inner_strides[DT_MAX_OPERANDS], idx[DT_MAX_NDIM];
    for (int k = 0; k < nop; k++) {
        ptrs[k] = loop->data[k];
        inner_strides[k] = loop->strides[k][nd - 1];
    }
    if (begin == 0) {
        memset(idx, 0, sizeof(int64_t) * (size_t)nd);
    } else {
        int64_t rest = begin;
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = rest % loop->shape[d];
            rest /= loop->shape[d];
            for (int k = 0; k < nop; k++)
                ptrs[k] += idx[d] * loop->strides[k][d];
        }
    }
    for (int64_t pos = begin; pos < end;) {
        int64_t m = n - idx[nd - 1];
        if (m > end - pos)
            m = end - pos;
        memcpy(args, ptrs, sizeof(char *) * (size_t)nop); /* the loop may not keep ptrs intact */
        inner(args, inner_strides, m);
        pos += m;
        if (pos >= end)
            break;
        /* the row is done: back to its start, then step the outer index */
        for (int k = 0; k < nop; k++)
            ptrs[k] -= idx[nd - 1] * inner_strides[k];
        idx[nd - 1] = 0;
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
}

typedef struct dt_cpu_loop_job {
    const dt_loop *loop;
    dt_cpu_inner_loop inner;
    int64_t numel;
} dt_cpu_loop_job;

/* A chunk of blocks of DT_CPU_SPLIT_ALIGN elements. */
static void dt_cpu_loop_run_blocks(int64_t begin, int64_t end, void *ctx)
{
    const dt_cpu_loop_job *job = ctx;
    int64_t b = begin * DT_CPU_SPLIT_ALIGN, e = end * DT_CPU_SPLIT_ALIGN;
    dt_cpu_loop_run_range(job->loop, job->inner, b, e < job->numel ? e : job->numel);
}

/* Note [Short inner axes]
 * The inner loop runs along the last axis, one call per row, so an output
 * of many short rows -- repeat(a, 2) is a copy of a view of shape (n, 2)
 * with strides (8, 0) -- cost a call per two elements: 6.9 ms for 10^6
 * rows, where two strided passes of 10^6 take 0.7.  A last axis of at
 * most SHORT_INNER elements under one at least LONG_OUTER times longer
 * changes places with it.  Every element is computed alone (Note [Loop
 * axes in memory order] in elementwise.c), so no value changes. */
#define SHORT_INNER 8
#define LONG_OUTER 8
static const dt_loop *long_rows(const dt_loop *loop, dt_loop *swapped)
{
    int nd = loop->ndim;
    if (nd < 2 || loop->shape[nd - 1] > SHORT_INNER || loop->shape[nd - 2] < LONG_OUTER * loop->shape[nd - 1])
        return loop;
    *swapped = *loop;
    swapped->shape[nd - 1] = loop->shape[nd - 2], swapped->shape[nd - 2] = loop->shape[nd - 1];
    for (int k = 0; k < loop->nop; k++)
        swapped->strides[k][nd - 1] = loop->strides[k][nd - 2], swapped->strides[k][nd - 2] = loop->strides[k][nd - 1];
    return swapped;
}

dt_status dt_cpu_run_loop(const dt_loop *given, dt_error *err)
{
    dt_loop swapped;
    const dt_loop *loop = long_rows(given, &swapped); /* Note [Short inner axes] */
    dt_dtype dtypes[3] = {loop->dtypes[0], loop->dtypes[1],
                          loop->nop > 2 ? loop->dtypes[2] : loop->dtypes[1]};
    dt_cpu_inner_loop inner = dt_cpu_find_loop(loop->op, dtypes);
    if (inner == NULL)
        return dt_error_set(err, DT_ERR_TYPE, "no CPU loop for op %d with dtypes %s, %s", loop->op,
                            dt_dtype_get_info(dtypes[1]) ? dt_dtype_get_info(dtypes[1])->name : "?",
                            dt_dtype_get_info(dtypes[0]) ? dt_dtype_get_info(dtypes[0])->name : "?");
    if (loop->numel < dt_cpu_loop_min_numel(loop->op)) {
        dt_cpu_loop_run_range(loop, inner, 0, loop->numel);
        return DT_OK;
    }
    dt_cpu_loop_job job = {loop, inner, loop->numel};
    int64_t blocks = (loop->numel + DT_CPU_SPLIT_ALIGN - 1) / DT_CPU_SPLIT_ALIGN;
    dt_cpu_parallel_for(blocks, DT_CPU_GRAIN / DT_CPU_SPLIT_ALIGN, dt_cpu_loop_run_blocks, &job);
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

typedef struct dt_cpu_gen_job {
    const dt_gen *g;
    int64_t itemsize;
    int integral;              /* compute in int64 (else float64) */
    int bits;                  /* uniform_bits(dtype) */
    dt_cpu_inner_loop cast;    /* int64 or float64 -> dtype */
} dt_cpu_gen_job;

/* Elements [begin, end) of a generation: element i depends only on i. */
static void dt_cpu_gen_run_range(const dt_cpu_gen_job *job, int64_t begin, int64_t end)
{
    const dt_gen *g = job->g;
    int64_t itemsize = job->itemsize;
    if (g->kind == DT_GEN_FILL) {
        fill_bytes((char *)g->data + begin * itemsize, g->value.bytes, itemsize, end - begin);
        return;
    }
    /* Other kinds compute a chunk of int64 or float64 values, then cast. */
    union { int64_t i[GEN_CHUNK]; double f[GEN_CHUNK]; } buf;
    uint64_t words[2][GEN_CHUNK]; /* Philox's output, before the draws are made from it */
    for (int64_t start = begin; start < end; start += GEN_CHUNK) {
        int64_t m = end - start < GEN_CHUNK ? end - start : GEN_CHUNK;
        uint64_t counter = g->offset + (uint64_t)start;
        switch (g->kind) { /* Note [Philox in blocks] in cpu_random.c */
        case DT_GEN_AFFINE:
            for (int64_t j = 0, i = start; j < m; j++, i++) {
                if (job->integral)
                    buf.i[j] = (int64_t)((uint64_t)g->istart + (uint64_t)i * (uint64_t)g->istep);
                else
                    buf.f[j] = g->start + (double)i * g->step;
            }
            break;
        case DT_GEN_UNIFORM:
            dt_cpu_philox_uniform(g->seed, counter, m, job->bits, g->low, g->high, buf.f, words[0]);
            break;
        case DT_GEN_NORMAL:
            dt_cpu_philox_normal(g->seed, counter, m, g->low, g->high, buf.f, words[0], words[1]);
            break;
        default: /* DT_GEN_RANDINT */
            dt_cpu_philox_randint(g->seed, counter, m, g->ilow, g->ihigh, buf.i, words[0]);
            break;
        }
        char *ptrs[2] = {(char *)g->data + start * itemsize, (char *)&buf};
        int64_t strides[2] = {itemsize, 8};
        job->cast(ptrs, strides, m);
    }
}

static void dt_cpu_gen_run_blocks(int64_t begin, int64_t end, void *ctx)
{
    const dt_cpu_gen_job *job = ctx;
    int64_t b = begin * DT_CPU_SPLIT_ALIGN, e = end * DT_CPU_SPLIT_ALIGN;
    dt_cpu_gen_run_range(job, b, e < job->g->n ? e : job->g->n);
}

dt_status dt_cpu_generate(const dt_gen *g, dt_error *err)
{
    const dt_dtype_info *info = dt_dtype_get_info(g->dtype);
    if (info == NULL)
        return dt_error_set(err, DT_ERR_TYPE, "invalid dtype");
    if (g->n <= 0)
        return DT_OK;
    dt_cpu_gen_job job = {.g = g, .itemsize = info->itemsize};
    int64_t min_numel = DT_CPU_FILL_MIN_NUMEL;
    if (g->kind != DT_GEN_FILL) {
        job.integral = g->kind == DT_GEN_RANDINT ||
                       (g->kind == DT_GEN_AFFINE && (info->kind == DT_KIND_INT ||
                                                     info->kind == DT_KIND_UINT ||
                                                     info->kind == DT_KIND_BOOL));
        dt_dtype wide = job.integral ? DT_INT64 : DT_FLOAT64;
        dt_dtype cast_types[3] = {g->dtype, wide, wide};
        job.cast = dt_cpu_find_loop(DT_OP_COPY, cast_types);
        if (job.cast == NULL)
            return dt_error_set(err, DT_ERR_TYPE, "no CPU cast to %s", info->name);
        job.bits = uniform_bits(g->dtype);
        min_numel = g->kind == DT_GEN_AFFINE ? DT_CPU_AFFINE_MIN_NUMEL : DT_CPU_RANDOM_MIN_NUMEL;
    }
    if (g->n < min_numel) {
        dt_cpu_gen_run_range(&job, 0, g->n);
        return DT_OK;
    }
    int64_t blocks = (g->n + DT_CPU_SPLIT_ALIGN - 1) / DT_CPU_SPLIT_ALIGN;
    dt_cpu_parallel_for(blocks, DT_CPU_GRAIN / DT_CPU_SPLIT_ALIGN, dt_cpu_gen_run_blocks, &job);
    return DT_OK;
}
