/* emu_runtime.cpp - the CUDA runtime on the CPU: the subset of the runtime
 * API that devtensor._cuda calls (declared by our own csrc/emu/include),
 * with CUDA's semantics as strict as CUDA allows, so that the CUDA backend
 * runs unchanged in CI without a GPU (DESIGN.md section 7).  Kernels are
 * run by the kernel half (emu_launch.h); everything else is here: devices
 * and their memory budgets, device memory in its own mappings, pinned
 * host memory, asynchronous streams with a worker each, the legacy
 * default stream, events, the peer-access matrix, last and sticky errors
 * and CUDA's error strings.  Configuration: emu_runtime.h.
 */
#include <cuda_runtime_api.h>

#include "emu_runtime.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

/* The kernel half's entry points (csrc/emu/emu_launch.h, written
 * separately): declared here too so that this file builds on its own. */
extern "C" {
typedef struct emu_launch emu_launch;
cudaError_t emu_launch_prepare(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared_bytes,
                               emu_launch **out);
cudaError_t emu_launch_run(emu_launch *l);
void emu_launch_free(emu_launch *l);
}

namespace {

/* Note [Device memory the host cannot read]
 * Two layers.  (1) Every API call classifies each pointer it is given --
 * inside a live device allocation, inside a device region but not
 * allocated (freed, or an overrun), or host -- and fails with
 * cudaErrorInvalidValue when the kind does not match the memcpy kind (or a
 * memset/free target), before anything is queued.  (2) Where the CPU and
 * kernel offer memory protection keys (x86 PKU) and
 * DEVTENSOR_EMULATE_CUDA_PROTECT is auto or pkey, each device's region is
 * tagged with one key that every host thread that calls the runtime has
 * access-disabled, while stream workers (which run the copies, memsets and
 * kernels) enable it.  PKRU is per thread, so a host read of device
 * memory faults (SIGSEGV, SEGV_PKUERR) while a worker reads the same page
 * at the same moment -- what mapping the region PROT_NONE "except while
 * work runs" cannot give with asynchronous workers.  Threads inherit the
 * setting from the thread that creates them; a thread that never called
 * the runtime and was created before it initialised is not protected.
 * Without PKU only layer (1) holds; DEVTENSOR_EMULATE_CUDA_POISON=1 then
 * also makes a late read of freed memory see 0xDB bytes, and fresh
 * allocations 0xCB (CUDA does not initialise them either). */

/* Note [Handles]
 * Streams and events are handed out as ids dressed as pointers, never as
 * addresses: a lookup in a table tells a live handle, and an id is never
 * reused, so a destroyed handle is cudaErrorInvalidResourceHandle forever
 * instead of a use-after-free.  The objects are shared_ptrs: queued work
 * keeps a destroyed stream's state alive until it has run, as CUDA
 * destroys a stream's resources only when its work is done. */

constexpr int kMaxDevices = 8;
constexpr size_t kAlign = 256; /* cudaMalloc's documented alignment */

/* Note [Device memory under AddressSanitizer]
 * In a build with -fsanitize=address the emulation does for device memory
 * what compute-sanitizer's memcheck does on a GPU.  Each allocation is
 * followed by a redzone of kRedzone bytes; the redzone, the slack between
 * the size asked for and the rounded size, and every freed allocation are
 * poisoned, so a kernel or copy that runs past the end of an allocation
 * or touches freed memory is an ASan report with the kernel's stack.
 * Memory never allocated is not poisoned (the shadow of a whole reserve
 * would be gigabytes); allocations are first fit from the region's start,
 * so what follows the last one is its redzone.  Poisoning happens on the
 * host at cudaMalloc and cudaFree, which is sound because cudaFree waits
 * for the device first.  The caching allocator above (csrc/cuda/
 * cuda_alloc.c) hands out blocks of segments in stream order, which
 * host-time poisoning cannot follow: the sanitizer run sets
 * DEVTENSOR_CUDA_NO_CACHE=1 so that every tensor is its own cudaMalloc,
 * as tools/gpu_check.sh does for memcheck. */
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kRedzone = kAlign;
#define DT_EMU_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define DT_EMU_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
constexpr size_t kRedzone = 0;
#define DT_EMU_POISON(p, n) ((void)(p), (void)(n))
#define DT_EMU_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
constexpr int kLeastPriority = 0, kGreatestPriority = -5;
constexpr int kSmCount = 132;

using Clock = std::chrono::steady_clock;

struct Stream;
using StreamP = std::shared_ptr<Stream>;

struct Dep {
    StreamP stream;
    uint64_t seq; /* satisfied when stream->completed >= seq */
};

struct Op {
    std::vector<Dep> deps;
    std::function<cudaError_t()> run; /* empty: only a wait */
    std::function<void()> discard;    /* when skipped after a sticky error */
    bool always = false;              /* event markers run even then */
};

struct Stream {
    int device = 0;
    bool legacy = false;
    bool blocking = true; /* synchronises with the legacy stream */
    int priority = 0;
    uint64_t enqueued = 0, completed = 0;
    std::deque<Op> queue;
    bool destroyed = false;
};

struct Event {
    int device = 0;
    unsigned flags = 0;
    bool recorded = false;
    StreamP stream;
    uint64_t seq = 0, gen = 0, stamped_gen = 0;
    double ms = 0; /* host clock at the marker, for gen stamped_gen */
};

struct Alloc {
    size_t size, rounded;
};

struct Device {
    char *base = nullptr;
    size_t reserve = 0, budget = 0, used = 0;
    std::map<size_t, size_t> free_list; /* offset -> length, coalesced */
    std::map<uintptr_t, Alloc> live;    /* base address -> allocation */
    StreamP legacy;
    std::vector<StreamP> streams; /* live ones and destroyed ones with work */
    bool peer_possible[kMaxDevices] = {};
    bool peer_enabled[kMaxDevices] = {};
};

struct HostRange {
    size_t size;
    bool allocated; /* cudaHostAlloc (else cudaHostRegister) */
    int device;
};

struct State {
    std::mutex mu;
    std::condition_variable cv; /* any queue or progress change */
    std::mutex launch_mu;       /* Note [One launch at a time] */
    int ndev = 0;
    cudaError_t init_error = cudaSuccess;
    std::string config_error;
    std::string init_string;
    Device dev[kMaxDevices];
    std::map<uintptr_t, HostRange> host;
    size_t pinned_budget = 0, pinned_used = 0;
    std::unordered_map<uintptr_t, StreamP> streams;
    std::unordered_map<uintptr_t, std::shared_ptr<Event>> events;
    uint64_t next_id = 1;
    int pkey = -1;
    bool poison = false;
    unsigned delay_us = 0;
    std::atomic<int> sticky[kMaxDevices];
    Clock::time_point epoch = Clock::now();
};

/* never destroyed: detached workers may still run at exit */
State *g = nullptr;
std::once_flag g_once;
thread_local int tls_device = 0;
thread_local cudaError_t tls_last = cudaSuccess;
thread_local bool tls_denied = false;

/* ---- configuration ---- */

bool parse_size(const char *s, size_t *out)
{
    char *end = nullptr;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno != 0)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'T': case 't': shift = 40; end++; break;
    default: break;
    }
    if (*end != '\0' || v == 0 || v > (UINT64_MAX >> (shift + 2)))
        return false;
    *out = (size_t)(v << shift);
    return true;
}

bool config_fail(const std::string &what)
{
    g->config_error = what;
    g->init_error = cudaErrorInitializationError;
    return false;
}

bool read_device_count()
{
    const char *s = getenv("DEVTENSOR_EMULATE_CUDA");
    if (s == nullptr || *s == '\0') {
        g->ndev = 1;
        return true;
    }
    if (s[0] >= '0' && s[0] <= '0' + kMaxDevices && s[1] == '\0') {
        g->ndev = s[0] - '0';
        return true;
    }
    return config_fail(std::string("DEVTENSOR_EMULATE_CUDA='") + s + "' is not a device count from 0 to 8");
}

bool read_budgets()
{
    const char *s = getenv("DEVTENSOR_EMULATE_CUDA_MEMORY");
    std::vector<size_t> v;
    if (s != nullptr && *s != '\0') {
        std::string all(s), item;
        size_t at = 0;
        while (at <= all.size()) {
            size_t comma = all.find(',', at);
            item = all.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
            size_t b = 0;
            if (!parse_size(item.c_str(), &b) || b > ((size_t)1 << 40))
                return config_fail(std::string("DEVTENSOR_EMULATE_CUDA_MEMORY='") + s +
                                   "' is not a size (e.g. 4G, 512M) or a list of one per device");
            v.push_back(b);
            if (comma == std::string::npos)
                break;
            at = comma + 1;
        }
        if (v.size() != 1 && (int)v.size() != g->ndev)
            return config_fail(std::string("DEVTENSOR_EMULATE_CUDA_MEMORY='") + s + "' lists " +
                               std::to_string(v.size()) + " budgets for " + std::to_string(g->ndev) +
                               " devices");
    }
    for (int d = 0; d < g->ndev; d++)
        g->dev[d].budget = v.empty() ? ((size_t)4 << 30) : v.size() == 1 ? v[0] : v[d];
    const char *p = getenv("DEVTENSOR_EMULATE_CUDA_PINNED");
    g->pinned_budget = (size_t)4 << 30;
    if (p != nullptr && *p != '\0' && !parse_size(p, &g->pinned_budget))
        return config_fail(std::string("DEVTENSOR_EMULATE_CUDA_PINNED='") + p + "' is not a size");
    return true;
}

bool read_peers()
{
    const char *s = getenv("DEVTENSOR_EMULATE_CUDA_PEER");
    std::string v = s != nullptr && *s != '\0' ? s : "all";
    bool all = v == "all";
    for (int a = 0; a < g->ndev; a++)
        for (int b = 0; b < g->ndev; b++)
            g->dev[a].peer_possible[b] = all && a != b;
    if (all || v == "none")
        return true;
    size_t at = 0;
    while (at < v.size()) {
        int a = -1, b = -1, used = 0;
        if (sscanf(v.c_str() + at, "%d-%d%n", &a, &b, &used) != 2 || a < 0 || b < 0 || a >= g->ndev ||
            b >= g->ndev || a == b)
            return config_fail("DEVTENSOR_EMULATE_CUDA_PEER='" + v +
                               "' is not all, none or directed pairs of distinct devices like 0-1,1-0");
        g->dev[a].peer_possible[b] = true;
        at += (size_t)used;
        if (at < v.size() && v[at] != ',')
            return config_fail("DEVTENSOR_EMULATE_CUDA_PEER='" + v + "': pairs are separated by commas");
        if (at < v.size())
            at++;
    }
    return true;
}

bool env_flag(const char *name)
{
    const char *s = getenv(name);
    return s != nullptr && *s != '\0' && strcmp(s, "0") != 0;
}

bool read_protect_and_debug()
{
    g->poison = env_flag("DEVTENSOR_EMULATE_CUDA_POISON");
    const char *d = getenv("DEVTENSOR_EMULATE_DELAY_US");
    if (d != nullptr && *d != '\0') {
        char *end = nullptr;
        unsigned long v = strtoul(d, &end, 10);
        if (*end != '\0' || v > 10000000ul)
            return config_fail(std::string("DEVTENSOR_EMULATE_DELAY_US='") + d + "' is not 0 to 10000000");
        g->delay_us = (unsigned)v;
    }
    const char *p = getenv("DEVTENSOR_EMULATE_CUDA_PROTECT");
    std::string mode = p != nullptr && *p != '\0' ? p : "auto";
    if (mode != "auto" && mode != "pkey" && mode != "check")
        return config_fail("DEVTENSOR_EMULATE_CUDA_PROTECT='" + mode + "' is not auto, pkey or check");
    if (mode != "check" && g->ndev > 0) {
        g->pkey = pkey_alloc(0, 0);
        if (g->pkey < 0 && mode == "pkey")
            return config_fail("DEVTENSOR_EMULATE_CUDA_PROTECT=pkey but protection keys are unavailable (" +
                               std::string(strerror(errno)) + ")");
    }
    return true;
}

/* Each device's memory: one private mapping, twice its budget of address
 * space (fragmentation never fails an allocation the budget allows when
 * blocks are freed in any order... nearly), pages committed on use. */
bool map_devices()
{
    for (int d = 0; d < g->ndev; d++) {
        Device &v = g->dev[d];
        v.reserve = v.budget * 2;
        void *p = mmap(nullptr, v.reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p == MAP_FAILED)
            return config_fail("cannot reserve " + std::to_string(v.reserve) + " bytes of address space for device " +
                               std::to_string(d));
        v.base = (char *)p;
        v.free_list[0] = v.reserve;
        if (g->pkey >= 0 && pkey_mprotect(p, v.reserve, PROT_READ | PROT_WRITE, g->pkey) != 0) {
            pkey_free(g->pkey); /* regions tagged so far keep a freed key: harmless, all access allowed */
            g->pkey = -1;
        }
    }
    return true;
}

void init_once()
{
    g = new State();
    for (auto &s : g->sticky)
        s.store(0);
    if (read_device_count() && read_budgets() && read_peers() && read_protect_and_debug() && map_devices())
        return;
    g->ndev = 0;
    g->init_string = "initialization error: " + g->config_error;
}

/* Note [Protection keys per thread]: see [Device memory the host cannot
 * read].  deny() runs at every API entry; a worker allows itself. */
void deny_this_thread()
{
    if (g->pkey >= 0 && !tls_denied) {
        pkey_set(g->pkey, PKEY_DISABLE_ACCESS);
        tls_denied = true;
    }
}

struct DeviceAccess { /* the runtime touching device memory on a host thread */
    DeviceAccess()
    {
        if (g->pkey >= 0)
            pkey_set(g->pkey, 0);
    }
    ~DeviceAccess()
    {
        if (g->pkey >= 0 && tls_denied)
            pkey_set(g->pkey, PKEY_DISABLE_ACCESS);
    }
};

/* Every API call starts here: initialise, protect this thread, and say
 * whether the runtime is usable. */
cudaError_t enter()
{
    std::call_once(g_once, init_once);
    deny_this_thread();
    if (g->init_error != cudaSuccess)
        return g->init_error;
    return g->ndev == 0 ? cudaErrorNoDevice : cudaSuccess;
}

/* Note [Last and sticky errors]
 * As CUDA: every failing call (but cudaErrorNotReady, which is no error)
 * stores its code in the calling thread's last-error slot, which
 * cudaGetLastError returns and clears.  An error a queued kernel reports
 * when it runs is sticky: it belongs to the device, is returned by every
 * later synchronising call, launch, copy and allocation on that device and
 * by cudaGetLastError, and is never cleared (CUDA's context is corrupt
 * after a kernel fault; cudaDeviceReset is not part of the subset).  Work
 * queued on the device after it does not run.  A failed cudaMalloc is not
 * sticky. */
cudaError_t ret(cudaError_t e)
{
    if (e != cudaSuccess && e != cudaErrorNotReady)
        tls_last = e;
    return e;
}

cudaError_t sticky(int device)
{
    return (cudaError_t)g->sticky[device].load();
}

bool valid_device(int d)
{
    return d >= 0 && d < g->ndev;
}

/* ---- streams and their workers ---- */

/* Note [Workers]
 * Every stream, and every device's legacy default stream (made on first
 * use), has one worker thread that runs the stream's operations in order,
 * each after its dependencies (event waits, the legacy stream's implicit
 * ones) are satisfied, and -- with DEVTENSOR_EMULATE_DELAY_US -- after a
 * pause, so that the call that queued work has long returned when it
 * runs.  One mutex and one condition variable guard every queue and
 * counter (simple, and fast enough for tests).  A destroyed stream's worker
 * drains what was queued and exits.  Workers are detached; the state is
 * never freed, so a worker busy at exit touches nothing destroyed.
 * Priorities are recorded, not scheduled. */
bool deps_done(const Op &op)
{
    for (const Dep &d : op.deps)
        if (d.stream->completed < d.seq)
            return false;
    return true;
}

void worker_main(StreamP s)
{
    if (g->pkey >= 0)
        pkey_set(g->pkey, 0);
    std::unique_lock<std::mutex> lk(g->mu);
    for (;;) {
        g->cv.wait(lk, [&] { return (!s->queue.empty() && deps_done(s->queue.front())) ||
                                    (s->queue.empty() && s->destroyed); });
        if (s->queue.empty())
            break;
        Op op = std::move(s->queue.front());
        s->queue.pop_front();
        lk.unlock();
        if (g->delay_us != 0 && op.run)
            std::this_thread::sleep_for(std::chrono::microseconds(g->delay_us));
        if (op.run && (op.always || sticky(s->device) == cudaSuccess)) {
            cudaError_t e = op.run();
            int zero = 0;
            if (e != cudaSuccess)
                g->sticky[s->device].compare_exchange_strong(zero, (int)e);
        } else if (op.discard) {
            op.discard();
        }
        lk.lock();
        s->completed++;
        g->cv.notify_all();
    }
    auto &v = g->dev[s->device].streams;
    for (size_t i = 0; i < v.size(); i++)
        if (v[i] == s) {
            v.erase(v.begin() + (long)i);
            break;
        }
}

/* lock held */
StreamP make_stream(int device, bool legacy, bool blocking, int priority)
{
    auto s = std::make_shared<Stream>();
    s->device = device;
    s->legacy = legacy;
    s->blocking = blocking;
    s->priority = priority;
    g->dev[device].streams.push_back(s);
    std::thread(worker_main, s).detach();
    return s;
}

/* lock held */
StreamP legacy_stream(int device)
{
    Device &d = g->dev[device];
    if (!d.legacy)
        d.legacy = make_stream(device, true, true, 0);
    return d.legacy;
}

/* The stream a handle names (lock held); nullptr if invalid. */
StreamP lookup_stream(cudaStream_t h)
{
    if (h == nullptr || h == cudaStreamLegacy || h == cudaStreamPerThread)
        return legacy_stream(tls_device);
    auto it = g->streams.find((uintptr_t)h);
    return it == g->streams.end() ? nullptr : it->second;
}

/* Note [Legacy default stream]
 * As CUDA's legacy stream: work queued on it waits for all work queued
 * before on the device's blocking streams (those created without
 * cudaStreamNonBlocking), and work queued on a blocking stream waits for
 * the legacy stream's earlier work.  Non-blocking streams do neither.
 * cudaStreamSynchronize(0) waits for the legacy stream's own queue, which
 * contains those implicit waits only for work queued after them.  The
 * per-thread default stream (cudaStreamPerThread, which only other
 * libraries' handles name here) is the legacy stream too: its order is
 * never weaker than CUDA's, only stronger. */
void enqueue(const StreamP &s, Op op) /* lock held */
{
    Device &d = g->dev[s->device];
    if (s->legacy) {
        for (const StreamP &t : d.streams)
            if (t != s && t->blocking && t->enqueued > t->completed)
                op.deps.push_back(Dep{t, t->enqueued});
    } else if (s->blocking && d.legacy && d.legacy->enqueued > d.legacy->completed) {
        op.deps.push_back(Dep{d.legacy, d.legacy->enqueued});
    }
    s->enqueued++;
    s->queue.push_back(std::move(op));
    g->cv.notify_all();
}

/* Wait until s has run everything queued so far (lock held via lk). */
void wait_stream(std::unique_lock<std::mutex> &lk, const StreamP &s)
{
    uint64_t target = s->enqueued;
    g->cv.wait(lk, [&] { return s->completed >= target; });
}

void wait_device(std::unique_lock<std::mutex> &lk, int device)
{
    std::vector<std::pair<StreamP, uint64_t>> targets;
    for (const StreamP &s : g->dev[device].streams)
        targets.emplace_back(s, s->enqueued);
    for (auto &t : targets)
        g->cv.wait(lk, [&] { return t.first->completed >= t.second; });
}

/* ---- memory kinds ---- */

enum class Kind { Host, Device, Bad };

struct Where {
    Kind kind;
    int device;
};

/* What [p, p+n) is (lock held): wholly inside one live allocation, wholly
 * outside every device region, or neither. */
Where classify(const void *ptr, size_t n)
{
    uintptr_t p = (uintptr_t)ptr, e = p + (n != 0 ? n : 1);
    if (e < p)
        return Where{Kind::Bad, -1};
    for (int d = 0; d < g->ndev; d++) {
        Device &v = g->dev[d];
        uintptr_t lo = (uintptr_t)v.base, hi = lo + v.reserve;
        if (e <= lo || p >= hi)
            continue;
        auto it = v.live.upper_bound(p);
        if (it == v.live.begin())
            return Where{Kind::Bad, d};
        --it;
        if (p >= it->first && e <= it->first + it->second.size)
            return Where{Kind::Device, d};
        return Where{Kind::Bad, d};
    }
    return Where{Kind::Host, -1};
}

bool is_device_base(int device, const void *ptr)
{
    return g->dev[device].live.count((uintptr_t)ptr) != 0;
}

/* first fit in address order (lock held); nullptr when nothing fits */
char *region_take(Device &v, size_t rounded)
{
    for (auto it = v.free_list.begin(); it != v.free_list.end(); ++it) {
        if (it->second < rounded)
            continue;
        size_t off = it->first, len = it->second;
        v.free_list.erase(it);
        if (len > rounded)
            v.free_list[off + rounded] = len - rounded;
        return v.base + off;
    }
    return nullptr;
}

void region_give(Device &v, char *p, size_t rounded)
{
    size_t off = (size_t)(p - v.base), len = rounded;
    auto next = v.free_list.lower_bound(off);
    if (next != v.free_list.end() && next->first == off + len) {
        len += next->second;
        next = v.free_list.erase(next);
    }
    if (next != v.free_list.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == off) {
            prev->second += len;
            return;
        }
    }
    v.free_list[off] = len;
}

cudaError_t check_copy(void *dst, const void *src, size_t n, int kind)
{
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (n == 0)
        return cudaSuccess;
    if (dst == nullptr || src == nullptr)
        return cudaErrorInvalidValue;
    Where d = classify(dst, n), s = classify(src, n);
    if (d.kind == Kind::Bad || s.kind == Kind::Bad)
        return cudaErrorInvalidValue;
    bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind != cudaMemcpyDefault && ((d.kind == Kind::Device) != dev_dst || (s.kind == Kind::Device) != dev_src))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t copy_op(void *dst, const void *src, size_t n, cudaStream_t stream, bool sync)
{
    std::unique_lock<std::mutex> lk(g->mu);
    StreamP s = lookup_stream(stream);
    if (!s)
        return cudaErrorInvalidResourceHandle;
    if (sticky(s->device) != cudaSuccess)
        return sticky(s->device);
    if (n != 0) {
        Op op;
        op.run = [dst, src, n] {
            memmove(dst, src, n);
            return cudaSuccess;
        };
        enqueue(s, std::move(op));
    }
    if (sync)
        wait_stream(lk, s);
    return sync ? sticky(s->device) : cudaSuccess;
}

} /* namespace */

/* ================= the API ================= */

extern "C" {

const char *emu_runtime_config_error(void)
{
    std::call_once(g_once, init_once);
    return g->config_error.empty() ? nullptr : g->config_error.c_str();
}

int emu_runtime_protected(void)
{
    std::call_once(g_once, init_once);
    return g->pkey >= 0;
}

int emu_runtime_device_of(const void *ptr, size_t n)
{
    std::call_once(g_once, init_once);
    std::lock_guard<std::mutex> lk(g->mu);
    Where w = classify(ptr, n);
    return w.kind == Kind::Device ? w.device : -1;
}

int emu_runtime_peer_enabled(int device, int peer)
{
    std::call_once(g_once, init_once);
    std::lock_guard<std::mutex> lk(g->mu);
    if (!valid_device(device) || !valid_device(peer))
        return 0;
    return device == peer || g->dev[device].peer_enabled[peer];
}

/* Note [Library work on streams]
 * A CUDA library's routine launches kernels on the stream it was given, so
 * the reference implementations of csrc/emu (emu_blas.cpp) queue their
 * arithmetic with emu_runtime_enqueue: one operation, in order with the
 * kernels and copies of that stream and the legacy stream's implicit
 * waits, delayed by DEVTENSOR_EMULATE_DELAY_US like them, and run by the
 * stream's worker, which may read and write device memory while host
 * threads still may not (Note [Device memory the host cannot read]).  The
 * rules are cudaLaunchKernel's: a stream of the current device, and no
 * work on a device with a sticky error.  A library reaches the runtime
 * through its own copy of cudart, so a failure here is the library's
 * status to report, not the caller's last error. */
cudaError_t emu_runtime_enqueue(cudaStream_t stream, cudaError_t (*run)(void *arg), void *arg,
                                void (*release)(void *arg))
{
    cudaError_t e = enter();
    if (e == cudaSuccess && run == nullptr)
        e = cudaErrorInvalidValue;
    if (e == cudaSuccess) {
        std::lock_guard<std::mutex> lk(g->mu);
        StreamP s = lookup_stream(stream);
        if (!s || s->device != tls_device)
            e = cudaErrorInvalidResourceHandle;
        else if (sticky(s->device) != cudaSuccess)
            e = sticky(s->device);
        if (e == cudaSuccess) {
            Op op;
            op.run = [run, arg, release] {
                cudaError_t r = run(arg);
                if (release != nullptr)
                    release(arg);
                return r;
            };
            op.discard = [arg, release] {
                if (release != nullptr)
                    release(arg);
            };
            enqueue(s, std::move(op));
            return cudaSuccess;
        }
    }
    if (release != nullptr)
        release(arg);
    return e;
}

/* ---- errors and versions ---- */

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = enter();
    if (tls_last != cudaSuccess) {
        e = tls_last;
        tls_last = cudaSuccess;
        return e;
    }
    if (e != cudaSuccess)
        return e;
    return sticky(tls_device);
}

cudaError_t cudaPeekAtLastError(void)
{
    cudaError_t e = enter();
    if (tls_last != cudaSuccess)
        return tls_last;
    return e != cudaSuccess ? e : sticky(tls_device);
}

/* CUDA's strings for every code we declare (Note [Error values]). */
static const char *error_string(cudaError_t e, bool name)
{
    switch (e) {
#define DT_EMU_E(code, text) \
    case code: return name ? #code : text;
        DT_EMU_E(cudaSuccess, "no error")
        DT_EMU_E(cudaErrorInvalidValue, "invalid argument")
        DT_EMU_E(cudaErrorMemoryAllocation, "out of memory")
        DT_EMU_E(cudaErrorInitializationError, "initialization error")
        DT_EMU_E(cudaErrorCudartUnloading, "driver shutting down")
        DT_EMU_E(cudaErrorInvalidConfiguration, "invalid configuration argument")
        DT_EMU_E(cudaErrorInvalidDevicePointer, "invalid device pointer")
        DT_EMU_E(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy")
        DT_EMU_E(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")
        DT_EMU_E(cudaErrorInvalidDeviceFunction, "invalid device function")
        DT_EMU_E(cudaErrorNoDevice, "no CUDA-capable device is detected")
        DT_EMU_E(cudaErrorInvalidDevice, "invalid device ordinal")
        DT_EMU_E(cudaErrorDeviceUninitialized, "invalid device context")
        DT_EMU_E(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices")
        DT_EMU_E(cudaErrorInvalidResourceHandle, "invalid resource handle")
        DT_EMU_E(cudaErrorIllegalState, "the operation cannot be performed in the present state")
        DT_EMU_E(cudaErrorNotReady, "device not ready")
        DT_EMU_E(cudaErrorIllegalAddress, "an illegal memory access was encountered")
        DT_EMU_E(cudaErrorLaunchOutOfResources, "too many resources requested for launch")
        DT_EMU_E(cudaErrorLaunchTimeout, "the launch timed out and was terminated")
        DT_EMU_E(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled")
        DT_EMU_E(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled")
        DT_EMU_E(cudaErrorContextIsDestroyed, "context is destroyed")
        DT_EMU_E(cudaErrorAssert, "device-side assert triggered")
        DT_EMU_E(cudaErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped")
        DT_EMU_E(cudaErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region")
        DT_EMU_E(cudaErrorHardwareStackError, "hardware stack error")
        DT_EMU_E(cudaErrorIllegalInstruction, "an illegal instruction was encountered")
        DT_EMU_E(cudaErrorMisalignedAddress, "misaligned address")
        DT_EMU_E(cudaErrorInvalidPc, "invalid program counter")
        DT_EMU_E(cudaErrorLaunchFailure, "unspecified launch failure")
        DT_EMU_E(cudaErrorNotSupported, "operation not supported")
        DT_EMU_E(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing")
        DT_EMU_E(cudaErrorUnknown, "unknown error")
#undef DT_EMU_E
    }
    return name ? "cudaErrorUnknown" : "unrecognized error code";
}

/* Note [Configuration errors]: when the emulation's configuration is
 * invalid, the string for cudaErrorInitializationError says what was
 * wrong, so that _cuda's "CUDA initialisation failed" message names it. */
const char *cudaGetErrorString(cudaError_t error)
{
    std::call_once(g_once, init_once);
    if (error == cudaErrorInitializationError && !g->init_string.empty())
        return g->init_string.c_str();
    return error_string(error, false);
}

const char *cudaGetErrorName(cudaError_t error)
{
    return error_string(error, true);
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (driverVersion == nullptr)
        return ret(cudaErrorInvalidValue);
    *driverVersion = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (runtimeVersion == nullptr)
        return ret(cudaErrorInvalidValue);
    *runtimeVersion = 13000;
    return cudaSuccess;
}

/* ---- devices ---- */

cudaError_t cudaGetDeviceCount(int *count)
{
    cudaError_t e = enter();
    if (count == nullptr)
        return ret(cudaErrorInvalidValue);
    *count = e == cudaSuccess ? g->ndev : 0;
    return ret(e);
}

cudaError_t cudaGetDevice(int *device)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (device == nullptr)
        return ret(cudaErrorInvalidValue);
    *device = tls_device;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (!valid_device(device))
        return ret(cudaErrorInvalidDevice);
    tls_device = device;
    return cudaSuccess;
}

/* Note [Emulated properties]: an H100-like device -- compute capability
 * 9.0, 132 multiprocessors, CUDA's limits for 9.0 -- whose total memory is
 * its budget. */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (prop == nullptr)
        return ret(cudaErrorInvalidValue);
    if (!valid_device(device))
        return ret(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "devtensor emulated CUDA device %d", device);
    prop->totalGlobalMem = g->dev[device].budget;
    prop->sharedMemPerBlock = 48 * 1024;
    prop->regsPerBlock = 65536;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->totalConstMem = 65536;
    prop->major = 9;
    prop->minor = 0;
    prop->multiProcessorCount = kSmCount;
    prop->maxThreadsPerMultiProcessor = 2048;
    prop->sharedMemPerMultiprocessor = 228 * 1024;
    prop->l2CacheSize = 50 * 1024 * 1024;
    prop->canMapHostMemory = 1;
    prop->concurrentKernels = 1;
    prop->asyncEngineCount = 2;
    prop->unifiedAddressing = 1;
    prop->pciBusID = device + 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    if (value == nullptr)
        return ret(cudaErrorInvalidValue);
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    default: return ret(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::unique_lock<std::mutex> lk(g->mu);
    wait_device(lk, tls_device);
    return ret(sticky(tls_device));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (leastPriority != nullptr)
        *leastPriority = kLeastPriority;
    if (greatestPriority != nullptr)
        *greatestPriority = kGreatestPriority;
    return cudaSuccess;
}

/* Note [Peer matrix]: DEVTENSOR_EMULATE_CUDA_PEER says which directed
 * pairs could access each other; a device never "can access" itself (as
 * cudaDeviceCanAccessPeer answers).  Enabling is per (current, peer).
 * Copies between devices work either way (CUDA stages them through the
 * host); kernels may ask emu_runtime_peer_enabled. */
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (canAccessPeer == nullptr)
        return ret(cudaErrorInvalidValue);
    if (!valid_device(device) || !valid_device(peerDevice))
        return ret(cudaErrorInvalidDevice);
    *canAccessPeer = g->dev[device].peer_possible[peerDevice] ? 1 : 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (flags != 0)
        return ret(cudaErrorInvalidValue);
    if (!valid_device(peerDevice) || peerDevice == tls_device)
        return ret(cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lk(g->mu);
    Device &d = g->dev[tls_device];
    if (!d.peer_possible[peerDevice])
        return ret(cudaErrorPeerAccessUnsupported);
    if (d.peer_enabled[peerDevice])
        return ret(cudaErrorPeerAccessAlreadyEnabled);
    d.peer_enabled[peerDevice] = true;
    return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (!valid_device(peerDevice))
        return ret(cudaErrorInvalidDevice);
    std::lock_guard<std::mutex> lk(g->mu);
    Device &d = g->dev[tls_device];
    if (!d.peer_enabled[peerDevice])
        return ret(cudaErrorPeerAccessNotEnabled);
    d.peer_enabled[peerDevice] = false;
    return cudaSuccess;
}

/* ---- device memory ---- */

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (devPtr == nullptr)
        return ret(cudaErrorInvalidValue);
    *devPtr = nullptr;
    int dev = tls_device;
    if (sticky(dev) != cudaSuccess)
        return ret(sticky(dev));
    if (size == 0)
        return cudaSuccess;
    std::lock_guard<std::mutex> lk(g->mu);
    Device &v = g->dev[dev];
    if (size > v.budget)
        return ret(cudaErrorMemoryAllocation);
    size_t rounded = (size + kAlign - 1) & ~(kAlign - 1);
    if (v.used + rounded > v.budget)
        return ret(cudaErrorMemoryAllocation);
    char *p = region_take(v, rounded + kRedzone);
    if (p == nullptr)
        return ret(cudaErrorMemoryAllocation);
    v.used += rounded;
    v.live[(uintptr_t)p] = Alloc{size, rounded};
    DT_EMU_UNPOISON(p, rounded);
    if (g->poison) {
        DeviceAccess a;
        memset(p, 0xCB, rounded);
    }
    DT_EMU_POISON(p + size, rounded - size + kRedzone); /* Note [Device memory under AddressSanitizer] */
    *devPtr = p;
    return cudaSuccess;
}

/* cudaFree synchronises the device that owns the block, as CUDA's does. */
cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (devPtr == nullptr)
        return cudaSuccess;
    std::unique_lock<std::mutex> lk(g->mu);
    Where w = classify(devPtr, 1);
    if (w.kind != Kind::Device || !is_device_base(w.device, devPtr))
        return ret(cudaErrorInvalidValue);
    wait_device(lk, w.device);
    Device &v = g->dev[w.device];
    auto it = v.live.find((uintptr_t)devPtr);
    if (it == v.live.end()) /* freed by another thread meanwhile */
        return ret(cudaErrorInvalidValue);
    size_t rounded = it->second.rounded;
    v.live.erase(it);
    v.used -= rounded;
    DT_EMU_UNPOISON(devPtr, rounded);
    if (g->poison) {
        DeviceAccess a;
        memset(devPtr, 0xDB, rounded);
    }
    DT_EMU_POISON(devPtr, rounded + kRedzone);
    region_give(v, (char *)devPtr, rounded + kRedzone);
    return ret(sticky(w.device));
}

cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (free == nullptr || total == nullptr)
        return ret(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lk(g->mu);
    Device &v = g->dev[tls_device];
    *free = v.budget - v.used;
    *total = v.budget;
    return cudaSuccess;
}

/* ---- pinned host memory ---- */

static bool host_overlaps(uintptr_t p, size_t n) /* lock held */
{
    auto it = g->host.upper_bound(p + n - 1);
    if (it == g->host.begin())
        return false;
    --it;
    return it->first + it->second.size > p;
}

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (pHost == nullptr || (flags & ~(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined)))
        return ret(cudaErrorInvalidValue);
    *pHost = nullptr;
    if (size == 0)
        return cudaSuccess;
    std::lock_guard<std::mutex> lk(g->mu);
    if (size > g->pinned_budget || g->pinned_used + size > g->pinned_budget)
        return ret(cudaErrorMemoryAllocation);
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return ret(cudaErrorMemoryAllocation);
    g->pinned_used += size;
    g->host[(uintptr_t)p] = HostRange{size, true, tls_device};
    *pHost = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (ptr == nullptr)
        return cudaSuccess;
    std::lock_guard<std::mutex> lk(g->mu);
    auto it = g->host.find((uintptr_t)ptr);
    if (it == g->host.end() || !it->second.allocated)
        return ret(cudaErrorInvalidValue);
    size_t size = it->second.size;
    g->host.erase(it);
    g->pinned_used -= size;
    munmap(ptr, size);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    unsigned known = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                     cudaHostRegisterReadOnly;
    if (ptr == nullptr || size == 0 || (flags & ~known))
        return ret(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lk(g->mu);
    if (classify(ptr, size).kind != Kind::Host)
        return ret(cudaErrorInvalidValue);
    if (host_overlaps((uintptr_t)ptr, size))
        return ret(cudaErrorHostMemoryAlreadyRegistered);
    g->host[(uintptr_t)ptr] = HostRange{size, false, tls_device};
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    auto it = g->host.find((uintptr_t)ptr);
    if (ptr == nullptr || it == g->host.end() || it->second.allocated)
        return ret(cudaErrorHostMemoryNotRegistered);
    g->host.erase(it);
    return cudaSuccess;
}

/* Device memory: type Device, its device, devicePointer only.  Pinned or
 * registered host memory: type Host, the device current when it was
 * pinned, both pointers (UVA maps it at the same address).  Other host
 * memory: type Unregistered, device -2, no pointers (CUDA 11 and later).
 * An address in a device region but not allocated: cudaErrorInvalidValue. */
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (attributes == nullptr)
        return ret(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lk(g->mu);
    Where w = classify(ptr, 1);
    memset(attributes, 0, sizeof *attributes);
    if (w.kind == Kind::Bad)
        return ret(cudaErrorInvalidValue);
    if (w.kind == Kind::Device) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->device = w.device;
        attributes->devicePointer = (void *)ptr;
        return cudaSuccess;
    }
    uintptr_t p = (uintptr_t)ptr;
    auto it = g->host.upper_bound(p);
    if (it != g->host.begin() && (--it, p < it->first + it->second.size)) {
        attributes->type = cudaMemoryTypeHost;
        attributes->device = it->second.device;
        attributes->devicePointer = attributes->hostPointer = (void *)ptr;
        return cudaSuccess;
    }
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    return cudaSuccess;
}

/* ---- copies and memset ---- */

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    {
        std::lock_guard<std::mutex> lk(g->mu);
        e = check_copy(dst, src, count, (int)kind);
    }
    return ret(e != cudaSuccess ? e : copy_op(dst, src, count, stream, false));
}

/* Note [Blocking copies]: cudaMemcpy is queued on the legacy stream and
 * waited for, which also reports a sticky error. */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    {
        std::lock_guard<std::mutex> lk(g->mu);
        e = check_copy(dst, src, count, (int)kind);
    }
    return ret(e != cudaSuccess ? e : copy_op(dst, src, count, nullptr, true));
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (!valid_device(dstDevice) || !valid_device(srcDevice))
        return ret(cudaErrorInvalidDevice);
    if (count == 0)
        return cudaSuccess;
    {
        std::lock_guard<std::mutex> lk(g->mu);
        Where d = classify(dst, count), s = classify(src, count);
        if (d.kind != Kind::Device || d.device != dstDevice || s.kind != Kind::Device || s.device != srcDevice)
            return ret(cudaErrorInvalidValue);
    }
    return ret(copy_op(dst, src, count, stream, false));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    if (count == 0)
        return cudaSuccess;
    if (classify(devPtr, count).kind != Kind::Device)
        return ret(cudaErrorInvalidValue);
    StreamP s = lookup_stream(stream);
    if (!s)
        return ret(cudaErrorInvalidResourceHandle);
    if (sticky(s->device) != cudaSuccess)
        return ret(sticky(s->device));
    Op op;
    op.run = [devPtr, value, count] {
        memset(devPtr, value, count);
        return cudaSuccess;
    };
    enqueue(s, std::move(op));
    return cudaSuccess;
}

/* ---- streams ---- */

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (pStream == nullptr || (flags & ~cudaStreamNonBlocking))
        return ret(cudaErrorInvalidValue);
    /* CUDA clamps a priority outside the range */
    priority = priority > kLeastPriority ? kLeastPriority : priority < kGreatestPriority ? kGreatestPriority : priority;
    std::lock_guard<std::mutex> lk(g->mu);
    uintptr_t id = (g->next_id++ << 4) | 0x8;
    g->streams[id] = make_stream(tls_device, false, !(flags & cudaStreamNonBlocking), priority);
    *pStream = (cudaStream_t)id;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0);
}

/* Returns at once; queued work still runs (Note [Handles]). */
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    auto it = g->streams.find((uintptr_t)stream);
    if (it == g->streams.end())
        return ret(cudaErrorInvalidResourceHandle);
    it->second->destroyed = true;
    g->streams.erase(it);
    g->cv.notify_all();
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::unique_lock<std::mutex> lk(g->mu);
    StreamP s = lookup_stream(stream);
    if (!s)
        return ret(cudaErrorInvalidResourceHandle);
    wait_stream(lk, s);
    return ret(sticky(s->device));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    StreamP s = lookup_stream(stream);
    if (!s)
        return ret(cudaErrorInvalidResourceHandle);
    if (sticky(s->device) != cudaSuccess)
        return ret(sticky(s->device));
    return s->completed >= s->enqueued ? cudaSuccess : cudaErrorNotReady;
}

/* ---- events ---- */

static std::shared_ptr<Event> lookup_event(cudaEvent_t h) /* lock held */
{
    auto it = g->events.find((uintptr_t)h);
    return it == g->events.end() ? nullptr : it->second;
}

static bool event_done(const Event &ev) /* lock held */
{
    return !ev.recorded || ev.stream->completed >= ev.seq;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (flags != cudaEventWaitDefault)
        return ret(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lk(g->mu);
    StreamP s = lookup_stream(stream);
    std::shared_ptr<Event> ev = lookup_event(event);
    if (!s || !ev)
        return ret(cudaErrorInvalidResourceHandle);
    if (!ev->recorded)
        return cudaSuccess; /* nothing to wait for */
    Op op;
    op.deps.push_back(Dep{ev->stream, ev->seq});
    enqueue(s, std::move(op));
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if (event == nullptr || (flags & ~known))
        return ret(cudaErrorInvalidValue);
    if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
        return ret(cudaErrorInvalidValue); /* as CUDA requires */
    std::lock_guard<std::mutex> lk(g->mu);
    auto ev = std::make_shared<Event>();
    ev->device = tls_device;
    ev->flags = flags;
    uintptr_t id = (g->next_id++ << 4) | 0x4;
    g->events[id] = ev;
    *event = (cudaEvent_t)id;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

/* Returns at once; a pending record still completes (its marker holds the
 * event). */
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    if (g->events.erase((uintptr_t)event) == 0)
        return ret(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

/* The event and the stream must belong to the same device (CUDA:
 * cudaErrorInvalidResourceHandle otherwise). */
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    StreamP s = lookup_stream(stream);
    std::shared_ptr<Event> ev = lookup_event(event);
    if (!s || !ev || s->device != ev->device)
        return ret(cudaErrorInvalidResourceHandle);
    uint64_t gen = ++ev->gen;
    Op op;
    op.always = true;
    op.run = [ev, gen] {
        double ms = std::chrono::duration<double, std::milli>(Clock::now() - g->epoch).count();
        std::lock_guard<std::mutex> l2(g->mu);
        if (ev->gen == gen) {
            ev->ms = ms;
            ev->stamped_gen = gen;
        }
        return cudaSuccess;
    };
    enqueue(s, std::move(op));
    ev->recorded = true;
    ev->stream = s;
    ev->seq = s->enqueued;
    return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::lock_guard<std::mutex> lk(g->mu);
    std::shared_ptr<Event> ev = lookup_event(event);
    if (!ev)
        return ret(cudaErrorInvalidResourceHandle);
    if (!event_done(*ev))
        return cudaErrorNotReady;
    return ret(ev->recorded ? sticky(ev->stream->device) : cudaSuccess);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    std::unique_lock<std::mutex> lk(g->mu);
    std::shared_ptr<Event> ev = lookup_event(event);
    if (!ev)
        return ret(cudaErrorInvalidResourceHandle);
    g->cv.wait(lk, [&] { return event_done(*ev); });
    return ret(ev->recorded ? sticky(ev->stream->device) : cudaSuccess);
}

/* CUDA's rules: either event created with cudaEventDisableTiming, or never
 * recorded: cudaErrorInvalidResourceHandle; either not yet complete:
 * cudaErrorNotReady.  Host clock, milliseconds. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    if (ms == nullptr)
        return ret(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lk(g->mu);
    std::shared_ptr<Event> a = lookup_event(start), b = lookup_event(end);
    if (!a || !b || (a->flags & cudaEventDisableTiming) || (b->flags & cudaEventDisableTiming) || !a->recorded ||
        !b->recorded)
        return ret(cudaErrorInvalidResourceHandle);
    if (!event_done(*a) || !event_done(*b))
        return cudaErrorNotReady;
    if (a->stamped_gen != a->gen || b->stamped_gen != b->gen)
        return ret(cudaErrorUnknown); /* a marker skipped: cannot happen (markers always run) */
    *ms = (float)(b->ms - a->ms);
    return cudaSuccess;
}

/* ---- kernels ---- */

/* Note [One launch at a time]
 * The kernel half keeps __shared__ variables static (emu_device.h, Note
 * [Static shared memory]), so two launches must never run at once: the
 * workers of different streams take launch_mu around emu_launch_run.
 * Streams still overlap copies with kernels, and a launch still runs
 * later than the call that queued it.
 * The launch's synchronous errors (bad configuration, unknown kernel) are
 * emu_launch_prepare's and are the call's result; what emu_launch_run
 * reports becomes the device's sticky error (Note [Last and sticky
 * errors]).  A kernel may only be queued on a stream of the current
 * device (cudaErrorInvalidResourceHandle otherwise, as CUDA). */
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    cudaError_t e = enter();
    if (e != cudaSuccess)
        return ret(e);
    StreamP s;
    {
        std::lock_guard<std::mutex> lk(g->mu);
        s = lookup_stream(stream);
    }
    if (!s || s->device != tls_device)
        return ret(cudaErrorInvalidResourceHandle);
    if (sticky(s->device) != cudaSuccess)
        return ret(sticky(s->device));
    emu_launch *l = nullptr;
    e = emu_launch_prepare(func, gridDim, blockDim, args, sharedMem, &l);
    if (e != cudaSuccess)
        return ret(e);
    Op op;
    op.run = [l] {
        std::lock_guard<std::mutex> one(g->launch_mu);
        return emu_launch_run(l);
    };
    op.discard = [l] { emu_launch_free(l); };
    std::lock_guard<std::mutex> lk(g->mu);
    enqueue(s, std::move(op));
    return cudaSuccess;
}

} /* extern "C" */
