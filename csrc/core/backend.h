/* backend.h - the vtable through which the core reaches a device.
 *
 * The ggml-backend pattern: one struct of function pointers per device
 * type.  The CPU backend is compiled into devtensor._C and registered at
 * import; the CUDA slot is empty until the first CUDA request, when the
 * wrapper loads devtensor._cuda (which hands over its vtable in a capsule
 * named DT_CUDA_CAPSULE_NAME) or, with DEVTENSOR_EMULATE_CUDA=N,
 * devtensor._cuda_emu (the same backend executed on the CPU, csrc/emu).
 *
 * Note [Backend ABI]
 * The struct crosses a shared-library boundary, so it is versioned:
 * a backend whose abi_version differs from DT_BACKEND_ABI_VERSION is
 * refused (reported as "unavailable"), never called.  Grow the struct only
 * at its end and bump the version.  Only plain C data crosses it: no
 * Python objects, no core functions (_cuda does not link the core).
 *
 * Conventions: every slot that can fail returns dt_status and fills err;
 * `index` is a device index of this backend (0 for cpu); a slot may be
 * NULL where the backend lacks the feature, and the public wrappers in
 * backend.c turn that into a clear error or a neutral answer.
 * Streams and events are opaque handles; NULL is the default stream.
 */
#ifndef DT_BACKEND_H
#define DT_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include "compat.h"
#include "device.h"
#include "dtype.h"
#include "error.h"

DT_EXTERN_C_BEGIN

#define DT_BACKEND_ABI_VERSION 14
#define DT_CUDA_CAPSULE_NAME "devtensor._cuda._BACKEND_API"
#define DT_MAX_NDIM 64
#define DT_MAX_OPERANDS 4

/* Elementwise operations: X(ID, NumPy name, number of inputs).  Operand 0
 * of a launch is the output.  The loop dtype of an op is its first input's
 * dtype; inputs share it except COPY (any cast) and WHERE (a bool condition
 * first).  The output has the loop dtype, except: comparisons, logical ops
 * and predicates give bool; ABS, REAL, IMAG and ANGLE of complex give the
 * real dtype of the same precision; BITWISE_COUNT (ABI 13) gives uint8; ERF, ERFC and LGAMMA (ABI 14) are real-float only.  Semantics: ops.h.  Appending is ABI-
 * compatible only with a version bump (backends index tables by the id). */
#define DT_OP_LIST(X)                                                                         \
    X(COPY, "copy", 1) X(ADD, "add", 2) X(SUB, "subtract", 2) X(MUL, "multiply", 2)           \
    X(DIV, "divide", 2) X(EQ, "equal", 2) X(NE, "not_equal", 2) X(LT, "less", 2)              \
    X(LE, "less_equal", 2) X(GT, "greater", 2) X(GE, "greater_equal", 2)                      \
    X(FLOOR_DIVIDE, "floor_divide", 2) X(REMAINDER, "remainder", 2) X(POW, "power", 2)        \
    X(MAXIMUM, "maximum", 2) X(MINIMUM, "minimum", 2) X(ATAN2, "arctan2", 2)                  \
    X(HYPOT, "hypot", 2) X(COPYSIGN, "copysign", 2) X(NEXTAFTER, "nextafter", 2)              \
    X(LOGADDEXP, "logaddexp", 2) X(BITWISE_AND, "bitwise_and", 2)                            \
    X(BITWISE_OR, "bitwise_or", 2) X(BITWISE_XOR, "bitwise_xor", 2)                          \
    X(LEFT_SHIFT, "left_shift", 2) X(RIGHT_SHIFT, "right_shift", 2)                          \
    X(LOGICAL_AND, "logical_and", 2) X(LOGICAL_OR, "logical_or", 2)                          \
    X(LOGICAL_XOR, "logical_xor", 2)                                                          \
    X(NEGATIVE, "negative", 1) X(POSITIVE, "positive", 1) X(ABS, "absolute", 1)               \
    X(SQUARE, "square", 1) X(SQRT, "sqrt", 1) X(RECIPROCAL, "reciprocal", 1)                  \
    X(SIGN, "sign", 1) X(EXP, "exp", 1) X(EXPM1, "expm1", 1) X(LOG, "log", 1)                 \
    X(LOG1P, "log1p", 1) X(LOG2, "log2", 1) X(LOG10, "log10", 1) X(SIN, "sin", 1)             \
    X(COS, "cos", 1) X(TAN, "tan", 1) X(ASIN, "arcsin", 1) X(ACOS, "arccos", 1)               \
    X(ATAN, "arctan", 1) X(SINH, "sinh", 1) X(COSH, "cosh", 1) X(TANH, "tanh", 1)             \
    X(ASINH, "arcsinh", 1) X(ACOSH, "arccosh", 1) X(ATANH, "arctanh", 1)                      \
    X(FLOOR, "floor", 1) X(CEIL, "ceil", 1) X(TRUNC, "trunc", 1) X(RINT, "rint", 1)           \
    X(INVERT, "invert", 1) X(LOGICAL_NOT, "logical_not", 1) X(ISNAN, "isnan", 1)              \
    X(ISINF, "isinf", 1) X(ISFINITE, "isfinite", 1) X(SIGNBIT, "signbit", 1)                  \
    X(CONJ, "conjugate", 1) X(REAL, "real", 1) X(IMAG, "imag", 1) X(ANGLE, "angle", 1)        \
    X(WHERE, "where", 3) X(FMOD, "fmod", 2) X(FMAX, "fmax", 2) X(FMIN, "fmin", 2)                \
    X(GCD, "gcd", 2) X(LCM, "lcm", 2) X(HEAVISIDE, "heaviside", 2)                            \
    X(LOGADDEXP2, "logaddexp2", 2) X(EXP2, "exp2", 1) X(CBRT, "cbrt", 1)                      \
    X(DEG2RAD, "deg2rad", 1) X(RAD2DEG, "rad2deg", 1) X(FABS, "fabs", 1)                      \
    X(LDEXP, "ldexp", 2) X(BITWISE_COUNT, "bitwise_count", 1)                                 \
    X(ERF, "erf", 1) X(ERFC, "erfc", 1) X(LGAMMA, "lgamma", 1)

typedef enum dt_op {
#define DT_OP_ENUM_(ID, NAME, NIN) DT_OP_##ID,
    DT_OP_LIST(DT_OP_ENUM_)
#undef DT_OP_ENUM_
    DT_NUM_OPS
} dt_op;

/* One elementwise launch over a broadcast, coalesced iteration space.
 * shape is C order (innermost last), ndim >= 1, every shape[i] >= 1 and
 * numel >= 1 (empty work is never sent).  strides are in bytes and may be
 * zero (broadcast) or negative.
 * Operand k with (host_scalar_mask >> k) & 1 is a scalar that lives in
 * scalar[k] (host memory, already of dtypes[k]); data[k] points at it and
 * its strides are 0, so a host backend can treat it as any operand while a
 * device backend passes the value by value. */
typedef struct dt_loop {
    int op;                    /* dt_op */
    int nop;                   /* operands, output first */
    int ndim;
    int device_index;
    int64_t numel;
    unsigned host_scalar_mask;
    void *stream;              /* NULL: the device's current stream */
    dt_dtype dtypes[DT_MAX_OPERANDS];
    char *data[DT_MAX_OPERANDS];
    int64_t shape[DT_MAX_NDIM];
    int64_t strides[DT_MAX_OPERANDS][DT_MAX_NDIM];
    union {
        unsigned char bytes[16];
        double align_;
    } scalar[DT_MAX_OPERANDS];
} dt_loop;

/* Filling a contiguous block: the factories' work. */
typedef enum dt_gen_kind {
    DT_GEN_FILL = 0,  /* every element = value (bytes already of dtype) */
    DT_GEN_AFFINE,    /* element i = start + i*step: in int64 (wrapping) for
                       * integer and bool dtypes, in float64 otherwise,
                       * then cast to dtype */
    DT_GEN_UNIFORM,   /* philox.h: uniform in [low, high) */
    DT_GEN_NORMAL,    /* philox.h: mean + std * N(0, 1) */
    DT_GEN_RANDINT    /* philox.h: integers in [ilow, ihigh) */
} dt_gen_kind;

typedef struct dt_gen {
    int kind;                  /* dt_gen_kind */
    dt_dtype dtype;
    int device_index;
    void *stream;
    void *data;                /* contiguous, n elements of dtype */
    int64_t n;
    union {
        unsigned char bytes[16];
        double align_;
    } value;                   /* FILL */
    int64_t istart, istep;     /* AFFINE, integer dtypes */
    double start, step;        /* AFFINE, other dtypes */
    uint64_t seed, offset;     /* random: element i uses counter offset + i */
    double low, high;          /* UNIFORM: [low, high); NORMAL: mean=low, std=high */
    int64_t ilow, ihigh;       /* RANDINT */
} dt_gen;

/* Index kernels: advanced indexing on a device (Note [Advanced indexing on
 * devices] in csrc/core/gather.c).  data[0] is the dense side (a gather's
 * output, a scatter's values), data[1] the indexed side (a gather's source,
 * a scatter's destination), data[2] int64 byte offsets into data[1] or, in
 * a direct loop, int64 indices into one axis of data[1] (axis_len,
 * axis_stride); all three strided over shape (C order, byte strides,
 * numel >= 1), with i the C-order position of an element among numel.
 * An index must lie in [-axis_len, axis_len) and is wrapped into
 * [0, axis_len); a position i whose index does not is min'ed into bad[0]
 * (which holds INT64_MAX before) and its element is left alone.  Kinds:
 *   OFFSETS  data[0] (int64) = (accumulate ? data[0] : 0) + index * axis_stride
 *            for the index data[1] (int64);
 *   GATHER   data[0] = itemsize bytes at data[1] moved by data[2];
 *   CLAIM    flag[(data[1] moved by data[2] - claim_base) / itemsize] =
 *            max(it, i): flag holds -1 before, one slot per itemsize of the
 *            targets' span;
 *   SCATTER  itemsize bytes at data[1] moved by data[2] = data[0], for the
 *            i that CLAIM left in flag (so the last write wins, as in NumPy);
 *   COUNT    data[1] is numel bytes, contiguous (shape and strides unused),
 *            cut in nblocks chunks of chunk bytes: flag[b] = the number of
 *            non-zero bytes before chunk b, flag[nblocks] = all of them;
 *   COMPACT  data[0] (int64, contiguous) = the positions of the non-zero
 *            bytes of data[1], in order, with COUNT's flag.
 * bad is used by OFFSETS and by direct GATHER and CLAIM (a direct SCATTER's
 * indices were checked by its CLAIM).  A backend that writes in order may
 * take CLAIM and SCATTER with flag NULL (the CPU's: Note [Index kernels on
 * the CPU]): CLAIM then only checks, SCATTER writes every i, the last
 * winning; slots is the number of itemsize slots of the targets' span.  Every address of data[0] and data[1]
 * is a multiple of the dtype's alignment (the itemsize, half of it for
 * complex, at most 8); aligned == 0 says it is only 4 for 8-byte elements
 * (complex64). */
typedef enum dt_idx_kind {
    DT_IDX_OFFSETS = 0,
    DT_IDX_GATHER,
    DT_IDX_CLAIM,
    DT_IDX_SCATTER,
    DT_IDX_COUNT,
    DT_IDX_COMPACT
} dt_idx_kind;

typedef struct dt_index_loop {
    int kind;                  /* dt_idx_kind */
    int ndim;
    int device_index;
    int itemsize;              /* GATHER, CLAIM, SCATTER: 1, 2, 4, 8 or 16 */
    int aligned;
    int accumulate;            /* OFFSETS */
    int direct;                /* GATHER, CLAIM, SCATTER: data[2] holds indices */
    int nblocks;               /* COUNT, COMPACT: 1 ... DT_INDEX_MAX_BLOCKS */
    int64_t chunk;             /* COUNT, COMPACT: bytes per block */
    int64_t numel;
    void *stream;
    char *data[3];
    int64_t axis_len, axis_stride;
    int64_t *flag;             /* device memory: CLAIM's and SCATTER's slots, COUNT's sums */
    int64_t *bad;              /* device memory: the first bad index's position */
    char *claim_base;          /* CLAIM, SCATTER: where the targets' span starts */
    int64_t slots;             /* CLAIM, SCATTER: itemsize slots in the span */
    int64_t shape[DT_MAX_NDIM];
    int64_t strides[3][DT_MAX_NDIM];
} dt_index_loop;

#define DT_INDEX_MAX_BLOCKS 1024

/* Reductions (ABI version 4): Note [Reductions] in csrc/core/reduce.c.
 * out[o] = the op over in[o, r] for every r of the reduced space, where
 * the element (o, r) of in lies at in + sum of o's coordinates times
 * kept_in_strides and r's times red_strides (byte strides, C order over
 * kept_shape and red_shape; each group coalesced and ordered by falling
 * |stride|), and out[o] at out + o's coordinates times kept_out_strides.
 * n_out >= 1 and n_red >= 1 (the core handles empty work); kept_ndim may be
 * 0 (one output), red_ndim >= 1.  Dtypes: SUM and PROD accumulate ints in
 * 64 bits (wrapping), float16 and bfloat16 in float, float32 and float64
 * in double, complex in complex128, and store to out_dtype (the input's,
 * or an integer dtype for a bool or integer input); MIN and MAX store the
 * input's dtype, NaN winning; ARGMIN and ARGMAX store int64, the first
 * extreme (or first NaN) in C order of r; ANY and ALL store bool.
 * work is device memory of DT_REDUCE_WORK_BYTES the backend may use
 * (partial results of a split reduction). */
#define DT_REDUCE_LIST(X) \
    X(SUM, "add") X(PROD, "multiply") X(MIN, "minimum") X(MAX, "maximum") \
    X(ARGMIN, "argmin") X(ARGMAX, "argmax") X(ANY, "logical_or") X(ALL, "logical_and")

typedef enum dt_reduce_op {
#define DT_REDUCE_ENUM_(ID, NAME) DT_REDUCE_##ID,
    DT_REDUCE_LIST(DT_REDUCE_ENUM_)
#undef DT_REDUCE_ENUM_
    DT_NUM_REDUCE_OPS
} dt_reduce_op;

/* ABI 11: 4 MiB (was 32 KiB), room for the partials of reductions cut in
 * parts (Note [Reduction kernels] in cuda_reduce.cu) */
#define DT_REDUCE_WORK_BYTES (4 * 1024 * 1024)

typedef struct dt_reduce_loop {
    int op;                    /* dt_reduce_op */
    int device_index;
    void *stream;
    dt_dtype in_dtype, out_dtype;
    int kept_ndim, red_ndim;
    int64_t n_out, n_red;
    const char *in;
    char *out;
    void *work;
    int64_t kept_shape[DT_MAX_NDIM], kept_in_strides[DT_MAX_NDIM], kept_out_strides[DT_MAX_NDIM];
    int64_t red_shape[DT_MAX_NDIM], red_strides[DT_MAX_NDIM];
} dt_reduce_loop;

/* Scans (ABI version 4; MIN and MAX since 13): out[o, i] = the op of
 * in[o, 0..i] along one axis of len >= 1 elements, for every o of the
 * other axes (n_rows >= 1, coalesced, C order; outer_ndim may be 0).
 * SUM and PROD: accumulators and dtypes as in dt_reduce_loop, each output
 * the running accumulator stored as out_dtype.  MIN and MAX: out_dtype is
 * in_dtype, and out[o, i] is ops_math.h's dt_min/dt_max folded in order
 * (NumPy's minimum/maximum.accumulate: the first NaN wins, and of equal
 * values the earlier, so -0.0 then 0.0 stays -0.0).  in and out do not
 * overlap.  work: DT_REDUCE_WORK_BYTES of device memory. */
typedef struct dt_scan_loop {
    int op;                    /* DT_REDUCE_SUM, PROD, MIN or MAX */
    int device_index;
    void *stream;
    dt_dtype in_dtype, out_dtype;
    int outer_ndim;
    int reserved;              /* 0 */
    int64_t n_rows, len;
    const char *in;
    char *out;
    void *work;
    int64_t in_stride, out_stride; /* along the scanned axis, bytes */
    int64_t outer_shape[DT_MAX_NDIM], outer_in_strides[DT_MAX_NDIM], outer_out_strides[DT_MAX_NDIM];
} dt_scan_loop;

/* Binary search (ABI version 4): out[i] (int64, contiguous, C order over
 * shape) = the number of elements of sorted (n >= 1, stride sorted_stride)
 * that order before values[i] (strided over shape, numel >= 1), or for
 * `right` that do not order after it: NumPy's searchsorted, in NumPy's sort
 * order (NaN last; complex lexicographic, NaN parts last).  One dtype for
 * both. */
typedef struct dt_search_loop {
    int device_index;
    int right;
    void *stream;
    dt_dtype dtype;
    int ndim;
    int64_t n, sorted_stride, numel;
    const char *sorted;
    const char *values;
    int64_t *out;
    int64_t shape[DT_MAX_NDIM], value_strides[DT_MAX_NDIM];
} dt_search_loop;

/* Sorting (ABI version 5): each of n_rows rows of len >= 1 elements of
 * in (C-contiguous, row after row) sorted stably in NumPy's sort order
 * (NaN last; complex by real, then imaginary part, NaN classes last), or
 * its reverse for `descending` (a stable sort of the reversed order: NaN
 * first, equal elements kept in their order).  arg = 0: out holds the
 * sorted values (dtype); arg = 1: out holds, as int64, each sorted
 * element's position in its row.  out is C-contiguous and does not
 * overlap in.  work: DT_SORT_WORK_BYTES(n_rows * len) bytes of device
 * memory. */
typedef struct dt_sort_loop {
    int device_index;
    int descending;
    int arg;
    int reserved;              /* 0 */
    void *stream;
    dt_dtype dtype;
    int64_t n_rows, len;
    const char *in;
    char *out;
    void *work;
} dt_sort_loop;

#define DT_SORT_WORK_BYTES(numel) (32 * (numel) + (1 << 20))
/* the most elements one sort may take: its work bytes fit an int64 */
#define DT_SORT_MAX_NUMEL ((INT64_MAX - (1 << 20)) / 32)

/* Matrix products (ABI version 6): Note [Matrix products] in
 * csrc/core/matmul.c.  For every problem p of the batch,
 * out[p] (m x n) = a[p] (m x k) @ b[p] (k x n), one dtype throughout,
 * m, n, k >= 1 (the core handles empty work).  Element (i, j) of a[p]
 * lies at a + p's batch offset + i * a_rs + j * a_cs (bytes), and so for
 * b; p runs over batch_shape (C order, batch_ndim >= 0 dims, coalesced)
 * with byte strides per operand (0 where broadcast).  out is C-contiguous
 * and fresh (it overlaps neither input): problem p at out + p*m*n items.
 * For floating and complex dtypes each of a and b has a BLAS layout: one
 * of its two strides is the itemsize and the other a positive multiple of
 * it no smaller than the extent it spans (rows * itemsize or cols *
 * itemsize); the batch strides are multiples of the itemsize.  Integer
 * and bool dtypes may have any strides.  Sums: float16 and bfloat16 in
 * float, float32 and float64 in their own precision (BLAS's order),
 * complex likewise; integers wrap in their dtype; bool is any(a and b).
 * allow_tf32: float32 may use TensorFloat-32 (a GPU's choice; cuBLAS's
 * CUBLAS_COMPUTE_32F_FAST_TF32), else full float32. */
typedef struct dt_matmul_loop {
    int device_index;
    int allow_tf32;
    void *stream;
    dt_dtype dtype;
    int batch_ndim;
    int64_t m, n, k;
    const char *a;
    const char *b;
    char *out;
    int64_t a_rs, a_cs, b_rs, b_cs;
    int64_t batch_shape[DT_MAX_NDIM];
    int64_t batch_strides[3][DT_MAX_NDIM]; /* a, b, out */
} dt_matmul_loop;

/* Dense factorizations (ABI version 6): Note [Factorizations] in
 * csrc/core/linalg.c.  count >= 1 problems of one dtype (float32,
 * float64, complex64, complex128); every matrix is column-major and
 * dense, problem after problem (problem p's rows x cols matrix at
 * base + p * rows * cols items, element (i, j) at item i + j * rows), as
 * LAPACK and cuSOLVER take them.  "real" is the real dtype of the same
 * precision.  info[p] (int64, device memory) is LAPACK's: 0, or > 0 for
 * a singular pivot (LU), a leading minor not positive definite
 * (CHOLESKY), no convergence (EIGH, SVD, EIG).  Kinds:
 *   LU        a (n x n) := L and U of P a = L U (L unit lower); piv
 *             (count x n, int64) := the row swapped with row i at step i,
 *             0-based (LAPACK's ipiv - 1)
 *   LU_SOLVE  b (n x nrhs) := the solution of A x = b from LU's a and piv
 *             (info unused)
 *   CHOLESKY  a (n x n) := L of a = L L^H, from a's lower triangle; the
 *             strict upper triangle zeroed
 *   QR        a (m x n) := R, with zeros below the diagonal; q (m x qcols)
 *             := the first qcols columns of Q, qcols = m if full, else
 *             min(m, n)
 *   EIGH      w (count x n, real) := the eigenvalues of the Hermitian a
 *             (lower triangle read), ascending; if vectors, a := the
 *             eigenvectors as columns (else a is destroyed)
 *   SVD       s := w (count x min(m, n), real), descending; if vectors,
 *             q (m x k) := U and vt (k x n) := V^H, k = m and n if full,
 *             else min(m, n); a destroyed
 *   EIG       (general a, n x n) w (count x n, complex of a's precision)
 *             := the eigenvalues; if vectors, q (n x n, complex) := the
 *             unit eigenvectors as columns; a destroyed.  A backend may
 *             leave EIG out (DT_ERR_NOT_IMPLEMENTED).
 *   LU_DET    (ABI 12) from LU's a (n x n), piv and info (read, not
 *             written): q (count, a's dtype) := the sign of det a (+-1,
 *             or a unit complex; 0 where info > 0) and w (count, real)
 *             := log|det a| (-inf where info > 0); with full, q := det a
 *             = sign * exp(log|det a|) and w is not read (may be NULL).
 *             NumPy's order: the pivots' parity, then the diagonal in
 *             order (Note [Determinants from LU] in csrc/core/linalg.c). */
typedef enum dt_linalg_kind {
    DT_LINALG_LU = 0,
    DT_LINALG_LU_SOLVE,
    DT_LINALG_CHOLESKY,
    DT_LINALG_QR,
    DT_LINALG_EIGH,
    DT_LINALG_SVD,
    DT_LINALG_EIG,
    DT_LINALG_LU_DET
} dt_linalg_kind;

typedef struct dt_linalg_loop {
    int kind;                  /* dt_linalg_kind */
    int device_index;
    void *stream;
    dt_dtype dtype;
    int vectors;               /* EIGH, SVD, EIG */
    int full;                  /* QR, SVD; LU_DET: the determinant */
    int reserved;              /* 0 */
    int64_t count;
    int64_t m, n;              /* a is m x n (n x n where square) */
    int64_t nrhs;              /* LU_SOLVE */
    char *a;
    char *b;                   /* LU_SOLVE */
    int64_t *piv;              /* LU, LU_SOLVE, LU_DET */
    char *w;                   /* EIGH, SVD, EIG, LU_DET */
    char *q;                   /* QR, SVD (U), EIG, LU_DET */
    char *vt;                  /* SVD */
    int64_t *info;
} dt_linalg_loop;

/* Fourier transforms (ABI version 7): Note [FFTs] in csrc/core/fft.c.
 * count >= 1 transforms of rank 1, 2 or 3 over the last `rank` axes of
 * C-contiguous data, one after the other, all sizes >= 1; shape[] is the
 * transform's logical (real-side) size n.  Unnormalised; sign -1 forward,
 * +1 inverse (numpy.fft's convention).  dtype is the complex dtype
 * (complex64 or complex128); the real side has its precision.  Kinds:
 *   C2C  in, out: complex, count x shape items; `inverse` picks the sign
 *   R2C  in: real, count x shape; out: complex, count x shape[..rank-1] x
 *        (shape[rank-1] / 2 + 1): the non-negative frequencies of the
 *        last axis (forward)
 *   C2R  in: complex, laid out as R2C's out (Hermitian symmetry assumed:
 *        the imaginary parts of the self-conjugate terms are ignored),
 *        destroyed; out: real, count x shape (inverse)
 * in and out do not overlap. */
typedef enum dt_fft_kind {
    DT_FFT_C2C = 0,
    DT_FFT_R2C,
    DT_FFT_C2R
} dt_fft_kind;

typedef struct dt_fft_loop {
    int kind;                  /* dt_fft_kind */
    int device_index;
    void *stream;
    dt_dtype dtype;            /* complex64 or complex128 */
    int inverse;               /* C2C */
    int rank;                  /* 1, 2 or 3 */
    int64_t count;
    int64_t shape[3];
    char *in;
    char *out;
} dt_fft_loop;

typedef enum dt_copy_kind {
    DT_COPY_HOST_TO_DEVICE = 0,
    DT_COPY_DEVICE_TO_HOST,
    DT_COPY_DEVICE_TO_DEVICE   /* same device, or peer (src_index != dst_index) */
} dt_copy_kind;

typedef struct dt_device_props {
    char name[256];
    uint64_t total_memory;
    int multi_processor_count;
    int major, minor;          /* compute capability */
    int reserved;              /* 0; keeps the layout of ABI version 2 (Note [Backend ABI]) */
} dt_device_props;

typedef struct dt_memory_stats {
    uint64_t allocated;        /* bytes in live tensors */
    uint64_t max_allocated;    /* peak of allocated since the last reset */
    uint64_t reserved;         /* bytes held from the device, cached included */
    uint64_t max_reserved;
    uint64_t alloc_count;      /* allocations served */
    uint64_t device_alloc_count; /* of which reached the device allocator */
} dt_memory_stats;

typedef struct dt_backend_iface {
    int abi_version;           /* DT_BACKEND_ABI_VERSION */
    const char *name;          /* "cpu", "cuda" */

    /* -- devices -- */
    int (*device_count)(void);                                   /* 0 when none; never fails */
    const char *(*unavailable_reason)(void);                     /* why device_count() is 0, or NULL */
    dt_status (*get_device)(int *index, dt_error *err);          /* current device of this thread */
    dt_status (*set_device)(int index, dt_error *err);
    dt_status (*device_props)(int index, dt_device_props *out, dt_error *err);
    dt_status (*can_access_peer)(int index, int peer, int *out, dt_error *err);
    dt_status (*synchronize)(int index, dt_error *err);          /* wait for all work on the device */

    /* -- device memory -- */
    /* allocate nbytes (0 allowed) for use on `stream`; *ptr, *ctx are handed back to free */
    dt_status (*alloc)(int index, size_t nbytes, void *stream, void **ptr, void **ctx, dt_error *err);
    void (*free)(int index, void *ptr, void *ctx);               /* never fails */
    /* mark a block as used by another stream: it is not reused until that stream's work is done */
    dt_status (*record_stream)(int index, void *ptr, void *ctx, void *stream, dt_error *err);
    dt_status (*memory_stats)(int index, dt_memory_stats *out, dt_error *err);
    dt_status (*reset_peak_stats)(int index, dt_error *err);
    dt_status (*empty_cache)(int index, dt_error *err);
    dt_status (*mem_get_info)(int index, size_t *free_bytes, size_t *total_bytes, dt_error *err);

    /* -- pinned host memory -- */
    dt_status (*host_alloc_pinned)(size_t nbytes, void **ptr, dt_error *err);
    void (*host_free_pinned)(void *ptr);
    int (*host_is_pinned)(const void *ptr);

    /* -- transfers of contiguous bytes; non_blocking only matters for pinned host memory -- */
    dt_status (*copy)(dt_copy_kind kind, void *dst, int dst_index, const void *src, int src_index,
                      size_t nbytes, void *stream, int non_blocking, dt_error *err);

    /* -- compute -- */
    dt_status (*run_loop)(const dt_loop *loop, dt_error *err);
    dt_status (*generate)(const dt_gen *gen, dt_error *err);

    /* -- streams and events -- */
    dt_status (*stream_create)(int index, int priority, void **stream, dt_error *err);
    void (*stream_destroy)(int index, void *stream);
    dt_status (*stream_synchronize)(int index, void *stream, dt_error *err);
    dt_status (*stream_query)(int index, void *stream, int *done, dt_error *err);
    dt_status (*stream_wait_event)(int index, void *stream, void *event, dt_error *err);
    void *(*get_stream)(int index);                              /* current stream, NULL = default */
    dt_status (*set_stream)(int index, void *stream, dt_error *err);
    dt_status (*event_create)(int index, int enable_timing, void **event, dt_error *err);
    void (*event_destroy)(int index, void *event);
    dt_status (*event_record)(int index, void *event, void *stream, dt_error *err);
    dt_status (*event_synchronize)(void *event, dt_error *err);
    dt_status (*event_query)(void *event, int *done, dt_error *err);
    dt_status (*event_elapsed_ms)(void *start, void *end, float *ms, dt_error *err);

    /* -- index kernels (ABI version 3) -- */
    dt_status (*run_index)(const dt_index_loop *loop, dt_error *err);

    /* -- reductions, scans and binary search (ABI version 4; scans of MIN and MAX: 13) -- */
    dt_status (*run_reduce)(const dt_reduce_loop *loop, dt_error *err);
    dt_status (*run_scan)(const dt_scan_loop *loop, dt_error *err);
    dt_status (*run_search)(const dt_search_loop *loop, dt_error *err);

    /* -- sorting (ABI version 5) -- */
    dt_status (*run_sort)(const dt_sort_loop *loop, dt_error *err);

    /* -- matrix products and factorizations (ABI version 6) -- */
    dt_status (*run_matmul)(const dt_matmul_loop *loop, dt_error *err);
    dt_status (*run_linalg)(const dt_linalg_loop *loop, dt_error *err);

    /* -- Fourier transforms (ABI version 7) -- */
    dt_status (*run_fft)(const dt_fft_loop *loop, dt_error *err);

    /* -- another library's device memory and streams (ABI version 8): Note [Foreign
     *    device memory] in csrc/python/cuda_array_interface.c -- */
    /* the device whose memory holds both the byte at first and the byte at last */
    dt_status (*pointer_device)(const void *first, const void *last, int *index, dt_error *err);
    /* the native handle (cudaStream_t) of a stream handle; NULL, the default stream, is 0 */
    dt_status (*stream_native)(int index, void *stream, uintptr_t *native, dt_error *err);
    /* queue on `stream` a wait for the work queued so far on a native stream of device index */
    dt_status (*wait_native_stream)(int index, void *stream, uintptr_t native, dt_error *err);
} dt_backend_iface;

/* ---- registry (backend.c) ---- */

/* Called by the core the first time the CUDA slot is needed and empty;
 * returns the backend or NULL and a reason (set by the Python wrapper,
 * which knows how to import devtensor._cuda). */
typedef const dt_backend_iface *(*dt_backend_loader)(const char **reason);

void dt_backend_register(dt_device_type type, const dt_backend_iface *iface);
void dt_backend_set_loader(dt_device_type type, dt_backend_loader loader);
/* The backend of a device type, loading it on first use; NULL if unavailable. */
const dt_backend_iface *dt_backend_get(dt_device_type type);
/* Why dt_backend_get(type) is NULL or has no devices (never NULL). */
const char *dt_backend_unavailable_reason(dt_device_type type);
/* Number of devices of a type: 1 for cpu, 0 when CUDA is unavailable. */
int dt_backend_device_count(dt_device_type type);

/* Resolve DT_INDEX_CURRENT and check that the device exists: returns its
 * backend, or NULL with a RuntimeError that says why (no CUDA, or the index
 * and the device count). */
const dt_backend_iface *dt_device_resolve(dt_device *dev, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_BACKEND_H */
