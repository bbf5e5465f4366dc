/* emu_runtime_test.cpp - cases for the CPU emulation of the CUDA runtime
 * (csrc/emu/emu_runtime.cpp), one per run: `emu_runtime_test CASE`
 * prints "PASS CASE" and exits 0, or prints what failed and exits 1.
 * tests/test_emu_runtime.py builds it and runs every case in its own
 * process with the environment the case needs.
 *
 * Kernels here are a TEST STUB of the kernel half's interface
 * (emu_launch.h): a "kernel" is a host function taking the launch's first
 * three arguments as pointer-sized values; prepare copies them, run calls
 * the function.  The real kernel half is in csrc/emu/emu_launch.cpp.
 */
#include <cuda_runtime.h>

#include "emu_runtime.h"
#include "emu_test.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

/* ---- test stub of emu_launch.h ---- */

typedef cudaError_t (*stub_kernel)(void *a, void *b, void *c);

struct emu_launch {
    stub_kernel fn;
    void *arg[3];
};

extern "C" cudaError_t emu_launch_prepare(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                          emu_launch **out)
{
    *out = nullptr;
    if (kernel == nullptr)
        return cudaErrorInvalidDeviceFunction;
    if (grid.x == 0 || block.x == 0 || block.x * block.y * block.z > 1024)
        return cudaErrorInvalidConfiguration;
    if (shared > 48 * 1024 || args == nullptr)
        return cudaErrorInvalidValue;
    emu_launch *l = new emu_launch;
    l->fn = (stub_kernel)kernel;
    for (int i = 0; i < 3; i++)
        memcpy(&l->arg[i], args[i], sizeof(void *));
    *out = l;
    return cudaSuccess;
}

extern "C" cudaError_t emu_launch_run(emu_launch *l)
{
    cudaError_t e = l->fn(l->arg[0], l->arg[1], l->arg[2]);
    delete l;
    return e;
}

extern "C" void emu_launch_free(emu_launch *l)
{
    delete l;
}

/* ---- stub kernels ---- */

static std::atomic<int> gate{0};

static cudaError_t k_fill(void *p, void *n, void *v) /* p[i] = v for i < n (ints) */
{
    for (size_t i = 0; i < (size_t)n; i++)
        ((int *)p)[i] = (int)(intptr_t)v;
    return cudaSuccess;
}

static cudaError_t k_gate(void *, void *, void *) /* runs until the host opens the gate */
{
    while (gate.load() == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return cudaSuccess;
}

static cudaError_t k_fault(void *, void *, void *)
{
    return cudaErrorIllegalAddress;
}

static cudaError_t launch(stub_kernel k, cudaStream_t s, void *a = nullptr, size_t n = 0, int v = 0)
{
    void *b = (void *)n, *c = (void *)(intptr_t)v;
    void *args[] = {&a, &b, &c};
    return cudaLaunchKernel(k, dim3(1), dim3(1), args, 0, s);
}

static void sleep_ms(int ms)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

/* ---- checking ---- */

/* EXPECT, EXPECT_ERR, OK, failures: emu_test.h */

static bool all_equal(const int *p, size_t n, int v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return false;
    return true;
}

/* ---- cases ---- */

static void case_devices() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    int n = -1, v = 0;
    OK(cudaGetDeviceCount(&n));
    EXPECT(n == 2);
    cudaDeviceProp p;
    OK(cudaGetDeviceProperties(&p, 1));
    EXPECT(strstr(p.name, "emulated") != nullptr);
    EXPECT(p.major == 9 && p.minor == 0 && p.multiProcessorCount == 132);
    EXPECT(p.totalGlobalMem == ((size_t)4 << 30));
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == 132);
    EXPECT_ERR(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetDeviceProperties(&p, 2), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    OK(cudaGetLastError());
    OK(cudaGetDevice(&v));
    EXPECT(v == 0);
    OK(cudaSetDevice(1));
    OK(cudaGetDevice(&v));
    EXPECT(v == 1);
    EXPECT_ERR(cudaSetDevice(-1), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaSetDevice(2), cudaErrorInvalidDevice);
    int other = -1; /* the current device is per host thread */
    std::thread([&] { cudaGetDevice(&other); }).join();
    EXPECT(other == 0);
    int least = 1, greatest = 1;
    OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    EXPECT(least == 0 && greatest == -5);
    OK(cudaDriverGetVersion(&v));
    EXPECT(v == 13000);
    OK(cudaRuntimeGetVersion(&v));
    EXPECT(v == 13000);
    OK(cudaDeviceSynchronize());
}

static void case_bad_count() /* DEVTENSOR_EMULATE_CUDA=abc */
{
    int n = -1;
    EXPECT_ERR(cudaGetDeviceCount(&n), cudaErrorInitializationError);
    EXPECT(n == 0);
    EXPECT(strstr(cudaGetErrorString(cudaErrorInitializationError), "DEVTENSOR_EMULATE_CUDA='abc'") != nullptr);
    EXPECT(emu_runtime_config_error() != nullptr);
    void *p = nullptr;
    EXPECT_ERR(cudaMalloc(&p, 16), cudaErrorInitializationError);
    printf("message: %s\n", cudaGetErrorString(cudaErrorInitializationError));
}

static void case_zero_devices() /* DEVTENSOR_EMULATE_CUDA=0 */
{
    int n = -1;
    EXPECT_ERR(cudaGetDeviceCount(&n), cudaErrorNoDevice);
    EXPECT(n == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorNoDevice), "no CUDA-capable device is detected") == 0);
}

static void case_budget() /* DEVTENSOR_EMULATE_CUDA=2 DEVTENSOR_EMULATE_CUDA_MEMORY=1M,2M */
{
    size_t fr = 0, tot = 0;
    OK(cudaMemGetInfo(&fr, &tot));
    EXPECT(tot == (1u << 20) && fr == tot);
    void *a = nullptr, *b = nullptr, *c = nullptr;
    OK(cudaMalloc(&a, 512 * 1024));
    EXPECT(a != nullptr && ((uintptr_t)a % 256) == 0);
    EXPECT_ERR(cudaMalloc(&b, 600 * 1024), cudaErrorMemoryAllocation);
    EXPECT(b == nullptr);
    EXPECT_ERR(cudaGetLastError(), cudaErrorMemoryAllocation);
    OK(cudaGetLastError()); /* not sticky */
    OK(cudaMalloc(&b, 256 * 1024));
    OK(cudaMemGetInfo(&fr, &tot));
    EXPECT(fr == (1u << 20) - 768 * 1024);
    OK(cudaMalloc(&c, 0));
    EXPECT(c == nullptr);
    OK(cudaFree(a));
    EXPECT_ERR(cudaFree(a), cudaErrorInvalidValue); /* twice */
    EXPECT_ERR(cudaFree((char *)b + 4), cudaErrorInvalidValue);
    int host = 0;
    EXPECT_ERR(cudaFree(&host), cudaErrorInvalidValue);
    OK(cudaFree(nullptr));
    OK(cudaMalloc(&a, 700 * 1024)); /* the freed space is usable again */
    OK(cudaSetDevice(1));
    OK(cudaMemGetInfo(&fr, &tot));
    EXPECT(tot == (2u << 20));
    OK(cudaMalloc(&c, (2u << 20)));
    struct cudaPointerAttributes at;
    OK(cudaPointerGetAttributes(&at, c));
    EXPECT(at.type == cudaMemoryTypeDevice && at.device == 1 && at.devicePointer == c && at.hostPointer == nullptr);
    OK(cudaFree(c));
    OK(cudaFree(b)); /* a device-0 block freed while device 1 is current */
}

static void case_kinds() /* pointer kinds checked in every copy */
{
    int *d = nullptr, h[64] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    EXPECT(emu_runtime_device_of(d, sizeof h) == 0);
    EXPECT(emu_runtime_device_of(h, sizeof h) == -1);
    EXPECT_ERR(cudaMemcpyAsync(h, h, sizeof h, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyAsync(d, d, sizeof h, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyDeviceToHost, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyAsync(h, h, sizeof h, cudaMemcpyDeviceToDevice, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyAsync(d, d, sizeof h, cudaMemcpyHostToHost, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyAsync(d, h, sizeof h + 4, cudaMemcpyHostToDevice, 0), cudaErrorInvalidValue); /* overrun */
    EXPECT_ERR(cudaMemcpyAsync(d, h, sizeof h, (cudaMemcpyKind)7, 0), cudaErrorInvalidMemcpyDirection);
    EXPECT_ERR(cudaMemsetAsync(h, 0, sizeof h, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue);
    for (int i = 0; i < 64; i++)
        h[i] = i;
    OK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyDefault, 0));
    int back[64] = {0};
    OK(cudaMemcpyAsync(back, d, sizeof back, cudaMemcpyDeviceToHost, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(memcmp(back, h, sizeof h) == 0);
    OK(cudaMemsetAsync(d, 0, sizeof h, 0));
    OK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(back, 64, 0));
    OK(cudaFree(d));
    EXPECT_ERR(cudaMemcpyAsync(back, d, sizeof back, cudaMemcpyDeviceToHost, 0), cudaErrorInvalidValue); /* freed */
    EXPECT_ERR(cudaMemsetAsync(d, 0, 4, 0), cudaErrorInvalidValue);
}

/* Planted fault: a device-to-host copy read before the stream is
 * synchronised (DEVTENSOR_EMULATE_DELAY_US makes the race certain). */
static void d2h_case(bool synchronise)
{
    const size_t n = 1024;
    int *d = nullptr;
    std::vector<int> h(n, 0);
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaMalloc((void **)&d, n * sizeof(int)));
    OK(cudaMemsetAsync(d, 1, n * sizeof(int), s));
    OK(cudaMemcpyAsync(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    if (synchronise)
        OK(cudaStreamSynchronize(s));
    bool right = all_equal(h.data(), n, 0x01010101);
    printf("read %s synchronising: %s\n", synchronise ? "after" : "without", right ? "right" : "stale");
    EXPECT(right == synchronise);
    OK(cudaStreamSynchronize(s));
    EXPECT(all_equal(h.data(), n, 0x01010101));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
}

static void case_protected()
{
    printf("protected %d\n", emu_runtime_protected());
}

/* Planted fault: host code dereferencing a device pointer.  Protected:
 * the process dies of SIGSEGV; unprotected it survives (the test expects
 * only the API checks then). */
static void case_host_deref()
{
    volatile int *d = nullptr;
    OK(cudaMalloc((void **)&d, 64));
    fflush(stdout);
    int v = d[0];
    printf("host read a device pointer without a fault (%d)\n", v);
}

/* Planted fault: a kernel without its bounds check.  It fills whole
 * "blocks" of 64 elements, as a grid rounded up to the block size does
 * when `if (i < n) return;` is missing: the tail of the last block writes
 * past the allocation.  In an AddressSanitizer build that is a report
 * (Note [Device memory under AddressSanitizer] in emu_runtime.cpp); without
 * one it lands unseen in the allocation's slack, as on a GPU without
 * compute-sanitizer. */
static cudaError_t k_fill_unchecked(void *p, void *n, void *v)
{
    size_t blocks = ((size_t)n + 63) / 64;
    for (size_t i = 0; i < blocks * 64; i++)
        ((int *)p)[i] = (int)(intptr_t)v;
    return cudaSuccess;
}

static void case_no_bounds_check()
{
    int *d = nullptr, h[100] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(launch(k_fill_unchecked, 0, d, 100, 3));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("a kernel wrote past its allocation without a report (%d)\n", h[99]);
}

/* Planted fault: a kernel launched on memory freed before it ran. */
static void case_kernel_after_free()
{
    int *d = nullptr, h[16] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(cudaFree(d));
    OK(launch(k_fill, 0, d, 16, 5));
    OK(cudaDeviceSynchronize());
    printf("a kernel wrote freed device memory without a report (%d)\n", h[0]);
}

/* A worker may touch device memory while a host thread may not. */
static void case_worker_access()
{
    int *d = nullptr, h[16] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(launch(k_fill, 0, d, 16, 7));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 7));
    int seen = 0; /* a thread the runtime has not seen before is protected at its first call */
    std::thread([&] {
        int x[16];
        seen = cudaMemcpy(x, d, sizeof x, cudaMemcpyDeviceToHost) == cudaSuccess && all_equal(x, 16, 7);
    }).join();
    EXPECT(seen);
    OK(cudaFree(d));
}

static void case_stream_order()
{
    int *d = nullptr, h[16] = {0};
    cudaStream_t a, b;
    cudaEvent_t ev;
    OK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
    OK(cudaStreamCreateWithPriority(&b, cudaStreamNonBlocking, -100)); /* clamped */
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(cudaMemsetAsync(d, 0, sizeof h, 0));
    /* with the wait: b copies after a wrote */
    OK(launch(k_gate, a));
    OK(launch(k_fill, a, d, 16, 5));
    OK(cudaEventRecord(ev, a));
    EXPECT_ERR(cudaEventQuery(ev), cudaErrorNotReady);
    EXPECT_ERR(cudaStreamQuery(a), cudaErrorNotReady);
    OK(cudaGetLastError()); /* not-ready is not an error */
    OK(cudaStreamWaitEvent(b, ev, 0));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, b));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(b), cudaErrorNotReady);
    gate = 1;
    OK(cudaStreamSynchronize(b));
    EXPECT(all_equal(h, 16, 5));
    OK(cudaEventQuery(ev));
    OK(cudaStreamQuery(a));
    /* without it: b's copy runs while a is held at the gate (wrong answer) */
    gate = 0;
    OK(launch(k_gate, a));
    OK(launch(k_fill, a, d, 16, 6));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, b));
    OK(cudaStreamSynchronize(b));
    EXPECT(all_equal(h, 16, 5));
    gate = 1;
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 6));
    EXPECT_ERR(cudaStreamWaitEvent(b, ev, 5), cudaErrorInvalidValue);
    OK(cudaEventDestroy(ev));
    OK(cudaStreamDestroy(a));
    OK(cudaStreamDestroy(b));
    OK(cudaFree(d));
}

static void case_legacy_stream()
{
    int *d = nullptr, h[16] = {0};
    cudaStream_t blk, nb;
    OK(cudaStreamCreate(&blk));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(cudaMemsetAsync(d, 0, sizeof h, 0));
    OK(cudaStreamSynchronize(0));
    /* legacy work waits for earlier work of a blocking stream */
    gate = 0;
    OK(launch(k_gate, blk));
    OK(launch(k_fill, blk, d, 16, 1));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, 0));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(0), cudaErrorNotReady);
    gate = 1;
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(h, 16, 1));
    /* and a blocking stream's later work waits for the legacy stream */
    gate = 0;
    OK(launch(k_gate, 0));
    OK(launch(k_fill, blk, d, 16, 2));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(blk), cudaErrorNotReady);
    gate = 1;
    OK(cudaStreamSynchronize(blk));
    /* a non-blocking stream does not synchronise with it */
    gate = 0;
    OK(launch(k_gate, nb));
    OK(launch(k_fill, nb, d, 16, 3));
    OK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(all_equal(h, 16, 2));
    gate = 1;
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 3));
    OK(cudaStreamDestroy(blk));
    OK(cudaStreamDestroy(nb));
    OK(cudaFree(d));
}

static void case_events() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    cudaEvent_t a, b, nt, fresh;
    cudaStream_t s;
    float ms = -1;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    OK(cudaEventCreate(&a));
    OK(cudaEventCreateWithFlags(&b, cudaEventDefault));
    OK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    OK(cudaEventCreate(&fresh));
    EXPECT_ERR(cudaEventCreateWithFlags(&fresh, 0x100), cudaErrorInvalidValue);
    OK(cudaEventQuery(fresh)); /* never recorded: complete */
    OK(cudaEventSynchronize(fresh));
    gate = 0;
    OK(cudaEventRecord(a, s));
    OK(launch(k_gate, s));
    OK(cudaEventRecord(b, s));
    OK(cudaEventRecord(nt, s));
    EXPECT_ERR(cudaEventElapsedTime(&ms, a, b), cudaErrorNotReady);
    EXPECT_ERR(cudaEventElapsedTime(&ms, a, fresh), cudaErrorInvalidResourceHandle); /* unrecorded */
    sleep_ms(100);
    gate = 1;
    OK(cudaEventSynchronize(b));
    OK(cudaEventElapsedTime(&ms, a, b));
    printf("elapsed %.1f ms\n", ms);
    EXPECT(ms >= 90 && ms < 5000);
    EXPECT_ERR(cudaEventElapsedTime(&ms, a, nt), cudaErrorInvalidResourceHandle); /* timing disabled */
    EXPECT_ERR(cudaEventElapsedTime(nullptr, a, b), cudaErrorInvalidValue);
    /* re-recording moves the event */
    gate = 0;
    OK(launch(k_gate, s));
    OK(cudaEventRecord(a, s));
    EXPECT_ERR(cudaEventQuery(a), cudaErrorNotReady);
    gate = 1;
    OK(cudaEventSynchronize(a));
    /* destroyed handles */
    OK(cudaEventDestroy(fresh));
    EXPECT_ERR(cudaEventQuery(fresh), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventSynchronize(fresh), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventRecord(fresh, s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventDestroy(fresh), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamWaitEvent(s, fresh, 0), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaEventQuery((cudaEvent_t)0x1234), cudaErrorInvalidResourceHandle);
    /* an event of device 0 cannot be recorded on a stream of device 1 */
    cudaStream_t s1;
    OK(cudaSetDevice(1));
    OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    EXPECT_ERR(cudaEventRecord(a, s1), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(launch(k_fill, s, nullptr, 0, 0), cudaErrorInvalidResourceHandle); /* s is device 0's */
    /* but a stream of device 1 may wait for it */
    int *d1 = nullptr, h[8] = {0};
    OK(cudaMalloc((void **)&d1, sizeof h));
    OK(cudaSetDevice(0));
    gate = 0;
    OK(launch(k_gate, s));
    OK(cudaEventRecord(a, s));
    OK(cudaStreamWaitEvent(s1, a, 0));
    OK(cudaMemsetAsync(d1, 0, sizeof h, s1));
    sleep_ms(50);
    EXPECT_ERR(cudaStreamQuery(s1), cudaErrorNotReady);
    gate = 1;
    OK(cudaStreamSynchronize(s1));
    OK(cudaEventDestroy(a));
    OK(cudaEventDestroy(b));
    OK(cudaEventDestroy(nt));
    OK(cudaStreamDestroy(s1));
    OK(cudaStreamDestroy(s));
}

static void case_stream_handles()
{
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    EXPECT_ERR(cudaStreamCreateWithFlags(&s, 0x10), cudaErrorInvalidValue);
    int *d = nullptr, h[16] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    /* destroy returns at once; queued work still runs */
    gate = 0;
    OK(launch(k_gate, s));
    OK(launch(k_fill, s, d, 16, 9));
    OK(cudaStreamDestroy(s));
    EXPECT_ERR(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamQuery(s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaMemsetAsync(d, 0, sizeof h, s), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(launch(k_fill, s, d, 16, 1), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaStreamSynchronize((cudaStream_t)0x999), cudaErrorInvalidResourceHandle);
    gate = 1;
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 9));
    OK(cudaFree(d));
}

static void case_peer_all() /* DEVTENSOR_EMULATE_CUDA=3 (peer: all) */
{
    int can = -1;
    OK(cudaDeviceCanAccessPeer(&can, 0, 1));
    EXPECT(can == 1);
    OK(cudaDeviceCanAccessPeer(&can, 1, 1));
    EXPECT(can == 0);
    EXPECT_ERR(cudaDeviceCanAccessPeer(&can, 0, 3), cudaErrorInvalidDevice);
    EXPECT(!emu_runtime_peer_enabled(0, 1));
    OK(cudaDeviceEnablePeerAccess(1, 0));
    EXPECT(emu_runtime_peer_enabled(0, 1) && !emu_runtime_peer_enabled(1, 0));
    EXPECT_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
    EXPECT_ERR(cudaGetLastError(), cudaErrorPeerAccessAlreadyEnabled);
    EXPECT_ERR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice); /* itself */
    EXPECT_ERR(cudaDeviceEnablePeerAccess(2, 1), cudaErrorInvalidValue);  /* flags */
    OK(cudaDeviceDisablePeerAccess(1));
    EXPECT_ERR(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
}

static void peer_copy()
{
    int *d0 = nullptr, *d1 = nullptr, h[32];
    for (int i = 0; i < 32; i++)
        h[i] = 3 * i;
    OK(cudaMalloc((void **)&d0, sizeof h));
    OK(cudaSetDevice(1));
    OK(cudaMalloc((void **)&d1, sizeof h));
    OK(cudaSetDevice(0));
    OK(cudaMemcpy(d0, h, sizeof h, cudaMemcpyHostToDevice));
    OK(cudaMemcpyPeerAsync(d1, 1, d0, 0, sizeof h, 0));
    EXPECT_ERR(cudaMemcpyPeerAsync(d1, 0, d0, 0, sizeof h, 0), cudaErrorInvalidValue); /* d1 is not device 0's */
    EXPECT_ERR(cudaMemcpyPeerAsync(d1, 5, d0, 0, sizeof h, 0), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaMemcpyPeerAsync(h, 1, d0, 0, sizeof h, 0), cudaErrorInvalidValue);
    OK(cudaStreamSynchronize(0));
    int back[32] = {0};
    OK(cudaSetDevice(1));
    OK(cudaMemcpy(back, d1, sizeof back, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(back, h, sizeof h) == 0);
}

static void case_peer_none() /* DEVTENSOR_EMULATE_CUDA=2 DEVTENSOR_EMULATE_CUDA_PEER=none */
{
    int can = -1;
    OK(cudaDeviceCanAccessPeer(&can, 0, 1));
    EXPECT(can == 0);
    EXPECT_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessUnsupported);
    peer_copy(); /* copies between devices work without peer access */
}

static void case_peer_pairs() /* DEVTENSOR_EMULATE_CUDA=3 DEVTENSOR_EMULATE_CUDA_PEER=0-1,2-0 */
{
    int can = -1;
    OK(cudaDeviceCanAccessPeer(&can, 0, 1));
    EXPECT(can == 1);
    OK(cudaDeviceCanAccessPeer(&can, 1, 0));
    EXPECT(can == 0);
    OK(cudaDeviceCanAccessPeer(&can, 2, 0));
    EXPECT(can == 1);
    OK(cudaSetDevice(2));
    OK(cudaDeviceEnablePeerAccess(0, 0));
    EXPECT_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessUnsupported);
    OK(cudaSetDevice(0));
    peer_copy();
}

static void case_bad_peer() /* DEVTENSOR_EMULATE_CUDA=2 DEVTENSOR_EMULATE_CUDA_PEER=0-5 */
{
    int n = -1;
    EXPECT_ERR(cudaGetDeviceCount(&n), cudaErrorInitializationError);
    EXPECT(strstr(cudaGetErrorString(cudaErrorInitializationError), "DEVTENSOR_EMULATE_CUDA_PEER") != nullptr);
}

static void case_pinned() /* DEVTENSOR_EMULATE_CUDA_PINNED=1M */
{
    void *p = nullptr, *q = nullptr;
    struct cudaPointerAttributes at;
    OK(cudaHostAlloc(&p, 4096, cudaHostAllocPortable));
    EXPECT(p != nullptr);
    OK(cudaPointerGetAttributes(&at, (char *)p + 100));
    EXPECT(at.type == cudaMemoryTypeHost && at.device == 0 && at.hostPointer == (char *)p + 100);
    EXPECT(at.devicePointer == (char *)p + 100);
    memset(p, 1, 4096); /* host memory: the host may touch it */
    EXPECT_ERR(cudaHostAlloc(&q, 2u << 20, 0), cudaErrorMemoryAllocation);
    EXPECT_ERR(cudaHostAlloc(&q, 64, 0x80), cudaErrorInvalidValue);
    std::vector<char> pageable(8192);
    OK(cudaPointerGetAttributes(&at, pageable.data()));
    EXPECT(at.type == cudaMemoryTypeUnregistered && at.device == -2 && at.devicePointer == nullptr);
    OK(cudaHostRegister(pageable.data(), 4096, cudaHostRegisterDefault));
    OK(cudaPointerGetAttributes(&at, pageable.data() + 10));
    EXPECT(at.type == cudaMemoryTypeHost);
    OK(cudaPointerGetAttributes(&at, pageable.data() + 5000));
    EXPECT(at.type == cudaMemoryTypeUnregistered);
    EXPECT_ERR(cudaHostRegister(pageable.data() + 100, 100, 0), cudaErrorHostMemoryAlreadyRegistered);
    EXPECT_ERR(cudaHostRegister(p, 100, 0), cudaErrorHostMemoryAlreadyRegistered);
    EXPECT_ERR(cudaHostRegister(pageable.data(), 0, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFreeHost(pageable.data()), cudaErrorInvalidValue);
    OK(cudaHostUnregister(pageable.data()));
    EXPECT_ERR(cudaHostUnregister(pageable.data()), cudaErrorHostMemoryNotRegistered);
    void *d = nullptr;
    OK(cudaMalloc(&d, 64));
    EXPECT_ERR(cudaHostRegister(d, 64, 0), cudaErrorInvalidValue);
    EXPECT_ERR(cudaFreeHost(d), cudaErrorInvalidValue);
    OK(cudaFree(d));
    EXPECT_ERR(cudaPointerGetAttributes(&at, d), cudaErrorInvalidValue); /* freed device memory */
    /* pinned memory round trip through the device */
    OK(cudaMalloc(&d, 4096));
    OK(cudaMemcpyAsync(d, p, 4096, cudaMemcpyHostToDevice, 0));
    OK(cudaMemsetAsync(p, 0, 4096, 0) == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);
    OK(cudaGetLastError() == cudaErrorInvalidValue ? cudaSuccess : cudaErrorUnknown);
    memset(q = malloc(4096), 0, 4096);
    OK(cudaMemcpyAsync(q, d, 4096, cudaMemcpyDeviceToHost, 0));
    OK(cudaStreamSynchronize(0));
    EXPECT(memcmp(p, q, 4096) == 0);
    free(q);
    OK(cudaFreeHost(p));
    EXPECT_ERR(cudaFreeHost(p), cudaErrorInvalidValue);
    OK(cudaFreeHost(nullptr));
    OK(cudaHostAlloc(&p, 1u << 20, 0)); /* the budget is back */
    OK(cudaFreeHost(p));
}

static void case_kernels() /* DEVTENSOR_EMULATE_CUDA=2 */
{
    int *d = nullptr, h[16] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(launch(k_fill, 0, d, 16, 4));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 4));
    /* a synchronous launch error: the call's result and the last error, not sticky */
    void *args[] = {&d, &d, &d};
    EXPECT_ERR(cudaLaunchKernel((const void *)nullptr, dim3(1), dim3(1), args, 0, 0), cudaErrorInvalidDeviceFunction);
    EXPECT_ERR(cudaLaunchKernel(k_fill, dim3(1), dim3(2048), args, 0, 0), cudaErrorInvalidConfiguration);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidConfiguration);
    OK(cudaGetLastError());
    OK(cudaDeviceSynchronize());
    /* an asynchronous fault: the launch succeeds, the next synchronising
     * call reports it, and it sticks to the device */
    gate = 0;
    OK(launch(k_gate, 0));
    OK(launch(k_fault, 0));
    OK(launch(k_fill, 0, d, 16, 8)); /* queued after the fault: never runs */
    gate = 1;
    EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaStreamSynchronize(0), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    void *more = nullptr;
    EXPECT_ERR(cudaMalloc(&more, 16), cudaErrorIllegalAddress);
    EXPECT_ERR(launch(k_fill, 0, d, 16, 8), cudaErrorIllegalAddress);
    EXPECT_ERR(cudaGetLastError(), cudaErrorIllegalAddress); /* the thread's slot */
    /* device 1 is unaffected */
    OK(cudaSetDevice(1));
    OK(cudaGetLastError());
    int *d1 = nullptr;
    OK(cudaMalloc((void **)&d1, sizeof h));
    OK(launch(k_fill, 0, d1, 16, 2));
    OK(cudaMemcpy(h, d1, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(all_equal(h, 16, 2));
}

static void case_strings()
{
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorNotReady), "device not ready") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidResourceHandle), "invalid resource handle") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorPeerAccessAlreadyEnabled), "peer access is already enabled") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
    EXPECT(strcmp(cudaGetErrorString((cudaError_t)12345), "unrecognized error code") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorNoDevice), "cudaErrorNoDevice") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInitializationError), "initialization error") == 0);
}

static void case_last_error_threads()
{
    EXPECT_ERR(cudaSetDevice(7), cudaErrorInvalidDevice);
    cudaError_t other = cudaErrorUnknown;
    std::thread([&] { other = cudaGetLastError(); }).join();
    EXPECT(other == cudaSuccess); /* the last error is per thread */
    EXPECT_ERR(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDevice);
    OK(cudaGetLastError());
}

static void case_poison() /* DEVTENSOR_EMULATE_CUDA_POISON=1 */
{
    int *a = nullptr, *b = nullptr;
    unsigned char h[256];
    OK(cudaMalloc((void **)&a, 256));
    OK(cudaMemcpy(h, a, 256, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 0xCB && h[255] == 0xCB);
    OK(cudaMemsetAsync(a, 0, 256, 0));
    OK(cudaFree(a));
    OK(cudaMalloc((void **)&b, 256));
    EXPECT(a == b); /* first fit: the freed block again */
    OK(cudaMemcpy(h, b, 256, cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 0xCB);
    OK(cudaFree(b));
}

static void case_many_streams() /* workers under load: many streams, copies interleaved with waits */
{
    const int ns = 8, n = 4096;
    cudaStream_t s[ns];
    cudaEvent_t e[ns];
    int *d = nullptr;
    std::vector<int> h(n * ns), src(n);
    for (int i = 0; i < n; i++)
        src[i] = i;
    OK(cudaMalloc((void **)&d, sizeof(int) * n * ns));
    for (int i = 0; i < ns; i++) {
        OK(cudaStreamCreateWithFlags(&s[i], i % 2 ? cudaStreamNonBlocking : cudaStreamDefault));
        OK(cudaEventCreateWithFlags(&e[i], cudaEventDisableTiming));
    }
    OK(cudaMemcpyAsync(d, src.data(), sizeof(int) * n, cudaMemcpyHostToDevice, s[0]));
    OK(cudaEventRecord(e[0], s[0]));
    for (int i = 1; i < ns; i++) { /* a chain: each stream copies its predecessor's block */
        OK(cudaStreamWaitEvent(s[i], e[i - 1], 0));
        OK(cudaMemcpyAsync(d + n * i, d + n * (i - 1), sizeof(int) * n, cudaMemcpyDeviceToDevice, s[i]));
        OK(cudaEventRecord(e[i], s[i]));
    }
    OK(cudaStreamWaitEvent(0, e[ns - 1], 0));
    OK(cudaMemcpyAsync(h.data(), d, sizeof(int) * n * ns, cudaMemcpyDeviceToHost, 0));
    OK(cudaStreamSynchronize(0));
    bool good = true;
    for (int i = 0; i < n * ns; i++)
        good = good && h[i] == i % n;
    EXPECT(good);
    for (int i = 0; i < ns; i++) {
        OK(cudaEventDestroy(e[i]));
        OK(cudaStreamDestroy(s[i]));
    }
    OK(cudaFree(d));
}


static void case_d2h_unsynchronised() { d2h_case(false); }
static void case_d2h_synchronised() { d2h_case(true); }

static const std::vector<Case> cases = {
    {"devices", case_devices},
    {"bad_count", case_bad_count},
    {"zero_devices", case_zero_devices},
    {"budget", case_budget},
    {"kinds", case_kinds},
    {"d2h_unsynchronised", case_d2h_unsynchronised},
    {"d2h_synchronised", case_d2h_synchronised},
    {"protected", case_protected},
    {"host_deref", case_host_deref},
    {"no_bounds_check", case_no_bounds_check},
    {"kernel_after_free", case_kernel_after_free},
    {"worker_access", case_worker_access},
    {"stream_order", case_stream_order},
    {"legacy_stream", case_legacy_stream},
    {"events", case_events},
    {"stream_handles", case_stream_handles},
    {"peer_all", case_peer_all},
    {"peer_none", case_peer_none},
    {"peer_pairs", case_peer_pairs},
    {"bad_peer", case_bad_peer},
    {"pinned", case_pinned},
    {"kernels", case_kernels},
    {"strings", case_strings},
    {"last_error_threads", case_last_error_threads},
    {"poison", case_poison},
    {"many_streams", case_many_streams},
};

int main(int argc, char **argv)
{
    return run_case(argc, argv, cases);
}
