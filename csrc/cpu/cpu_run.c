/* cpu_run.c - runs the CPU's inner loops over a whole dt_loop (the outer
 * iteration over the coalesced dimensions) and fills dt_gen requests. */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>
#include "ops.h"
#include "philox.h"

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
