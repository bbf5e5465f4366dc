/* cuda_reduce.cu - the CUDA backend's reductions and scans (backend.h's
 * dt_reduce_loop and dt_scan_loop), with the semantics of csrc/core/reduce_ops.h; run on the
 * CPU by the emulation in CI (csrc/emu).
 *
 * Note [Reduction kernels]
 *   k_reduce_inner   a block per output (grid-stride): its threads stride
 *                    over the reduced elements, then fold their accumulators
 *                    in shared memory, a tree with a barrier per level.
 *   k_reduce_outer   a thread per output, walking its reduced elements in
 *                    order: chosen when a kept axis has the smallest stride
 *                    (sum(axis=0) of a C-order matrix), so neighbouring
 *                    threads read neighbouring elements, and for short rows
 *                    (at most kShortRow elements: the norm of 3-vectors),
 *                    where a block per output would leave all but a few of
 *                    its threads idle through a barrier per tree level (an
 *                    N-body step's norms were 1000x slower than axis=0's
 *                    under the emulation).
 * Few outputs of many elements would leave the GPU idle (one output: one
 * block; sum(axis=0) of 8192 x 8192: 8192 threads, 0.08x PyTorch's time on
 * an H200), so the reduced elements are cut in parts (grid.y) until about
 * kTargetBlocks blocks (kTargetThreads threads for the outer kernel, when
 * it reads at least kMinSplitWork elements) run,
 * each part leaving its partial in the loop's work memory; then
 * k_reduce_finish (a block per output: each thread folds a run of parts
 * in order, then a tree) or k_reduce_outer_finish (a thread per output,
 * its parts in order) folds them.  Merges do not depend on the order but
 * for rounding: argmin and argmax break ties by position.
 * float sums are compensated (Kahan) per thread, so a thread's long run
 * loses no more than pairwise summation would (Note [Accumulating wide]).
 * Axis groups of more than kMaxDims after the core's merging are refused.
 */
#include "cuda_loops.cuh"

#include "loop_check.h"
#include "reduce_ops.h"

namespace {

using namespace dt_cuda_kernels;

struct ReduceArgs {
    const char *in;
    char *out;
    void *work;
    int out_dtype;
    int kept_ndim, red_ndim;
    int nparts;                /* parts of the reduced elements (Note [Reduction kernels]) */
    int64_t n_out, n_red, per_part;
    int64_t kept_shape[kMaxDims], kept_in[kMaxDims], kept_out[kMaxDims];
    int64_t red_shape[kMaxDims], red_stride[kMaxDims];
};

__device__ inline void unravel_kept(const ReduceArgs &a, int64_t o, int64_t *in_off, int64_t *out_off)
{
    int64_t x = 0, y = 0;
    for (int d = a.kept_ndim - 1; d >= 0; d--) {
        int64_t c = o % a.kept_shape[d];
        o /= a.kept_shape[d];
        x += c * a.kept_in[d];
        y += c * a.kept_out[d];
    }
    *in_off = x;
    *out_off = y;
}

__device__ inline int64_t red_offset(const ReduceArgs &a, int64_t r)
{
    if (a.red_ndim == 1)
        return r * a.red_stride[0];
    int64_t x = 0;
    for (int d = a.red_ndim - 1; d >= 0; d--) {
        x += (r % a.red_shape[d]) * a.red_stride[d];
        r /= a.red_shape[d];
    }
    return x;
}

template <typename S>
__device__ inline S load_storage(const char *p)
{
    S v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* ---- the ops: Acc, init(first element, its position), step, merge, store ---- */

/* compensated sum of a real accumulator type */
template <typename A>
struct Kahan {
    A s, c;
};

template <typename A>
__host__ __device__ inline Kahan<A> kahan_add(Kahan<A> k, A v)
{
    A y = v - k.c, t = k.s + y;
    k.c = t - t == 0 ? (t - k.s) - y : 0; /* past an inf or NaN the sum is just t */
    k.s = t;
    return k;
}

#define DT_TAG_TRAITS(CODE, X)                                                           \
    struct Red_##X {                                                                     \
        typedef dt_T_##X S;                                                              \
        typedef dt_C_##X C;                                                              \
        typedef DT_ACC_T(X) A;                                                           \
        typedef dt_arg_##X Arg;                                                          \
        static __device__ C load(const char *p) { return dt_load_##X(load_storage<S>(p)); } \
        static __device__ A aload(const char *p) { return DT_ACC_LOAD(X, load_storage<S>(p)); } \
        static __device__ A add(A a, A b) { return DT_RPASTE(dt_acc_add_, DT_ACC_##X)(a, b); } \
        static __device__ A mul(A a, A b) { return DT_RPASTE(dt_acc_mul_, DT_ACC_##X)(a, b); } \
        static __device__ A zero() { return DT_RPASTE(dt_acc_zero_, DT_ACC_##X)(); }     \
        static __device__ A one() { return DT_RPASTE(dt_acc_one_, DT_ACC_##X)(); }       \
        static __device__ void store_acc(char *p, A v, int o)                            \
        {                                                                                \
            DT_RPASTE(dt_store_wide_, DT_ACC_##X)(p, v, (dt_dtype)o);                    \
        }                                                                                \
        static __device__ C vmin(C a, C b) { return dt_min_##X(a, b); }                  \
        static __device__ C vmax(C a, C b) { return dt_max_##X(a, b); }                  \
        static __device__ void store(char *p, C v)                                       \
        {                                                                                \
            S s = dt_store_##X(v);                                                       \
            memcpy(p, &s, sizeof s);                                                     \
        }                                                                                \
        static __device__ bool truth(const char *p) { return dt_truth_##X(load(p)); }    \
        static __device__ Arg argmin(Arg a, Arg b) { return dt_argmin_merge_##X(a, b); } \
        static __device__ Arg argmax(Arg a, Arg b) { return dt_argmax_merge_##X(a, b); } \
        static __device__ Arg arg(C v, int64_t i) { return dt_arg_make_##X(v, i); }      \
        static constexpr bool kahan = std::is_floating_point<A>::value;                  \
    };
DT_FOR_EACH_DTYPE(DT_TAG_TRAITS)
#undef DT_TAG_TRAITS

/* SUM: Kahan per thread for float accumulators */
template <class T, bool K = T::kahan>
struct SumOp {
    typedef typename T::A Acc;
    static __device__ Acc init(const char *, int64_t) { return T::zero(); }
    static __device__ Acc first(const char *p) { return T::aload(p); }
    static __device__ Acc step(Acc a, const char *p, int64_t) { return T::add(a, T::aload(p)); }
    static __device__ Acc merge(Acc a, Acc b) { return T::add(a, b); }
    static __device__ void store(char *p, Acc a, int o) { T::store_acc(p, a, o); }
};

template <class T>
struct SumOp<T, true> {
    typedef Kahan<typename T::A> Acc;
    static __device__ Acc init(const char *, int64_t) { return Acc{T::zero(), T::zero()}; }
    static __device__ Acc first(const char *p) { return Acc{T::aload(p), T::zero()}; }
    static __device__ Acc step(Acc a, const char *p, int64_t) { return kahan_add(a, T::aload(p)); }
    static __device__ Acc merge(Acc a, Acc b) { return kahan_add(kahan_add(a, b.s), -b.c); }
    static __device__ void store(char *p, Acc a, int o) { T::store_acc(p, a.s - a.c, o); }
};

template <class T>
struct ProdOp {
    typedef typename T::A Acc;
    static __device__ Acc init(const char *, int64_t) { return T::one(); }
    static __device__ Acc first(const char *p) { return T::aload(p); }
    static __device__ Acc step(Acc a, const char *p, int64_t) { return T::mul(a, T::aload(p)); }
    static __device__ Acc merge(Acc a, Acc b) { return T::mul(a, b); }
    static __device__ void store(char *p, Acc a, int o) { T::store_acc(p, a, o); }
};

template <class T, bool MAX>
struct ExtremeOp {
    typedef typename T::C Acc;
    static __device__ Acc init(const char *first, int64_t) { return T::load(first); }
    static __device__ Acc merge(Acc a, Acc b) { return MAX ? T::vmax(a, b) : T::vmin(a, b); }
    static __device__ Acc step(Acc a, const char *p, int64_t) { return merge(a, T::load(p)); }
    static __device__ void store(char *p, Acc a, int) { T::store(p, a); }
};

template <class T, bool MAX>
struct ArgOp {
    typedef typename T::Arg Acc;
    static __device__ Acc init(const char *first, int64_t pos) { return T::arg(T::load(first), pos); }
    static __device__ Acc merge(Acc a, Acc b) { return MAX ? T::argmax(a, b) : T::argmin(a, b); }
    static __device__ Acc step(Acc a, const char *p, int64_t pos) { return merge(a, T::arg(T::load(p), pos)); }
    static __device__ void store(char *p, Acc a, int)
    {
        long long i = a.i;
        memcpy(p, &i, sizeof i);
    }
};

template <class T, bool ALL>
struct TruthOp {
    typedef int Acc;
    static __device__ Acc init(const char *, int64_t) { return ALL; }
    static __device__ Acc merge(Acc a, Acc b) { return ALL ? (a && b) : (a || b); }
    static __device__ Acc step(Acc a, const char *p, int64_t) { return merge(a, T::truth(p)); }
    static __device__ void store(char *p, Acc a, int)
    {
        bool b = a != 0;
        memcpy(p, &b, 1);
    }
};

/* ---- kernels (Note [Reduction kernels]) ---- */

template <class Op>
__global__ void k_reduce_inner(ReduceArgs a)
{
    typedef typename Op::Acc Acc;
    __shared__ Acc fold[kThreads];
    int64_t r0 = (int64_t)blockIdx.y * a.per_part;
    int64_t r1 = a.n_red - r0 < a.per_part ? a.n_red : r0 + a.per_part;
    for (int64_t o = blockIdx.x; o < a.n_out; o += gridDim.x) {
        int64_t in_off, out_off;
        unravel_kept(a, o, &in_off, &out_off);
        const char *base = a.in + in_off;
        Acc acc = Op::init(base + red_offset(a, r0), r0);
        for (int64_t r = r0 + threadIdx.x; r < r1; r += blockDim.x)
            acc = Op::step(acc, base + red_offset(a, r), r);
        fold[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned w = kThreads / 2; w > 0; w /= 2) {
            if (threadIdx.x < w)
                fold[threadIdx.x] = Op::merge(fold[threadIdx.x], fold[threadIdx.x + w]);
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            if (a.nparts == 1)
                Op::store(a.out + out_off, fold[0], a.out_dtype);
            else
                ((Acc *)a.work)[o * a.nparts + blockIdx.y] = fold[0];
        }
        __syncthreads(); /* fold is rewritten for the next output */
    }
}

/* the partials of output o, work[o * nparts + p], folded by a block: each
 * thread a run of parts in order, then the runs as a tree */
template <class Op>
__global__ void __launch_bounds__(kThreads) k_reduce_finish(ReduceArgs a)
{
    typedef typename Op::Acc Acc;
    __shared__ Acc fold[kThreads];
    int per = (a.nparts + kThreads - 1) / kThreads;
    unsigned active = (unsigned)((a.nparts + per - 1) / per);
    for (int64_t o = blockIdx.x; o < a.n_out; o += gridDim.x) {
        const Acc *parts = (const Acc *)a.work + o * a.nparts;
        if (threadIdx.x < active) {
            int lo = (int)threadIdx.x * per, hi = lo + per < a.nparts ? lo + per : a.nparts;
            Acc acc = parts[lo];
            for (int p = lo + 1; p < hi; p++)
                acc = Op::merge(acc, parts[p]);
            fold[threadIdx.x] = acc;
        }
        __syncthreads();
        for (unsigned w = kThreads / 2; w > 0; w /= 2) {
            if (threadIdx.x < w && threadIdx.x + w < active)
                fold[threadIdx.x] = Op::merge(fold[threadIdx.x], fold[threadIdx.x + w]);
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            int64_t in_off, out_off;
            unravel_kept(a, o, &in_off, &out_off);
            Op::store(a.out + out_off, fold[0], a.out_dtype);
        }
        __syncthreads(); /* fold is rewritten for the next output */
    }
}

/* a thread per output and part (grid.y): the part's reduced elements in order */
template <class Op>
__global__ void k_reduce_outer(ReduceArgs a)
{
    typedef typename Op::Acc Acc;
    int64_t r0 = (int64_t)blockIdx.y * a.per_part;
    int64_t r1 = a.n_red - r0 < a.per_part ? a.n_red : r0 + a.per_part;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < a.n_out;
         o += (int64_t)gridDim.x * blockDim.x) {
        int64_t in_off, out_off;
        unravel_kept(a, o, &in_off, &out_off);
        const char *base = a.in + in_off;
        Acc acc = Op::init(base + red_offset(a, r0), r0);
        for (int64_t r = r0; r < r1; r++)
            acc = Op::step(acc, base + red_offset(a, r), r);
        if (a.nparts == 1)
            Op::store(a.out + out_off, acc, a.out_dtype);
        else
            ((Acc *)a.work)[blockIdx.y * a.n_out + o] = acc; /* part-major: coalesced */
    }
}

/* a thread per output: its parts' partials, work[p * n_out + o], in order */
template <class Op>
__global__ void k_reduce_outer_finish(ReduceArgs a)
{
    typedef typename Op::Acc Acc;
    const Acc *parts = (const Acc *)a.work;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < a.n_out;
         o += (int64_t)gridDim.x * blockDim.x) {
        Acc acc = parts[o];
        for (int p = 1; p < a.nparts; p++)
            acc = Op::merge(acc, parts[p * a.n_out + o]);
        int64_t in_off, out_off;
        unravel_kept(a, o, &in_off, &out_off);
        Op::store(a.out + out_off, acc, a.out_dtype);
    }
}

/* ---- launch ---- */

struct ReduceKernels {
    const void *inner, *finish, *outer, *outer_finish;
    size_t acc_size;
};

template <class Op>
ReduceKernels reduce_kernels_of()
{
    ReduceKernels k = {DT_KERNEL_ADDRESS(k_reduce_inner<Op>), DT_KERNEL_ADDRESS(k_reduce_finish<Op>),
                 DT_KERNEL_ADDRESS(k_reduce_outer<Op>), DT_KERNEL_ADDRESS(k_reduce_outer_finish<Op>),
                 sizeof(typename Op::Acc)};
    return k;
}

const ReduceKernels &reduce_kernels_for(int op, dt_dtype d)
{
    static ReduceKernels table[DT_NUM_DTYPES][DT_NUM_REDUCE_OPS];
    static bool ready = [] {
#define DT_REDUCE_ROW(CODE, X)                                                 \
    {                                                                          \
        ReduceKernels *row = table[CODE];                                            \
        row[DT_REDUCE_SUM] = reduce_kernels_of<SumOp<Red_##X>>();                     \
        row[DT_REDUCE_PROD] = reduce_kernels_of<ProdOp<Red_##X>>();                   \
        row[DT_REDUCE_MIN] = reduce_kernels_of<ExtremeOp<Red_##X, false>>();          \
        row[DT_REDUCE_MAX] = reduce_kernels_of<ExtremeOp<Red_##X, true>>();           \
        row[DT_REDUCE_ARGMIN] = reduce_kernels_of<ArgOp<Red_##X, false>>();           \
        row[DT_REDUCE_ARGMAX] = reduce_kernels_of<ArgOp<Red_##X, true>>();            \
        row[DT_REDUCE_ANY] = reduce_kernels_of<TruthOp<Red_##X, false>>();            \
        row[DT_REDUCE_ALL] = reduce_kernels_of<TruthOp<Red_##X, true>>();             \
    }
        DT_FOR_EACH_DTYPE(DT_REDUCE_ROW)
#undef DT_REDUCE_ROW
        return true;
    }();
    (void)ready;
    return table[d][op];
}

int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Note [Reduction kernels]: enough blocks (threads) to fill an H200's 132
 * SMs a few times over; a part is never shorter than kMin*Part elements */
constexpr int64_t kTargetBlocks = 2048;
constexpr int64_t kTargetThreads = kTargetBlocks * kThreads;
constexpr int64_t kMinInnerPart = kThreads * 16;
constexpr int64_t kMinOuterPart = 64;
constexpr int64_t kMinSplitWork = 1 << 18; /* fewer elements: one launch costs less than two */
constexpr int64_t kMaxParts = 65535; /* grid.y */
constexpr int64_t kShortRow = 16;

/* nparts parts of per_part reduced elements (the last may be shorter):
 * `want` of them, at most `most` (and grid.y's limit), at least one */
void set_parts(ReduceArgs *a, int64_t want, int64_t most)
{
    int64_t parts = min64(min64(want, most), kMaxParts);
    parts = parts < 1 ? 1 : parts;
    a->per_part = (a->n_red + parts - 1) / parts;
    a->nparts = (int)((a->n_red + a->per_part - 1) / a->per_part);
}

/* the shared checks (loop_check.h), the kernels' axis limit and their work memory */
dt_status validate(const dt_reduce_loop *l, dt_error *err)
{
    if (l->kept_ndim > kMaxDims || l->red_ndim > kMaxDims)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED,
                            "run_reduce: the CUDA kernels take up to %d kept and %d reduced axes after merging, "
                            "not %d and %d", kMaxDims, kMaxDims, l->kept_ndim, l->red_ndim);
    DT_TRY(dt_reduce_loop_check(l, err));
    if (l->work == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: counts or pointers do not match");
    return DT_OK;
}

dt_status launch(const dt_reduce_loop *l, cudaStream_t stream, dt_error *err)
{
    const ReduceKernels &k = reduce_kernels_for(l->op, l->in_dtype);
    ReduceArgs a;
    memset(&a, 0, sizeof a);
    a.in = l->in;
    a.out = l->out;
    a.work = l->work;
    a.out_dtype = (int)l->out_dtype;
    a.kept_ndim = l->kept_ndim;
    a.red_ndim = l->red_ndim;
    a.n_out = l->n_out;
    a.n_red = l->n_red;
    for (int d = 0; d < l->kept_ndim; d++) {
        a.kept_shape[d] = l->kept_shape[d];
        a.kept_in[d] = l->kept_in_strides[d];
        a.kept_out[d] = l->kept_out_strides[d];
    }
    for (int d = 0; d < l->red_ndim; d++) {
        a.red_shape[d] = l->red_shape[d];
        a.red_stride[d] = l->red_strides[d];
    }
    void *args[] = {&a};
    int nk = l->kept_ndim, nr = l->red_ndim;
    static const char *const names[] = {"sum", "prod", "min", "max", "argmin", "argmax", "any", "all"};
    const char *name = names[l->op];
    int64_t room = (int64_t)(DT_REDUCE_WORK_BYTES / k.acc_size) / l->n_out; /* parts the work memory holds */
    if (nk > 0 && l->n_red > 1 &&
        (abs64(l->kept_in_strides[nk - 1]) < abs64(l->red_strides[nr - 1]) || l->n_red <= kShortRow)) {
        int64_t want = l->n_out * l->n_red < kMinSplitWork ? 1 : (kTargetThreads + l->n_out - 1) / l->n_out;
        set_parts(&a, want, min64(l->n_red / kMinOuterPart, room));
        unsigned grid = grid_for(l->n_out, l->device_index);
        DT_TRY(launch_result(cudaLaunchKernel(k.outer, dim3(grid, (unsigned)a.nparts), dim3(kThreads), args, 0,
                                              stream),
                             name, l->device_index, err));
        if (a.nparts == 1)
            return DT_OK;
        return launch_result(cudaLaunchKernel(k.outer_finish, dim3(grid), dim3(kThreads), args, 0, stream), name,
                             l->device_index, err);
    }
    set_parts(&a, (kTargetBlocks + l->n_out - 1) / l->n_out, min64(l->n_red / kMinInnerPart, room));
    int64_t blocks = l->n_out < (1 << 20) ? l->n_out : (1 << 20);
    DT_TRY(launch_result(cudaLaunchKernel(k.inner, dim3((unsigned)blocks, (unsigned)a.nparts), dim3(kThreads), args, 0,
                                          stream),
                         name, l->device_index, err));
    if (a.nparts == 1)
        return DT_OK;
    return launch_result(cudaLaunchKernel(k.finish, dim3((unsigned)blocks), dim3(kThreads), args, 0, stream), name,
                         l->device_index, err);
}

/* Note [Scan kernels]
 * k_scan_rows     a block per row: tiles of kThreads elements, each scanned
 *                 in shared memory (Hillis-Steele: log2(kThreads) steps with
 *                 a barrier each) and offset by the running total (carry) of
 *                 the tiles before it.
 * Long rows (few of them) are cut in chunks: k_scan_totals (a block per
 * chunk: its total, in the work memory), k_scan_starts (a block per row:
 * each chunk's start, the running total of the chunks before it in its row;
 * each thread scans a run of chunks in order, then the runs' totals are
 * scanned in shared memory), then k_scan_chunks (a block per chunk, as
 * k_scan_rows from its start).
 * The accumulators are SUM's (compensated pairs for float32 and float64:
 * Note [Compensated float scans]) and PROD's, or MIN's and MAX's
 * (ExtremeScanOp).  Each element enters the tile as itself (Op::first),
 * and a row's first tile and first chunk have no carry: a row starts at its
 * first element, as NumPy's accumulate (Note [A scan starts at its first
 * element] in cpu_scan.c).  Every merge takes the earlier part on its left,
 * and parts merged are adjacent, except in the chunk totals of SUM and
 * PROD (a thread's elements strided, for coalesced loads: only the
 * rounding changes); MIN and MAX total each thread's contiguous run and
 * merge neighbours (ScanInOrder), since their merge keeps the earlier of a
 * tie (-0.0 before 0.0) and the first NaN. */
/* MIN and MAX scans: ops_math.h's dt_min/dt_max in the compute type,
 * stored as the input's dtype; init is a placeholder that the kernels never
 * merge into a stored value (padding after a row's end, a missing carry) */
template <class T, bool MAX>
struct ExtremeScanOp {
    typedef typename T::C Acc;
    static __device__ Acc init(const char *, int64_t)
    {
        Acc z;
        memset(&z, 0, sizeof z);
        return z;
    }
    static __device__ Acc first(const char *p) { return T::load(p); }
    static __device__ Acc merge(Acc a, Acc b) { return MAX ? T::vmax(a, b) : T::vmin(a, b); }
    static __device__ void store(char *p, Acc a, int) { T::store(p, a); }
};

/* Note [Compensated float scans]
 * A float32 or float64 running sum (a double accumulator) is kept as an
 * unevaluated pair hi + lo, merged by TwoSum (the exact sum of two doubles
 * is s + e) and renormalised, and rounded once when stored.  A
 * Hillis-Steele tile adds each output's elements in another tree, and the
 * chunk starts in yet another order, so plain doubles let neighbours round
 * differently: a 0 element could change the stored total and a running sum
 * of non-negative values go down by an ulp (an Otsu threshold's empty bins
 * turned 0/0 into x/0; inverse-CDF sampling needs a sorted cumsum).  The
 * pair keeps every prefix to about 2^-100 of its magnitude, so stored
 * neighbours are the exact prefix sums rounded: equal when the element is
 * 0, in order for non-negative data.  The error term is 0 at an inf or NaN
 * (the plain sum goes on), and a sum whose error is 0 keeps its sign (-0.0
 * + -0.0). */
struct PairSum {
    double hi, lo;
};

template <class T> /* T::add: the accumulator's plain double sum */
__device__ inline PairSum pair_add(PairSum a, PairSum b)
{
    double s = T::add(a.hi, b.hi);
    if (s - s != 0) /* inf or NaN */
        return PairSum{s, 0.0};
    double bb = s - a.hi;
    double e = (a.hi - (s - bb)) + (b.hi - bb); /* TwoSum: a.hi + b.hi == s + e exactly */
    e += a.lo + b.lo;
    if (e == 0)
        return PairSum{s, 0.0};
    double hi = s + e;
    return PairSum{hi, e - (hi - s)};
}

template <class T>
struct PairSumOp {
    typedef PairSum Acc;
    static __device__ Acc init(const char *, int64_t) { return PairSum{0.0, 0.0}; }
    static __device__ Acc first(const char *p) { return PairSum{(double)T::aload(p), 0.0}; }
    static __device__ Acc merge(Acc a, Acc b) { return pair_add<T>(a, b); }
    static __device__ void store(char *p, Acc a, int o) { T::store_acc(p, a.hi, o); }
};

/* the SUM scan's accumulator: pairs where it is a double */
template <class T>
struct ScanSumOf {
    typedef SumOp<T, false> type;
};
template <>
struct ScanSumOf<Red_f32> {
    typedef PairSumOp<Red_f32> type;
};
template <>
struct ScanSumOf<Red_f64> {
    typedef PairSumOp<Red_f64> type;
};

template <class Op>
struct ScanInOrder {
    static constexpr bool value = false;
};
template <class T, bool MAX>
struct ScanInOrder<ExtremeScanOp<T, MAX>> {
    static constexpr bool value = true;
};

struct ScanArgs {
    const char *in;
    char *out;
    void *work;
    int out_dtype, outer_ndim, chunks; /* chunks per row, 1 for k_scan_rows */
    int64_t n_rows, len, chunk, in_stride, out_stride;
    int64_t outer_shape[kMaxDims], outer_in[kMaxDims], outer_out[kMaxDims];
};

__device__ inline void scan_row_offsets(const ScanArgs &a, int64_t row, int64_t *in_off, int64_t *out_off)
{
    int64_t x = 0, y = 0;
    for (int d = a.outer_ndim - 1; d >= 0; d--) {
        int64_t c = row % a.outer_shape[d];
        row /= a.outer_shape[d];
        x += c * a.outer_in[d];
        y += c * a.outer_out[d];
    }
    *in_off = x;
    *out_off = y;
}

/* scan [r0, r1) of one row from carry (none when !has_carry); the block's
 * threads all return the new carry */
template <class Op>
__device__ typename Op::Acc scan_span(const ScanArgs &a, const char *in, char *out, int64_t r0, int64_t r1,
                                      typename Op::Acc carry, bool has_carry, typename Op::Acc *sh)
{
    for (int64_t t0 = r0; t0 < r1; t0 += kThreads) {
        int64_t r = t0 + threadIdx.x;
        sh[threadIdx.x] = r < r1 ? Op::first(in + r * a.in_stride) : Op::init(nullptr, 0);
        __syncthreads();
        for (unsigned off = 1; off < kThreads; off *= 2) {
            typename Op::Acc w = threadIdx.x >= off ? Op::merge(sh[threadIdx.x - off], sh[threadIdx.x]) : sh[threadIdx.x];
            __syncthreads();
            sh[threadIdx.x] = w;
            __syncthreads();
        }
        if (r < r1)
            Op::store(out + r * a.out_stride, has_carry ? Op::merge(carry, sh[threadIdx.x]) : sh[threadIdx.x],
                      a.out_dtype);
        carry = has_carry ? Op::merge(carry, sh[kThreads - 1]) : sh[kThreads - 1];
        has_carry = true;
        __syncthreads(); /* sh is rewritten by the next tile */
    }
    return carry;
}

template <class Op>
__global__ void k_scan_rows(ScanArgs a)
{
    __shared__ typename Op::Acc sh[kThreads];
    for (int64_t row = blockIdx.x; row < a.n_rows; row += gridDim.x) {
        int64_t in_off, out_off;
        scan_row_offsets(a, row, &in_off, &out_off);
        scan_span<Op>(a, a.in + in_off, a.out + out_off, 0, a.len, Op::init(nullptr, 0), false, sh);
    }
}

/* a value of a scan that may be none yet: a row's first chunk has no carry,
 * and merging with an identity would lose a -0.0 sum */
template <class Acc>
struct MaybeAcc {
    Acc v;
    bool has;
};

template <class Op, class Acc>
__device__ inline MaybeAcc<Acc> merge_maybe(MaybeAcc<Acc> a, MaybeAcc<Acc> b)
{
    if (!a.has)
        return b;
    if (!b.has)
        return a;
    return MaybeAcc<Acc>{Op::merge(a.v, b.v), true};
}

/* a chunk's total, from its first element (Note [A scan starts at its
 * first element] in cpu_scan.c) */
template <class Op>
__global__ void __launch_bounds__(kThreads) k_scan_totals(ScanArgs a)
{
    typedef typename Op::Acc Acc;
    typedef MaybeAcc<Acc> Maybe;
    __shared__ Maybe fold[kThreads];
    int64_t row = blockIdx.x / a.chunks, r0 = (blockIdx.x % a.chunks) * a.chunk;
    int64_t r1 = a.len - r0 < a.chunk ? a.len : r0 + a.chunk;
    int64_t in_off, out_off;
    scan_row_offsets(a, row, &in_off, &out_off);
    Maybe acc = {Op::init(nullptr, 0), false};
    if (ScanInOrder<Op>::value) { /* each thread's run in order, neighbours merged (Note [Scan kernels]) */
        int64_t per = (r1 - r0 + kThreads - 1) / kThreads, lo = r0 + threadIdx.x * per;
        int64_t hi = lo + per < r1 ? lo + per : r1;
        for (int64_t r = lo; r < hi; r++)
            acc = merge_maybe<Op>(acc, Maybe{Op::first(a.in + in_off + r * a.in_stride), true});
        fold[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned w = 1; w < kThreads; w *= 2) {
            if (threadIdx.x % (2 * w) == 0)
                fold[threadIdx.x] = merge_maybe<Op>(fold[threadIdx.x], fold[threadIdx.x + w]);
            __syncthreads();
        }
    } else {
        for (int64_t r = r0 + threadIdx.x; r < r1; r += blockDim.x)
            acc = merge_maybe<Op>(acc, Maybe{Op::first(a.in + in_off + r * a.in_stride), true});
        fold[threadIdx.x] = acc;
        __syncthreads();
        for (unsigned w = kThreads / 2; w > 0; w /= 2) {
            if (threadIdx.x < w)
                fold[threadIdx.x] = merge_maybe<Op>(fold[threadIdx.x], fold[threadIdx.x + w]);
            __syncthreads();
        }
    }
    if (threadIdx.x == 0)
        ((Acc *)a.work)[blockIdx.x] = fold[0].v;
}

template <class Op>
__global__ void __launch_bounds__(kThreads) k_scan_starts(ScanArgs a)
{
    typedef typename Op::Acc Acc;
    typedef MaybeAcc<Acc> Maybe;
    __shared__ Maybe sh[kThreads];
    int per = (a.chunks + kThreads - 1) / kThreads;
    int lo = (int)threadIdx.x * per < a.chunks ? (int)threadIdx.x * per : a.chunks;
    int hi = lo + per < a.chunks ? lo + per : a.chunks;
    for (int64_t row = blockIdx.x; row < a.n_rows; row += gridDim.x) {
        Acc *parts = (Acc *)a.work + row * a.chunks;
        Maybe run = {Op::init(nullptr, 0), false};
        for (int c = lo; c < hi; c++)
            run = merge_maybe<Op>(run, Maybe{parts[c], true});
        sh[threadIdx.x] = run;
        __syncthreads();
        for (unsigned off = 1; off < kThreads; off *= 2) { /* inclusive scan of the runs' totals */
            Maybe w = threadIdx.x >= off ? merge_maybe<Op>(sh[threadIdx.x - off], sh[threadIdx.x]) : sh[threadIdx.x];
            __syncthreads();
            sh[threadIdx.x] = w;
            __syncthreads();
        }
        run = threadIdx.x > 0 ? sh[threadIdx.x - 1] : Maybe{Op::init(nullptr, 0), false};
        for (int c = lo; c < hi; c++) { /* chunk c starts after chunks 0..c-1; chunk 0 keeps its total */
            Acc total = parts[c];
            if (run.has)
                parts[c] = run.v;
            run = merge_maybe<Op>(run, Maybe{total, true});
        }
        __syncthreads(); /* sh is rewritten for the next row */
    }
}

template <class Op>
__global__ void k_scan_chunks(ScanArgs a)
{
    __shared__ typename Op::Acc sh[kThreads];
    int64_t row = blockIdx.x / a.chunks, r0 = (blockIdx.x % a.chunks) * a.chunk;
    int64_t r1 = a.len - r0 < a.chunk ? a.len : r0 + a.chunk;
    int64_t in_off, out_off;
    scan_row_offsets(a, row, &in_off, &out_off);
    scan_span<Op>(a, a.in + in_off, a.out + out_off, r0, r1, ((const typename Op::Acc *)a.work)[blockIdx.x],
                  blockIdx.x % a.chunks != 0, sh);
}

struct ScanKernels {
    const void *rows, *totals, *starts, *chunks;
    size_t acc_size;
};

template <class Op>
ScanKernels scan_kernels_of()
{
    ScanKernels k = {DT_KERNEL_ADDRESS(k_scan_rows<Op>), DT_KERNEL_ADDRESS(k_scan_totals<Op>),
                     DT_KERNEL_ADDRESS(k_scan_starts<Op>), DT_KERNEL_ADDRESS(k_scan_chunks<Op>),
                     sizeof(typename Op::Acc)};
    return k;
}

/* the kernels of op (DT_REDUCE_SUM, PROD, MIN or MAX) for dtype d */
const ScanKernels &scan_kernels_for(int op, dt_dtype d)
{
    static ScanKernels table[DT_NUM_DTYPES][4];
    static bool ready = [] {
#define DT_SCAN_ROW(CODE, X)                                                                    \
    table[CODE][DT_REDUCE_SUM] = scan_kernels_of<ScanSumOf<Red_##X>::type>();                    \
    table[CODE][DT_REDUCE_PROD] = scan_kernels_of<ProdOp<Red_##X>>();                           \
    table[CODE][DT_REDUCE_MIN] = scan_kernels_of<ExtremeScanOp<Red_##X, false>>();              \
    table[CODE][DT_REDUCE_MAX] = scan_kernels_of<ExtremeScanOp<Red_##X, true>>();
        DT_FOR_EACH_DTYPE(DT_SCAN_ROW)
#undef DT_SCAN_ROW
        return true;
    }();
    (void)ready;
    return table[d][op];
}

dt_status scan_launch(const dt_scan_loop *l, cudaStream_t stream, dt_error *err)
{
    const ScanKernels &k = scan_kernels_for(l->op, l->in_dtype);
    ScanArgs a;
    memset(&a, 0, sizeof a);
    a.in = l->in;
    a.out = l->out;
    a.work = l->work;
    a.out_dtype = (int)l->out_dtype;
    a.outer_ndim = l->outer_ndim;
    a.n_rows = l->n_rows;
    a.len = l->len;
    a.in_stride = l->in_stride;
    a.out_stride = l->out_stride;
    for (int d = 0; d < l->outer_ndim; d++) {
        a.outer_shape[d] = l->outer_shape[d];
        a.outer_in[d] = l->outer_in_strides[d];
        a.outer_out[d] = l->outer_out_strides[d];
    }
    void *args[] = {&a};
    static const char *const names[] = {"cumsum", "cumprod", "minimum.accumulate", "maximum.accumulate"};
    const char *name = names[l->op];
    int64_t chunk = (int64_t)kThreads * 16, chunks = (l->len + chunk - 1) / chunk;
    int64_t max_parts = (int64_t)(DT_REDUCE_WORK_BYTES / k.acc_size);
    if (chunks < 2 || l->n_rows * chunks > max_parts) {
        a.chunks = 1;
        a.chunk = l->len;
        unsigned blocks = (unsigned)(l->n_rows < (1 << 20) ? l->n_rows : (1 << 20));
        return launch_result(cudaLaunchKernel(k.rows, dim3(blocks), dim3(kThreads), args, 0, stream), name,
                             l->device_index, err);
    }
    a.chunks = (int)chunks;
    a.chunk = chunk;
    dim3 grid((unsigned)(l->n_rows * chunks));
    DT_TRY(launch_result(cudaLaunchKernel(k.totals, grid, dim3(kThreads), args, 0, stream), name, l->device_index,
                         err));
    unsigned rows = (unsigned)(l->n_rows < (1 << 20) ? l->n_rows : (1 << 20));
    DT_TRY(launch_result(cudaLaunchKernel(k.starts, dim3(rows), dim3(kThreads), args, 0, stream), name,
                         l->device_index, err));
    return launch_result(cudaLaunchKernel(k.chunks, grid, dim3(kThreads), args, 0, stream), name, l->device_index,
                         err);
}

} // namespace

extern "C" dt_status dt_cuda_scan_run(const dt_scan_loop *l, dt_error *err)
{
    DT_TRY(dt_scan_loop_check(l, err));
    if (l->work == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_scan: a bad loop");
    if (l->outer_ndim > kMaxDims)
        return dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "run_scan: the CUDA kernels take up to %d other axes, not %d",
                            kMaxDims, l->outer_ndim);
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError();
    dt_status st = scan_launch(l, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}

extern "C" dt_status dt_cuda_reduce_run(const dt_reduce_loop *l, dt_error *err)
{
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_reduce: no loop");
    DT_TRY(validate(l, err));
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError(); /* a stale error must not be blamed on this launch */
    dt_status st = launch(l, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}
