/* emu_device.h - what CUDA device code uses, for compiling a .cu file a
 * second time as host C++ (Note [Two compilers]):
 *
 *     g++ -std=c++17 -include csrc/emu/emu_device.h -x c++ file.cu
 *
 * It supplies the qualifiers (__global__, __device__, __host__, __shared__,
 * __constant__, __launch_bounds__, ...), the built-in variables (threadIdx,
 * blockIdx, blockDim, gridDim, warpSize), the barriers and warp intrinsics
 * (which switch fibers: emu_fiber.cpp), atomics, bit intrinsics, the math
 * functions device code calls that the C library lacks, dynamic shared
 * memory (DT_DYNAMIC_SHARED), kernel addresses (DT_KERNEL_ADDRESS) and
 * <<<>>> launches (DT_LAUNCH).  Under nvcc the same macros come from
 * emu_spelling.h, which is all a .cu file needs to include to use them.
 *
 * It needs no CUDA toolkit (Note [Toolkit types]).
 *
 * Note [Two compilers]
 * DEVTENSOR_EMULATED is defined here and nowhere else: code that must
 * differ tests it (very little should).  __CUDACC__ and __CUDA_ARCH__ stay
 * undefined, so the toolkit headers and our own code take their host
 * paths: a `#if defined(__CUDA_ARCH__)` branch with a device intrinsic
 * falls back to its portable host spelling.
 *
 * Note [Toolkit types]
 * No CUDA toolkit is needed: vector_types.h (dim3, uint3, uint4, ...) and
 * driver_types.h (cudaError_t and its values, cudaStream_t) come from
 * csrc/emu/include, our own declarations with CUDA's documented names,
 * layouts and values, which the build puts first on the include path.
 * (The toolkit's own copies would work too: they are plain C types, and
 * the qualifier macros of its crt/host_defines.h are replaced below.)
 *
 * Note [What emulation cannot catch]
 * The emulation runs our CUDA code, strictly, on the CPU; it is not a GPU,
 * and passing on it proves nothing about these (only a real GPU and
 * compute-sanitizer do: tools/gpu_check.sh):
 *   - weak memory ordering: between its switch points a fiber runs alone
 *     and every store is visible at once, so a missing __threadfence,
 *     volatile or atomic for data shared between blocks or with the host
 *     never shows;
 *   - races between blocks: blocks run one after another, so two blocks
 *     writing one location, or a block waiting for another (a spin lock,
 *     a grid-wide barrier without cooperative launch), run in one fixed
 *     order or hang here, and lose no update;
 *   - intra-warp races without a barrier: lanes do not run in lockstep
 *     (threads switch only at barriers and warp intrinsics), so code that
 *     relies on implicit warp synchrony fails here as on Volta and later,
 *     but a race between lanes between two switch points is invisible;
 *   - timing and throughput: occupancy, coalescing, bank conflicts,
 *     launch overhead, copy/compute overlap -- none is modelled;
 *   - the GPU math library's exact values: device functions (expf, sinf,
 *     __expf, ...) are the host's libm here, not CUDA's libdevice (tests
 *     compare GPU results with ulp tolerances for that reason);
 *   - tensor cores and flush-to-zero: reduced-precision matrix units and
 *     denormal flushing do not exist here; FMA contraction is off in both
 *     builds (nvcc --fmad=false, Note [Identical values] in cuda_loops.cu),
 *     which only a GPU run confirms;
 *   - the real driver and hardware: error codes our emulation chooses for
 *     faults (700, 715, 9, 1) follow the documentation, compute capability
 *     limits are those of Note [Emulated properties], and nothing here
 *     checks the PTX or SASS nvcc emits.
 *
 * Note [Static shared memory]
 * __shared__ is `static`: one object per variable (per template
 * instance), which every thread of the block sees, as shared memory is.
 * That is sound because the emulator runs the blocks of a launch one after
 * another on one OS thread, and launches one at a time per OS thread (two
 * OS threads running launches of the same kernel at once would share it:
 * the runtime serialises launches).  A block starts with whatever the
 * previous block left, as on a GPU shared memory is not initialised.  As
 * plain globals these arrays get AddressSanitizer redzones, so an
 * overrun is reported (thread_local storage would get none).
 */
#ifndef DT_EMU_DEVICE_H
#define DT_EMU_DEVICE_H

#ifndef __cplusplus
#error "emu_device.h is for C++ (compile .cu files with g++ -x c++)"
#endif

#include <vector_types.h> /* Note [Toolkit types] */
#include <driver_types.h>

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmath>
#include <type_traits>
#include <utility>

#define DEVTENSOR_EMULATED 1

/* ---------------------------------------------------------------------------
 * Qualifiers (crt/host_defines.h's are attribute annotations: replaced).
 */
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __constant__
#undef __managed__
#undef __launch_bounds__
#undef __grid_constant__
#undef __noinline__
#undef __forceinline__
#define __global__
#define __device__
#define __host__
#define __shared__ static /* Note [Static shared memory] */
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#define __noinline__ __attribute__((noinline))
#define __forceinline__ inline __attribute__((always_inline))

/* the runtime's launcher (as cuda_runtime_api.h declares it), which
 * DT_LAUNCH calls: the emulated runtime's in an emulated build */
extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream);

namespace dt_emu {

/* Scheduler entry points: each switches to the scheduler and returns when
 * the barrier or the warp-level rendezvous completes (Note [Barriers] and
 * Note [Warp rendezvous] in emu_fiber.cpp).  file/line name the call. */
enum BarrierKind { BAR_SYNC, BAR_COUNT, BAR_AND, BAR_OR };
int barrier(int kind, int pred, const char *file, int line);

enum WarpKind { WARP_SYNC, SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR, VOTE_BALLOT, VOTE_ALL, VOTE_ANY };
unsigned long long warp_op(int kind, unsigned mask, unsigned long long value, int arg, int width, const char *file,
                           int line);
unsigned active_mask();  /* the calling warp's lanes that have not exited */
void *dynamic_shared();  /* this launch's dynamic shared memory */

template <class T> inline unsigned long long to_bits(T v)
{
    static_assert(std::is_arithmetic<T>::value && sizeof(T) <= 8, "warp shuffles move arithmetic values");
    unsigned long long b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T> inline T from_bits(unsigned long long b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

template <class T> inline T shfl(int kind, unsigned mask, T var, int arg, int width, const char *file, int line)
{
    return from_bits<T>(warp_op(kind, mask, to_bits(var), arg, width, file, line));
}

/* Atomics.  Fibers of one OS thread never interleave inside a
 * read-modify-write, but the GCC builtins keep them atomic should blocks
 * run on several OS threads. */
template <class T> inline T atomic_cas(T *p, T compare, T val)
{
    __atomic_compare_exchange_n(p, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return compare; /* the old value, whether or not it was swapped */
}

/* old = *p; *p = f(old); return old, for types without a builtin (float
 * addition, min/max) */
template <class T, class F> inline T atomic_update(T *p, F f)
{
    T old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, f(old), true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
    }
    return old;
}

/* the same on the bits of a float or double */
template <class T, class U, class F> inline T atomic_update_bits(T *p, F f)
{
    static_assert(sizeof(T) == sizeof(U), "bit type");
    U *q = reinterpret_cast<U *>(p);
    U old = __atomic_load_n(q, __ATOMIC_RELAXED);
    for (;;) {
        T o, n;
        memcpy(&o, &old, sizeof o);
        n = f(o);
        U nb;
        memcpy(&nb, &n, sizeof nb);
        if (__atomic_compare_exchange_n(q, &old, nb, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            return o;
    }
}

/* Kernel registration: Note [Kernel registry] in emu_launch.cpp. */
typedef void (*Invoker)(const void *kernel, void **args);
const void *register_kernel(const void *kernel, const char *name, Invoker invoke, size_t nparams, const size_t *sizes,
                            const size_t *aligns);

template <class... P, size_t... I>
inline void invoke_unpacked(void (*k)(P...), void **args, std::index_sequence<I...>)
{
    k(*static_cast<std::decay_t<P> *>(args[I])...); /* by value, as a kernel receives them */
}

template <class... P> void invoke(const void *kernel, void **args)
{
    auto k = reinterpret_cast<void (*)(P...)>(const_cast<void *>(kernel));
    invoke_unpacked(k, args, std::index_sequence_for<P...>{});
}

template <class... P> const void *register_typed(void (*k)(P...), const char *name)
{
    static_assert(sizeof...(P) < 64, "kernel with too many parameters");
    const size_t sizes[sizeof...(P) + 1] = {sizeof(std::decay_t<P>)..., 0};
    const size_t aligns[sizeof...(P) + 1] = {alignof(std::decay_t<P>)..., 0};
    return register_kernel(reinterpret_cast<const void *>(k), name, &invoke<P...>, sizeof...(P), sizes, aligns);
}

/* One registration per kernel: a function-local static of this template
 * instance (K is the kernel).  The name is the compiler's spelling of K,
 * e.g. "k_contig<{anonymous}::Op_ADD_f32, 4>". */
template <auto K> const void *kernel_address()
{
    static const void *const addr = register_typed(K, __PRETTY_FUNCTION__);
    return addr;
}

/* DT_LAUNCH: a <<<grid, block, shared, stream>>> launch as a call of
 * cudaLaunchKernel (the runtime's, or the emulated runtime's) with the
 * arguments converted to the kernel's parameter types. */
template <auto K> struct Launcher;
template <class... P, void (*K)(P...)> struct Launcher<K> {
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;
    template <class... A> void operator()(A &&...a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "wrong number of kernel arguments");
        launch_with(std::decay_t<P>(std::forward<A>(a))...);
    }
    template <class... V> void launch_with(V... v) const
    {
        void *args[sizeof...(V) + 1] = {(void *)&v..., nullptr};
        (void)::cudaLaunchKernel(kernel_address<K>(), grid, block, args, shared, stream);
    }
};

} // namespace dt_emu

/* ---------------------------------------------------------------------------
 * Built-in variables.
 */
/* The running thread's, set by the scheduler before it switches to a
 * fiber (emu_fiber.cpp).  Variables, not macros: the toolkit headers use
 * these names for parameters.  Per OS thread, so that launches on two OS
 * threads do not see each other's.  (Writable here, unlike CUDA's: nvcc
 * rejects a kernel that assigns to them.) */
extern thread_local uint3 threadIdx, blockIdx;
extern thread_local dim3 blockDim, gridDim;
static constexpr int warpSize = 32;

/* ---------------------------------------------------------------------------
 * The spelling macros (emu_spelling.h has the nvcc versions).
 */
/* extern __shared__ T name[] */
#define DT_DYNAMIC_SHARED(type, name) type *const name = static_cast<type *>(::dt_emu::dynamic_shared())
/* (const void *)&kernel, and the kernel registered for cudaLaunchKernel */
#define DT_KERNEL_ADDRESS(...) (::dt_emu::kernel_address<&__VA_ARGS__>())
/* kernel<<<grid, block, shared, stream>>>(args...) is
 * DT_LAUNCH(kernel, grid, block, shared, stream)(args...) */
#define DT_LAUNCH(kernel, grid, block, shared, stream) \
    (::dt_emu::Launcher<&kernel>{dim3(grid), dim3(block), (size_t)(shared), (cudaStream_t)(stream)})

/* ---------------------------------------------------------------------------
 * Barriers and warp intrinsics.  Macros, to name the call site in faults.
 */
#define __syncthreads() ((void)::dt_emu::barrier(::dt_emu::BAR_SYNC, 1, __FILE__, __LINE__))
#define __syncthreads_count(p) ::dt_emu::barrier(::dt_emu::BAR_COUNT, (p) != 0, __FILE__, __LINE__)
#define __syncthreads_and(p) ::dt_emu::barrier(::dt_emu::BAR_AND, (p) != 0, __FILE__, __LINE__)
#define __syncthreads_or(p) ::dt_emu::barrier(::dt_emu::BAR_OR, (p) != 0, __FILE__, __LINE__)
#define __syncwarp(...) ::dt_emu::SyncwarpAt{__FILE__, __LINE__}(__VA_ARGS__)
#define __shfl_sync(...) ::dt_emu::shfl_at(::dt_emu::SHFL_IDX, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) ::dt_emu::shfl_at(::dt_emu::SHFL_UP, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) ::dt_emu::shfl_at(::dt_emu::SHFL_DOWN, __FILE__, __LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) ::dt_emu::shfl_at(::dt_emu::SHFL_XOR, __FILE__, __LINE__, __VA_ARGS__)
#define __ballot_sync(mask, p) \
    ((unsigned)::dt_emu::warp_op(::dt_emu::VOTE_BALLOT, (mask), (p) != 0, 0, 32, __FILE__, __LINE__))
#define __all_sync(mask, p) ((int)::dt_emu::warp_op(::dt_emu::VOTE_ALL, (mask), (p) != 0, 0, 32, __FILE__, __LINE__))
#define __any_sync(mask, p) ((int)::dt_emu::warp_op(::dt_emu::VOTE_ANY, (mask), (p) != 0, 0, 32, __FILE__, __LINE__))

namespace dt_emu {
/* __syncwarp() or __syncwarp(mask), with the call site */
struct SyncwarpAt {
    const char *file;
    int line;
    void operator()(unsigned mask = 0xffffffffu) const { (void)warp_op(WARP_SYNC, mask, 0, 0, 32, file, line); }
};
/* arg: srcLane (idx), delta (up, down), laneMask (xor) */
template <class T>
inline T shfl_at(int kind, const char *file, int line, unsigned mask, T var, int arg, int width = warpSize)
{
    return shfl<T>(kind, mask, var, arg, width, file, line);
}
} // namespace dt_emu

/* the calling warp's lanes that have not exited; a GPU gives the lanes
 * converged at the call, which code may rely on only to include the
 * caller */
static inline unsigned __activemask() { return ::dt_emu::active_mask(); }

/* __threadfence*: no-ops.  Fibers switch only at barriers and warp
 * intrinsics, so every store is visible to every later load of any
 * thread; weak ordering is one of the things the emulator cannot show
 * (DESIGN.md section 7). */
static inline void __threadfence() {}
static inline void __threadfence_block() {}
static inline void __threadfence_system() {}

/* ---------------------------------------------------------------------------
 * Atomics: the overloads the toolkit's *_atomic_functions.h declare (no
 * more, so that what compiles here compiles with nvcc); the _block and
 * _system scopes behave the same here.
 */
#define DT_EMU_ATOMIC_BUILTIN(NAME, T, BUILTIN)                                             \
    static inline T NAME(T *p, T v) { return BUILTIN(p, v, __ATOMIC_SEQ_CST); }             \
    static inline T NAME##_block(T *p, T v) { return BUILTIN(p, v, __ATOMIC_SEQ_CST); }     \
    static inline T NAME##_system(T *p, T v) { return BUILTIN(p, v, __ATOMIC_SEQ_CST); }
#define DT_EMU_ATOMIC_UPDATE(NAME, T, EXPR)                                                          \
    static inline T NAME(T *p, T v) { return ::dt_emu::atomic_update(p, [v](T o) { return EXPR; }); } \
    static inline T NAME##_block(T *p, T v) { return NAME(p, v); }                                    \
    static inline T NAME##_system(T *p, T v) { return NAME(p, v); }
#define DT_EMU_ATOMIC_FLOAT(NAME, T, U, EXPR)                                                                  \
    static inline T NAME(T *p, T v) { return ::dt_emu::atomic_update_bits<T, U>(p, [v](T o) { return EXPR; }); } \
    static inline T NAME##_block(T *p, T v) { return NAME(p, v); }                                              \
    static inline T NAME##_system(T *p, T v) { return NAME(p, v); }
#define DT_EMU_ATOMIC_CAS(T)                                                                         \
    static inline T atomicCAS(T *p, T c, T v) { return ::dt_emu::atomic_cas(p, c, v); }               \
    static inline T atomicCAS_block(T *p, T c, T v) { return ::dt_emu::atomic_cas(p, c, v); }         \
    static inline T atomicCAS_system(T *p, T c, T v) { return ::dt_emu::atomic_cas(p, c, v); }

DT_EMU_ATOMIC_BUILTIN(atomicAdd, int, __atomic_fetch_add)
DT_EMU_ATOMIC_BUILTIN(atomicAdd, unsigned, __atomic_fetch_add)
DT_EMU_ATOMIC_BUILTIN(atomicAdd, unsigned long long, __atomic_fetch_add)
DT_EMU_ATOMIC_FLOAT(atomicAdd, float, uint32_t, o + v)
DT_EMU_ATOMIC_FLOAT(atomicAdd, double, uint64_t, o + v)
DT_EMU_ATOMIC_BUILTIN(atomicSub, int, __atomic_fetch_sub)
DT_EMU_ATOMIC_BUILTIN(atomicSub, unsigned, __atomic_fetch_sub)
DT_EMU_ATOMIC_BUILTIN(atomicExch, int, __atomic_exchange_n)
DT_EMU_ATOMIC_BUILTIN(atomicExch, unsigned, __atomic_exchange_n)
DT_EMU_ATOMIC_BUILTIN(atomicExch, unsigned long long, __atomic_exchange_n)
DT_EMU_ATOMIC_FLOAT(atomicExch, float, uint32_t, ((void)o, v))
DT_EMU_ATOMIC_UPDATE(atomicMax, int, o > v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMax, unsigned, o > v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMax, long long, o > v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMax, unsigned long long, o > v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMin, int, o < v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMin, unsigned, o < v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMin, long long, o < v ? o : v)
DT_EMU_ATOMIC_UPDATE(atomicMin, unsigned long long, o < v ? o : v)
/* CUDA: ((old >= v) ? 0 : old + 1) and (((old == 0) || (old > v)) ? v : old - 1) */
DT_EMU_ATOMIC_UPDATE(atomicInc, unsigned, o >= v ? 0u : o + 1u)
DT_EMU_ATOMIC_UPDATE(atomicDec, unsigned, (o == 0u || o > v) ? v : o - 1u)
#define DT_EMU_ATOMIC_BITS(T)                          \
    DT_EMU_ATOMIC_BUILTIN(atomicAnd, T, __atomic_fetch_and) \
    DT_EMU_ATOMIC_BUILTIN(atomicOr, T, __atomic_fetch_or)   \
    DT_EMU_ATOMIC_BUILTIN(atomicXor, T, __atomic_fetch_xor)
DT_EMU_ATOMIC_BITS(int)
DT_EMU_ATOMIC_BITS(unsigned)
DT_EMU_ATOMIC_BITS(long long)
DT_EMU_ATOMIC_BITS(unsigned long long)
DT_EMU_ATOMIC_CAS(int)
DT_EMU_ATOMIC_CAS(unsigned)
DT_EMU_ATOMIC_CAS(unsigned long long)
DT_EMU_ATOMIC_CAS(unsigned short)
#undef DT_EMU_ATOMIC_BITS

/* ---------------------------------------------------------------------------
 * Loads and bit intrinsics.
 */
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* byte i of the result is byte (s >> 4i) & 7 of the 8 bytes {y, x} */
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long b = ((unsigned long long)y << 32) | x, r = 0;
    for (int i = 0; i < 4; i++)
        r |= ((b >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return (unsigned)r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)((v << (s & 31u)) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned)(v >> (s & 31u));
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    return __funnelshift_l(lo, hi, s > 32u ? 32u : s);
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    return __funnelshift_r(lo, hi, s > 32u ? 32u : s);
}
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
static inline long long __mul64hi(long long a, long long b) { return (long long)(__extension__((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(__extension__((unsigned __int128)a * b) >> 64);
}
static inline int __mul24(int a, int b) { return (int)((unsigned)(a << 8 >> 8) * (unsigned)(b << 8 >> 8)); }
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static inline unsigned __sad(int x, int y, unsigned z) { return z + (unsigned)(x > y ? (long long)x - y : (long long)y - x); }
static inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return z + (x > y ? x - y : y - x); }
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }

/* CUDA's integer and mixed min/max (device code calls them unqualified) */
#define DT_EMU_MINMAX(T, MIN, MAX)                          \
    static inline T MIN(T a, T b) { return a < b ? a : b; } \
    static inline T MAX(T a, T b) { return a > b ? a : b; }
DT_EMU_MINMAX(int, min, max)
DT_EMU_MINMAX(unsigned, min, max)
DT_EMU_MINMAX(long, min, max)
DT_EMU_MINMAX(unsigned long, min, max)
DT_EMU_MINMAX(long long, min, max)
DT_EMU_MINMAX(unsigned long long, min, max)
DT_EMU_MINMAX(unsigned, umin, umax)
DT_EMU_MINMAX(long long, llmin, llmax)
DT_EMU_MINMAX(unsigned long long, ullmin, ullmax)
#undef DT_EMU_MINMAX
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }

/* ---------------------------------------------------------------------------
 * Math.  The C library has the standard functions (expf, sinf, fmaf, ...)
 * and, in glibc, the __expf/__sinf/__logf/__powf/... spellings too (the
 * precise versions stand for CUDA's fast ones: results may differ in the
 * last bits, which the emulator cannot show anyway).  Here is what is
 * missing.  The _rn operations are C's default rounding; other roundings
 * of CUDA's (_rz, _ru, _rd) are not provided.
 */
#if !defined(__GLIBC__)
static inline float __expf(float x) { return expf(x); }
static inline float __exp10f(float x) { return powf(10.0f, x); }
static inline float __logf(float x) { return logf(x); }
static inline float __log2f(float x) { return log2f(x); }
static inline float __log10f(float x) { return log10f(x); }
static inline float __sinf(float x) { return sinf(x); }
static inline float __cosf(float x) { return cosf(x); }
static inline float __tanf(float x) { return tanf(x); }
static inline float __powf(float x, float y) { return powf(x, y); }
static inline void sincosf(float x, float *s, float *c) { *s = sinf(x), *c = cosf(x); }
static inline void sincos(double x, double *s, double *c) { *s = sin(x), *c = cos(x); }
static inline float exp10f(float x) { return powf(10.0f, x); }
static inline double exp10(double x) { return pow(10.0, x); }
static inline void __sincosf(float x, float *s, float *c) { sincosf(x, s, c); }
#endif
static inline float __fdividef(float x, float y) { return x / y; }
static inline float fdividef(float x, float y) { return x / y; }
static inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; } /* NaN -> 0 */
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float sinpif(float x) { return (float)sin(M_PI * (double)x); }
static inline float cospif(float x) { return (float)cos(M_PI * (double)x); }
static inline double sinpi(double x) { return sin(M_PI * x); }
static inline double cospi(double x) { return cos(M_PI * x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x), *c = cospif(x); }
static inline void sincospi(double x, double *s, double *c) { *s = sinpi(x), *c = cospi(x); }
static inline float normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
static inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline float __frsqrt_rn(float a) { return 1.0f / sqrtf(a); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

/* bit casts and conversions */
static inline float __int_as_float(int x) { return ::dt_emu::from_bits<float>((unsigned)x); }
static inline float __uint_as_float(unsigned x) { return ::dt_emu::from_bits<float>(x); }
static inline int __float_as_int(float x) { return (int)(unsigned)::dt_emu::to_bits(x); }
static inline unsigned __float_as_uint(float x) { return (unsigned)::dt_emu::to_bits(x); }
static inline double __longlong_as_double(long long x) { return ::dt_emu::from_bits<double>((unsigned long long)x); }
static inline long long __double_as_longlong(double x) { return (long long)::dt_emu::to_bits(x); }
static inline int __double2hiint(double x) { return (int)(::dt_emu::to_bits(x) >> 32); }
static inline int __double2loint(double x) { return (int)(unsigned)::dt_emu::to_bits(x); }
static inline double __hiloint2double(int hi, int lo)
{
    return ::dt_emu::from_bits<double>(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);
}
/* round to nearest even, as C's default mode (saturation of out-of-range
 * values, which CUDA does, is not reproduced) */
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
static inline long long __float2ll_rn(float x) { return (long long)nearbyintf(x); }
static inline int __double2int_rn(double x) { return (int)nearbyint(x); }
static inline int __double2int_rz(double x) { return (int)x; }
static inline long long __double2ll_rn(double x) { return (long long)nearbyint(x); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __ll2double_rn(long long x) { return (double)x; }
static inline float __double2float_rn(double x) { return (float)x; }

#endif /* DT_EMU_DEVICE_H */
