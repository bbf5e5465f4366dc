/* emu_launch.cpp - the kernel registry and the launch entry points of the
 * CPU emulation (emu_launch.h).
 *
 * Note [Kernel registry]
 * Kernels are found by address, the one the .cu code hands to
 * cudaLaunchKernel.  DT_KERNEL_ADDRESS(k) (emu_device.h) is
 * kernel_address<&k>(): a template instance per kernel whose
 * function-local static registers, once, the kernel's address, its name
 * (the compiler's spelling of the template argument), a trampoline
 * invoke<P...> that calls the kernel with `void **args` cast back to its
 * parameter types P... (std::index_sequence), and sizeof/alignof of each
 * P.  It returns the plain address, so a KernelSet holds the same
 * `const void *` under both compilers.  Registration happens where the
 * address is taken (KernelSet construction in cuda_loops.cuh, or the
 * first DT_LAUNCH), so a kernel whose address was never taken is not in
 * the registry, and launching an unregistered address is
 * cudaErrorInvalidDeviceFunction, as for a host function on a GPU.
 *
 * emu_launch_prepare copies each argument into one buffer, as the runtime
 * copies kernel parameters at launch: the caller's `args` may go away
 * before the launch runs (an asynchronous stream).  Each thread then
 * receives its own by-value copy from that buffer.
 */
#include "emu_launch.h"

#include "emu_device.h"
#include "emu_fiber.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct KernelInfo {
    const void *addr;
    std::string name;
    dt_emu::Invoker invoke;
    std::vector<size_t> size, align;
    std::atomic<unsigned long long> launches{0};
};

struct Registry {
    std::mutex mu;
    std::vector<KernelInfo *> list; /* never freed: launches may run at exit */
    std::unordered_map<const void *, KernelInfo *> by_addr;
};

Registry &registry()
{
    static Registry *r = new Registry;
    return *r;
}

KernelInfo *find_kernel(const void *addr)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.by_addr.find(addr);
    return it == r.by_addr.end() ? nullptr : it->second;
}

/* "const void* dt_emu::kernel_address() [with auto K = k_add<float>]" -> "k_add<float>" */
std::string kernel_name(const char *pretty)
{
    std::string s = pretty;
    size_t at = s.find("K = ");
    if (at == std::string::npos)
        return s;
    s = s.substr(at + 4);
    size_t end = s.rfind(']');
    if (end != std::string::npos)
        s.erase(end);
    while (!s.empty() && (s[0] == '&' || s[0] == ' '))
        s.erase(0, 1);
    return s;
}

std::mutex g_fault_mu;
std::string g_fault;

cudaError_t fail(cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cudaError_t fail(cudaError_t e, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::lock_guard<std::mutex> lock(g_fault_mu);
    g_fault = buf;
    return e;
}

cudaError_t check_config(const KernelInfo &k, dim3 grid, dim3 block, size_t shared)
{
    const char *name = k.name.c_str();
    if (block.x == 0 || block.y == 0 || block.z == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0)
        return fail(cudaErrorInvalidConfiguration, "%s: grid (%u,%u,%u) or block (%u,%u,%u) has a zero dimension",
                    name, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    if (block.x > EMU_MAX_BLOCK_X || block.y > EMU_MAX_BLOCK_Y || block.z > EMU_MAX_BLOCK_Z)
        return fail(cudaErrorInvalidConfiguration, "%s: block (%u,%u,%u) exceeds the maximum (%u,%u,%u)", name,
                    block.x, block.y, block.z, EMU_MAX_BLOCK_X, EMU_MAX_BLOCK_Y, EMU_MAX_BLOCK_Z);
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads > EMU_MAX_THREADS_PER_BLOCK)
        return fail(cudaErrorInvalidConfiguration, "%s: block (%u,%u,%u) has %llu threads, more than %u", name,
                    block.x, block.y, block.z, threads, EMU_MAX_THREADS_PER_BLOCK);
    if (grid.x > EMU_MAX_GRID_X || grid.y > EMU_MAX_GRID_YZ || grid.z > EMU_MAX_GRID_YZ)
        return fail(cudaErrorInvalidConfiguration, "%s: grid (%u,%u,%u) exceeds the maximum (%u,%u,%u)", name,
                    grid.x, grid.y, grid.z, EMU_MAX_GRID_X, EMU_MAX_GRID_YZ, EMU_MAX_GRID_YZ);
    /* the static __shared__ a kernel declares is not known here
     * (Note [Static shared memory] in emu_device.h): dynamic only */
    if (shared > EMU_MAX_DYNAMIC_SHARED)
        return fail(cudaErrorInvalidValue, "%s: %zu bytes of dynamic shared memory, more than %u", name, shared,
                    EMU_MAX_DYNAMIC_SHARED);
    return cudaSuccess;
}

void run_thread(void *ctx);

} // namespace

struct emu_launch {
    KernelInfo *k;
    dim3 grid, block;
    size_t shared;
    unsigned char *buf; /* the arguments, each at its alignment */
    size_t buf_align;
    std::vector<void *> argp;
};

namespace {

void run_thread(void *ctx)
{
    emu_launch *l = static_cast<emu_launch *>(ctx);
    l->k->invoke(l->k->addr, l->argp.data());
}

/* copy the arguments into l->buf; false when out of memory */
bool copy_args(emu_launch *l, void **args)
{
    const KernelInfo &k = *l->k;
    size_t n = k.size.size(), off = 0, align = 16;
    std::vector<size_t> at(n);
    for (size_t i = 0; i < n; i++) {
        off = (off + k.align[i] - 1) / k.align[i] * k.align[i];
        at[i] = off;
        off += k.size[i];
        if (k.align[i] > align)
            align = k.align[i];
    }
    l->buf_align = align;
    l->buf = static_cast<unsigned char *>(::operator new(off > 0 ? off : 1, std::align_val_t(align), std::nothrow));
    if (l->buf == nullptr)
        return false;
    l->argp.resize(n + 1, nullptr);
    for (size_t i = 0; i < n; i++) {
        memcpy(l->buf + at[i], args[i], k.size[i]);
        l->argp[i] = l->buf + at[i];
    }
    return true;
}

} // namespace

/* ---------------------------------------------------------------------------
 * Registration (emu_device.h).
 */
const void *dt_emu::register_kernel(const void *kernel, const char *name, Invoker invoke, size_t nparams,
                                    const size_t *sizes, const size_t *aligns)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.by_addr.count(kernel) != 0)
        return kernel;
    KernelInfo *k = new KernelInfo;
    k->addr = kernel;
    k->name = kernel_name(name);
    k->invoke = invoke;
    k->size.assign(sizes, sizes + nparams);
    k->align.assign(aligns, aligns + nparams);
    r.list.push_back(k);
    r.by_addr[kernel] = k;
    return kernel;
}

/* ---------------------------------------------------------------------------
 * The C interface.
 */
extern "C" cudaError_t emu_launch_prepare(const void *kernel, dim3 grid, dim3 block, void **args,
                                          size_t shared_bytes, emu_launch **out)
{
    if (out == nullptr)
        return fail(cudaErrorInvalidValue, "emu_launch_prepare: no place for the launch");
    *out = nullptr;
    KernelInfo *k = find_kernel(kernel);
    if (k == nullptr)
        return fail(cudaErrorInvalidDeviceFunction, "%p is not a registered kernel (DT_KERNEL_ADDRESS)", kernel);
    cudaError_t e = check_config(*k, grid, block, shared_bytes);
    if (e != cudaSuccess)
        return e;
    if (args == nullptr && !k->size.empty())
        return fail(cudaErrorInvalidValue, "%s takes %zu arguments; args is NULL", k->name.c_str(), k->size.size());
    emu_launch *l = new (std::nothrow) emu_launch;
    if (l == nullptr)
        return fail(cudaErrorMemoryAllocation, "out of memory for a launch");
    l->k = k;
    l->grid = grid;
    l->block = block;
    l->shared = shared_bytes;
    l->buf = nullptr;
    if (!copy_args(l, args)) {
        emu_launch_free(l);
        return fail(cudaErrorMemoryAllocation, "out of memory for a launch's arguments");
    }
    *out = l;
    return cudaSuccess;
}

extern "C" void emu_launch_free(emu_launch *l)
{
    if (l == nullptr)
        return;
    if (l->buf != nullptr)
        ::operator delete(l->buf, std::align_val_t(l->buf_align));
    delete l;
}

extern "C" cudaError_t emu_launch_run(emu_launch *l)
{
    if (l == nullptr)
        return fail(cudaErrorInvalidValue, "emu_launch_run: no launch");
    l->k->launches.fetch_add(1, std::memory_order_relaxed);
    dt_emu::Grid g;
    g.grid = l->grid;
    g.block = l->block;
    g.shared_bytes = l->shared;
    g.body = run_thread;
    g.ctx = l;
    std::string message;
    cudaError_t e = dt_emu::run_grid(g, &message);
    if (e != cudaSuccess)
        fail(e, "%s: %s", l->k->name.c_str(), message.c_str());
    emu_launch_free(l);
    return e;
}

extern "C" const char *emu_last_fault(void)
{
    std::lock_guard<std::mutex> lock(g_fault_mu);
    return g_fault.c_str();
}

extern "C" size_t emu_kernel_count(void)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    return r.list.size();
}

extern "C" const char *emu_kernel_name(size_t i)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    return i < r.list.size() ? r.list[i]->name.c_str() : nullptr;
}

extern "C" unsigned long long emu_kernel_launches(size_t i)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    return i < r.list.size() ? r.list[i]->launches.load(std::memory_order_relaxed) : 0;
}

extern "C" int emu_set_order(const char *spec)
{
    if (spec == nullptr) {
        dt_emu::reset_schedule();
        return 0;
    }
    dt_emu::Schedule s;
    if (!dt_emu::parse_schedule(spec, &s))
        return -1;
    dt_emu::set_schedule(s);
    return 0;
}
