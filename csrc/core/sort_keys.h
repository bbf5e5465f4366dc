/* sort_keys.h - radix keys in NumPy's sort order, written once for the CPU
 * sort (csrc/cpu/cpu_sort.c) and the CUDA one (csrc/cuda/cuda_sort.cu).
 *
 * Note [Radix keys]
 * A radix sort orders unsigned integers; each dtype's element is mapped to
 * one (or, for complex, three) unsigned words whose order is NumPy's sort
 * order (reduce_ops.h's dt_order_lt), and sorted stably word by word, the
 * least significant word first (LSD):
 * - bool and unsigned: the bits; signed: the bits with the sign flipped;
 * - floats: positive values with the sign bit set, negative ones with
 *   every bit flipped; every NaN becomes the canonical quiet NaN (after
 *   +inf, all NaN equal, so a stable sort keeps them in order); for an
 *   argsort -0.0 becomes +0.0, as NumPy holds them equal; a values sort
 *   keeps -0.0 (before +0.0: a valid order of equal elements) so that the
 *   key maps back to the element's bits (dt_sort_unkey);
 * - complex: NumPy's classes R + Rj, R + nanj, nan + Rj, nan + nanj as
 *   the most significant word (2 bits), then the real part's key (the
 *   imaginary part's for nan + Rj), then the imaginary part's (class 0).
 * descending flips every bit of every word: the exact reverse order,
 * sorted stably, which puts NaN first (PyTorch's and the array API's
 * descending sort).
 */
#ifndef DT_SORT_KEYS_H
#define DT_SORT_KEYS_H

#include <stdint.h>

#include "compat.h"
#include "dtype.h"

/* how a dtype's element bits become a key word: kind 0 unsigned, 1
 * signed, 2 float, 3 complex (two float parts of `bits` each); inf is the
 * bits of +inf and qnan of the canonical NaN (floats and complex parts) */
typedef struct dt_sort_kind {
    int kind, bits;
    uint64_t inf, qnan;
} dt_sort_kind;

DT_FN dt_sort_kind dt_sort_kind_of(int dtype)
{
    dt_sort_kind k = {0, 8, 0, 0};
    switch (dtype) {
    case DT_INT8: k.kind = 1; break;
    case DT_INT16: k.kind = 1; k.bits = 16; break;
    case DT_INT32: k.kind = 1; k.bits = 32; break;
    case DT_INT64: k.kind = 1; k.bits = 64; break;
    case DT_UINT16: k.bits = 16; break;
    case DT_UINT32: k.bits = 32; break;
    case DT_UINT64: k.bits = 64; break;
    case DT_FLOAT16: k.kind = 2; k.bits = 16; k.inf = 0x7c00u; k.qnan = 0x7e00u; break;
    case DT_BFLOAT16: k.kind = 2; k.bits = 16; k.inf = 0x7f80u; k.qnan = 0x7fc0u; break;
    case DT_FLOAT32: k.kind = 2; k.bits = 32; k.inf = 0x7f800000u; k.qnan = 0x7fc00000u; break;
    case DT_FLOAT64:
        k.kind = 2; k.bits = 64; k.inf = 0x7ff0000000000000ull; k.qnan = 0x7ff8000000000000ull; break;
    case DT_COMPLEX64: k.kind = 3; k.bits = 32; k.inf = 0x7f800000u; k.qnan = 0x7fc00000u; break;
    case DT_COMPLEX128:
        k.kind = 3; k.bits = 64; k.inf = 0x7ff0000000000000ull; k.qnan = 0x7ff8000000000000ull; break;
    default: break; /* bool, uint8 */
    }
    return k;
}

DT_FN uint64_t dt_sort_mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

DT_FN int dt_sort_is_nan(const dt_sort_kind *k, uint64_t bits)
{
    return (bits & (dt_sort_mask(k->bits) >> 1)) > k->inf;
}

/* the key word of a float part's bits (Note [Radix keys]) */
DT_FN uint64_t dt_sort_float_key(const dt_sort_kind *k, uint64_t bits, int zero_equal)
{
    uint64_t sign = 1ull << (k->bits - 1), mask = dt_sort_mask(k->bits);
    if (dt_sort_is_nan(k, bits))
        bits = k->qnan;
    else if (zero_equal && (bits & (sign - 1)) == 0)
        bits = 0;
    /* negative: every bit flipped; else the sign set.  Without a branch on
     * the sign, which a sort's gather (cpu_sort.c's packed_keys) would
     * mispredict half the time, each time after a cache miss. */
    uint64_t negative = (bits >> (k->bits - 1)) & 1;
    return bits ^ (sign | (mask & (0 - negative)));
}

/* the key of a real dtype's element bits; descending flips it */
DT_FN uint64_t dt_sort_key(const dt_sort_kind *k, uint64_t bits, int zero_equal, int descending)
{
    uint64_t mask = dt_sort_mask(k->bits), key;
    if (k->kind == 2)
        key = dt_sort_float_key(k, bits, zero_equal);
    else if (k->kind == 1)
        key = bits ^ (1ull << (k->bits - 1));
    else
        key = bits;
    return descending ? ~key & mask : key;
}

/* the element bits of a values sort's key (dt_sort_key with zero_equal 0) */
DT_FN uint64_t dt_sort_unkey(const dt_sort_kind *k, uint64_t key, int descending)
{
    uint64_t mask = dt_sort_mask(k->bits), sign = 1ull << (k->bits - 1);
    if (descending)
        key = ~key & mask;
    if (k->kind == 2)
        return (key & sign) ? key ^ sign : ~key & mask;
    if (k->kind == 1)
        return key ^ sign;
    return key;
}

/* complex: word w (0 the least significant) of the element with part bits
 * re and im, and that word's significant bits */
DT_FN uint64_t dt_sort_complex_word(const dt_sort_kind *k, uint64_t re, uint64_t im, int w, int descending)
{
    int cls = dt_sort_is_nan(k, re) * 2 + dt_sort_is_nan(k, im);
    uint64_t word;
    if (w == 2)
        word = (uint64_t)cls;
    else if (w == 1)
        word = cls == 3 ? 0 : dt_sort_float_key(k, cls == 2 ? im : re, 1);
    else
        word = cls == 0 ? dt_sort_float_key(k, im, 1) : 0;
    return descending ? ~word & dt_sort_mask(w == 2 ? 2 : k->bits) : word;
}

DT_FN int dt_sort_word_bits(const dt_sort_kind *k, int w) { return k->kind == 3 && w == 2 ? 2 : k->bits; }
DT_FN int dt_sort_word_count(const dt_sort_kind *k) { return k->kind == 3 ? 3 : 1; }

#endif /* DT_SORT_KEYS_H */
