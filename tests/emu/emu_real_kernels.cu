/* emu_real_kernels.cu - the backend's own elementwise kernels
 * (csrc/cuda/cuda_loops_arith.cu, compiled as host C++) run on the CPU
 * emulation: register_arith() fills a Registry as cuda_loops.cu's does,
 * and the KernelSet addresses are launched through cudaLaunchKernel with
 * the launcher's argument structs.  This shows the registry design on the
 * real kernels; the launcher itself (cuda_loops.cu) needs the emulated
 * runtime, a later piece.
 *
 *     emu_real_kernels    prints info lines and PASS or FAIL
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#include <vector>

#include "cuda_loops.cuh"
#include "emu_launch.h"

namespace {

int g_failures = 0;

#define CHECK(cond, ...)                   \
    do {                                   \
        if (!(cond)) {                     \
            printf("FAIL " __VA_ARGS__);   \
            printf("\n");                  \
            g_failures++;                  \
        }                                  \
    } while (0)

/* Note [Offset calculator] in cuda_loops.cu */
void divider(uint32_t d, uint32_t *mul, uint32_t *shift)
{
    uint32_t s = 0;
    while (s < 31 && ((uint64_t)1 << s) < d)
        s++;
    *mul = (uint32_t)(((((uint64_t)1 << s) - d) << 32) / d + 1);
    *shift = s;
}

/* float32 add, every operand contiguous: k_contig, 4 floats per thread and
 * a tail of 3 */
void contig_add(const KernelSet &k)
{
    const int64_t n = 1003;
    std::vector<float> a(n), b(n), out(n + 4, -1.0f);
    for (int64_t i = 0; i < n; i++) {
        a[i] = 0.5f * i;
        b[i] = 1000.0f - i;
    }
    OperandArgs args;
    memset(&args, 0, sizeof args);
    args.data[0] = (char *)out.data();
    args.data[1] = (char *)a.data();
    args.data[2] = (char *)b.data();
    int64_t nn = n;
    void *argv[] = {&args, &nn};
    cudaError_t e = cudaLaunchKernel(k.contig, dim3(2), dim3(kThreads), argv, 0, 0);
    CHECK(e == cudaSuccess, "k_contig add float32: error %d %s", (int)e, emu_last_fault());
    for (int64_t i = 0; i < n; i++)
        CHECK(out[i] == a[i] + b[i], "add float32 [%lld]: %g", (long long)i, out[i]);
    CHECK(out[n] == -1.0f, "wrote past the end");
}

/* int32 multiply by a host scalar into every other element: k_strided
 * with the 32-bit calculator */
void strided_mul(const KernelSet &k)
{
    const uint32_t n = 777;
    std::vector<int32_t> a(n), out(2 * n, -7);
    for (uint32_t i = 0; i < n; i++)
        a[i] = (int32_t)i - 300;
    OperandArgs args;
    memset(&args, 0, sizeof args);
    args.data[0] = (char *)out.data();
    args.data[1] = (char *)a.data();
    args.scalar_mask = 1u << 2;
    int32_t three = 3;
    memcpy(args.scalar[2].bytes, &three, sizeof three);
    Calc32 c;
    memset(&c, 0, sizeof c);
    c.ndim = 1;
    c.size[0] = n;
    divider(n, &c.mul[0], &c.shift[0]);
    c.stride[0][0] = 2 * (int32_t)sizeof(int32_t);
    c.stride[1][0] = (int32_t)sizeof(int32_t);
    uint32_t nn = n;
    void *argv[] = {&args, &c, &nn};
    cudaError_t e = cudaLaunchKernel(k.strided32, dim3(3), dim3(kThreads), argv, 0, 0);
    CHECK(e == cudaSuccess, "k_strided multiply int32: error %d %s", (int)e, emu_last_fault());
    for (uint32_t i = 0; i < n; i++) {
        CHECK(out[2 * i] == 3 * a[i], "multiply int32 [%u]: %d", i, out[2 * i]);
        CHECK(out[2 * i + 1] == -7, "multiply int32 wrote a gap [%u]", i);
    }
}

} // namespace

int main()
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    static Registry r;
    memset(&r, 0, sizeof r);
    register_arith(r);
    const KernelSet &add = r.ops[DT_OP_ADD][DT_FLOAT32], &mul = r.ops[DT_OP_MUL][DT_INT32];
    CHECK(add.contig != nullptr && mul.strided32 != nullptr, "no kernels registered");
    contig_add(add);
    strided_mul(mul);
    size_t n = emu_kernel_count(), launched = 0;
    for (size_t i = 0; i < n; i++)
        if (emu_kernel_launches(i) > 0) {
            launched++;
            printf("info launched %s %llu\n", emu_kernel_name(i), emu_kernel_launches(i));
        }
    printf("info registered=%zu\ninfo launched=%zu\n", n, launched);
    CHECK(launched == 2, "%zu kernels launched", launched);
    if (g_failures == 0)
        printf("PASS\n");
    return g_failures == 0 ? 0 : 1;
}
