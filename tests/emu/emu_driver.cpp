/* emu_driver.cpp - runs one case of the CPU emulation's tests
 * (tests/test_emu_kernels.py builds and runs it, one process per case):
 *
 *     emu_driver CASE [ORDER]
 *
 * ORDER is forward, reverse or random:SEED (else $DEVTENSOR_EMULATE_ORDER).
 * It prints `info KEY=VALUE` lines and then PASS, or FAIL and why; the exit
 * status is 0 for PASS, 1 for FAIL, 2 for an unknown case.
 *
 * Note [Emulation speed]
 * `emu_driver bench`, forward order, best of 3, one OS thread (g++ 12
 * -O2, a 2-core VM with other work running, load about 1):
 *                                      x86-64 switch   ucontext
 *   y = a*x + b over 1e6 floats,           ~48 ms        ~450 ms
 *   3907 blocks of 256 threads
 *   the same elements summed: shuffles    ~285 ms       ~2250 ms
 *   and shared memory (k_reduce_shfl)
 * The first is about one switch per thread (Note [Handing on] in
 * emu_fiber.cpp); the reduction adds ten warp rendezvous and a barrier
 * per thread, a switch each.  ucontext's cost is swapcontext's
 * sigprocmask system call on every switch: 5 to 10 times slower, as
 * DESIGN.md section 7 says.  Before skipping unchanged FP control words
 * and handing on between fibers the asm figures were ~65 and ~550 ms.
 */
#include "emu_kernels.h"
#include "emu_launch.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

namespace {

int g_failures = 0;

void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    g_failures++;
}

#define CHECK(cond, ...)          \
    do {                          \
        if (!(cond))              \
            fail(__VA_ARGS__);    \
    } while (0)

#define CHECK_OK(e) CHECK((e) == cudaSuccess, "%s: error %d: %s", #e, (int)(e), emu_last_fault())

/* ---------------------------------------------------------------------------
 * Elementwise and built-ins.
 */
bool axpb_ok(int64_t n, unsigned grid, unsigned block)
{
    std::vector<float> x(n), y(n, -1.0f);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)(i % 1000);
    cudaError_t e = launch_axpb(x.data(), y.data(), 2.0f, 1.0f, n, grid, block);
    if (e != cudaSuccess)
        return false;
    for (int64_t i = 0; i < n; i++)
        if (y[i] != 2.0f * x[i] + 1.0f)
            return false;
    return true;
}

void case_axpb()
{
    CHECK(axpb_ok(100003, 37, 256), "grid-stride y = 2x + 1 over 100003 elements (37 x 256): %s", emu_last_fault());
    CHECK(axpb_ok(1000, 1, 1), "one thread");
    CHECK(axpb_ok(5000, 3, 1024), "1024-thread blocks");
    std::vector<float> x(1000, 3.0f), y(1000, 0.0f);
    launch_axpb_chevrons(x.data(), y.data(), 2.0f, 1.0f, 1000);
    bool ok = true;
    for (float v : y)
        ok = ok && v == 7.0f;
    CHECK(ok, "DT_LAUNCH (<<<>>>) path");
}

void case_builtins()
{
    dim3 grid(3, 2, 2), block(4, 3, 2);
    unsigned per = 24, blocks = 12;
    std::vector<unsigned> out(per * blocks, 0xffffffffu);
    CHECK_OK(launch_builtins(out.data(), grid, block));
    for (unsigned bz = 0; bz < 2; bz++)
        for (unsigned by = 0; by < 2; by++)
            for (unsigned bx = 0; bx < 3; bx++)
                for (unsigned tz = 0; tz < 2; tz++)
                    for (unsigned ty = 0; ty < 3; ty++)
                        for (unsigned tx = 0; tx < 4; tx++) {
                            unsigned b = bx + 3 * (by + 2 * bz), t = tx + 4 * (ty + 3 * tz);
                            unsigned want = tx | ty << 4 | tz << 8 | bx << 12 | by << 16 | bz << 20 | 32u << 24;
                            CHECK(out[b * per + t] == want, "block (%u,%u,%u) thread (%u,%u,%u): %#x, want %#x", bx,
                                  by, bz, tx, ty, tz, out[b * per + t], want);
                        }
}

/* ---------------------------------------------------------------------------
 * Reductions.
 */
void case_reduce_shfl()
{
    const int64_t n = 100000;
    std::vector<float> x(n);
    double want = 0;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)(i % 17) - 8.0f;
        want += x[i];
    }
    for (unsigned block : {256u, 96u, 1024u, 32u}) {
        unsigned grid = 13;
        std::vector<double> sums(grid, NAN);
        CHECK_OK(launch_reduce_shfl(x.data(), sums.data(), n, grid, block));
        double got = 0;
        for (double s : sums)
            got += s;
        CHECK(got == want, "block %u: sum %g, want %g", block, got, want);
    }
}

/* prints correct=0|1: the test compares orders */
void case_reduce_tree(int with_barrier)
{
    const unsigned grid = 64;
    std::vector<int> x(grid * 256), sums(grid, -1), want(grid, 0);
    for (size_t i = 0; i < x.size(); i++) {
        x[i] = (int)((i * 7919u) % 1000u);
        want[i / 256] += x[i];
    }
    CHECK_OK(launch_reduce_tree(x.data(), sums.data(), grid, with_barrier));
    int wrong = 0;
    for (unsigned b = 0; b < grid; b++)
        wrong += sums[b] != want[b];
    printf("info correct=%d\ninfo wrong_blocks=%d\n", wrong == 0, wrong);
}

void case_dyn_shared()
{
    const unsigned grid = 5, block = 128;
    std::vector<int> x(grid * block), y(grid * block, -1);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = (int)i * 3;
    CHECK_OK(launch_reverse_dyn(x.data(), y.data(), grid, block, block * sizeof(int)));
    for (unsigned b = 0; b < grid; b++)
        for (unsigned t = 0; t < block; t++)
            CHECK(y[b * block + t] == x[b * block + block - 1 - t], "block %u thread %u", b, t);
}

void case_sync_reduce()
{
    int out[4] = {-1, -1, -1, -1};
    CHECK_OK(launch_sync_reduce(out, 100));
    CHECK(out[0] == 34 && out[1] == 0 && out[2] == 1 && out[3] == 1,
          "__syncthreads_count/and/or: %d %d %d %d, want 34 0 1 1", out[0], out[1], out[2], out[3]);
}

void case_early_exit()
{
    std::vector<int> out(256, -1);
    CHECK_OK(launch_early_exit(out.data(), 100));
    for (int t = 0; t < 256; t++)
        CHECK(out[t] == (t < 100 ? 99 - t : -1), "thread %d: %d", t, out[t]);
}

/* ---------------------------------------------------------------------------
 * Warp intrinsics, against the CUDA Programming Guide's definitions.
 */
int ref_shuffle(int kind, const int *in, int l, int w, int arg)
{
    int seg = l / w * w;
    switch (kind) {
    case 0: return in[seg + arg % w];
    case 1: return l - seg >= arg ? in[l - arg] : in[l];
    case 2: return l - seg + arg < w ? in[l + arg] : in[l];
    default: {
        int j = l ^ arg;
        return j < seg + w ? in[j] : in[l];
    }
    }
}

void case_shuffles()
{
    int in[32], out[4 * 32];
    for (int l = 0; l < 32; l++)
        in[l] = 100 + l * l;
    const char *names[4] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync"};
    int checked = 0;
    for (int w = 1; w <= 32; w *= 2)
        for (int arg : {0, 1, 2, 3, 5, 7, 8, 16, 31}) {
            memset(out, 0, sizeof out);
            cudaError_t e = launch_shuffles(in, out, w, arg);
            CHECK_OK(e);
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 32; l++) {
                    int want = ref_shuffle(k, in, l, w, arg);
                    CHECK(out[k * 32 + l] == want, "%s width %d arg %d lane %d: %d, want %d", names[k], w, arg, l,
                          out[k * 32 + l], want);
                    checked++;
                }
        }
    printf("info checked=%d\n", checked);
    /* a width that is not a power of two is a fault */
    cudaError_t e = launch_shuffles(in, out, 12, 1);
    CHECK(e == cudaErrorIllegalInstruction && strstr(emu_last_fault(), "width 12"), "width 12: %d %s", (int)e,
          emu_last_fault());

    double d[32];
    long long ll[32];
    float f[32];
    int half[32];
    CHECK_OK(launch_shuffle_types(d, ll, f, half));
    for (int l = 0; l < 32; l++) {
        CHECK(d[l] == 1.5 * (l ^ 1), "double xor lane %d: %g", l, d[l]);
        CHECK(ll[l] == (long long)(31 - l) << 40, "long long idx lane %d", l);
        CHECK(f[l] == 0.25f * (l + 3 < 32 ? l + 3 : l), "float down lane %d: %g", l, f[l]);
        CHECK(half[l] == (l ^ 8), "half-warp masks, lane %d: %d", l, half[l]);
    }
}

void case_votes()
{
    unsigned out[16];
    memset(out, 0xee, sizeof out);
    CHECK_OK(launch_votes(out, 64));
    for (int w = 0; w < 2; w++) {
        const unsigned *o = out + w * 8;
        CHECK(o[0] == 0x49249249u, "warp %d ballot %#x", w, o[0]);
        CHECK(o[1] == 0 && o[2] == 1 && o[3] == 0 && o[4] == 1, "warp %d all/any: %u %u %u %u", w, o[1], o[2], o[3],
              o[4]);
        CHECK(o[5] == 0xffffu && o[6] == 1, "warp %d half-warp ballot %#x all %u", w, o[5], o[6]);
        CHECK(o[7] == 0xffffffffu, "warp %d __activemask %#x", w, o[7]);
    }
}

void case_syncwarp_exited()
{
    std::vector<int> out(48, -1);
    CHECK_OK(launch_syncwarp_exited(out.data()));
    for (int t = 0; t < 48; t++) {
        int l = t % 32, want = l >= 20 ? -1 : t - l + (l ^ 1);
        CHECK(out[t] == want, "thread %d: %d, want %d", t, out[t], want);
    }
}

void case_atomics()
{
    const unsigned grid = 4, block = 64, n = grid * block;
    AtomicCells c;
    memset(&c, 0, sizeof c);
    c.i_max = -1000;
    c.i_min = 1000;
    c.u_min = 0xffffffffu;
    c.ll_max = -1;
    c.ull_min = ~0ull;
    c.i_and = -1;
    c.u_dec = 0;
    CHECK_OK(launch_atomics(&c, grid, block));
    CHECK(c.i_add == (int)n, "int add %d", c.i_add);
    CHECK(c.i_sub == -2 * (int)n, "int sub %d", c.i_sub);
    CHECK(c.u_add == 3 * n, "unsigned add %u", c.u_add);
    CHECK(c.u_sub == 0u - n, "unsigned sub %u", c.u_sub);
    CHECK(c.ull_add == (unsigned long long)n << 33, "ull add %llu", c.ull_add);
    CHECK(c.f_add == 0.5f * n, "float add %g", c.f_add);
    CHECK(c.d_add == 0.25 * n, "double add %g", c.d_add);
    CHECK(c.i_max == (int)n - 1 - 100, "int max %d", c.i_max);
    CHECK(c.i_min == 100 - ((int)n - 1), "int min %d", c.i_min);
    CHECK(c.u_max == n - 1, "unsigned max %u", c.u_max);
    CHECK(c.u_min == 5u, "unsigned min %u", c.u_min);
    CHECK(c.ll_max == (long long)(n - 1) << 35, "long long max %lld", c.ll_max);
    CHECK(c.ull_min == 7ull << 34, "ull min %llu", c.ull_min);
    CHECK(c.i_and == (int)0x80000000u, "int and %#x", (unsigned)c.i_and);
    CHECK(c.u_or == 0xffffffffu, "unsigned or %#x", c.u_or);
    /* 256 threads flip bit t % 64: each bit 4 times */
    CHECK(c.ull_xor == 0, "ull xor %#llx", c.ull_xor);
    CHECK(c.i_exch == 42 && c.f_exch == 2.5f && c.ull_exch == 7, "exch");
    /* inc wraps at 9: 256 increments from 0 end at 256 % 10; dec from 0
     * goes to 9, 8, ... */
    CHECK(c.u_inc == n % 10, "atomicInc %u", c.u_inc);
    CHECK(c.u_dec == (10 - n % 10) % 10, "atomicDec %u", c.u_dec);
    CHECK(c.ull_cas == 2ull * n && c.i_cas == (int)n, "CAS loops %llu %d", c.ull_cas, c.i_cas);
}

/* ---------------------------------------------------------------------------
 * Faults: the launch fails with the error, and the process carries on.
 */
void fault_case(int which, unsigned block, cudaError_t want, const char *words)
{
    std::vector<int> out(1024, 0);
    cudaError_t e = launch_fault(which, out.data(), block);
    printf("info error=%d\n", (int)e);
    printf("info fault=%s\n", emu_last_fault());
    CHECK(e == want, "error %d, want %d", (int)e, (int)want);
    CHECK(strstr(emu_last_fault(), words) != nullptr, "the message lacks \"%s\"", words);
    CHECK(axpb_ok(10000, 8, 256), "a launch after the fault");
    CHECK(axpb_ok(1000, 2, 512), "a larger block after the fault");
}

void case_config()
{
    struct {
        dim3 grid, block;
        size_t shared;
        cudaError_t want;
    } cases[] = {
        {dim3(1), dim3(1024), 0, cudaSuccess},
        {dim3(1), dim3(1025), 0, cudaErrorInvalidConfiguration},
        {dim3(1), dim3(32, 33), 0, cudaErrorInvalidConfiguration},
        {dim3(1), dim3(1, 1, 64), 0, cudaSuccess},
        {dim3(1), dim3(1, 1, 65), 0, cudaErrorInvalidConfiguration},
        {dim3(1), dim3(0), 0, cudaErrorInvalidConfiguration},
        {dim3(0), dim3(1), 0, cudaErrorInvalidConfiguration},
        {dim3(1, 65535), dim3(1), 0, cudaSuccess},
        {dim3(1, 65536), dim3(1), 0, cudaErrorInvalidConfiguration},
        {dim3(1, 1, 65536), dim3(1), 0, cudaErrorInvalidConfiguration},
        {dim3(1), dim3(32), 48 * 1024, cudaSuccess},
        {dim3(1), dim3(32), 48 * 1024 + 1, cudaErrorInvalidValue},
    };
    for (auto &c : cases) {
        cudaError_t e = launch_nothing(c.grid, c.block, c.shared);
        CHECK(e == c.want, "grid (%u,%u,%u) block (%u,%u,%u) shared %zu: error %d, want %d (%s)", c.grid.x, c.grid.y,
              c.grid.z, c.block.x, c.block.y, c.block.z, c.shared, (int)e, (int)c.want, emu_last_fault());
    }
    cudaError_t e = launch_unregistered();
    CHECK(e == cudaErrorInvalidDeviceFunction, "a host function: error %d", (int)e);
    printf("info fault=%s\n", emu_last_fault());
}

void case_registry()
{
    for (int i = 0; i < 3; i++)
        axpb_ok(100, 1, 32);
    size_t n = emu_kernel_count();
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        printf("info kernel %s launches=%llu\n", emu_kernel_name(i), emu_kernel_launches(i));
        if (strcmp(emu_kernel_name(i), "k_axpb") == 0) {
            found = true;
            CHECK(emu_kernel_launches(i) == 3, "k_axpb launched %llu times", emu_kernel_launches(i));
        }
    }
    CHECK(found, "k_axpb is not registered");
    CHECK(emu_kernel_name(n) == nullptr, "a name past the end");
}

/* ---------------------------------------------------------------------------
 * Note [Emulation speed].
 */
double now_ms()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void case_bench()
{
    const int64_t n = 1000000;
    const unsigned block = 256, grid = (unsigned)((n + block - 1) / block);
    std::vector<float> x(n, 1.0f), y(n);
    std::vector<double> sums(grid);
    double best_axpb = 1e30, best_reduce = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = now_ms();
        CHECK_OK(launch_axpb(x.data(), y.data(), 2.0f, 1.0f, n, grid, block));
        double t1 = now_ms();
        CHECK_OK(launch_reduce_shfl(x.data(), sums.data(), n, grid, block));
        double t2 = now_ms();
        best_axpb = t1 - t0 < best_axpb ? t1 - t0 : best_axpb;
        best_reduce = t2 - t1 < best_reduce ? t2 - t1 : best_reduce;
    }
    double total = 0;
    for (double s : sums)
        total += s;
    CHECK(total == (double)n && y[n - 1] == 3.0f, "bench results");
    printf("info axpb_ms=%.1f\ninfo reduce_ms=%.1f\n", best_axpb, best_reduce);
}

} // namespace

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    if (argc < 2) {
        fprintf(stderr, "usage: emu_driver CASE [forward|reverse|random:SEED]\n");
        return 2;
    }
    if (argc >= 3 && emu_set_order(argv[2]) != 0) {
        fprintf(stderr, "unknown order %s\n", argv[2]);
        return 2;
    }
    std::string c = argv[1];
    if (c == "axpb")
        case_axpb();
    else if (c == "builtins")
        case_builtins();
    else if (c == "reduce_shfl")
        case_reduce_shfl();
    else if (c == "reduce_tree")
        case_reduce_tree(1);
    else if (c == "reduce_tree_nobarrier")
        case_reduce_tree(0);
    else if (c == "dyn_shared")
        case_dyn_shared();
    else if (c == "sync_reduce")
        case_sync_reduce();
    else if (c == "early_exit")
        case_early_exit();
    else if (c == "shuffles")
        case_shuffles();
    else if (c == "votes")
        case_votes();
    else if (c == "syncwarp_exited")
        case_syncwarp_exited();
    else if (c == "atomics")
        case_atomics();
    else if (c == "divergent_barrier")
        fault_case(FAULT_DIVERGENT_BARRIER, 32, cudaErrorIllegalInstruction, "divergent __syncthreads");
    else if (c == "shfl_exited")
        fault_case(FAULT_SHFL_EXITED, 32, cudaErrorIllegalInstruction, "lane 5");
    else if (c == "shfl_absent")
        fault_case(FAULT_SHFL_ABSENT, 48, cudaErrorIllegalInstruction, "only 16 lanes");
    else if (c == "syncwarp_self")
        fault_case(FAULT_SYNCWARP_SELF, 32, cudaErrorIllegalInstruction, "does not name its own lane 0");
    else if (c == "warp_vs_barrier")
        fault_case(FAULT_WARP_VS_BARRIER, 2, cudaErrorIllegalInstruction, "waits at __syncthreads");
    else if (c == "stack_overflow")
        fault_case(FAULT_STACK_OVERFLOW, 8, cudaErrorIllegalAddress, "stack overflow");
    else if (c == "shared_overrun")
        fault_case(FAULT_SHARED_OVERRUN, 65, cudaSuccess, ""); /* AddressSanitizer stops it */
    else if (c == "config")
        case_config();
    else if (c == "registry")
        case_registry();
    else if (c == "bench")
        case_bench();
    else {
        fprintf(stderr, "unknown case %s\n", c.c_str());
        return 2;
    }
    if (g_failures == 0)
        printf("PASS\n");
    return g_failures == 0 ? 0 : 1;
}
