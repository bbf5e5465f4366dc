/* vector_types.h - devtensor's own declarations of the CUDA vector types
 * that host code and the emulated device code use (dim3, uint3, and a few
 * short vectors), for building against the CPU emulation of the CUDA
 * runtime without the toolkit (DESIGN.md section 7).  Written from CUDA's
 * documented layout: members x, y, z, w; dim3 defaults unset members to 1
 * in C++.  Usable from C and C++.
 */
#ifndef DT_EMU_VECTOR_TYPES_H
#define DT_EMU_VECTOR_TYPES_H

#if defined(__cplusplus)
#define DT_EMU_ALIGN(n) alignas(n)
#else
#define DT_EMU_ALIGN(n) _Alignas(n)
#endif

struct uint3 {
    unsigned int x, y, z;
};
typedef struct uint3 uint3;

struct int2 {
    DT_EMU_ALIGN(8) int x;
    int y;
};
typedef struct int2 int2;
struct uint2 {
    DT_EMU_ALIGN(8) unsigned int x;
    unsigned int y;
};
typedef struct uint2 uint2;
struct int4 {
    DT_EMU_ALIGN(16) int x;
    int y, z, w;
};
typedef struct int4 int4;
struct uint4 {
    DT_EMU_ALIGN(16) unsigned int x;
    unsigned int y, z, w;
};
typedef struct uint4 uint4;
struct float2 {
    DT_EMU_ALIGN(8) float x;
    float y;
};
typedef struct float2 float2;
struct float4 {
    DT_EMU_ALIGN(16) float x;
    float y, z, w;
};
typedef struct float4 float4;
struct double2 {
    DT_EMU_ALIGN(16) double x;
    double y;
};
typedef struct double2 double2;

/* Note [dim3]
 * In C++ dim3 is constructible from up to three extents, the missing ones
 * being 1, and from a uint3; in C it is a plain struct the caller fills. */
struct dim3 {
    unsigned int x, y, z;
#if defined(__cplusplus)
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
#endif
};
typedef struct dim3 dim3;

#endif /* DT_EMU_VECTOR_TYPES_H */
