/* cpu_search.c - the CPU backend's binary search (backend.h's
 * dt_search_loop): one search per value, value ranges across threads, in
 * NumPy's sort order (reduce_ops.h's dt_order_lt). */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>

#include "cpu_parallel.h"
#include "loop_check.h"
#include "reduce_ops.h"

#define LOAD(X, p) (memcpy(&raw, (p), sizeof raw), dt_load_##X(raw))

#define SEARCH(CODE, X)                                                                 \
    static void search_##X(const dt_search_loop *l, int64_t begin, int64_t end)        \
    {                                                                                   \
        dt_T_##X raw;                                                                   \
        for (int64_t i = begin; i < end; i++) {                                         \
            int64_t off = 0, rest = i;                                                  \
            for (int d = l->ndim - 1; d >= 0; d--) {                                    \
                off += (rest % l->shape[d]) * l->value_strides[d];                      \
                rest /= l->shape[d];                                                    \
            }                                                                           \
            dt_C_##X v = LOAD(X, l->values + off);                                      \
            int64_t lo = 0, hi = l->n;                                                  \
            while (lo < hi) {                                                           \
                int64_t mid = lo + (hi - lo) / 2;                                       \
                dt_C_##X x = LOAD(X, l->sorted + mid * l->sorted_stride);               \
                if (l->right ? !dt_order_lt_##X(v, x) : dt_order_lt_##X(x, v))          \
                    lo = mid + 1;                                                       \
                else                                                                    \
                    hi = mid;                                                           \
            }                                                                           \
            l->out[i] = lo;                                                             \
        }                                                                               \
    }
DT_FOR_EACH_DTYPE(SEARCH)

typedef void (*search_fn)(const dt_search_loop *, int64_t, int64_t);
#define SEARCH_ENTRY(CODE, X) search_##X,
static const search_fn searches[DT_NUM_DTYPES] = {DT_FOR_EACH_DTYPE(SEARCH_ENTRY)};

static void search_range(int64_t begin, int64_t end, void *ctx)
{
    const dt_search_loop *l = (const dt_search_loop *)ctx;
    searches[l->dtype](l, begin, end);
}

dt_status dt_cpu_run_search(const dt_search_loop *l, dt_error *err)
{
    DT_TRY(dt_search_loop_check(l, err));
    dt_cpu_parallel_for(l->numel, 1 << 12, search_range, (void *)l);
    return DT_OK;
}
