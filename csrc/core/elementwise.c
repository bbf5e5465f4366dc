/* elementwise.c - broadcasting, dimension coalescing, type resolution and
 * launch of elementwise ops (see elementwise.h). */
#include "elementwise.h"

#include <stdio.h>
#include <string.h>
#include "ops.h"

/* ---- broadcasting ---- */

static void format_shape(char *buf, size_t size, int ndim, const int64_t *shape)
{
    size_t used = 0;
    used += (size_t)snprintf(buf + used, size - used, "(");
    for (int i = 0; i < ndim && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, i + 1 < ndim ? "%lld," : "%lld",
                                 (long long)shape[i]);
    if (ndim == 1 && used < size)
        used += (size_t)snprintf(buf + used, size - used, ",");
    if (used < size)
        snprintf(buf + used, size - used, ")");
}

dt_status dt_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes,
                              int *out_ndim, int64_t *out_shape, dt_error *err)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (ndims[k] > nd)
            nd = ndims[k];
    for (int i = 0; i < nd; i++)
        out_shape[i] = 1;
    for (int k = 0; k < n; k++) {
        int shift = nd - ndims[k];
        for (int i = 0; i < ndims[k]; i++) {
            int64_t d = shapes[k][i], *o = &out_shape[shift + i];
            if (d == *o || d == 1)
                continue;
            if (*o == 1) {
                *o = d;
                continue;
            }
            char msg[DT_ERROR_MSG_MAX] = "operands could not be broadcast together with shapes ";
            for (int j = 0; j < n; j++) {
                char one[160];
                format_shape(one, sizeof one, ndims[j], shapes[j]);
                strncat(msg, one, sizeof msg - strlen(msg) - 2);
                strncat(msg, " ", sizeof msg - strlen(msg) - 1);
            }
            return dt_error_set(err, DT_ERR_VALUE, "%s", msg);
        }
    }
    *out_ndim = nd;
    return DT_OK;
}

/* ---- scalars ---- */

void dt_scalar_cast(dt_dtype from, const void *src, dt_dtype to, void *dst)
{
#define DT_CAST_FROM(FCODE, FTAG)                                \
    case FCODE: {                                                \
        dt_T_##FTAG v;                                           \
        memcpy(&v, src, sizeof v);                               \
        switch (to) {                                            \
            DT_CAST_FROM_BODY(FTAG)                              \
        default: break;                                          \
        }                                                        \
        break;                                                   \
    }
    /* Expand the 15 x 15 casts; FT names the source tag inside the body. */
#define DT_CAST_FROM_BODY(FTAG) DT_CAST_FROM_BODY_(FTAG)
#define DT_CAST_FROM_BODY_(FT_) DT_FOR_EACH_DTYPE_TO(FT_)
#define DT_FOR_EACH_DTYPE_TO(FT_)                                                    \
    DT_C1(FT_, DT_BOOL, b) DT_C1(FT_, DT_INT8, i8) DT_C1(FT_, DT_INT16, i16)         \
    DT_C1(FT_, DT_INT32, i32) DT_C1(FT_, DT_INT64, i64) DT_C1(FT_, DT_UINT8, u8)     \
    DT_C1(FT_, DT_UINT16, u16) DT_C1(FT_, DT_UINT32, u32) DT_C1(FT_, DT_UINT64, u64) \
    DT_C1(FT_, DT_FLOAT16, f16) DT_C1(FT_, DT_BFLOAT16, bf16)                        \
    DT_C1(FT_, DT_FLOAT32, f32) DT_C1(FT_, DT_FLOAT64, f64)                          \
    DT_C1(FT_, DT_COMPLEX64, c64) DT_C1(FT_, DT_COMPLEX128, c128)
#define DT_C1(FT_, TCODE, TT)                                    \
    case TCODE: {                                                \
        dt_T_##TT r = DT_CAST(FT_, TT, v);                       \
        memcpy(dst, &r, sizeof r);                               \
        break;                                                   \
    }
    switch (from) {
        DT_FOR_EACH_DTYPE(DT_CAST_FROM)
    default:
        break;
    }
#undef DT_C1
#undef DT_FOR_EACH_DTYPE_TO
#undef DT_CAST_FROM_BODY_
#undef DT_CAST_FROM_BODY
#undef DT_CAST_FROM
}

/* ---- devices ---- */

dt_status dt_operands_device(int n, const dt_operand *ops, dt_device *device, dt_error *err)
{
    int found = 0;
    for (int k = 0; k < n; k++) {
        if (ops[k].tensor == NULL)
            continue;
        dt_device d = dt_tensor_device(ops[k].tensor);
        if (!found) {
            *device = d;
            found = 1;
        } else if (!dt_device_equal(d, *device)) {
            char a[32], b[32];
            dt_device_format(*device, a, sizeof a);
            dt_device_format(d, b, sizeof b);
            return dt_error_set(err, DT_ERR_RUNTIME,
                                "Expected all tensors to be on the same device, but found at "
                                "least two devices, %s and %s!", a, b);
        }
    }
    if (!found)
        return dt_error_set(err, DT_ERR_TYPE, "elementwise op needs at least one tensor operand");
    return DT_OK;
}

/* Note [0-d CPU tensors as scalars]
 * PyTorch lets a 0-d CPU tensor take part in an op on another device as a
 * scalar, and NumPy code makes such tensors all the time: with `import
 * devtensor as np`, np.sqrt(252) and np.log(2.0) are 0-d CPU tensors, and
 * x_cuda * np.sqrt(252) must work.  Beside a tensor on another device (an
 * input or out), such an operand becomes a scalar operand holding its value
 * (read from host memory) and its dtype, which promotes as the tensor does:
 * a 0-d tensor is not a weak scalar.  NumPy's scalars go the same way
 * (number.c).  Larger CPU tensors stay an error. */
void dt_operands_lift_cpu_scalars(int nin, dt_operand *in, const dt_tensor *out)
{
    int elsewhere = out != NULL && dt_tensor_device(out).type != DT_DEVICE_CPU;
    for (int k = 0; k < nin; k++)
        elsewhere |= in[k].tensor != NULL && dt_tensor_device(in[k].tensor).type != DT_DEVICE_CPU;
    if (!elsewhere)
        return;
    for (int k = 0; k < nin; k++) {
        const dt_tensor *t = in[k].tensor;
        if (t == NULL || t->ndim != 0 || dt_tensor_device(t).type != DT_DEVICE_CPU)
            continue;
        in[k].dtype = t->dtype;
        memcpy(in[k].value.bytes, dt_tensor_data(t), (size_t)dt_dtype_get_info(t->dtype)->itemsize);
        in[k].tensor = NULL;
    }
}

/* ---- building a loop ---- */

/* Drop unit dimensions and merge neighbours that are contiguous for every
 * operand, so that backends see as few and as long dimensions as possible. */
static void coalesce(dt_loop *loop)
{
    int nd = 0;
    for (int i = 0; i < loop->ndim; i++) {
        if (loop->shape[i] == 1)
            continue;
        if (nd > 0) {
            int mergeable = 1;
            for (int k = 0; k < loop->nop; k++)
                if (loop->strides[k][nd - 1] != loop->strides[k][i] * loop->shape[i])
                    mergeable = 0;
            if (mergeable) {
                loop->shape[nd - 1] *= loop->shape[i];
                for (int k = 0; k < loop->nop; k++)
                    loop->strides[k][nd - 1] = loop->strides[k][i];
                continue;
            }
        }
        loop->shape[nd] = loop->shape[i];
        for (int k = 0; k < loop->nop; k++)
            loop->strides[k][nd] = loop->strides[k][i];
        nd++;
    }
    if (nd == 0) { /* a single element */
        loop->shape[0] = 1;
        for (int k = 0; k < loop->nop; k++)
            loop->strides[k][0] = 0;
        nd = 1;
    }
    loop->ndim = nd;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Note [Loop axes in memory order]
 * A loop runs over its axes in the order the output's strides take through
 * memory (the largest first), not in the logical C order: an F-ordered or
 * transposed output -- out=, or the result of F-ordered inputs (Note
 * [Results in the inputs' order]) -- is then written in a line, and inputs
 * of its layout are read in a line (a + 1 of a transposed 2000 x 2500
 * float64 into such an out took 41 ms, 3 ms in a line).  Every element is
 * computed alone, so the order changes no value; an input that overlaps
 * the output other than as the same view was copied first (dt_ufunc,
 * dt_tensor_copy_into).  The sort is stable and leaves C order as it is;
 * unit axes, which coalesce drops, go last. */
static void order_loop_axes(dt_loop *loop)
{
    int n = loop->ndim, perm[DT_MAX_NDIM], sorted = 1;
    int64_t key[DT_MAX_NDIM];
    for (int i = 0; i < n; i++) {
        key[i] = loop->shape[i] == 1 ? -1 : abs64(loop->strides[0][i]);
        perm[i] = i;
        if (i > 0 && key[i] > key[i - 1] && key[i - 1] >= 0)
            sorted = 0;
    }
    if (sorted)
        return;
    for (int i = 1; i < n; i++) { /* insertion sort, largest key first, stable */
        int a = perm[i], j = i;
        while (j > 0 && key[perm[j - 1]] < key[a]) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = a;
    }
    int64_t shape[DT_MAX_NDIM], strides[DT_MAX_NDIM];
    for (int i = 0; i < n; i++)
        shape[i] = loop->shape[perm[i]];
    memcpy(loop->shape, shape, (size_t)n * sizeof *shape);
    for (int k = 0; k < loop->nop; k++) {
        for (int i = 0; i < n; i++)
            strides[i] = loop->strides[k][perm[i]];
        memcpy(loop->strides[k], strides, (size_t)n * sizeof *strides);
    }
}

static void set_operand(dt_loop *loop, int k, const dt_tensor *t, int out_ndim)
{
    int shift = out_ndim - t->ndim;
    for (int i = 0; i < out_ndim; i++)
        loop->strides[k][i] = (i < shift || t->shape[i - shift] == 1) ? 0 : t->strides[i - shift];
    loop->data[k] = dt_tensor_data(t);
    loop->dtypes[k] = t->dtype;
}

dt_status dt_launch(dt_op op, dt_tensor *out, int nin, const dt_operand *in, dt_error *err)
{
    if (nin + 1 > DT_MAX_OPERANDS)
        return dt_error_set(err, DT_ERR_VALUE, "too many operands (%d)", nin);
    DT_TRY(dt_tensor_check_writeable(out, err));
    if (out->numel == 0)
        return DT_OK;
    dt_device device = dt_tensor_device(out);
    const dt_backend_iface *b = dt_device_resolve(&device, err);
    if (b == NULL)
        return err->status;
    dt_loop loop;
    memset(&loop, 0, offsetof(dt_loop, shape)); /* the arrays are filled below */
    loop.op = op;
    loop.nop = nin + 1;
    loop.ndim = out->ndim;
    loop.numel = out->numel;
    loop.device_index = device.index < 0 ? 0 : device.index;
    loop.stream = b->get_stream ? b->get_stream(loop.device_index) : NULL;
    for (int i = 0; i < out->ndim; i++)
        loop.shape[i] = out->shape[i];
    set_operand(&loop, 0, out, out->ndim);
    for (int k = 0; k < nin; k++) {
        if (in[k].tensor != NULL) {
            const dt_tensor *t = in[k].tensor;
            if (t->ndim > out->ndim)
                return dt_error_set(err, DT_ERR_VALUE, "input has more dimensions than the output");
            for (int i = 0; i < t->ndim; i++) {
                int64_t d = t->shape[i], o = out->shape[out->ndim - t->ndim + i];
                if (d != o && d != 1)
                    return dt_error_set(err, DT_ERR_VALUE,
                                        "input of shape dimension %lld cannot be broadcast to %lld",
                                        (long long)d, (long long)o);
            }
            set_operand(&loop, k + 1, t, out->ndim);
        } else {
            memcpy(loop.scalar[k + 1].bytes, in[k].value.bytes, sizeof in[k].value.bytes);
            loop.host_scalar_mask |= 1u << (k + 1);
            loop.data[k + 1] = (char *)loop.scalar[k + 1].bytes;
            loop.dtypes[k + 1] = in[k].dtype;
            for (int i = 0; i < out->ndim; i++)
                loop.strides[k + 1][i] = 0;
        }
    }
    order_loop_axes(&loop); /* Note [Loop axes in memory order] */
    coalesce(&loop);
    return b->run_loop(&loop, err);
}

/* ---- ops and casting ---- */

static const char *const op_names[DT_NUM_OPS] = {
#define DT_OP_NAME_(ID, NAME, NIN) NAME,
    DT_OP_LIST(DT_OP_NAME_)
#undef DT_OP_NAME_
};

static const int op_nin[DT_NUM_OPS] = {
#define DT_OP_NIN_(ID, NAME, NIN) NIN,
    DT_OP_LIST(DT_OP_NIN_)
#undef DT_OP_NIN_
};

int dt_op_nin(dt_op op) { return op >= 0 && op < DT_NUM_OPS ? op_nin[op] : 0; }
const char *dt_op_name(dt_op op) { return op >= 0 && op < DT_NUM_OPS ? op_names[op] : "?"; }

int dt_can_cast(dt_dtype from, dt_dtype to, dt_casting casting)
{
    switch (casting) {
    case DT_CASTING_NO:
    case DT_CASTING_EQUIV: return from == to;
    case DT_CASTING_SAFE: return dt_can_cast_safe(from, to);
    case DT_CASTING_SAME_KIND: return dt_can_cast_same_kind(from, to);
    default: return 1;
    }
}

static const char *const casting_names[] = {"no", "equiv", "safe", "same_kind", "unsafe"};

/* ---- type resolution ---- */

/* Note [Type resolution]
 * NumPy picks the first loop of a ufunc that the inputs cast to safely; for
 * the loops devtensor has, that reduces to a few rules:
 *   PROMOTE    the promoted dtype (add, maximum, bitwise, comparisons, ...)
 *   TRUE_DIV   promoted, with integers and bool computed in float64
 *   INT8_BOOL  promoted, with bool computed in int8 (floor_divide, power,
 *              shifts, square, reciprocal, conjugate)
 *   FLOAT      promoted, with integers and bool in the smallest float that
 *              holds them (bool/8-bit -> float16, 16-bit -> float32, else
 *              float64): sqrt, exp, arctan2, ...
 *   ANGLE      FLOAT applied as if a Python int 0 were the other operand
 *   WHERE      bool condition, promoted values
 * A loop missing for the resolved dtype (floor of complex, bitwise of
 * float) is NumPy's TypeError.  The output is the loop dtype, except bool
 * for comparisons, logical ops and predicates, the real dtype for
 * absolute/real/imag/angle of complex, and uint8 for bitwise_count (whose
 * bool input computes in int8). */
typedef enum { RULE_PROMOTE, RULE_TRUE_DIV, RULE_INT8_BOOL, RULE_FLOAT, RULE_ANGLE, RULE_WHERE } dt_rule;

static dt_rule op_rule(dt_op op)
{
    switch (op) {
    case DT_OP_DIV: return RULE_TRUE_DIV;
    case DT_OP_FLOOR_DIVIDE: case DT_OP_REMAINDER: case DT_OP_POW: case DT_OP_LEFT_SHIFT:
    case DT_OP_RIGHT_SHIFT: case DT_OP_SQUARE: case DT_OP_RECIPROCAL: case DT_OP_CONJ:
    case DT_OP_FMOD: case DT_OP_BITWISE_COUNT:
        return RULE_INT8_BOOL;
    case DT_OP_HEAVISIDE: case DT_OP_LOGADDEXP2: case DT_OP_EXP2: case DT_OP_CBRT: case DT_OP_DEG2RAD:
    case DT_OP_RAD2DEG: case DT_OP_FABS: case DT_OP_LDEXP: case DT_OP_ERF: case DT_OP_ERFC: case DT_OP_LGAMMA:
    case DT_OP_ATAN2: case DT_OP_HYPOT: case DT_OP_COPYSIGN: case DT_OP_NEXTAFTER:
    case DT_OP_LOGADDEXP: case DT_OP_SQRT: case DT_OP_EXP: case DT_OP_EXPM1: case DT_OP_LOG:
    case DT_OP_LOG1P: case DT_OP_LOG2: case DT_OP_LOG10: case DT_OP_SIN: case DT_OP_COS:
    case DT_OP_TAN: case DT_OP_ASIN: case DT_OP_ACOS: case DT_OP_ATAN: case DT_OP_SINH:
    case DT_OP_COSH: case DT_OP_TANH: case DT_OP_ASINH: case DT_OP_ACOSH: case DT_OP_ATANH:
    case DT_OP_RINT:
        return RULE_FLOAT;
    case DT_OP_ANGLE: return RULE_ANGLE;
    case DT_OP_WHERE: return RULE_WHERE;
    default: return RULE_PROMOTE;
    }
}

static int op_returns_bool(dt_op op)
{
    switch (op) {
    case DT_OP_EQ: case DT_OP_NE: case DT_OP_LT: case DT_OP_LE: case DT_OP_GT: case DT_OP_GE:
    case DT_OP_LOGICAL_AND: case DT_OP_LOGICAL_OR: case DT_OP_LOGICAL_XOR:
    case DT_OP_LOGICAL_NOT: case DT_OP_ISNAN: case DT_OP_ISINF: case DT_OP_ISFINITE:
    case DT_OP_SIGNBIT:
        return 1;
    default:
        return 0;
    }
}

static dt_dtype real_of(dt_dtype d)
{
    return d == DT_COMPLEX64 ? DT_FLOAT32 : d == DT_COMPLEX128 ? DT_FLOAT64 : d;
}

static dt_dtype float_for(dt_dtype d)
{
    return dt_dtype_is_floating(d) || dt_dtype_is_complex(d) ? d : dt_promote_types(d, DT_FLOAT16);
}

/* Whether the backends have a loop for op at loop dtype d (mirrors the CPU
 * table in cpu_loops.c, which the CUDA kernels follow). */
static int has_loop(dt_op op, dt_dtype d)
{
    dt_dtype_kind k = dt_dtype_get_info(d)->kind;
    int b = k == DT_KIND_BOOL, i = k == DT_KIND_INT || k == DT_KIND_UINT, f = k == DT_KIND_FLOAT,
        c = k == DT_KIND_COMPLEX;
    switch (op) {
    case DT_OP_DIV: return f || c;
    case DT_OP_SUB: return !b;
    case DT_OP_FLOOR_DIVIDE: case DT_OP_REMAINDER: case DT_OP_FMOD: return i || f;
    case DT_OP_GCD: case DT_OP_LCM: return i;
    case DT_OP_POW: case DT_OP_NEGATIVE: case DT_OP_POSITIVE: case DT_OP_SQUARE:
    case DT_OP_RECIPROCAL: case DT_OP_SIGN: case DT_OP_CONJ:
        return !b;
    case DT_OP_ATAN2: case DT_OP_HYPOT: case DT_OP_COPYSIGN: case DT_OP_NEXTAFTER:
    case DT_OP_LOGADDEXP: case DT_OP_HEAVISIDE: case DT_OP_LOGADDEXP2: case DT_OP_CBRT: case DT_OP_DEG2RAD:
    case DT_OP_RAD2DEG: case DT_OP_FABS: case DT_OP_LDEXP: case DT_OP_ERF: case DT_OP_ERFC: case DT_OP_LGAMMA:
        return f;
    case DT_OP_BITWISE_AND: case DT_OP_BITWISE_OR: case DT_OP_BITWISE_XOR: case DT_OP_INVERT:
        return b || i;
    case DT_OP_LEFT_SHIFT: case DT_OP_RIGHT_SHIFT: case DT_OP_BITWISE_COUNT: return i;
    case DT_OP_FLOOR: case DT_OP_CEIL: case DT_OP_TRUNC: case DT_OP_SIGNBIT: return !c;
    default:
        return op_rule(op) == RULE_FLOAT || op_rule(op) == RULE_ANGLE ? f || c : 1;
    }
}

static dt_status no_loop(dt_op op, int nin, const dt_dtype *in, dt_error *err)
{
    if (op == DT_OP_SUB)
        return dt_error_set(err, DT_ERR_TYPE,
                            "numpy boolean subtract, the `-` operator, is not supported, use "
                            "the bitwise_xor, the `^` operator, or the logical_xor function "
                            "instead.");
    if (op == DT_OP_NEGATIVE)
        return dt_error_set(err, DT_ERR_TYPE,
                            "The numpy boolean negative, the `-` operator, is not supported, "
                            "use the `~` operator or the logical_not function instead.");
    (void)nin, (void)in; /* NumPy's words name the ufunc only */
    return dt_error_set(err, DT_ERR_TYPE,
                        "ufunc '%s' not supported for the input types, and the inputs could "
                        "not be safely coerced to any supported types according to the casting "
                        "rule ''safe''", op_names[op]);
}

dt_status dt_ufunc_resolve(dt_op op, const dt_dtype *in, int forced, dt_casting casting,
                           dt_dtype *loop, dt_dtype *out, dt_error *err)
{
    if (op <= DT_OP_COPY || op >= DT_NUM_OPS)
        return dt_error_set(err, DT_ERR_VALUE, "not an elementwise function: %d", (int)op);
    int nin = op_nin[op];
    dt_rule rule = op_rule(op);
    int first = rule == RULE_WHERE ? 1 : 0; /* where's condition stays bool */
    /* float-only ops take the first float every input casts to safely,
     * without promoting the inputs first (int8 with uint8 is float16) */
    int per_input_float = rule == RULE_FLOAT;
    dt_dtype d = per_input_float ? float_for(in[first]) : in[first];
    for (int k = first + 1; k < nin; k++)
        d = dt_promote_types(d, per_input_float ? float_for(in[k]) : in[k]);
    if (op >= DT_OP_EQ && op <= DT_OP_GE && forced < 0 && d == DT_FLOAT64 &&
        dt_dtype_is_integral(in[0]) && dt_dtype_is_integral(in[1])) {
        /* a signed integer against uint64: compared exactly, not in float64 */
        loop[0] = dt_dtype_get_info(in[0])->kind == DT_KIND_INT ? DT_INT64 : DT_UINT64;
        loop[1] = loop[0] == DT_INT64 ? DT_UINT64 : DT_INT64;
        *out = DT_BOOL;
        return DT_OK;
    }
    switch (rule) {
    case RULE_TRUE_DIV:
        if (!dt_dtype_is_floating(d) && !dt_dtype_is_complex(d))
            d = DT_FLOAT64;
        break;
    case RULE_INT8_BOOL:
        if (d == DT_BOOL)
            d = DT_INT8;
        break;
    case RULE_FLOAT:
        break;
    case RULE_ANGLE:
        d = float_for(dt_promote_weak(d, DT_WEAK_INT));
        break;
    default:
        break;
    }
    if (forced >= 0) {
        if (op_returns_bool(op) ? forced != DT_BOOL : 0)
            return dt_error_set(err, DT_ERR_TYPE, "ufunc '%s' returns bool; dtype=%s is not "
                                "possible", op_names[op], dt_dtype_get_info((dt_dtype)forced)->name);
        if (op == DT_OP_BITWISE_COUNT && forced != DT_UINT8) /* NumPy's loops all end in uint8 */
            return dt_error_set(err, DT_ERR_TYPE, "No loop matching the specified signature and casting "
                                "was found for ufunc bitwise_count");
        if (!op_returns_bool(op) && op != DT_OP_BITWISE_COUNT)
            d = (dt_dtype)forced;
    }
    /* every input is cast to the loop dtype under the casting rule */
    for (int k = first; k < nin; k++)
        if (!dt_can_cast(in[k], d, casting))
            return dt_error_set(err, DT_ERR_TYPE,
                                "Cannot cast ufunc '%s' input %d from dtype('%s') to dtype('%s') "
                                "with casting rule '%s'", op_names[op], k,
                                dt_dtype_get_info(in[k])->name, dt_dtype_get_info(d)->name,
                                casting_names[casting]);
    if (!has_loop(op, d))
        return no_loop(op, nin, in, err);
    for (int k = 0; k < nin; k++)
        loop[k] = d;
    if (rule == RULE_WHERE)
        loop[0] = DT_BOOL;
    if (op_returns_bool(op))
        *out = DT_BOOL;
    else if (op == DT_OP_ABS || op == DT_OP_REAL || op == DT_OP_IMAG || op == DT_OP_ANGLE)
        *out = real_of(d);
    else if (op == DT_OP_BITWISE_COUNT)
        *out = DT_UINT8;
    else
        *out = d;
    return DT_OK;
}

dt_dtype dt_ufunc_weak_dtype(dt_op op, dt_dtype peer, dt_weak_kind kind)
{
    int inexact = dt_dtype_is_floating(peer) || dt_dtype_is_complex(peer);
    if (!inexact && (kind == DT_WEAK_INT || kind == DT_WEAK_BOOL)) {
        dt_rule rule = op_rule(op);
        if (rule == RULE_TRUE_DIV)
            return DT_FLOAT64;
        if (rule == RULE_FLOAT || rule == RULE_ANGLE) /* bool with an int: via int64 */
            return float_for(dt_promote_weak(peer, kind));
    }
    if (!inexact && op_rule(op) == RULE_TRUE_DIV)
        peer = DT_FLOAT64;
    return dt_promote_weak(peer, kind);
}

/* Note [Results in the inputs' order]
 * NumPy lays a ufunc's result out in its inputs' memory order (order='K'):
 * exp of an F-ordered array is F-ordered, so is f + 1 and f + f, while
 * f + c (orders that disagree) is C-ordered.  The order is NumPy's
 * insertion sort of the axes: axis a goes outside axis b when the first
 * tensor with both strides non-zero (broadcast axes do not vote) has a's
 * larger, unless a later one has it not larger; an order nobody votes on
 * stays C.  A result so laid out is written in a line (Note [Loop axes in
 * memory order]), as NumPy's. */
static void result_axis_order(int nt, const dt_tensor *const *ts, int nd, const int64_t *shape, int *perm)
{
    int64_t s[DT_MAX_OPERANDS + 1][DT_MAX_NDIM];
    for (int k = 0; k < nt; k++) {
        int shift = nd - ts[k]->ndim;
        for (int i = 0; i < nd; i++)
            s[k][i] = i < shift || ts[k]->shape[i - shift] == 1 || shape[i] == 1
                          ? 0 : abs64(ts[k]->strides[i - shift]);
    }
    for (int i = 0; i < nd; i++)
        perm[i] = i;
    for (int i = 1; i < nd; i++) {
        int a = perm[i], pos = i;
        for (int j = i - 1; j >= 0; j--) {
            int b = perm[j], voted = 0, outside = 0;
            for (int k = 0; k < nt; k++) {
                if (s[k][a] == 0 || s[k][b] == 0)
                    continue;
                if (s[k][a] <= s[k][b])
                    outside = 0;
                else if (!voted)
                    outside = 1;
                voted = 1;
            }
            if (!voted)
                continue;
            if (!outside)
                break;
            pos = j;
        }
        for (int j = i; j > pos; j--)
            perm[j] = perm[j - 1];
        perm[pos] = a;
    }
}

void dt_tensor_k_order(const dt_tensor *t, int *perm)
{
    result_axis_order(1, &t, t->ndim, t->shape, perm);
}

/* Bring operand `in` to dtype `to`: scalars convert in place, tensors into
 * a temporary (held in tmp) on their device. */
static dt_status convert_operand(dt_operand *in, dt_dtype to, dt_tensor *tmp, dt_error *err)
{
    if (in->tensor == NULL) {
        if (in->dtype != to) {
            unsigned char buf[16];
            dt_scalar_cast(in->dtype, in->value.bytes, to, buf);
            memcpy(in->value.bytes, buf, sizeof buf);
            in->dtype = to;
        }
        return DT_OK;
    }
    if (in->tensor->dtype == to)
        return DT_OK;
    int perm[DT_MAX_NDIM]; /* in the tensor's own order: a cast in a line */
    result_axis_order(1, &in->tensor, in->tensor->ndim, in->tensor->shape, perm);
    DT_TRY(dt_tensor_init_new_ordered(tmp, dt_tensor_device(in->tensor), to, in->tensor->ndim,
                                      in->tensor->shape, perm, err));
    DT_TRY(dt_tensor_copy_into(tmp, in->tensor, err));
    in->tensor = tmp;
    return DT_OK;
}

/* Integers to negative integer powers are refused, as NumPy does. */
static dt_status check_int_exponent(const dt_operand *e, dt_error *err)
{
    static const char msg[] = "Integers to negative integer powers are not allowed.";
    if (e->tensor == NULL) {
        int64_t v = 0;
        dt_scalar_cast(e->dtype, e->value.bytes, DT_INT64, &v);
        return dt_dtype_get_info(e->dtype)->kind == DT_KIND_INT && v < 0
                   ? dt_error_set(err, DT_ERR_VALUE, "%s", msg) : DT_OK;
    }
    if (dt_dtype_get_info(e->tensor->dtype)->kind != DT_KIND_INT || e->tensor->numel == 0)
        return DT_OK;
    /* any(e < 0), read on the host */
    dt_operand zero = {0};
    zero.dtype = e->tensor->dtype;
    dt_tensor neg, host;
    dt_tensor_init_empty(&neg);
    dt_tensor_init_empty(&host);
    dt_operand ins[2] = {*e, zero};
    dt_status st = dt_ufunc(DT_OP_LT, ins, &neg, 0, -1, DT_CASTING_SAME_KIND, err);
    if (st == DT_OK)
        st = dt_tensor_to(&host, &neg, dt_device_cpu(), DT_BOOL, 0, err);
    if (st == DT_OK && memchr(dt_tensor_data(&host), 1, (size_t)host.numel) != NULL)
        st = dt_error_set(err, DT_ERR_VALUE, "%s", msg);
    dt_tensor_clear(&neg);
    dt_tensor_clear(&host);
    return st;
}

/* The broadcast shape must be out's own: NumPy's message otherwise. */
static dt_status check_out_shape(const dt_tensor *out, int nd, const int64_t *shape,
                                 dt_error *err)
{
    int ok = nd <= out->ndim;
    for (int i = 0; ok && i < nd; i++) {
        int64_t o = out->shape[out->ndim - nd + i];
        ok = shape[i] == o || shape[i] == 1;
    }
    if (ok)
        return DT_OK;
    char a[160], b[160];
    format_shape(a, sizeof a, out->ndim, out->shape);
    format_shape(b, sizeof b, nd, shape);
    return dt_error_set(err, DT_ERR_VALUE,
                        "non-broadcastable output operand with shape %s doesn't match the "
                        "broadcast shape %s", a, b);
}

dt_status dt_ufunc(dt_op op, const dt_operand *in_ops, dt_tensor *out, int out_given, int forced,
                   dt_casting casting, dt_error *err)
{
    int nin = dt_op_nin(op);
    if (nin < 1)
        return dt_error_set(err, DT_ERR_VALUE, "not an elementwise function: %d", (int)op);
    dt_operand in[DT_MAX_OPERANDS];
    dt_operand all[DT_MAX_OPERANDS + 1];
    dt_dtype types[DT_MAX_OPERANDS], loop[DT_MAX_OPERANDS], result;
    for (int k = 0; k < nin; k++)
        in[k] = in_ops[k];
    dt_operands_lift_cpu_scalars(nin, in, out_given ? out : NULL);
    for (int k = 0; k < nin; k++) {
        all[k] = in[k];
        types[k] = dt_operand_dtype(&in[k]);
    }
    int nall = nin;
    if (out_given) {
        memset(&all[nall], 0, sizeof all[nall]);
        all[nall++].tensor = out;
    }
    dt_device device;
    DT_TRY(dt_operands_device(nall, all, &device, err));
    if (out_given)
        DT_TRY(dt_tensor_check_output(out, err));
    DT_TRY(dt_ufunc_resolve(op, types, forced, casting, loop, &result, err));
    if (out_given && !dt_can_cast(result, out->dtype, casting))
        return dt_error_set(err, DT_ERR_TYPE,
                            "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') with "
                            "casting rule '%s'", op_names[op], dt_dtype_get_info(result)->name,
                            dt_dtype_get_info(out->dtype)->name, casting_names[casting]);

    int ndims[DT_MAX_OPERANDS + 1];
    const int64_t *shapes[DT_MAX_OPERANDS + 1];
    for (int k = 0; k < nin; k++) {
        ndims[k] = in[k].tensor ? in[k].tensor->ndim : 0;
        shapes[k] = in[k].tensor ? in[k].tensor->shape : NULL;
    }
    int nd;
    int64_t shape[DT_MAX_NDIM];
    if (out_given) { /* NumPy broadcasts out with the inputs first: its message names every shape */
        ndims[nin] = out->ndim;
        shapes[nin] = out->shape;
        DT_TRY(dt_broadcast_shapes(nin + 1, ndims, shapes, &nd, shape, err));
    }
    DT_TRY(dt_broadcast_shapes(nin, ndims, shapes, &nd, shape, err));
    if (out_given)
        DT_TRY(check_out_shape(out, nd, shape, err));

    dt_tensor tmp[DT_MAX_OPERANDS], direct;
    for (int k = 0; k < nin; k++)
        dt_tensor_init_empty(&tmp[k]);
    dt_tensor_init_empty(&direct);
    dt_status st = DT_OK;
    for (int k = 0; k < nin && st == DT_OK; k++)
        st = convert_operand(&in[k], loop[k], &tmp[k], err);
    if (st == DT_OK && op == DT_OP_POW && dt_dtype_is_integral(loop[1]))
        st = check_int_exponent(&in[1], err);

    /* Write straight into out when it has the result dtype and no input
     * overlaps it other than as the very same view; else through `direct`. */
    int straight = 0;
    if (out_given && out->dtype == result) {
        straight = 1;
        for (int k = 0; k < nin; k++)
            if (in[k].tensor && dt_tensors_may_overlap(in[k].tensor, out) &&
                !dt_tensors_same_view(in[k].tensor, out))
                straight = 0;
    }
    dt_tensor *target = straight ? out : &direct;
    if (st == DT_OK && !straight) { /* Note [Results in the inputs' order]; out's own when given */
        const dt_tensor *ts[DT_MAX_OPERANDS + 1];
        int nt = 0, perm[DT_MAX_NDIM];
        if (out_given)
            ts[nt++] = out;
        else
            for (int k = 0; k < nin; k++)
                if (all[k].tensor != NULL) /* the inputs as given, not their converted copies */
                    ts[nt++] = all[k].tensor;
        int rnd = out_given ? out->ndim : nd;
        const int64_t *rshape = out_given ? out->shape : shape;
        result_axis_order(nt, ts, rnd, rshape, perm);
        st = dt_tensor_init_new_ordered(&direct, device, result, rnd, rshape, perm, err);
    }
    if (st == DT_OK)
        st = dt_launch(op, target, nin, in, err);
    if (st == DT_OK && !straight) {
        if (out_given) {
            st = dt_tensor_copy_into(out, &direct, err);
        } else {
            dt_tensor_move(out, &direct);
        }
    }
    dt_tensor_clear(&direct);
    for (int k = 0; k < nin; k++)
        dt_tensor_clear(&tmp[k]);
    return st;
}
