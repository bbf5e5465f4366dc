/* compat.h - macros that let one header serve C11 and CUDA C++.
 *
 * Op semantics (ops.h, scalar.h) are written once and compiled both by the
 * host C compiler and by nvcc; DT_HOSTDEV marks such functions.
 */
#ifndef DT_COMPAT_H
#define DT_COMPAT_H

#if defined(__CUDACC__)
#define DT_HOSTDEV __host__ __device__
#define DT_INLINE __forceinline__
#else
#define DT_HOSTDEV
#define DT_INLINE inline
#endif

#define DT_FN static DT_INLINE DT_HOSTDEV

#if defined(__cplusplus)
#define DT_EXTERN_C_BEGIN extern "C" {
#define DT_EXTERN_C_END }
#else
#define DT_EXTERN_C_BEGIN
#define DT_EXTERN_C_END
#endif

#endif /* DT_COMPAT_H */
