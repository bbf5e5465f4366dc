/* cuda_loops.cu - the CUDA backend's one elementwise launcher (dt_loop),
 * the kernel registry, and the generator kernels (dt_gen).
 *
 * The math is not written here: every value comes from the shared scalar
 * definitions (ops.h, ops_math.h, scalar.h, philox.h), expanded into
 * kernels by the family files (cuda_loops_cast.cu, _arith, _math, _complex,
 * _compare; Note [Kernel files] in cuda_loops.cuh), so the GPU computes what
 * the CPU backend computes.  The (op, dtype) loops that exist are those of
 * cpu_loops.c's tables.  Only the launch structure is GPU-specific:
 *   - k_contig:  every non-scalar operand contiguous (ndim == 1 after the
 *                core coalesced the dimensions, stride == itemsize) and
 *                aligned for 16-byte vectors: each thread loads and stores
 *                whole vectors (Note [Vector width] in cuda_loops.cuh);
 *   - k_strided: anything else, with an offset calculator that turns a
 *                linear index into one byte offset per operand, in 32-bit
 *                arithmetic (with multiply-shift division) when the element
 *                count and every byte offset fit in int32, in 64-bit
 *                otherwise.
 * Both are grid-stride loops over a grid capped at a few waves of the
 * device.  Host scalars (dt_loop.host_scalar_mask) travel by value in the
 * kernel parameters: their data pointer is host memory.
 *
 * Note [Identical values]
 * nvcc contracts a*b+c into an FMA by default, the host C compiler does not:
 * complex multiplication and Smith's division would then differ from the
 * CPU backend in the last bit.  The .cu files are compiled with --fmad=false
 * (build_support/cuda.py); elementwise kernels are memory-bound, so this
 * costs nothing measurable.  philox.h's affine steps are explicitly rounded
 * in any case.  The elementary functions call CUDA's libm, not the C
 * library's: Note [Device libm] in cuda_loops_complex.cu.
 */
#include "error.h"

#include <cuda_runtime.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_loops.cuh"
#include "philox.h"

namespace dt_cuda_kernels {

/* ---------------------------------------------------------------------------
 * The registry: every kernel's address, filled once (a C++ local static:
 * thread-safe, and it touches no CUDA API, so a machine without a driver
 * can build it and still refuse the launch afterwards).
 */
const Registry &registry()
{
    static const Registry *reg = [] {
        static Registry r;
        memset(&r, 0, sizeof r);
        register_cast(r);
        register_arith(r);
        register_math(r);
        register_complex(r);
        register_compare(r);
        return &r;
    }();
    return *reg;
}

/* ---------------------------------------------------------------------------
 * Host side of the elementwise launches.
 */

#define DT_CU_OP_NAME(ID, NAME, NIN) NAME,
const char *const op_names[DT_NUM_OPS] = {DT_OP_LIST(DT_CU_OP_NAME)};
#undef DT_CU_OP_NAME
#define DT_CU_OP_NIN(ID, NAME, NIN) NIN,
const int op_nin[DT_NUM_OPS] = {DT_OP_LIST(DT_CU_OP_NIN)};
#undef DT_CU_OP_NIN

const char *dtype_name(dt_dtype d)
{
    const dt_dtype_info *info = dt_dtype_get_info(d);
    return info != NULL ? info->name : "?";
}

/* "divide int32", "less int64, uint64", "where bool, float32, float32",
 * "copy float64 -> int8"; "... -> T" also when the output is not the one
 * the op gives */
void loop_describe(const dt_loop *l, char *buf, size_t size)
{
    if (l->op == DT_OP_COPY) {
        snprintf(buf, size, "copy %s -> %s", dtype_name(l->dtypes[1]), dtype_name(l->dtypes[0]));
        return;
    }
    int nin = l->nop - 1;
    bool same = true;
    for (int k = 2; k <= nin && k < DT_MAX_OPERANDS; k++)
        same = same && l->dtypes[k] == l->dtypes[1];
    int n = snprintf(buf, size, "%s %s", op_names[l->op], dtype_name(l->dtypes[1]));
    for (int k = 2; !same && k <= nin && k < DT_MAX_OPERANDS && n > 0 && (size_t)n < size; k++)
        n += snprintf(buf + n, size - (size_t)n, ", %s", dtype_name(l->dtypes[k]));
}

dt_status launch_status(const char *what, int device, dt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        return DT_OK;
    char call[128];
    snprintf(call, sizeof call, "the kernel launch (%s)", what);
    return dt_cuda_error_set(err, e, call, device);
}

dt_status launch_result(cudaError_t e, const char *what, int device, dt_error *err)
{
    const char *how = "cudaLaunchKernel";
    if (e == cudaSuccess) {
        e = cudaGetLastError();
        how = "the kernel launch";
    }
    if (e == cudaSuccess)
        return DT_OK;
    char call[160];
    snprintf(call, sizeof call, "%s (%s)", how, what);
    return dt_cuda_error_set(err, e, call, device);
}

/* a failed cudaLaunchKernel, or an error the launch left behind */
dt_status loop_launch_result(const dt_loop *l, cudaError_t e, dt_error *err)
{
    char what[112];
    loop_describe(l, what, sizeof what);
    return launch_result(e, what, l->device_index, err);
}

unsigned grid_for(int64_t items, int device)
{
    int64_t blocks = (items + kThreads - 1) / kThreads;
    int64_t cap = (int64_t)dt_cuda_device_sm_count(device) * kBlocksPerSm;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

int is_scalar(const dt_loop *l, int k) { return (int)((l->host_scalar_mask >> k) & 1u); }

/* One sub-launch: `ndim` dims (C order) with base pointers `base`. */
struct SubLoop {
    int ndim;
    const int64_t *shape;
    const int64_t *strides[kMaxOps];
    char *base[kMaxOps];
    int64_t numel;
};

#ifdef DEVTENSOR_EMULATED
/* Note [Covering the 64-bit kernels]
 * The 64-bit strided kernels run only past 2**31 elements or bytes of
 * extent, which no test allocates; in the emulated build (only there)
 * DEVTENSOR_EMULATE_INDEX64=1 sends every strided loop to them, so that CI
 * executes them too (.ci/run, tools/kernel_coverage.py). */
static bool force_index64()
{
    static const bool on = [] {
        const char *v = getenv("DEVTENSOR_EMULATE_INDEX64");
        return v != NULL && strcmp(v, "1") == 0;
    }();
    return on;
}
#else
static bool force_index64() { return false; }
#endif

bool fits_int32(const SubLoop &s, int nop, unsigned mask)
{
    if (s.numel > INT32_MAX || force_index64())
        return false;
    for (int k = 0; k < nop; k++) {
        if ((mask >> k) & 1u)
            continue;
        int64_t pos = 0, neg = 0;
        for (int d = 0; d < s.ndim; d++) {
            int64_t st = s.strides[k][d];
            if (st > INT32_MAX || st < -(int64_t)INT32_MAX)
                return false;
            int64_t ext = (s.shape[d] - 1) * st; /* |.| < 2^62: shape-1 < 2^31 */
            if (ext > 0)
                pos += ext;
            else
                neg += ext;
            if (pos > INT32_MAX || neg < -(int64_t)INT32_MAX)
                return false;
        }
    }
    return true;
}

/* Note [Offset calculator]
 * Dimensions are stored innermost first.  Division by each extent uses a
 * precomputed multiply-shift pair in the 32-bit calculator: for a divisor d,
 * s = ceil(log2 d) and m = floor(2^32 (2^s - d) / d) + 1, then for n < 2^31
 * n / d == (umulhi(n, m) + n) >> s (the sum fits in 32 bits).  kMaxDims = 24
 * keeps the parameters small (under 1 KiB with 4 operands); a launch with
 * more coalesced dimensions (rare: a 25-dimensional view no two of whose
 * axes merge) runs as one launch per index of its outer dimensions. */
void divider32(uint32_t d, uint32_t *mul, uint32_t *shift)
{
    uint32_t s = 0;
    while (s < 31 && ((uint64_t)1 << s) < d)
        s++;
    *mul = (uint32_t)(((((uint64_t)1 << s) - d) << 32) / d + 1);
    *shift = s;
}

dt_status run_strided_one(const dt_loop *l, const KernelSet &k, OperandArgs &a, const SubLoop &s,
                          cudaStream_t stream, dt_error *err)
{
    for (int j = 0; j < k.nop; j++)
        if (!is_scalar(l, j))
            a.data[j] = s.base[j];
    dim3 grid(grid_for(s.numel, l->device_index)), block(kThreads);
    cudaError_t e;
    if (fits_int32(s, k.nop, l->host_scalar_mask)) {
        Calc32 c;
        memset(&c, 0, sizeof c);
        c.ndim = s.ndim;
        for (int d = 0; d < s.ndim; d++) {
            int src = s.ndim - 1 - d; /* innermost first */
            c.size[d] = (uint32_t)s.shape[src];
            divider32(c.size[d], &c.mul[d], &c.shift[d]);
            for (int j = 0; j < k.nop; j++)
                c.stride[j][d] = is_scalar(l, j) ? 0 : (int32_t)s.strides[j][src];
        }
        uint32_t n = (uint32_t)s.numel;
        void *args[] = {&a, &c, &n};
        e = cudaLaunchKernel(k.strided32, grid, block, args, 0, stream);
    } else {
        Calc64 c;
        memset(&c, 0, sizeof c);
        c.ndim = s.ndim;
        for (int d = 0; d < s.ndim; d++) {
            int src = s.ndim - 1 - d;
            c.size[d] = s.shape[src];
            for (int j = 0; j < k.nop; j++)
                c.stride[j][d] = is_scalar(l, j) ? 0 : s.strides[j][src];
        }
        int64_t n = s.numel;
        void *args[] = {&a, &c, &n};
        e = cudaLaunchKernel(k.strided64, grid, block, args, 0, stream);
    }
    return loop_launch_result(l, e, err);
}

dt_status run_strided(const dt_loop *l, const KernelSet &k, OperandArgs &a, cudaStream_t stream, dt_error *err)
{
    int outer = l->ndim > kMaxDims ? l->ndim - kMaxDims : 0;
    SubLoop s;
    s.ndim = l->ndim - outer;
    s.shape = l->shape + outer;
    s.numel = 1;
    for (int d = outer; d < l->ndim; d++)
        s.numel *= l->shape[d]; /* <= numel, which loop_validate checked */
    for (int j = 0; j < k.nop; j++)
        s.strides[j] = l->strides[j] + outer;
    /* Note [Offset calculator]: one launch per index of the outer dims */
    int64_t idx[DT_MAX_NDIM] = {0};
    for (;;) {
        for (int j = 0; j < k.nop; j++) {
            char *p = l->data[j];
            if (!is_scalar(l, j))
                for (int d = 0; d < outer; d++)
                    p += idx[d] * l->strides[j][d];
            s.base[j] = p;
        }
        DT_TRY(run_strided_one(l, k, a, s, stream, err));
        int d = outer - 1;
        while (d >= 0 && ++idx[d] == l->shape[d])
            idx[d--] = 0;
        if (d < 0)
            break;
    }
    return DT_OK;
}

dt_status misaligned_error(const dt_loop *l, int k, dt_error *err)
{
    char what[112];
    loop_describe(l, what, sizeof what);
    return dt_error_set(err, DT_ERR_VALUE,
                        "%s on cuda:%d: operand %d is not aligned to its element size (data or byte "
                        "strides); copy it to a contiguous tensor first",
                        what, l->device_index, k);
}

/* 1 if every non-scalar operand's address and strides are multiples of its
 * element alignment; else 0 and *bad is the first operand that is not */
int loop_aligned(const dt_loop *l, const KernelSet &k, int *bad)
{
    for (int j = 0; j < k.nop; j++) {
        if (is_scalar(l, j))
            continue;
        int ok = (uintptr_t)l->data[j] % k.align[j] == 0;
        for (int d = 0; d < l->ndim && ok; d++)
            ok = l->shape[d] == 1 || l->strides[j][d] % (int64_t)k.align[j] == 0;
        if (!ok) {
            *bad = j;
            return 0;
        }
    }
    return 1;
}

/* The one launcher (Note [One launcher] in cuda_loops.cuh). */
dt_status launch_loop(const dt_loop *l, const KernelSet &k, cudaStream_t stream, dt_error *err)
{
    OperandArgs a;
    memset(&a, 0, sizeof a);
    a.scalar_mask = l->host_scalar_mask;
    for (int j = 0; j < k.nop && j < kMaxOps; j++) {
        if (is_scalar(l, j))
            memcpy(a.scalar[j].bytes, l->scalar[j].bytes, 16);
        else
            a.data[j] = l->data[j];
    }
    int bad = 0;
    if (!loop_aligned(l, k, &bad)) /* no thread may fault on a misaligned access */
        return misaligned_error(l, bad, err);
    if (k.contig != nullptr && l->ndim == 1) {
        bool contiguous = true, aligned = true;
        for (int j = 0; j < k.nop; j++) {
            if (is_scalar(l, j))
                continue;
            contiguous = contiguous && l->strides[j][0] == (int64_t)k.size[j];
            aligned = aligned && (uintptr_t)l->data[j] % (k.size[j] * (size_t)k.vec) == 0;
        }
        if (contiguous && aligned) {
            dim3 grid(grid_for((l->numel + k.vec - 1) / k.vec, l->device_index)), block(kThreads);
            int64_t n = l->numel;
            void *args[] = {&a, &n};
            return loop_launch_result(l, cudaLaunchKernel(k.contig, grid, block, args, 0, stream), err);
        }
    }
    return run_strided(l, k, a, stream, err);
}

/* identity on bits (same-dtype copies, Note [Identity ops]): a contiguous
 * device copy is a cudaMemcpyAsync, anything else a raw copy kernel */
dt_status launch_raw(const dt_loop *l, int n, cudaStream_t stream, dt_error *err)
{
    if (!is_scalar(l, 1) && l->ndim == 1 && l->strides[0][0] == n && l->strides[1][0] == n) {
        if (l->data[0] == l->data[1])
            return DT_OK;
        return DT_CUDA_CALL(err, l->device_index, cudaMemcpyAsync,
                            (l->data[0], l->data[1], (size_t)l->numel * (size_t)n, cudaMemcpyDeviceToDevice, stream));
    }
    const Registry &r = registry();
    KernelSet k = r.raw[size_index((size_t)n)];
    int bad;
    if (!loop_aligned(l, k, &bad))
        k = r.raw_bytes[size_index((size_t)n)];
    return launch_loop(l, k, stream, err);
}

dt_status type_error(const dt_loop *l, dt_error *err)
{
    char what[112];
    loop_describe(l, what, sizeof what);
    if (l->op != DT_OP_COPY && l->dtypes[0] >= 0 && l->dtypes[0] < DT_NUM_DTYPES)
        return dt_error_set(err, DT_ERR_TYPE, "no CUDA kernel for %s with output %s", what,
                            dtype_name(l->dtypes[0]));
    return dt_error_set(err, DT_ERR_TYPE, "no CUDA kernel for %s", what);
}

/* The kernels of a validated loop, as cpu_loops.c's dt_cpu_find_loop picks
 * its loop (the loop dtype is the first input's, the values' for where), or
 * a TypeError when none exists or the dtypes do not fit it. */
dt_status find_kernels(const dt_loop *l, KernelSet *out, dt_error *err)
{
    const Registry &r = registry();
    const dt_dtype *t = l->dtypes;
    if (l->op == DT_OP_COPY) {
        *out = r.cast[t[1]][t[0]];
        return DT_OK;
    }
    if (l->op == DT_OP_WHERE) {
        const dt_dtype_info *info = dt_dtype_get_info(t[2]);
        if (t[1] != DT_BOOL || t[3] != t[2] || t[0] != t[2] || info == NULL)
            return type_error(l, err);
        KernelSet k = r.where[size_index((size_t)info->itemsize)];
        int bad;
        if (!loop_aligned(l, k, &bad))
            k = r.where_bytes[size_index((size_t)info->itemsize)];
        k.out_dtype = t[2];
        *out = k;
        return DT_OK;
    }
    if (l->op >= DT_OP_EQ && l->op <= DT_OP_GE && t[1] != t[2]) {
        int which = t[1] == DT_INT64 && t[2] == DT_UINT64 ? 0 : t[1] == DT_UINT64 && t[2] == DT_INT64 ? 1 : -1;
        if (which < 0 || t[0] != DT_BOOL)
            return type_error(l, err);
        *out = r.mixed[l->op - DT_OP_EQ][which];
        return DT_OK;
    }
    for (int k = 2; k < l->nop; k++)
        if (t[k] != t[1])
            return type_error(l, err);
    const KernelSet &k = r.ops[l->op][t[1]];
    if (k.nop != l->nop || k.out_dtype != (int)t[0])
        return type_error(l, err);
    *out = k;
    return DT_OK;
}

dt_status loop_validate(const dt_loop *l, dt_error *err)
{
    if (l->op < 0 || l->op >= DT_NUM_OPS)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: unknown op %d", l->op);
    int want = op_nin[l->op] + 1;
    if (l->nop != want)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: %s takes %d operands, got %d", op_names[l->op], want,
                            l->nop);
    if (l->ndim < 1 || l->ndim > DT_MAX_NDIM)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: ndim %d out of range", l->ndim);
    for (int k = 0; k < l->nop; k++)
        if (!dt_dtype_is_valid((int)l->dtypes[k]))
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: invalid dtype code %d", (int)l->dtypes[k]);
    if (l->host_scalar_mask & 1u)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: the output cannot be a host scalar");
    if (l->host_scalar_mask >> l->nop)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: host_scalar_mask names a missing operand");
    int64_t numel = 1;
    for (int d = 0; d < l->ndim; d++) {
        if (l->shape[d] < 1)
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: shape[%d] = %lld", d, (long long)l->shape[d]);
        if (numel > INT64_MAX / l->shape[d])
            return dt_error_set(err, DT_ERR_OVERFLOW, "run_loop: the element count overflows int64");
        numel *= l->shape[d];
    }
    if (numel != l->numel)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: numel %lld does not match the shape (%lld)",
                            (long long)l->numel, (long long)numel);
    for (int k = 0; k < l->nop; k++)
        if (!is_scalar(l, k) && l->data[k] == NULL)
            return dt_error_set(err, DT_ERR_VALUE, "run_loop: operand %d has no data", k);
    return DT_OK;
}

/* Run a loop whose kernels were found (guard entered). */
dt_status run_found(const dt_loop *l, const KernelSet &k, cudaStream_t stream, dt_error *err)
{
    if (k.raw != 0)
        return launch_raw(l, k.raw, stream, err);
    if (!k.swap12)
        return launch_loop(l, k, stream, err);
    /* Note [Swapped comparisons] in cuda_loops_compare.cu */
    dt_loop *sw = (dt_loop *)malloc(sizeof *sw);
    if (sw == NULL)
        return dt_error_set(err, DT_ERR_NOMEM, "out of host memory launching a comparison");
    memcpy(sw, l, sizeof *sw);
    sw->data[1] = l->data[2];
    sw->data[2] = l->data[1];
    memcpy(sw->strides[1], l->strides[2], (size_t)l->ndim * sizeof(int64_t));
    memcpy(sw->strides[2], l->strides[1], (size_t)l->ndim * sizeof(int64_t));
    sw->scalar[1] = l->scalar[2];
    sw->scalar[2] = l->scalar[1];
    sw->dtypes[1] = l->dtypes[2];
    sw->dtypes[2] = l->dtypes[1];
    unsigned m = l->host_scalar_mask;
    sw->host_scalar_mask = (m & ~6u) | ((m >> 1) & 2u) | ((m << 1) & 4u);
    dt_status st = launch_loop(sw, k, stream, err);
    free(sw);
    return st;
}

/* ---------------------------------------------------------------------------
 * Generators (dt_gen): contiguous output, element i a pure function of i.
 */

__global__ void __launch_bounds__(kThreads) k_fill16(uint4 *p, int64_t nvec, uint4 pattern)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += step)
        p[i] = pattern;
}

struct Pattern16 {
    unsigned char b[16];
};

/* byte i of the region is pattern[i % 16] (the element size divides 16) */
__global__ void __launch_bounds__(kThreads) k_fill_bytes(unsigned char *p, int64_t nbytes, Pattern16 pattern)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nbytes; i += step)
        p[i] = pattern.b[i & 15];
}

template <class G>
__global__ void __launch_bounds__(kThreads) k_affine_int(typename G::T *p, int64_t n, int64_t start, int64_t stp)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        int64_t v = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)stp); /* wraps */
        p[i] = G::from_wide(v);
    }
}

template <class G>
__global__ void __launch_bounds__(kThreads) k_affine_float(typename G::T *p, int64_t n, double start, double stp)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(__dadd_rn(start, __dmul_rn((double)i, stp)));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_uniform(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, int bits, double low, double high)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_uniform(seed, offset + (uint64_t)i, bits, low, high));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_normal(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, double mean, double std)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_normal(seed, offset + (uint64_t)i, mean, std));
}

template <class G>
__global__ void __launch_bounds__(kThreads)
    k_randint(typename G::T *p, int64_t n, uint64_t seed, uint64_t offset, int64_t low, int64_t high)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        p[i] = G::from_wide(dt_philox_randint(seed, offset + (uint64_t)i, low, high));
}

dt_status gen_fill(const dt_gen *g, int itemsize, cudaStream_t stream, dt_error *err)
{
    size_t nbytes = (size_t)g->n * (size_t)itemsize; /* checked by the caller */
    const unsigned char *v = g->value.bytes;
    int uniform = 1;
    for (int i = 1; i < itemsize; i++)
        uniform = uniform && v[i] == v[0];
    if (uniform) /* zeros, and every 1-byte dtype */
        return DT_CUDA_CALL(err, g->device_index, cudaMemsetAsync, (g->data, v[0], nbytes, stream));
    Pattern16 pat;
    for (int i = 0; i < 16; i++)
        pat.b[i] = v[i % itemsize];
    unsigned char *p = (unsigned char *)g->data;
    size_t body = 0;
    if ((uintptr_t)p % 16 == 0) {
        body = nbytes / 16 * 16;
        if (body > 0) {
            uint4 pv;
            memcpy(&pv, pat.b, 16);
            DT_LAUNCH(k_fill16, grid_for((int64_t)(body / 16), g->device_index), kThreads, 0, stream)(
                (uint4 *)p, (int64_t)(body / 16), pv);
            DT_TRY(launch_status("fill", g->device_index, err));
        }
    }
    if (nbytes > body) {
        DT_LAUNCH(k_fill_bytes, grid_for((int64_t)(nbytes - body), g->device_index), kThreads, 0, stream)(
            p + body, (int64_t)(nbytes - body), pat);
        DT_TRY(launch_status("fill", g->device_index, err));
    }
    return DT_OK;
}

dt_status gen_type_error(const dt_gen *g, const char *what, dt_error *err)
{
    return dt_error_set(err, DT_ERR_TYPE, "no CUDA kernel for %s with dtype %s", what, dtype_name(g->dtype));
}

template <class G> dt_status gen_typed(const dt_gen *g, cudaStream_t stream, dt_error *err)
{
    using T = typename G::T;
    constexpr dt_dtype code = G::code;
    constexpr bool integral = code <= DT_UINT64;
    constexpr bool floating = code >= DT_FLOAT16 && code <= DT_FLOAT64;
    T *p = (T *)g->data;
    unsigned grid = grid_for(g->n, g->device_index);
    const char *what = "";
    switch (g->kind) {
    case DT_GEN_AFFINE:
        what = "arange";
        if constexpr (integral)
            DT_LAUNCH(k_affine_int<G>, grid, kThreads, 0, stream)(p, g->n, g->istart, g->istep);
        else
            DT_LAUNCH(k_affine_float<G>, grid, kThreads, 0, stream)(p, g->n, g->start, g->step);
        break;
    case DT_GEN_UNIFORM:
        what = "uniform";
        if constexpr (floating) {
            constexpr int bits = code == DT_FLOAT16    ? DT_PHILOX_BITS_FLOAT16
                                 : code == DT_BFLOAT16 ? DT_PHILOX_BITS_BFLOAT16
                                 : code == DT_FLOAT32  ? DT_PHILOX_BITS_FLOAT32
                                                       : DT_PHILOX_BITS_FLOAT64;
            DT_LAUNCH(k_uniform<G>, grid, kThreads, 0, stream)(p, g->n, g->seed, g->offset, bits, g->low, g->high);
        } else
            return gen_type_error(g, "uniform random numbers", err);
        break;
    case DT_GEN_NORMAL:
        what = "normal";
        if constexpr (floating)
            DT_LAUNCH(k_normal<G>, grid, kThreads, 0, stream)(p, g->n, g->seed, g->offset, g->low, g->high);
        else
            return gen_type_error(g, "normal random numbers", err);
        break;
    case DT_GEN_RANDINT:
        what = "randint";
        if (g->ihigh <= g->ilow)
            return dt_error_set(err, DT_ERR_VALUE, "randint: high (%lld) must be greater than low (%lld)",
                                (long long)g->ihigh, (long long)g->ilow);
        DT_LAUNCH(k_randint<G>, grid, kThreads, 0, stream)(p, g->n, g->seed, g->offset, g->ilow, g->ihigh);
        break;
    default:
        return dt_error_set(err, DT_ERR_VALUE, "generate: unknown kind %d", g->kind);
    }
    return launch_status(what, g->device_index, err);
}

dt_status gen_dispatch(const dt_gen *g, cudaStream_t stream, dt_error *err)
{
    switch (g->dtype) {
#define DT_CU_CASE(CODE, X) \
    case CODE:              \
        return gen_typed<Tag_##X>(g, stream, err);
        DT_FOR_EACH_DTYPE(DT_CU_CASE)
#undef DT_CU_CASE
    default:
        return dt_error_set(err, DT_ERR_VALUE, "generate: invalid dtype code %d", (int)g->dtype);
    }
}

} // namespace dt_cuda_kernels
using namespace dt_cuda_kernels;

/* ---------------------------------------------------------------------------
 * The backend slots.
 */

extern "C" dt_status dt_cuda_loop_run(const dt_loop *l, dt_error *err)
{
    if (l == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "run_loop: no loop");
    DT_TRY(loop_validate(l, err));
    KernelSet k;
    DT_TRY(find_kernels(l, &k, err)); /* a TypeError before any CUDA call */
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(l->device_index, l->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, l->device_index, err));
    (void)cudaGetLastError(); /* a stale error must not be blamed on this launch */
    dt_status st = run_found(l, k, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}

extern "C" dt_status dt_cuda_gen_run(const dt_gen *gen, dt_error *err)
{
    if (gen == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: nothing to generate");
    const dt_dtype_info *info = dt_dtype_get_info(gen->dtype);
    if (info == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: invalid dtype code %d", (int)gen->dtype);
    if (gen->n < 0)
        return dt_error_set(err, DT_ERR_VALUE, "generate: negative element count %lld", (long long)gen->n);
    DT_TRY(dt_cuda_index_check(gen->device_index, err));
    if (gen->n == 0)
        return DT_OK;
    if (gen->data == NULL)
        return dt_error_set(err, DT_ERR_VALUE, "generate: no data");
    if (gen->n > INT64_MAX / info->itemsize || (uint64_t)gen->n * (uint64_t)info->itemsize > SIZE_MAX)
        return dt_error_set(err, DT_ERR_OVERFLOW, "generate: %lld elements overflow the byte count",
                            (long long)gen->n);
    int align = info->kind == DT_KIND_COMPLEX ? info->itemsize / 2 : info->itemsize;
    if ((uintptr_t)gen->data % (uintptr_t)align != 0)
        return dt_error_set(err, DT_ERR_VALUE, "generate: the output is not aligned to its element size");
    cudaStream_t stream;
    DT_TRY(dt_cuda_stream_resolve(gen->device_index, gen->stream, NULL, &stream, err));
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, gen->device_index, err));
    (void)cudaGetLastError();
    dt_status st = gen->kind == DT_GEN_FILL ? gen_fill(gen, info->itemsize, stream, err)
                                            : gen_dispatch(gen, stream, err);
    dt_cuda_guard_exit(&g);
    return st;
}
