/* sim_backend.h - simulated CUDA devices for tests (DEVTENSOR_SIMULATE_CUDA=N).
 *
 * Fills the CUDA slot with N devices whose "device memory" is host memory
 * and whose loops are the CPU's, so CI without a GPU exercises every device
 * rule: indices, identity moves, cross-device errors, peer copies, memory
 * statistics, streams and events.  It says nothing about CUDA kernels.
 */
#ifndef DT_SIM_BACKEND_H
#define DT_SIM_BACKEND_H

#include <stdint.h>
#include "backend.h"

#define DT_SIM_MAX_DEVICES 64

/* The backend with `ndevices` devices of `memory_bytes` each (0: the
 * default, 16 GiB; allocations past it fail like a full GPU). */
const dt_backend_iface *dt_sim_backend_init(int ndevices, uint64_t memory_bytes);

#endif /* DT_SIM_BACKEND_H */
