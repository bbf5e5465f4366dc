/* cpu_backend.h - the CPU backend, always present in devtensor._C. */
#ifndef DT_CPU_BACKEND_H
#define DT_CPU_BACKEND_H

#include "backend.h"

extern const dt_backend_iface dt_cpu_backend;

#endif /* DT_CPU_BACKEND_H */
