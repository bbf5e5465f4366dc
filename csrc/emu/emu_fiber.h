/* emu_fiber.h - the block scheduler of the CPU emulation: every CUDA
 * thread of a block is a fiber with its own small stack; the blocks of a
 * grid run one after another on the calling OS thread.
 *
 * emu_launch.cpp calls run_grid(); the intrinsics of emu_device.h
 * (barrier, warp_op, ...) reach the scheduler from inside the fibers.
 * How threads are ordered, when barriers complete and what is a fault:
 * the Notes in emu_fiber.cpp.
 */
#ifndef DT_EMU_FIBER_H
#define DT_EMU_FIBER_H

#include <vector_types.h>
#include <driver_types.h>

#include <stddef.h>

#include <string>

namespace dt_emu {

enum class Order { forward, reverse, random };

struct Schedule {
    Order order;
    unsigned long long seed; /* random only */
};

/* "forward", "reverse" or "random:SEED" (SEED decimal or 0x hex); false
 * (and *out untouched) for anything else */
bool parse_schedule(const char *spec, Schedule *out);
/* the order launches use: set_schedule's, else $DEVTENSOR_EMULATE_ORDER's,
 * else forward */
Schedule schedule();
void set_schedule(const Schedule &s);
void reset_schedule(); /* back to $DEVTENSOR_EMULATE_ORDER */

/* One launch, as the scheduler sees it. */
struct Grid {
    dim3 grid, block;
    size_t shared_bytes;      /* dynamic shared memory per block */
    void (*body)(void *ctx);  /* what every thread runs: the kernel call */
    void *ctx;
};

/* Run every block of g, in blockIdx order (x fastest).  cudaSuccess, or
 * the error of the first fault, with what happened in *message. */
cudaError_t run_grid(const Grid &g, std::string *message);

/* "x86-64" or "ucontext": the context switch this build uses */
const char *switch_kind();

/* each fiber's stack: 64 KiB (256 KiB under AddressSanitizer, whose
 * redzones take room), above a guard region that faults */
size_t stack_bytes();

} // namespace dt_emu

#endif /* DT_EMU_FIBER_H */
