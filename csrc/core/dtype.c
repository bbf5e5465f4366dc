/* dtype.c - dtype table and NumPy 2 promotion rules (see dtype.h). */
#include "dtype.h"

#include <string.h>

static const dt_dtype_info dtype_table[DT_NUM_DTYPES] = {
    [DT_BOOL] = {"bool", 1, DT_KIND_BOOL, '?'},
    [DT_INT8] = {"int8", 1, DT_KIND_INT, 'b'},
    [DT_INT16] = {"int16", 2, DT_KIND_INT, 'h'},
    [DT_INT32] = {"int32", 4, DT_KIND_INT, 'i'},
    [DT_INT64] = {"int64", 8, DT_KIND_INT, 'q'},
    [DT_UINT8] = {"uint8", 1, DT_KIND_UINT, 'B'},
    [DT_UINT16] = {"uint16", 2, DT_KIND_UINT, 'H'},
    [DT_UINT32] = {"uint32", 4, DT_KIND_UINT, 'I'},
    [DT_UINT64] = {"uint64", 8, DT_KIND_UINT, 'Q'},
    [DT_FLOAT16] = {"float16", 2, DT_KIND_FLOAT, 'e'},
    [DT_BFLOAT16] = {"bfloat16", 2, DT_KIND_FLOAT, '\0'},
    [DT_FLOAT32] = {"float32", 4, DT_KIND_FLOAT, 'f'},
    [DT_FLOAT64] = {"float64", 8, DT_KIND_FLOAT, 'd'},
    [DT_COMPLEX64] = {"complex64", 8, DT_KIND_COMPLEX, 'F'},
    [DT_COMPLEX128] = {"complex128", 16, DT_KIND_COMPLEX, 'D'},
};

int dt_dtype_is_valid(int code) { return code >= 0 && code < DT_NUM_DTYPES; }

const dt_dtype_info *dt_dtype_get_info(dt_dtype d)
{
    return dt_dtype_is_valid((int)d) ? &dtype_table[d] : NULL;
}

int dt_dtype_from_name(const char *name)
{
    for (int i = 0; i < DT_NUM_DTYPES; i++)
        if (strcmp(name, dtype_table[i].name) == 0)
            return i;
    return -1;
}

static int is_int_kind(dt_dtype d)
{
    dt_dtype_kind k = dtype_table[d].kind;
    return k == DT_KIND_INT || k == DT_KIND_UINT;
}

static dt_dtype signed_of_size(int size)
{
    switch (size) {
    case 1: return DT_INT8;
    case 2: return DT_INT16;
    case 4: return DT_INT32;
    default: return DT_INT64;
    }
}

/* Smallest float that holds every value of an integer type exactly
 * (NumPy: int8/uint8 -> float16, 16-bit -> float32, wider -> float64). */
static dt_dtype min_float_for_int(dt_dtype d)
{
    switch (dtype_table[d].itemsize) {
    case 1: return DT_FLOAT16;
    case 2: return DT_FLOAT32;
    default: return DT_FLOAT64;
    }
}

static dt_dtype promote_ints(dt_dtype a, dt_dtype b)
{
    int sa = dtype_table[a].itemsize, sb = dtype_table[b].itemsize;
    dt_dtype_kind ka = dtype_table[a].kind, kb = dtype_table[b].kind;
    if (ka == kb)
        return sa >= sb ? a : b;
    if (ka == DT_KIND_UINT) { /* make a the signed one */
        dt_dtype t = a; a = b; b = t;
        int s = sa; sa = sb; sb = s;
    }
    if (sb < sa)
        return a;
    if (sb < 8)
        return signed_of_size(2 * sb);
    return DT_FLOAT64; /* uint64 with a signed integer */
}

static dt_dtype promote_floats(dt_dtype a, dt_dtype b)
{
    if (a == b)
        return a;
    if ((a == DT_FLOAT16 && b == DT_BFLOAT16) || (a == DT_BFLOAT16 && b == DT_FLOAT16))
        return DT_FLOAT32;
    return dtype_table[a].itemsize >= dtype_table[b].itemsize ? a : b;
}

static dt_dtype complex_for_float(dt_dtype f)
{
    return f == DT_FLOAT64 ? DT_COMPLEX128 : DT_COMPLEX64;
}

dt_dtype dt_promote_types(dt_dtype a, dt_dtype b)
{
    if (a == b || b == DT_BOOL)
        return a;
    if (a == DT_BOOL)
        return b;
    if (is_int_kind(a) && is_int_kind(b))
        return promote_ints(a, b);
    if (is_int_kind(b)) { /* make a the integer, if there is one */
        dt_dtype t = a; a = b; b = t;
    }
    if (is_int_kind(a)) {
        if (b == DT_BFLOAT16 && dtype_table[a].itemsize == 1)
            return DT_BFLOAT16; /* 8 significand bits hold any 8-bit integer */
        return dt_promote_types(min_float_for_int(a), b);
    }
    /* both are float or complex */
    int ca = dt_dtype_is_complex(a), cb = dt_dtype_is_complex(b);
    if (!ca && !cb)
        return promote_floats(a, b);
    if (ca && cb)
        return a == DT_COMPLEX128 || b == DT_COMPLEX128 ? DT_COMPLEX128 : DT_COMPLEX64;
    dt_dtype c = ca ? a : b, f = ca ? b : a;
    return c == DT_COMPLEX128 ? c : complex_for_float(f);
}

int dt_can_cast_safe(dt_dtype from, dt_dtype to)
{
    return dt_promote_types(from, to) == to;
}

/* bool < unsigned < signed < float < complex: same_kind casts go up. */
static int same_kind_rank(dt_dtype d)
{
    switch (dtype_table[d].kind) {
    case DT_KIND_BOOL: return 0;
    case DT_KIND_UINT: return 1;
    case DT_KIND_INT: return 2;
    case DT_KIND_FLOAT: return 3;
    default: return 4;
    }
}

int dt_can_cast_same_kind(dt_dtype from, dt_dtype to)
{
    return dt_can_cast_safe(from, to) || same_kind_rank(from) <= same_kind_rank(to);
}

dt_dtype dt_promote_weak(dt_dtype t, dt_weak_kind w)
{
    dt_dtype_kind k = dtype_table[t].kind;
    switch (w) {
    case DT_WEAK_BOOL:
        return t;
    case DT_WEAK_INT:
        return k == DT_KIND_BOOL ? DT_INT64 : t;
    case DT_WEAK_FLOAT:
        return k == DT_KIND_FLOAT || k == DT_KIND_COMPLEX ? t : DT_FLOAT64;
    default: /* DT_WEAK_COMPLEX */
        if (k == DT_KIND_COMPLEX)
            return t;
        if (k == DT_KIND_FLOAT)
            return complex_for_float(t);
        return DT_COMPLEX128;
    }
}
