/* emu_test.h - what the test programs of the emulated CUDA libraries share
 * (emu_blas_test, emu_solver_test, emu_fft_test): the checking macros, the
 * case table and the main that runs one case ("PROGRAM CASE" prints "PASS
 * CASE" and exits 0, or prints what failed and exits 1; no argument lists
 * the cases), and a kernel half that launches nothing (the libraries queue
 * their work with emu_runtime_enqueue, not as kernels). */
#ifndef DT_EMU_TEST_H
#define DT_EMU_TEST_H

#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

inline int failures = 0; /* what failed in this run */

#define EXPECT(cond)                                                                             \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                               \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)
#define EXPECT_ERR(call, code)                                                                   \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != (code)) {                                                                      \
            printf("FAIL %s:%d: %s gave %d (%s), wanted %s\n", __FILE__, __LINE__, #call, (int)e_, \
                   cudaGetErrorString(e_), #code);                                               \
            failures++;                                                                          \
        }                                                                                        \
    } while (0)
#define OK(call) EXPECT_ERR(call, cudaSuccess)

struct Case {
    std::string name;
    std::function<void()> fn;
};

/* main's work: run the case argv[1] of cases, or list them */
inline int run_case(int argc, char **argv, const std::vector<Case> &cases)
{
    if (argc != 2) {
        for (const Case &c : cases)
            printf("%s\n", c.name.c_str());
        return 0;
    }
    for (const Case &c : cases)
        if (c.name == argv[1]) {
            c.fn();
            if (failures == 0)
                printf("PASS %s\n", c.name.c_str());
            fflush(stdout);
            return failures == 0 ? 0 : 1;
        }
    printf("no case %s\n", argv[1]);
    return 2;
}

/* The kernel half (emu_launch.h) refusing every launch: in the one file of
 * a program that has main. */
#define EMU_TEST_NO_KERNELS                                                                      \
    struct emu_launch;                                                                           \
    extern "C" cudaError_t emu_launch_prepare(const void *, dim3, dim3, void **, size_t,         \
                                              emu_launch **out)                                  \
    {                                                                                            \
        *out = nullptr;                                                                          \
        return cudaErrorInvalidDeviceFunction;                                                   \
    }                                                                                            \
    extern "C" cudaError_t emu_launch_run(emu_launch *) { return cudaErrorInvalidDeviceFunction; } \
    extern "C" void emu_launch_free(emu_launch *) {}

#endif /* DT_EMU_TEST_H */
