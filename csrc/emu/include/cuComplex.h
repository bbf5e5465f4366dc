/* cuComplex.h - devtensor's own declarations of CUDA's complex types, the
 * element types of the complex routines of cuBLAS and cuSOLVER, for
 * building csrc/cuda against the CPU emulation (DESIGN.md section 7).
 * Exactly the toolkit's three typedefs (checked against the CUDA 13
 * toolkit's cuComplex.h: a complex is the vector type of two reals, real
 * part in x, imaginary part in y); not NVIDIA's header.  Usable from C11
 * and C++17.
 *
 * Not declared, so that using them fails to compile in the emulated build:
 * the toolkit's inline helpers (make_cuComplex, cuCrealf, cuCaddf, ...);
 * read and write .x and .y instead.
 */
#ifndef DT_EMU_CUCOMPLEX_H
#define DT_EMU_CUCOMPLEX_H

#include "vector_types.h"

typedef float2 cuFloatComplex;   /* aligned to 8 bytes */
typedef double2 cuDoubleComplex; /* aligned to 16 bytes */
typedef cuFloatComplex cuComplex;

#endif /* DT_EMU_CUCOMPLEX_H */
