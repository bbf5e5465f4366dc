/* cpu_sort.c - the CPU backend's sort (backend.h's dt_sort_loop): a
 * stable LSD radix sort of radix keys (sort_keys.h, Note [Radix keys]).
 *
 * Note [Radix sort on the CPU]
 * Each pass orders by one 8-bit digit, stably: count the digits, turn the
 * counts into starts, scatter.  A values sort of a real dtype moves keys
 * alone (32-bit words where they fit, integers reduced to their range:
 * Note [Narrow values sorts]) and maps them back, unless the row holds
 * -0.0 or a NaN other than the canonical one (their keys would lose the
 * bits, or the order of -0.0 among equal zeros); 1-byte dtypes are
 * counted instead (Note [Counting sort of bytes]).  An argsort, every
 * complex sort and such rows move (key, position) pairs word by word
 * (packed in one 64-bit word, Note [Packed pairs]), each word's keys
 * loaded through the positions sorted so far, and gather the elements.
 * A pass whose digit is the same for every key moves nothing, so small
 * integers sort in few passes.  Rows go across threads; a single long row
 * is split into contiguous chunks, one per thread, counted separately: a
 * chunk's digit d goes after the digits d of the chunks before it, which
 * keeps the sort stable.  With one chunk the counts of every pass come
 * from one read, while the keys are made.
 */
#include "cpu_loops.h"

#include <stdint.h>
#include <string.h>

#include "cpu_parallel.h"
#include "env.h"
#include "loop_check.h"
#include "sort_keys.h"

#define RADIX 256
#define MAX_CHUNKS 64
#define ROW_GRAIN (1 << 15)  /* elements per task when rows go across threads */
#define CHUNK_MIN (1 << 16)  /* a row this long is split across threads */

typedef int64_t hist_row[RADIX];

typedef struct pass_ctx {
    const void *src;
    void *dst;
    const int64_t *vsrc;
    int64_t *vdst;
    int64_t n;
    int shift, chunks, word; /* word: bytes per key, 4 or 8 */
    hist_row *hist;
} pass_ctx;

/* where chunk c of n elements split in `chunks` begins */
static int64_t part_begin(int64_t n, int chunks, int64_t c) { return n / chunks * c + (c < n % chunks ? c : n % chunks); }
static int64_t chunk_begin(const pass_ctx *p, int64_t c) { return part_begin(p->n, p->chunks, c); }

#define COUNT_(KT)                                                           \
    for (int64_t i = lo; i < hi; i++)                                        \
        h[(((const KT *)p->src)[i] >> shift) & 0xff]++;

static void count_chunks(int64_t begin, int64_t end, void *ctx)
{
    pass_ctx *p = (pass_ctx *)ctx;
    for (int64_t c = begin; c < end; c++) {
        int64_t *h = p->hist[c];
        memset(h, 0, sizeof(hist_row));
        int64_t lo = chunk_begin(p, c), hi = chunk_begin(p, c + 1);
        const int shift = p->shift;
        if (p->word == 4)
            COUNT_(uint32_t)
        else
            COUNT_(uint64_t)
    }
}
#undef COUNT_

#define SCATTER(KT)                                                          \
    do {                                                                     \
        const KT *restrict s = (const KT *)p->src;                           \
        KT *restrict d = (KT *)p->dst;                                       \
        const int64_t *restrict vs = p->vsrc;                                \
        int64_t *restrict vd = p->vdst;                                      \
        if (vs != NULL)                                                      \
            for (int64_t i = lo; i < hi; i++) {                              \
                KT k = s[i];                                                 \
                int64_t at = start[(k >> shift) & 0xff]++;                   \
                d[at] = k;                                                   \
                vd[at] = vs[i];                                              \
            }                                                                \
        else                                                                 \
            for (int64_t i = lo; i < hi; i++) {                              \
                KT k = s[i];                                                 \
                d[start[(k >> shift) & 0xff]++] = k;                         \
            }                                                                \
    } while (0)

static void scatter_chunks(int64_t begin, int64_t end, void *ctx)
{
    const pass_ctx *p = (const pass_ctx *)ctx;
    const int shift = p->shift;
    for (int64_t c = begin; c < end; c++) {
        int64_t start[RADIX]; /* the chunk's starts, by digit, in a local the stores cannot alias */
        memcpy(start, p->hist[c], sizeof start);
        int64_t lo = chunk_begin(p, c), hi = chunk_begin(p, c + 1);
        if (p->word == 4)
            SCATTER(uint32_t);
        else
            SCATTER(uint64_t);
    }
}

/* One pass: 0 when every key has the same digit (nothing moved), else 1
 * with the keys (and positions) in dst.  counted: the chunk-1 counts of
 * this digit, or NULL to count here. */
static int radix_pass(pass_ctx *p, const int64_t *counted)
{
    if (counted != NULL)
        memcpy(p->hist[0], counted, sizeof(hist_row));
    else if (p->chunks > 1)
        dt_cpu_parallel_for(p->chunks, 1, count_chunks, p);
    else
        count_chunks(0, 1, p);
    int64_t total = 0;
    for (int d = 0; d < RADIX; d++) {
        int64_t in_digit = 0;
        for (int c = 0; c < p->chunks; c++)
            in_digit += p->hist[c][d];
        if (in_digit == p->n)
            return 0;
        for (int c = 0; c < p->chunks; c++) {
            int64_t k = p->hist[c][d];
            p->hist[c][d] = total;
            total += k;
        }
    }
    if (p->chunks > 1)
        dt_cpu_parallel_for(p->chunks, 1, scatter_chunks, p);
    else
        scatter_chunks(0, 1, p);
    return 1;
}

/* Sort n keys in buf[0] (buf[1] the same size; positions in vbuf[0] and
 * vbuf[1] when vbuf[0] is not NULL) by their bits [lo, lo + bits); counts:
 * the counts of every pass's digit when chunks == 1, else NULL.  Returns
 * which buffer holds the result. */
static int radix_sort(void *buf[2], int64_t *vbuf[2], int word, int64_t n, int lo, int bits, int chunks,
                      hist_row *hist, const hist_row *counts)
{
    int cur = 0;
    for (int shift = lo; shift < lo + bits; shift += 8) {
        pass_ctx p = {buf[cur], buf[1 - cur], vbuf[cur], vbuf[1 - cur], n, shift, chunks, word, hist};
        if (radix_pass(&p, counts != NULL ? counts[(shift - lo) / 8] : NULL))
            cur = 1 - cur;
    }
    return cur;
}

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE uint64_t load_bits(const char *p, int bytes)
{
    uint8_t b8; uint16_t b16; uint32_t b32; uint64_t b64;
    switch (bytes) {
    case 1: memcpy(&b8, p, 1); return b8;
    case 2: memcpy(&b16, p, 2); return b16;
    case 4: memcpy(&b32, p, 4); return b32;
    default: memcpy(&b64, p, 8); return b64;
    }
}

ALWAYS_INLINE void store_bits(char *p, int bytes, uint64_t v)
{
    uint8_t b8 = (uint8_t)v; uint16_t b16 = (uint16_t)v; uint32_t b32 = (uint32_t)v;
    switch (bytes) {
    case 1: memcpy(p, &b8, 1); break;
    case 2: memcpy(p, &b16, 2); break;
    case 4: memcpy(p, &b32, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

ALWAYS_INLINE void count_all(hist_row *counts, int bits, uint64_t key)
{
    /* written out: bits is often a constant, and a loop here is not unrolled */
    counts[0][key & 0xff]++;
    if (bits > 8)
        counts[1][(key >> 8) & 0xff]++;
    if (bits > 16)
        counts[2][(key >> 16) & 0xff]++;
    if (bits > 24)
        counts[3][(key >> 24) & 0xff]++;
    if (bits > 32)
        counts[4][(key >> 32) & 0xff]++;
    if (bits > 40)
        counts[5][(key >> 40) & 0xff]++;
    if (bits > 48)
        counts[6][(key >> 48) & 0xff]++;
    if (bits > 56)
        counts[7][(key >> 56) & 0xff]++;
}

/* The key loops, inlined for each dtype (a constant) so that the key's
 * arithmetic is straight-line code: DISPATCH calls F(dtype constant, ...). */
#define DISPATCH_CASE_(D, F, ...) case D: F(D, __VA_ARGS__); break;
#define DISPATCH(dtype, F, ...)                                                            \
    switch (dtype) {                                                                       \
        DISPATCH_CASE_(DT_BOOL, F, __VA_ARGS__) DISPATCH_CASE_(DT_INT8, F, __VA_ARGS__)     \
        DISPATCH_CASE_(DT_INT16, F, __VA_ARGS__) DISPATCH_CASE_(DT_INT32, F, __VA_ARGS__)   \
        DISPATCH_CASE_(DT_INT64, F, __VA_ARGS__) DISPATCH_CASE_(DT_UINT8, F, __VA_ARGS__)   \
        DISPATCH_CASE_(DT_UINT16, F, __VA_ARGS__) DISPATCH_CASE_(DT_UINT32, F, __VA_ARGS__) \
        DISPATCH_CASE_(DT_UINT64, F, __VA_ARGS__) DISPATCH_CASE_(DT_FLOAT16, F, __VA_ARGS__) \
        DISPATCH_CASE_(DT_BFLOAT16, F, __VA_ARGS__) DISPATCH_CASE_(DT_FLOAT32, F, __VA_ARGS__) \
        DISPATCH_CASE_(DT_FLOAT64, F, __VA_ARGS__) DISPATCH_CASE_(DT_COMPLEX64, F, __VA_ARGS__) \
        DISPATCH_CASE_(DT_COMPLEX128, F, __VA_ARGS__)                                      \
    default: break;                                                                        \
    }

/* an integer element's key is its bits ^ this (dt_sort_key, written out
 * here: the loops below did not inline that call) */
ALWAYS_INLINE uint64_t int_key_flip(const dt_sort_kind *k, int desc)
{
    return (k->kind == 1 ? 1ull << (k->bits - 1) : 0) ^ (desc ? dt_sort_mask(k->bits) : 0);
}

/* *lo, *hi = the least and greatest key of the integer elements [begin,
 * end) (sort_values and sort_packed ask for integers only): four
 * independent minima and maxima, not one chain of compares */
ALWAYS_INLINE void key_bounds(int dtype, const char *in, int64_t begin, int64_t end, int desc, uint64_t *lo,
                              uint64_t *hi)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int part = k.bits / 8;
    const uint64_t flip = int_key_flip(&k, desc);
    uint64_t least[4] = {~0ull, ~0ull, ~0ull, ~0ull}, greatest[4] = {0, 0, 0, 0};
    if (k.kind >= 2)
        return;
#define BOUND_(J, AT)                                                                      \
    do {                                                                                   \
        uint64_t key = load_bits(in + (AT) * part, part) ^ flip;                           \
        least[J] = key < least[J] ? key : least[J];                                        \
        greatest[J] = key > greatest[J] ? key : greatest[J];                               \
    } while (0)
    int64_t i = begin;
    for (; i + 4 <= end; i += 4) {
        BOUND_(0, i);
        BOUND_(1, i + 1);
        BOUND_(2, i + 2);
        BOUND_(3, i + 3);
    }
    for (; i < end; i++)
        BOUND_(0, i);
#undef BOUND_
    for (int j = 1; j < 4; j++) {
        least[0] = least[j] < least[0] ? least[j] : least[0];
        greatest[0] = greatest[j] > greatest[0] ? greatest[j] : greatest[0];
    }
    *lo = least[0];
    *hi = greatest[0];
}

/* the bits of the range of the keys of SAMPLES elements spread over
 * [0, n) (a lower bound of the whole row's) */
#define SAMPLES 64
ALWAYS_INLINE void sample_range_bits(int dtype, const char *in, int64_t n, int desc, int *bits)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int part = k.bits / 8;
    const uint64_t flip = int_key_flip(&k, desc);
    uint64_t least = ~0ull, greatest = 0;
    if (k.kind >= 2)
        return;
    for (int64_t j = 0; j < SAMPLES; j++) {
        uint64_t key = load_bits(in + j * (n / SAMPLES) * part, part) ^ flip;
        least = key < least ? key : least;
        greatest = key > greatest ? key : greatest;
    }
    *bits = greatest == least ? 0 : 64 - __builtin_clzll(greatest - least);
}

/* values sort: keys[i] = the key of in[i] less base, in words of `word`
 * bytes (a constant where inlined: 4, or 8 for an 8-byte dtype), counting
 * the digits of its low `bits` into counts; *lossy = 1 when a key does
 * not map back to its element's bits or does not keep equal elements in
 * order (-0.0, a NaN other than the canonical one): such rows sort as
 * pairs */
ALWAYS_INLINE void value_keys_in(int dtype, int word, const char *in, void *keys, int64_t n, int desc,
                                 uint64_t base, int bits, hist_row *counts, int *lossy)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int item = k.bits / 8;
    const uint64_t sign = 1ull << (k.bits - 1);
    int odd = 0;
    if (k.kind == 3 || (word == 8 && item < 8))
        return; /* complex values sort as pairs; 8-byte words only for 8-byte elements */
    if (!(k.kind < 2 && k.bits >= 16))
        bits = k.bits; /* a constant for count_all: only these dtypes are reduced (sort_values) */
    for (int64_t i = 0; i < n; i++) {
        uint64_t e = load_bits(in + i * item, item);
        if (k.kind == 2)
            odd |= e == sign || (dt_sort_is_nan(&k, e) && e != k.qnan);
        uint64_t key = dt_sort_key(&k, e, 0, desc) - base;
        if (word == 8)
            ((uint64_t *)keys)[i] = key;
        else
            ((uint32_t *)keys)[i] = (uint32_t)key;
        if (counts != NULL)
            count_all(counts, bits, key);
    }
    *lossy = odd;
}

ALWAYS_INLINE void value_keys(int dtype, int word, const char *in, void *keys, int64_t n, int desc, uint64_t base,
                              int bits, hist_row *counts, int *lossy)
{
    if (word == 8)
        value_keys_in(dtype, 8, in, keys, n, desc, base, bits, counts, lossy);
    else
        value_keys_in(dtype, 4, in, keys, n, desc, base, bits, counts, lossy);
}

ALWAYS_INLINE void value_unkeys_in(int dtype, int word, const void *keys, char *out, int64_t n, int desc,
                                   uint64_t base)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int item = k.bits / 8;
    if (k.kind == 3 || (word == 8 && item < 8))
        return;
    for (int64_t i = 0; i < n; i++) {
        uint64_t key = word == 8 ? ((const uint64_t *)keys)[i] : ((const uint32_t *)keys)[i];
        store_bits(out + i * item, item, dt_sort_unkey(&k, key + base, desc));
    }
}

ALWAYS_INLINE void value_unkeys(int dtype, int word, const void *keys, char *out, int64_t n, int desc, uint64_t base)
{
    if (word == 8)
        value_unkeys_in(dtype, 8, keys, out, n, desc, base);
    else
        value_unkeys_in(dtype, 4, keys, out, n, desc, base);
}

/* pairs: keys[i] = word w of the element at pos[i] (at i, recorded in
 * pos, for the first word) */
ALWAYS_INLINE void pair_keys(int dtype, const char *in, uint64_t *keys, int64_t *pos, int64_t n, int w, int desc,
                             hist_row *counts)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int part = k.bits / 8, bits = dt_sort_word_bits(&k, w);
    for (int64_t i = 0; i < n; i++) {
        int64_t at = w == 0 ? i : pos[i];
        uint64_t key;
        if (k.kind == 3)
            key = dt_sort_complex_word(&k, load_bits(in + at * 2 * part, part), load_bits(in + at * 2 * part + part, part),
                                       w, desc);
        else
            key = dt_sort_key(&k, load_bits(in + at * part, part), 1, desc);
        keys[i] = key;
        pos[i] = at;
        if (counts != NULL)
            count_all(counts, bits, key);
    }
}

typedef struct sort_ctx {
    const dt_sort_loop *l;
    dt_sort_kind kind;
    int item;           /* bytes per element */
    char *work;
    int chunks;         /* > 1: one row, split across threads */
    hist_row *hist;     /* chunks rows, when chunks > 1 */
} sort_ctx;

/* Note [Narrow values sorts]
 * A values sort moves keys alone, in 32-bit words where they fit (words
 * of 8 or 16 bits sorted no faster here).  An integer dtype of 16 bits or
 * more is first reduced to its range (key - min, as Note [Packed pairs]
 * does for an argsort): int64 values within 2^32 of each other sort as
 * 32-bit words, in as many passes as the range has bytes, and the first
 * loop counts the digits of only those.  The bounds cost a read of the
 * row, so 64 elements spread over it are read first: if their range
 * already needs the dtype's top byte, the row sorts unreduced.  On a
 * 2-core Xeon, one thread, stable sorts of 10^6 elements: int64 in a
 * range of 2^16 took 4.7-8.1 ms (11.5-12.8 before), int64 of
 * standard-normal * 10^6 5.8-8.0 (20.5-21.8), int32 within +-2^15 4.5
 * (10.5-10.9), full-range int64 16.3-19.4 (18.1-19.5). */

/* values sort of a real dtype: keys alone; 0 (nothing written) when the
 * row needs pairs (value_keys' lossy) */
static int sort_values(const sort_ctx *s, int64_t row, hist_row *hist, hist_row *counts)
{
    const dt_sort_loop *l = s->l;
    int64_t n = l->len, numel = l->n_rows * l->len;
    const char *in = l->in + row * n * s->item;
    char *out = l->out + row * n * s->item;
    uint64_t base = 0;
    int bits = s->kind.bits;
    int sampled = 0;
    if (s->kind.kind < 2 && bits >= 16)
        DISPATCH(l->dtype, sample_range_bits, in, n, l->descending, &sampled)
    if (s->kind.kind < 2 && bits >= 16 && sampled <= bits - 8) { /* else the range needs every byte */
        uint64_t lo = 0, hi = 0;
        DISPATCH(l->dtype, key_bounds, in, 0, n, l->descending, &lo, &hi)
        base = lo;
        bits = hi == lo ? 0 : 64 - __builtin_clzll(hi - lo);
    }
    int word = bits <= 32 ? 4 : 8; /* narrower words sorted no faster */
    void *buf[2] = {s->work + row * n * 8, s->work + (numel + row * n) * 8};
    int64_t *vbuf[2] = {NULL, NULL};
    if (counts != NULL)
        memset(counts, 0, sizeof(hist_row) * 8);
    int lossy = 0;
    DISPATCH(l->dtype, value_keys, word, in, buf[0], n, l->descending, base, bits, counts, &lossy)
    if (lossy)
        return 0;
    int cur = radix_sort(buf, vbuf, word, n, 0, bits, s->chunks, hist, counts);
    DISPATCH(l->dtype, value_unkeys, word, buf[cur], out, n, l->descending, base)
    return 1;
}

/* row's result from its sorted positions, pos or (when pos is NULL) the
 * low halves of packed (Note [Packed pairs]): them (argsort), or the
 * elements of in at them */
static void write_sorted(const sort_ctx *s, int64_t row, const char *in, const int64_t *pos, const uint64_t *packed)
{
    const int64_t n = s->l->len;
    if (s->l->arg && pos != NULL) {
        memcpy(s->l->out + row * n * 8, pos, (size_t)n * 8);
        return;
    }
    if (s->l->arg) {
        int64_t *out = (int64_t *)s->l->out + row * n;
        for (int64_t i = 0; i < n; i++)
            out[i] = (int64_t)(packed[i] & 0xffffffffu);
        return;
    }
    char *out = s->l->out + row * n * s->item;
    for (int64_t i = 0; i < n; i++) {
        int64_t at = pos != NULL ? pos[i] : (int64_t)(packed[i] & 0xffffffffu);
        memcpy(out + i * s->item, in + at * s->item, (size_t)s->item);
    }
}

/* Note [Packed pairs]
 * (key, position) pairs moved 16 bytes per element per pass: a 64-bit key
 * word and a 64-bit position.  A row of at most 2^32 elements sorts its
 * key words in pieces of up to 32 bits instead, each piece packed above
 * the element's 32-bit position in one 64-bit word; the passes order the
 * high half and move 8 bytes.  Pieces go least significant first, and
 * every piece after the first is loaded through the positions sorted so
 * far (gather_parts).  A float32 argsort is one piece (4 passes of 8 bytes
 * for 4 of 16), a float64 one two pieces and a gather between them.  An
 * integer dtype's keys are first reduced to their range: key - min, whose
 * bits above those of max - min are all zero, so that int64 values within
 * 2^32 of each other (-5..5 as much as 0..10) take one piece, not two, and
 * 0..255 one pass.  Floats skip that pass (about a tenth of a float64
 * argsort): their keys span a wide range unless every element has one
 * sign and one exponent.
 * Stable: the first piece's positions are in order, and every pass is.
 * With a row split in chunks across threads (Note [Radix sort on the
 * CPU]) the key loops go across the threads too. */
#define PACKED_MAX_LEN ((int64_t)1 << 32)

/* parts[0][i] (and parts[1][i], a complex element's imaginary part) = the
 * bits of the element at packed[i]'s position, for i in [begin, end).  A
 * loop of its own: a gather that also computed keys and counted their
 * digits ran at a quarter of a plain gather's speed (the count's address
 * waits on each cache miss). */
static void gather_parts(const char *in, int part, int complex, const uint64_t *packed, uint64_t *const *parts,
                         int64_t begin, int64_t end)
{
    const int item = complex ? 2 * part : part;
#define GATHER_(BYTES)                                                                     \
    for (int64_t i = begin; i < end; i++) {                                                \
        const char *at = in + (int64_t)(packed[i] & 0xffffffffu) * item;                   \
        parts[0][i] = load_bits(at, BYTES);                                                \
        if (complex)                                                                       \
            parts[1][i] = load_bits(at + BYTES, BYTES);                                    \
    }
    switch (part) {
    case 1: GATHER_(1) break;
    case 2: GATHER_(2) break;
    case 4: GATHER_(4) break;
    default: GATHER_(8) break;
    }
#undef GATHER_
}

/* for i in [begin, end): packed[i] = piece `piece` (32 bits each, least
 * significant first) of key word w, less base, of the element at i
 * (parts NULL: the first piece of word 0) or of the element in
 * parts[.][i] (at packed[i]'s position), above that position */
ALWAYS_INLINE void packed_keys(int dtype, const char *in, uint64_t *const *parts, uint64_t *packed, int64_t begin,
                               int64_t end, int w, int piece, int desc, uint64_t base, hist_row *counts)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int part = k.bits / 8, item = k.kind == 3 ? 2 * part : part;
    for (int64_t i = begin; i < end; i++) {
        uint64_t at = (uint64_t)i, re, im = 0, key;
        if (parts == NULL) {
            re = load_bits(in + i * item, part);
            if (k.kind == 3)
                im = load_bits(in + i * item + part, part);
        } else {
            at = packed[i] & 0xffffffffu;
            re = parts[0][i];
            if (k.kind == 3)
                im = parts[1][i];
        }
        key = k.kind == 3 ? dt_sort_complex_word(&k, re, im, w, desc) : dt_sort_key(&k, re, 1, desc) - base;
        key = (key >> (32 * piece)) & 0xffffffffu;
        packed[i] = key << 32 | at;
        if (counts != NULL)
            count_all(counts, 32, key);
    }
}

/* one row's key loops, run for chunks [begin, end) of it */
typedef struct keys_task {
    const sort_ctx *s;
    const char *in;
    uint64_t *packed, *const *parts; /* parts NULL: the first piece */
    int w, piece, bounds;            /* bounds: key_bounds into lo, hi */
    uint64_t base, lo[MAX_CHUNKS], hi[MAX_CHUNKS];
} keys_task;

static void keys_chunks(int64_t begin, int64_t end, void *ctx)
{
    keys_task *t = (keys_task *)ctx;
    const dt_sort_loop *l = t->s->l;
    for (int64_t c = begin; c < end; c++) {
        int64_t from = part_begin(l->len, t->s->chunks, c), to = part_begin(l->len, t->s->chunks, c + 1);
        if (t->bounds) {
            DISPATCH(l->dtype, key_bounds, t->in, from, to, l->descending, &t->lo[c], &t->hi[c])
            continue;
        }
        if (t->parts != NULL)
            gather_parts(t->in, t->s->kind.bits / 8, t->s->kind.kind == 3, t->packed, t->parts, from, to);
        DISPATCH(l->dtype, packed_keys, t->in, t->parts, t->packed, from, to, t->w, t->piece, l->descending, t->base,
                 NULL)
    }
}

/* the key loops of keys_task t: across the row's chunks, or (one chunk)
 * here, counting every pass's digits into counts */
static void run_keys(keys_task *t, hist_row *counts)
{
    const sort_ctx *s = t->s;
    if (s->chunks > 1) {
        dt_cpu_parallel_for(s->chunks, 1, keys_chunks, t);
        return;
    }
    const dt_sort_loop *l = s->l;
    if (t->bounds) {
        keys_chunks(0, 1, t);
        return;
    }
    memset(counts, 0, sizeof(hist_row) * 4);
    if (t->parts != NULL)
        gather_parts(t->in, s->kind.bits / 8, s->kind.kind == 3, t->packed, t->parts, 0, l->len);
    DISPATCH(l->dtype, packed_keys, t->in, t->parts, t->packed, 0, l->len, t->w, t->piece, l->descending, t->base,
             counts)
}

static void sort_packed(const sort_ctx *s, int64_t row, hist_row *hist, hist_row *counts)
{
    const dt_sort_loop *l = s->l;
    const dt_sort_kind *k = &s->kind;
    int64_t n = l->len, numel = l->n_rows * l->len;
    uint64_t *packed[2] = {(uint64_t *)s->work + row * n, (uint64_t *)s->work + numel + row * n};
    uint64_t *parts[2] = {(uint64_t *)s->work + 2 * numel + row * n, (uint64_t *)s->work + 3 * numel + row * n};
    keys_task t;
    memset(&t, 0, sizeof t);
    t.s = s;
    t.in = l->in + row * n * s->item;
    int word_bits = dt_sort_word_bits(k, 0);
    if (k->kind < 2) {
        t.bounds = 1;
        run_keys(&t, counts);
        t.bounds = 0;
        uint64_t lo = t.lo[0], hi = t.hi[0];
        for (int c = 1; c < s->chunks; c++) {
            lo = t.lo[c] < lo ? t.lo[c] : lo;
            hi = t.hi[c] > hi ? t.hi[c] : hi;
        }
        t.base = lo;
        word_bits = hi == lo ? 0 : 64 - __builtin_clzll(hi - lo);
    }
    int cur = 0;
    for (int w = 0; w < dt_sort_word_count(k); w++) {
        if (w > 0)
            word_bits = dt_sort_word_bits(k, w);
        for (int piece = 0; piece == 0 || 32 * piece < word_bits; piece++) {
            int rest = word_bits - 32 * piece;
            t.packed = packed[cur];
            t.parts = w == 0 && piece == 0 ? NULL : parts;
            t.w = w;
            t.piece = piece;
            run_keys(&t, counts);
            void *buf[2] = {packed[cur], packed[1 - cur]};
            int64_t *vbuf[2] = {NULL, NULL};
            int got = radix_sort(buf, vbuf, 8, n, 32, rest < 32 ? rest : 32, s->chunks, hist,
                                 s->chunks > 1 ? NULL : counts);
            cur = got ? 1 - cur : cur;
        }
    }
    write_sorted(s, row, t.in, NULL, packed[cur]);
}

/* rows of at most PACKED_MAX_LEN sort packed, unless
 * DEVTENSOR_CPU_WIDE_PAIRS=1 (for tests: the longer rows' way) */
static int packs(int64_t len)
{
    static int wide = -1; /* read once; threads that race write the same */
    if (wide < 0) {
        int flag = 0;
        wide = dt_env_flag("DEVTENSOR_CPU_WIDE_PAIRS", &flag) == 1 && flag;
    }
    return len <= PACKED_MAX_LEN && !wide;
}

/* argsort (and a complex values sort): (key, position) pairs, word by
 * word; packed when the row is short enough */
static void sort_pairs(const sort_ctx *s, int64_t row, hist_row *hist, hist_row *counts)
{
    if (packs(s->l->len)) {
        sort_packed(s, row, hist, counts);
        return;
    }
    const dt_sort_loop *l = s->l;
    const dt_sort_kind *k = &s->kind;
    int64_t n = l->len, numel = l->n_rows * l->len;
    const char *in = l->in + row * n * s->item;
    uint64_t *keys[2] = {(uint64_t *)s->work + row * n, (uint64_t *)s->work + numel + row * n};
    int64_t *pos[2] = {(int64_t *)s->work + 2 * numel + row * n, (int64_t *)s->work + 3 * numel + row * n};
    int cur = 0;
    for (int w = 0; w < dt_sort_word_count(k); w++) {
        if (counts != NULL)
            memset(counts, 0, sizeof(hist_row) * 8);
        DISPATCH(l->dtype, pair_keys, in, keys[cur], pos[cur], n, w, l->descending, counts)
        void *buf[2] = {keys[cur], keys[1 - cur]};
        int64_t *vbuf[2] = {pos[cur], pos[1 - cur]};
        int got = radix_sort(buf, vbuf, 8, n, 0, dt_sort_word_bits(k, w), s->chunks, hist, counts);
        cur = got ? 1 - cur : cur;
    }
    write_sorted(s, row, in, pos[cur], NULL);
}

/* Note [Counting sort of bytes]
 * A values sort of a 1-byte integer dtype (bool, int8, uint8) needs no
 * moves: an element is its key, so counting each of the 256 keys and
 * writing every key's run in order gives the sorted row.  The counts are
 * kept in four histograms, element i in histogram i % 4, so that runs of
 * equal elements (a bool row has two keys) do not wait on one counter.
 * NumPy has no vectorised sort of 1-byte dtypes: on a 2-core Xeon its
 * sort of 10^6 int8 took 32 ms. */
static void count_bytes(const uint8_t *in, int64_t begin, int64_t end, int64_t *counts)
{
    int64_t h[4][RADIX];
    memset(h, 0, sizeof h);
    int64_t i = begin;
    for (; i + 4 <= end; i += 4) {
        h[0][in[i]]++;
        h[1][in[i + 1]]++;
        h[2][in[i + 2]]++;
        h[3][in[i + 3]]++;
    }
    for (; i < end; i++)
        h[0][in[i]]++;
    for (int d = 0; d < RADIX; d++)
        counts[d] = h[0][d] + h[1][d] + h[2][d] + h[3][d];
}

typedef struct bytes_task {
    const uint8_t *in;
    int64_t n;
    int chunks;
    hist_row *hist;
} bytes_task;

static void count_byte_chunks(int64_t begin, int64_t end, void *ctx)
{
    const bytes_task *t = (const bytes_task *)ctx;
    for (int64_t c = begin; c < end; c++)
        count_bytes(t->in, part_begin(t->n, t->chunks, c), part_begin(t->n, t->chunks, c + 1), t->hist[c]);
}

static void sort_bytes(const sort_ctx *s, int64_t row, hist_row *hist)
{
    const dt_sort_loop *l = s->l;
    const int64_t n = l->len;
    bytes_task t = {(const uint8_t *)l->in + row * n, n, s->chunks, s->chunks > 1 ? s->hist : hist};
    if (t.chunks > 1)
        dt_cpu_parallel_for(t.chunks, 1, count_byte_chunks, &t);
    else
        count_byte_chunks(0, 1, &t);
    const uint8_t sign = s->kind.kind == 1 ? 0x80 : 0; /* a signed byte's key: its bits with the sign flipped */
    uint8_t *out = (uint8_t *)l->out + row * n;
    int64_t at = 0;
    for (int d = 0; d < RADIX; d++) {
        const int key = l->descending ? RADIX - 1 - d : d, byte = key ^ sign; /* counted by byte */
        int64_t count = 0;
        for (int c = 0; c < t.chunks; c++)
            count += t.hist[c][byte];
        memset(out + at, byte, (size_t)count);
        at += count;
    }
}

/* Note [Small rows]
 * A radix pass costs a walk over its 256 digits whatever the row's length,
 * and a float64 key takes up to 8 passes: a 16-element argsort spent 2.7 us
 * there against NumPy's 1.0.  A row of a real dtype of at most
 * SMALL_ROW_PER_BIT elements per bit of its key is merge-sorted instead
 * (measured on a 2-core Xeon: a float64 argsort merged beats the radix sort
 * up to about 1000 elements, an int32 one up to about 400): (key, position) pairs with the argsort
 * keys (-0.0 equal to 0.0, every NaN the canonical one), runs of RUN
 * insertion-sorted, then merged in rounds, each taking the left pair on
 * ties: stable.  A values sort gathers the elements by the positions, so
 * their bits (-0.0, a NaN's payload) come through unchanged. */
#define SMALL_ROW_PER_BIT 12
#define RUN 16

ALWAYS_INLINE void small_keys(int dtype, const char *in, uint64_t *keys, int64_t n, int desc)
{
    const dt_sort_kind k = dt_sort_kind_of(dtype);
    const int item = k.bits / 8;
    for (int64_t i = 0; i < n; i++)
        keys[i] = dt_sort_key(&k, load_bits(in + i * item, item), 1, desc);
}

/* the pairs [lo, mid) and [mid, hi) of (k, p), each sorted, merged into (ko, po) */
static void merge_pairs(const uint64_t *k, const int64_t *p, uint64_t *ko, int64_t *po, int64_t lo, int64_t mid,
                        int64_t hi)
{
    int64_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi) {
        int right = k[j] < k[i];
        ko[o] = right ? k[j] : k[i];
        po[o++] = right ? p[j++] : p[i++];
    }
    for (; i < mid; i++, o++)
        ko[o] = k[i], po[o] = p[i];
    for (; j < hi; j++, o++)
        ko[o] = k[j], po[o] = p[j];
}

static void sort_small(const sort_ctx *s, int64_t row)
{
    const dt_sort_loop *l = s->l;
    int64_t n = l->len, numel = l->n_rows * l->len;
    const char *in = l->in + row * n * s->item;
    uint64_t *keys[2] = {(uint64_t *)s->work + row * n, (uint64_t *)s->work + numel + row * n};
    int64_t *pos[2] = {(int64_t *)s->work + 2 * numel + row * n, (int64_t *)s->work + 3 * numel + row * n};
    DISPATCH(l->dtype, small_keys, in, keys[0], n, l->descending)
    uint64_t *k = keys[0];
    int64_t *p = pos[0];
    for (int64_t lo = 0; lo < n; lo += RUN) {
        int64_t hi = lo + RUN < n ? lo + RUN : n;
        for (int64_t i = lo; i < hi; i++) {
            uint64_t key = k[i];
            int64_t j = i;
            for (; j > lo && k[j - 1] > key; j--)
                k[j] = k[j - 1], p[j] = p[j - 1];
            k[j] = key, p[j] = i;
        }
    }
    int cur = 0;
    for (int64_t width = RUN; width < n; width *= 2, cur = 1 - cur)
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge_pairs(keys[cur], pos[cur], keys[1 - cur], pos[1 - cur], lo, mid, hi);
        }
    write_sorted(s, row, in, pos[cur], NULL);
}

static void sort_row(const sort_ctx *s, int64_t row, hist_row *hist, hist_row *counts)
{
    if (s->kind.kind != 3 && s->l->len <= SMALL_ROW_PER_BIT * s->kind.bits && s->chunks == 1)
        sort_small(s, row);
    else if (!s->l->arg && s->kind.kind < 2 && s->kind.bits == 8)
        sort_bytes(s, row, hist);
    else if (s->l->arg || s->kind.kind == 3 || !sort_values(s, row, hist, counts))
        sort_pairs(s, row, hist, counts);
}

static void sort_rows(int64_t begin, int64_t end, void *ctx)
{
    const sort_ctx *s = (const sort_ctx *)ctx;
    hist_row hist[1], counts[8];
    for (int64_t r = begin; r < end; r++)
        sort_row(s, r, hist, counts);
}

dt_status dt_cpu_run_sort(const dt_sort_loop *l, dt_error *err)
{
    DT_TRY(dt_sort_loop_check(l, err));
    sort_ctx s;
    memset(&s, 0, sizeof s);
    s.l = l;
    s.kind = dt_sort_kind_of(l->dtype);
    s.item = dt_dtype_get_info(l->dtype)->itemsize;
    s.work = (char *)l->work;
    s.chunks = 1;
    int threads = dt_cpu_get_num_threads();
    if (l->n_rows == 1 && l->len >= CHUNK_MIN && threads > 1 && !dt_cpu_in_parallel()) {
        s.chunks = threads < MAX_CHUNKS ? threads : MAX_CHUNKS;
        s.hist = (hist_row *)(s.work + 32 * l->len); /* the work's last MiB */
        sort_row(&s, 0, s.hist, NULL);
        return DT_OK;
    }
    int64_t grain = (ROW_GRAIN + l->len - 1) / l->len;
    dt_cpu_parallel_for(l->n_rows, grain, sort_rows, &s);
    return DT_OK;
}
