/* dtype.h - element types: codes, sizes, names and NumPy 2 promotion.
 *
 * The order of the enum is part of the backend ABI (see backend.h): loops
 * are indexed by it.  Storage types of each code are in scalar.h.
 */
#ifndef DT_DTYPE_H
#define DT_DTYPE_H

#include <stdint.h>
#include "compat.h"

DT_EXTERN_C_BEGIN

typedef enum dt_dtype {
    DT_BOOL = 0,
    DT_INT8, DT_INT16, DT_INT32, DT_INT64,
    DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,
    DT_FLOAT16, DT_BFLOAT16, DT_FLOAT32, DT_FLOAT64,
    DT_COMPLEX64, DT_COMPLEX128,
    DT_NUM_DTYPES
} dt_dtype;

typedef enum dt_dtype_kind {
    DT_KIND_BOOL = 0, DT_KIND_INT, DT_KIND_UINT, DT_KIND_FLOAT, DT_KIND_COMPLEX
} dt_dtype_kind;

typedef struct dt_dtype_info {
    const char *name;      /* NumPy's name: "float32"; "bfloat16" */
    int itemsize;          /* bytes */
    dt_dtype_kind kind;
    char numpy_char;       /* NumPy's dtype.char, '\0' for bfloat16 */
} dt_dtype_info;

const dt_dtype_info *dt_dtype_get_info(dt_dtype d);
int dt_dtype_is_valid(int code);
/* Look up a name ("float32", "bool", "bfloat16"); returns -1 if unknown. */
int dt_dtype_from_name(const char *name);

/* NumPy 2 promote_types; bfloat16 promotes like float16 with one
 * exception: bfloat16 with float16 gives float32 (neither holds the other). */
dt_dtype dt_promote_types(dt_dtype a, dt_dtype b);
/* casting == "safe": every value of `from` is exactly representable in `to`. */
int dt_can_cast_safe(dt_dtype from, dt_dtype to);
/* casting == "same_kind": safe, or within the same kind, or down the
 * bool < int/uint < float < complex order. */
int dt_can_cast_same_kind(dt_dtype from, dt_dtype to);

/* Kind of a Python scalar operand for NEP 50 weak promotion. */
typedef enum dt_weak_kind { DT_WEAK_BOOL, DT_WEAK_INT, DT_WEAK_FLOAT, DT_WEAK_COMPLEX } dt_weak_kind;
/* Result dtype of (tensor of dtype t) op (Python scalar of kind w). */
dt_dtype dt_promote_weak(dt_dtype t, dt_weak_kind w);

static inline int dt_dtype_is_floating(dt_dtype d) { return d >= DT_FLOAT16 && d <= DT_FLOAT64; }
static inline int dt_dtype_is_complex(dt_dtype d) { return d == DT_COMPLEX64 || d == DT_COMPLEX128; }
static inline int dt_dtype_is_integral(dt_dtype d) { return d >= DT_INT8 && d <= DT_UINT64; }

DT_EXTERN_C_END

#endif /* DT_DTYPE_H */
