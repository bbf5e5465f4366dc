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
    coalesce(&loop);
    return b->run_loop(&loop, err);
}

/* ---- type resolution ---- */

static const char *const op_names[DT_NUM_OPS] = {
    "copy", "add", "subtract", "multiply", "divide",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
};

dt_status dt_binary_result_type(dt_op op, dt_dtype a, dt_dtype b, dt_dtype *compute,
                                dt_dtype *result, dt_error *err)
{
    dt_dtype c = dt_promote_types(a, b);
    switch (op) {
    case DT_OP_SUB:
        if (c == DT_BOOL)
            return dt_error_set(err, DT_ERR_TYPE,
                                "numpy boolean subtract, the `-` operator, is not supported, use "
                                "the bitwise_xor, the `^` operator, or the logical_xor function "
                                "instead.");
        break;
    case DT_OP_DIV:
        if (!dt_dtype_is_floating(c) && !dt_dtype_is_complex(c))
            c = DT_FLOAT64;
        break;
    case DT_OP_ADD: case DT_OP_MUL:
    case DT_OP_EQ: case DT_OP_NE: case DT_OP_LT: case DT_OP_LE: case DT_OP_GT: case DT_OP_GE:
        break;
    default:
        return dt_error_set(err, DT_ERR_VALUE, "'%s' is not a binary op",
                            op >= 0 && op < DT_NUM_OPS ? op_names[op] : "?");
    }
    *compute = c;
    *result = op >= DT_OP_EQ ? DT_BOOL : c;
    return DT_OK;
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
    DT_TRY(dt_tensor_init_new(tmp, dt_tensor_device(in->tensor), to, in->tensor->ndim,
                              in->tensor->shape, err));
    DT_TRY(dt_tensor_copy_into(tmp, in->tensor, err));
    in->tensor = tmp;
    return DT_OK;
}

dt_status dt_binary(dt_op op, const dt_operand *a, const dt_operand *b, dt_tensor *out,
                    dt_error *err)
{
    dt_operand in[2] = {*a, *b};
    dt_device device;
    DT_TRY(dt_operands_device(2, in, &device, err));
    dt_dtype compute, result;
    DT_TRY(dt_binary_result_type(op, dt_operand_dtype(a), dt_operand_dtype(b), &compute,
                                 &result, err));

    int ndims[2];
    const int64_t *shapes[2];
    for (int k = 0; k < 2; k++) {
        ndims[k] = in[k].tensor ? in[k].tensor->ndim : 0;
        shapes[k] = in[k].tensor ? in[k].tensor->shape : NULL;
    }
    int nd;
    int64_t shape[DT_MAX_NDIM];
    DT_TRY(dt_broadcast_shapes(2, ndims, shapes, &nd, shape, err));

    dt_tensor tmp[2];
    dt_tensor_init_empty(&tmp[0]);
    dt_tensor_init_empty(&tmp[1]);
    dt_status st = DT_OK;
    for (int k = 0; k < 2 && st == DT_OK; k++)
        st = convert_operand(&in[k], compute, &tmp[k], err);
    if (st == DT_OK)
        st = dt_tensor_init_new(out, device, result, nd, shape, err);
    if (st == DT_OK) {
        st = dt_launch(op, out, 2, in, err);
        if (st != DT_OK)
            dt_tensor_clear(out);
    }
    dt_tensor_clear(&tmp[0]);
    dt_tensor_clear(&tmp[1]);
    return st;
}
