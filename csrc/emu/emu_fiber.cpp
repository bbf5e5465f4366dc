/* emu_fiber.cpp - the block scheduler of the CPU emulation (emu_fiber.h):
 * fibers, their stacks and context switches, the orders threads run in,
 * barriers, warp-level rendezvous, and faults.
 *
 * Note [Fibers]
 * Each CUDA thread of the running block is a fiber: a stack of
 * stack_bytes() from mmap, with a PROT_NONE guard region below it, and a
 * saved context.  The scheduler runs on the launching OS thread's own
 * stack and switches to one fiber at a time; a fiber switches back only
 * at a barrier, a warp intrinsic, its end, or a fault.  Between those
 * points a thread runs alone, so plain loads and stores see everything
 * every other thread stored before its last switch.  Stacks are kept per
 * OS thread for the next launch (mmap per block would dominate); a
 * launch that faulted frees them.
 *
 * Note [Context switch]
 * On x86-64 the switch is dt_emu_switch below: it pushes the System V
 * callee-saved registers (rbx, rbp, r12-r15) and the x87 and SSE control
 * words (the ABI says they are preserved across calls), stores rsp, loads
 * the other context's rsp and pops the same.  Everything else is
 * caller-saved, so the compiler has already saved what it needs: a switch
 * is about twenty instructions, no system call.  ldmxcsr and fldcw are
 * slow (they order the FP pipeline), so a control word is loaded only
 * when it differs from the current one: kernels rarely change them, and
 * skipping the loads made switches about a third cheaper.  Elsewhere it
 * is ucontext's swapcontext, which also saves and restores the signal
 * mask: a system call per switch, several times slower (figures: Note
 * [Emulation speed] in tests/emu/emu_driver.cpp).  -DDT_EMU_UCONTEXT
 * forces it.  Under AddressSanitizer every switch, either kind, is told
 * to ASan with __sanitizer_start_switch_fiber/finish_switch_fiber; x86-64
 * keeps dt_emu_switch there too, because ASan's swapcontext interceptor
 * clears the shadow of the whole target stack on every switch (32 KB of
 * memset for a 256 KB stack): the sanitizer suite spent 60% of its time
 * there, 57x the unsanitized run on a quantile test, against about 4x
 * with dt_emu_switch.
 *
 * Note [Orders]
 * The scheduler runs in rounds: every runnable fiber of the block runs,
 * one after another, until it blocks (barrier, warp intrinsic) or ends;
 * then the rendezvous that are complete are released and the next round
 * starts.  The order of the fibers within a round is
 *   forward   linear thread index ascending (x fastest, then y, z);
 *   reverse   descending;
 *   random    a fresh permutation every round, from a generator seeded
 *             with (SEED, block index), so a block's schedule does not
 *             depend on which launches ran before.
 * A thread that reads shared memory another thread writes with no barrier
 * in between reads the old value in one of forward/reverse (whichever
 * runs the reader first): a missing __syncthreads changes the result in
 * at least one order.  $DEVTENSOR_EMULATE_ORDER=forward|reverse|random:SEED
 * selects it (read once, at the first launch); set_schedule() overrides.
 *
 * Note [Barriers]
 * __syncthreads completes when every live thread of the block (started,
 * not exited) waits at a barrier: threads that have returned do not hold
 * it up, as on GPUs since Volta (the usual `if (i >= n) return;` before
 * a barrier works).  All waiting threads must wait at the same
 * __syncthreads (file and line): CUDA leaves a barrier in divergent code
 * undefined (it hangs, or pairs unrelated barriers), so here it is a
 * fault.  __syncthreads_count/_and/_or reduce the predicate of the live
 * threads.
 *
 * Note [Warp rendezvous]
 * Lane l of warp w is linear thread 32w + l; the last warp of a block
 * whose size is not a multiple of 32 has fewer lanes.  A *_sync
 * intrinsic called by lane l with mask m waits until every lane named in
 * m waits at a warp intrinsic with the same mask; then all of them get
 * their results at once, each computed from the values the others
 * passed in this same call, as in a warp executing the instruction
 * together.  Faults (cudaErrorIllegalInstruction, which a GPU raises
 * for a warp-synchronous instruction whose mask is invalid):
 *   - m lacks the calling lane, or width is not a power of two <= 32;
 *   - m names a lane that does not exist or has exited, for a shuffle or
 *     vote (CUDA: the value from such a lane is undefined; here it is
 *     treated as the bug it nearly always is).  __syncwarp waits only for
 *     the lanes of m that have not exited, as the Programming Guide
 *     defines it ("all non-exited threads named in mask");
 *   - the lanes of m wait at different intrinsics (kinds or widths);
 *   - nothing can proceed (a lane of m waits at __syncthreads, or at a
 *     warp intrinsic with another mask, and nothing will change that).
 * A lane that reads from a lane not in m (CUDA: undefined value) gets all
 * bits set (NaN, -1), so that a use shows.  Shuffles follow the PTX
 * definitions: for width w the lanes form segments of w; idx reads lane
 * (src mod w) of the caller's segment; up and down read lane -/+ delta
 * and return the caller's own value when that leaves the segment; xor
 * reads lane ^ laneMask and returns its own value for a lane above the
 * caller's segment (lower segments may be read).
 *
 * Note [Faults]
 * A fault records the first error and its message and ends the launch:
 * the scheduler never resumes any fiber of it again, their stacks are
 * unmapped, and run_grid returns the error.  Objects on the abandoned
 * stacks are not destroyed: device code owns nothing that needs it (a
 * GPU fault does not unwind either).  Nothing calls abort() or exit().
 * A stack overflow hits the guard region below a fiber's stack; a
 * SIGSEGV handler (installed at the first launch, on an alternate signal
 * stack, chaining to the previous handler for every other fault) turns it
 * into a fault with cudaErrorIllegalAddress, what a GPU reports for a
 * thread that overruns its local memory.  Under AddressSanitizer ASan's
 * own handler reports it instead.
 */
#include "emu_fiber.h"

#include "emu_device.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mutex>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define DT_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DT_EMU_ASAN 1
#endif
#endif

#if !defined(DT_EMU_UCONTEXT) && !defined(__x86_64__)
#define DT_EMU_UCONTEXT 1
#endif

#if defined(DT_EMU_UCONTEXT)
#include <ucontext.h>
#endif
#if defined(DT_EMU_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ---------------------------------------------------------------------------
 * Note [Context switch]: the x86-64 switch.
 */
#if !defined(DT_EMU_UCONTEXT)
extern "C" {
/* save this context's registers on its stack and *save_sp = rsp; continue
 * the context whose rsp is new_sp */
__attribute__((visibility("hidden"))) void dt_emu_switch(void **save_sp, void *new_sp);
/* where a new fiber starts: fn(arg) with fn in r13 and arg in r12 */
__attribute__((visibility("hidden"))) void dt_emu_fiber_entry(void);
}
asm(R"(
    .text
    .p2align 4
    .globl dt_emu_switch
    .hidden dt_emu_switch
    .type dt_emu_switch, @function
dt_emu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsp, %rdx
    movq %rsi, %rsp
    movl 8(%rsp), %eax
    cmpl 8(%rdx), %eax
    je 1f
    ldmxcsr 8(%rsp)
1:
    movzwl (%rsp), %eax
    cmpw (%rdx), %ax
    je 2f
    fldcw (%rsp)
2:
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size dt_emu_switch, .-dt_emu_switch

    .p2align 4
    .globl dt_emu_fiber_entry
    .hidden dt_emu_fiber_entry
    .type dt_emu_fiber_entry, @function
dt_emu_fiber_entry:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size dt_emu_fiber_entry, .-dt_emu_fiber_entry
)");
#endif

thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

namespace dt_emu {

namespace {

#if defined(DT_EMU_ASAN)
constexpr size_t kStack = 256 * 1024;
#else
constexpr size_t kStack = 64 * 1024;
#endif
constexpr size_t kGuard = 64 * 1024; /* a large frame must not jump over it */
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned long long kUndefined = ~0ull; /* Note [Warp rendezvous] */

/* ---------------------------------------------------------------------------
 * Stacks (Note [Fibers]).
 */
struct Stack {
    char *map = nullptr; /* guard, then the stack */
    char *lo = nullptr, *hi = nullptr;
#if defined(DT_EMU_ASAN)
    char *dirty_lo = nullptr; /* Note [Stack shadow under ASan] */
    /* clear the shadow fibers left poisoned in [dirty_lo, hi) */
    void clean()
    {
        if (dirty_lo < hi)
            __asan_unpoison_memory_region(dirty_lo, (size_t)(hi - dirty_lo));
        dirty_lo = hi;
    }
#endif
};

struct StackPool {
    std::vector<Stack> stacks;
    ~StackPool() { release(); }
    void release()
    {
        for (Stack &s : stacks) {
#if defined(DT_EMU_ASAN)
            s.clean(); /* the next mmap of these pages must not find stack redzones */
#endif
            munmap(s.map, kGuard + kStack);
        }
        stacks.clear();
    }
    /* at least n stacks, or false */
    bool reserve(size_t n)
    {
        while (stacks.size() < n) {
            void *p = mmap(nullptr, kGuard + kStack, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED)
                return false;
            if (mprotect(p, kGuard, PROT_NONE) != 0) {
                munmap(p, kGuard + kStack);
                return false;
            }
            Stack s;
            s.map = (char *)p;
            s.lo = s.map + kGuard;
            s.hi = s.lo + kStack;
#if defined(DT_EMU_ASAN)
            s.dirty_lo = s.lo;
#endif
            stacks.push_back(s);
        }
        return true;
    }
};

thread_local StackPool t_stacks;

/* ---------------------------------------------------------------------------
 * Fibers and the running launch.
 */
enum State { RUNNABLE, AT_BARRIER, AT_WARP, EXITED, FAULTED };

#if defined(DT_EMU_UCONTEXT)
struct Context {
    ucontext_t uc;
};
#else
struct Context {
    void *sp;
};
#endif

struct Fiber {
    Context ctx;
    Stack *stack;
    unsigned tid; /* linear index in the block */
    uint3 idx;
    State state;
    bool started;
    /* at a barrier */
    int bar_kind, bar_pred, bar_result;
    /* at a warp intrinsic */
    int op_kind, op_arg, op_width;
    unsigned op_mask;
    unsigned long long op_value, op_result;
    /* where it waits */
    const char *file;
    int line;
#if defined(DT_EMU_ASAN)
    void *fake_stack;
#endif
};

struct Run {
    const Grid *g;
    std::vector<Fiber> fibers;
    unsigned nthreads;
    std::vector<unsigned> order; /* this round's runnable fibers */
    size_t pos;                  /* the next of them to run */
    Context sched;
    Fiber *cur;
    unsigned char *dyn_shared;
    uint3 block;
    Schedule schedule;
    unsigned long long rng;
    bool faulted;
    cudaError_t error;
    std::string message;
    char signal_message[256]; /* a fault found in the signal handler */
#if defined(DT_EMU_ASAN)
    void *sched_fake;
    const void *sched_bottom;
    size_t sched_size;
#endif
};

thread_local Run *t_run;

std::string vformat(const char *fmt, va_list ap)
{
    char buf[768];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return buf;
}

/* the first fault of a launch wins */
void record_fault(Run &r, cudaError_t e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void record_fault(Run &r, cudaError_t e, const char *fmt, ...)
{
    if (r.faulted)
        return;
    va_list ap;
    va_start(ap, fmt);
    r.message = vformat(fmt, ap);
    va_end(ap);
    r.faulted = true;
    r.error = e;
}

/* "thread (3,0,0) of block (1,0,0)" */
std::string who(const Run &r, const Fiber &f)
{
    char buf[128];
    snprintf(buf, sizeof buf, "thread (%u,%u,%u) of block (%u,%u,%u)", f.idx.x, f.idx.y, f.idx.z, r.block.x,
             r.block.y, r.block.z);
    return buf;
}

const char *base_name(const char *file)
{
    const char *s = strrchr(file, '/');
    return s ? s + 1 : file;
}

/* ---------------------------------------------------------------------------
 * Switching (Note [Context switch]).
 */
void fiber_main(Fiber *f);

#if defined(DT_EMU_UCONTEXT)
void fiber_main_uc(int hi, int lo)
{
    fiber_main((Fiber *)(((uintptr_t)(unsigned)hi << 32) | (uintptr_t)(unsigned)lo));
}
#endif

/* a fresh context that runs fiber_main(f) on f's stack */
void make_context(Fiber &f)
{
#if defined(DT_EMU_ASAN)
    f.stack->clean(); /* redzones of an earlier fiber's frames */
    f.fake_stack = nullptr;
#endif
#if defined(DT_EMU_UCONTEXT)
    getcontext(&f.ctx.uc);
    f.ctx.uc.uc_stack.ss_sp = f.stack->lo;
    f.ctx.uc.uc_stack.ss_size = kStack;
    f.ctx.uc.uc_link = nullptr;
    uintptr_t p = (uintptr_t)&f;
    makecontext(&f.ctx.uc, (void (*)())fiber_main_uc, 2, (int)(unsigned)(p >> 32), (int)(unsigned)p);
#else
    /* the frame dt_emu_switch pops: control words, r15, r14, r13 = fn,
     * r12 = arg, rbx, rbp = 0, return address = dt_emu_fiber_entry; after
     * its ret rsp is 16-byte aligned, as a call needs */
    uintptr_t top = ((uintptr_t)f.stack->hi & ~(uintptr_t)15) - 16;
    uint64_t *sp = (uint64_t *)(top - 72);
    uint32_t mxcsr;
    uint16_t fpucw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpucw));
    sp[0] = fpucw;
    sp[1] = mxcsr;
    sp[2] = 0;                       /* r15 */
    sp[3] = 0;                       /* r14 */
    sp[4] = (uint64_t)(uintptr_t)&fiber_main; /* r13 */
    sp[5] = (uint64_t)(uintptr_t)&f; /* r12 */
    sp[6] = 0;                       /* rbx */
    sp[7] = 0;                       /* rbp: ends frame-pointer chains */
    sp[8] = (uint64_t)(uintptr_t)&dt_emu_fiber_entry;
    f.ctx.sp = sp;
#endif
}

/* Note [Handing on]
 * A round does not return to the scheduler between fibers: a fiber that
 * blocks or ends switches straight to the next runnable fiber of the
 * round (r.order from r.pos), and only the last one switches back to the
 * scheduler, which then resolves barriers and rendezvous.  One switch per
 * thread per round instead of two. */

/* the next fiber of this round, or nullptr */
Fiber *next_in_round(Run &r)
{
    while (r.pos < r.order.size()) {
        Fiber &n = r.fibers[r.order[r.pos++]];
        if (n.state == RUNNABLE)
            return &n;
    }
    return nullptr;
}

/* make n the running fiber (it runs after the switch that follows) */
void enter(Run &r, Fiber &n)
{
    if (!n.started) {
        make_context(n);
        n.started = true;
    }
    r.cur = &n;
    threadIdx = n.idx;
}

/* run this round's fibers (Note [Handing on]); returns when the last has
 * switched back */
void run_round(Run &r)
{
    r.pos = 0;
    Fiber *f = next_in_round(r);
    if (f == nullptr)
        return;
    enter(r, *f);
#if defined(DT_EMU_ASAN)
    __sanitizer_start_switch_fiber(&r.sched_fake, f->stack->lo, kStack);
#endif
#if defined(DT_EMU_UCONTEXT)
    swapcontext(&r.sched.uc, &f->ctx.uc);
#else
    dt_emu_switch(&r.sched.sp, f->ctx.sp);
#endif
#if defined(DT_EMU_ASAN)
    __sanitizer_finish_switch_fiber(r.sched_fake, nullptr, nullptr);
#endif
    r.cur = nullptr;
}

/* after a switch into fiber f: the first one, from the scheduler, tells
 * ASan's bookkeeping where the scheduler's stack is */
#if defined(DT_EMU_ASAN)
void landed(Run &r, Fiber &f)
{
    if (r.sched_bottom == nullptr)
        __sanitizer_finish_switch_fiber(f.fake_stack, &r.sched_bottom, &r.sched_size);
    else
        __sanitizer_finish_switch_fiber(f.fake_stack, nullptr, nullptr);
}
#else
void landed(Run &, Fiber &) {}
#endif

/* Note [Stack shadow under ASan]
 * A frame's redzones are poisoned on entry and cleared on return, so a
 * fiber that ends, faults or is abandoned (its block faulted) leaves the
 * frames it was inside poisoned, all of them above the place where it
 * last switched away.  The next fiber on that stack must start clean, but
 * clearing the shadow of the whole 256 KB stack per thread started cost
 * a quarter of the sanitizer suite's time: each stack keeps the lowest
 * address it was switched away from (less a margin for this function's
 * own frame), and only [that, top) is cleared.  A switch made from
 * elsewhere (a fault's signal handler runs on its own stack) marks the
 * whole stack.  The pool clears the same range before it unmaps a stack:
 * ASan keeps the shadow of unmapped pages, and the next mmap there (a
 * Python arena, say) would find stack redzones. */
#if defined(DT_EMU_ASAN)
void note_dirty(Stack &st)
{
    char here;
    char *p = &here;
    char *lo = (p >= st.lo + 4096 && p < st.hi) ? p - 4096 : st.lo;
    if (lo < st.dirty_lo)
        st.dirty_lo = lo;
}
#endif

/* fiber f blocks, ends or faults: on to the next fiber of the round, or
 * the scheduler; returns when f is resumed.  final: f never runs again. */
void to_scheduler(Run &r, Fiber &f, bool final)
{
#if defined(DT_EMU_ASAN)
    note_dirty(*f.stack);
#endif
    Fiber *n = r.faulted ? nullptr : next_in_round(r);
    if (n != nullptr)
        enter(r, *n);
#if defined(DT_EMU_ASAN)
    if (n != nullptr)
        __sanitizer_start_switch_fiber(final ? nullptr : &f.fake_stack, n->stack->lo, kStack);
    else
        __sanitizer_start_switch_fiber(final ? nullptr : &f.fake_stack, r.sched_bottom, r.sched_size);
#else
    (void)final;
#endif
#if defined(DT_EMU_UCONTEXT)
    swapcontext(&f.ctx.uc, n != nullptr ? &n->ctx.uc : &r.sched.uc);
#else
    dt_emu_switch(&f.ctx.sp, n != nullptr ? n->ctx.sp : r.sched.sp);
#endif
    landed(r, f);
}

void fiber_main(Fiber *f)
{
    Run &r = *t_run;
    landed(r, *f);
    r.g->body(r.g->ctx);
    f->state = EXITED;
    for (;;) /* never resumed */
        to_scheduler(r, *f, true);
}

/* a fault inside a fiber: record it and leave for good */
[[noreturn]] void fiber_fault(Run &r, Fiber &f, cudaError_t e, const std::string &msg)
{
    record_fault(r, e, "%s", msg.c_str());
    f.state = FAULTED;
    for (;;)
        to_scheduler(r, f, true);
}

/* ---------------------------------------------------------------------------
 * Orders (Note [Orders]).
 */
std::mutex g_schedule_mu;
bool g_schedule_set = false;
Schedule g_schedule = {Order::forward, 0};

unsigned long long splitmix(unsigned long long &s)
{
    unsigned long long z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void build_order(Run &r)
{
    r.order.clear();
    for (unsigned i = 0; i < r.nthreads; i++) {
        unsigned t = r.schedule.order == Order::reverse ? r.nthreads - 1 - i : i;
        if (r.fibers[t].state == RUNNABLE)
            r.order.push_back(t);
    }
    if (r.schedule.order == Order::random)
        for (size_t i = r.order.size(); i > 1; i--) {
            size_t j = (size_t)(splitmix(r.rng) % i);
            std::swap(r.order[i - 1], r.order[j]);
        }
}

/* ---------------------------------------------------------------------------
 * Barriers (Note [Barriers]).
 */

/* every live fiber waits at a barrier: release them, or fault if they wait
 * at different ones.  false when some live fiber does not wait at one. */
bool release_barrier(Run &r)
{
    Fiber *first = nullptr;
    int count = 0, live = 0;
    for (Fiber &f : r.fibers) {
        if (f.state == EXITED)
            continue;
        if (f.state != AT_BARRIER)
            return false;
        live++;
        count += f.bar_pred;
        if (first == nullptr) {
            first = &f;
        } else if (f.file != first->file || f.line != first->line) {
            record_fault(r, cudaErrorIllegalInstruction,
                         "divergent __syncthreads: %s waits at %s:%d, %s at %s:%d",
                         who(r, *first).c_str(), base_name(first->file), first->line, who(r, f).c_str(),
                         base_name(f.file), f.line);
            return true;
        }
    }
    for (Fiber &f : r.fibers) {
        if (f.state != AT_BARRIER)
            continue;
        f.bar_result = f.bar_kind == BAR_COUNT ? count
                       : f.bar_kind == BAR_AND ? count == live
                       : f.bar_kind == BAR_OR  ? count > 0
                                               : 0;
        f.state = RUNNABLE;
    }
    return true;
}

/* ---------------------------------------------------------------------------
 * Warp rendezvous (Note [Warp rendezvous]).
 */
const char *warp_op_name(int kind)
{
    switch (kind) {
    case WARP_SYNC: return "__syncwarp";
    case SHFL_IDX: return "__shfl_sync";
    case SHFL_UP: return "__shfl_up_sync";
    case SHFL_DOWN: return "__shfl_down_sync";
    case SHFL_XOR: return "__shfl_xor_sync";
    case VOTE_BALLOT: return "__ballot_sync";
    case VOTE_ALL: return "__all_sync";
    case VOTE_ANY: return "__any_sync";
    default: return "a warp intrinsic";
    }
}

/* the lane lane reads from for a shuffle, or -1: its own value */
int shuffle_source(const Fiber &f, unsigned lane)
{
    int w = f.op_width;
    unsigned seg = lane & ~(unsigned)(w - 1), last = seg + (unsigned)w - 1;
    switch (f.op_kind) {
    case SHFL_IDX: return (int)(seg + ((unsigned)f.op_arg & (unsigned)(w - 1)));
    case SHFL_UP: return (unsigned)f.op_arg <= lane - seg ? (int)(lane - (unsigned)f.op_arg) : -1;
    case SHFL_DOWN: return (unsigned)f.op_arg <= last - lane ? (int)(lane + (unsigned)f.op_arg) : -1;
    case SHFL_XOR: {
        unsigned j = lane ^ ((unsigned)f.op_arg & 31u);
        return j <= last ? (int)j : -1;
    }
    default: return -1;
    }
}

/* all lanes of mask (base: the warp's first fiber) have arrived: results */
void complete_warp_op(Run &r, unsigned base, unsigned mask)
{
    unsigned ballot = 0, n = 0;
    for (unsigned l = 0; l < 32; l++)
        if ((mask >> l) & 1u) {
            n++;
            if (r.fibers[base + l].op_value != 0)
                ballot |= 1u << l;
        }
    for (unsigned l = 0; l < 32; l++) {
        if (!((mask >> l) & 1u))
            continue;
        Fiber &f = r.fibers[base + l];
        switch (f.op_kind) {
        case VOTE_BALLOT: f.op_result = ballot; break;
        case VOTE_ALL: f.op_result = (unsigned)__builtin_popcount(ballot) == n; break;
        case VOTE_ANY: f.op_result = ballot != 0; break;
        case WARP_SYNC: f.op_result = 0; break;
        default: {
            int src = shuffle_source(f, l);
            if (src < 0)
                f.op_result = f.op_value;
            else if ((mask >> src) & 1u)
                f.op_result = r.fibers[base + (unsigned)src].op_value;
            else
                f.op_result = kUndefined;
        }
        }
        f.state = RUNNABLE;
    }
}

/* the lanes named in f's mask that exist in its warp */
unsigned lanes_in_warp(const Run &r, unsigned base)
{
    unsigned n = r.nthreads - base;
    return n >= 32 ? kFullMask : (1u << n) - 1u;
}

/* the lanes of warp `base` that have exited */
unsigned exited_lanes(const Run &r, unsigned base)
{
    unsigned m = 0;
    for (unsigned l = 0; l < 32 && base + l < r.nthreads; l++)
        if (r.fibers[base + l].state == EXITED)
            m |= 1u << l;
    return m;
}

/* the lanes f's rendezvous waits for: its mask, less (for __syncwarp
 * only) the lanes that have exited or do not exist */
unsigned awaited_lanes(const Run &r, const Fiber &f, unsigned base)
{
    if (f.op_kind != WARP_SYNC)
        return f.op_mask;
    return f.op_mask & lanes_in_warp(r, base) & ~exited_lanes(r, base);
}

/* try to complete lane's rendezvous: 1 done, 0 not ready, -1 fault */
int try_warp_op(Run &r, unsigned base, unsigned lane)
{
    Fiber &f = r.fibers[base + lane];
    unsigned m = f.op_mask, exist = lanes_in_warp(r, base);
    if (f.op_kind != WARP_SYNC && (m & ~exist)) {
        record_fault(r, cudaErrorIllegalInstruction,
                     "%s calls %s at %s:%d with mask 0x%08x, which names lane %d: the warp has only %u lanes",
                     who(r, f).c_str(), warp_op_name(f.op_kind), base_name(f.file), f.line, m,
                     __builtin_ctz(m & ~exist), (unsigned)__builtin_popcount(exist));
        return -1;
    }
    m = awaited_lanes(r, f, base);
    bool ready = true;
    for (unsigned l = 0; l < 32; l++) {
        if (!((m >> l) & 1u))
            continue;
        const Fiber &o = r.fibers[base + l];
        if (o.state == EXITED) {
            record_fault(r, cudaErrorIllegalInstruction,
                         "%s calls %s at %s:%d with mask 0x%08x, but lane %u (%s) has exited", who(r, f).c_str(),
                         warp_op_name(f.op_kind), base_name(f.file), f.line, m, l, who(r, o).c_str());
            return -1;
        }
        if (o.state != AT_WARP || o.op_mask != f.op_mask)
            ready = false;
    }
    if (!ready)
        return 0;
    for (unsigned l = 0; l < 32; l++) {
        const Fiber &o = r.fibers[base + l];
        if (((m >> l) & 1u) && (o.op_kind != f.op_kind || o.op_width != f.op_width || o.op_mask != f.op_mask)) {
            record_fault(r, cudaErrorIllegalInstruction,
                         "the lanes of mask 0x%08x disagree: %s calls %s (width %d) at %s:%d, %s calls %s (width %d) "
                         "at %s:%d",
                         m, who(r, f).c_str(), warp_op_name(f.op_kind), f.op_width, base_name(f.file), f.line,
                         who(r, o).c_str(), warp_op_name(o.op_kind), o.op_width, base_name(o.file), o.line);
            return -1;
        }
    }
    complete_warp_op(r, base, m);
    return 1;
}

/* release every complete rendezvous; true if any was (or a fault) */
bool resolve_warps(Run &r)
{
    bool progress = false;
    for (unsigned base = 0; base < r.nthreads; base += 32) {
        unsigned n = r.nthreads - base < 32 ? r.nthreads - base : 32;
        for (unsigned l = 0; l < n; l++) {
            if (r.fibers[base + l].state != AT_WARP)
                continue;
            int st = try_warp_op(r, base, l);
            if (st < 0)
                return true;
            progress = progress || st > 0;
        }
    }
    return progress;
}

/* "waits at __syncthreads at f.cu:3" */
std::string waiting_at(const Fiber &f)
{
    char buf[160];
    if (f.state == AT_BARRIER)
        snprintf(buf, sizeof buf, "waits at __syncthreads at %s:%d", base_name(f.file), f.line);
    else
        snprintf(buf, sizeof buf, "waits at %s (mask 0x%08x) at %s:%d", warp_op_name(f.op_kind), f.op_mask,
                 base_name(f.file), f.line);
    return buf;
}

/* no fiber can run and no rendezvous completes: say why */
void deadlock(Run &r)
{
    for (unsigned t = 0; t < r.nthreads; t++) {
        const Fiber &f = r.fibers[t];
        if (f.state != AT_WARP)
            continue;
        unsigned base = t & ~31u, m = awaited_lanes(r, f, base);
        for (unsigned l = 0; l < 32; l++) {
            if (!((m >> l) & 1u))
                continue;
            const Fiber &o = r.fibers[base + l];
            if (o.state != AT_WARP || o.op_mask != f.op_mask) {
                record_fault(r, cudaErrorIllegalInstruction, "%s %s, but lane %u (%s) %s", who(r, f).c_str(),
                             waiting_at(f).c_str(), l, who(r, o).c_str(), waiting_at(o).c_str());
                return;
            }
        }
    }
    record_fault(r, cudaErrorIllegalInstruction, "the block's threads wait for one another");
}

/* ---------------------------------------------------------------------------
 * Blocks.
 */
void dynamic_shared_fill(Run &r)
{
    /* shared memory is not initialised: a kernel that reads it before
     * writing it sees bytes no computation produces */
    if (r.g->shared_bytes > 0)
        memset(r.dyn_shared, 0xa5, r.g->shared_bytes);
}

/* run one block to its end; false on a fault */
bool run_block(Run &r)
{
    for (Fiber &f : r.fibers) {
        f.state = RUNNABLE;
        f.started = false;
    }
    unsigned long long lin =
        ((unsigned long long)r.block.z * r.g->grid.y + r.block.y) * r.g->grid.x + r.block.x;
    r.rng = r.schedule.seed ^ (lin * 0x9e3779b97f4a7c15ull);
    dynamic_shared_fill(r);
    for (;;) {
        build_order(r);
        if (!r.order.empty()) {
            run_round(r);
            if (r.faulted)
                return false;
            continue;
        }
        if (resolve_warps(r)) {
            if (r.faulted)
                return false;
            continue;
        }
        bool live = false;
        for (const Fiber &f : r.fibers)
            live = live || f.state != EXITED;
        if (!live)
            return true;
        if (release_barrier(r)) {
            if (r.faulted)
                return false;
            continue;
        }
        deadlock(r);
        return false;
    }
}

/* ---------------------------------------------------------------------------
 * Stack overflow (Note [Faults]).
 */
#if !defined(DT_EMU_ASAN)
struct sigaction g_prev_segv;
std::once_flag g_segv_once;
constexpr size_t kAltStack = 64 * 1024;
thread_local char *t_altstack;

void segv_handler(int sig, siginfo_t *si, void *uctx)
{
    Run *r = t_run;
    Fiber *f = r != nullptr ? r->cur : nullptr;
    char *addr = (char *)si->si_addr;
    if (f != nullptr && f->started && addr >= f->stack->map && addr < f->stack->lo) {
        /* on the alternate stack, which is abandoned like the fiber's; no
         * allocation here (the fiber may have been inside malloc):
         * run_grid copies the message */
        if (!r->faulted) {
            snprintf(r->signal_message, sizeof r->signal_message,
                     "stack overflow: thread (%u,%u,%u) of block (%u,%u,%u) used up its %zu KiB stack (address %p)",
                     f->idx.x, f->idx.y, f->idx.z, r->block.x, r->block.y, r->block.z, kStack / 1024, (void *)addr);
            r->faulted = true;
            r->error = cudaErrorIllegalAddress;
        }
        f->state = FAULTED;
        to_scheduler(*r, *f, true);
    }
    /* not ours: as if we were not here */
    if (g_prev_segv.sa_flags & SA_SIGINFO) {
        g_prev_segv.sa_sigaction(sig, si, uctx);
    } else if (g_prev_segv.sa_handler == SIG_DFL || g_prev_segv.sa_handler == SIG_IGN) {
        signal(SIGSEGV, SIG_DFL); /* the faulting access runs again and kills the process */
    } else {
        g_prev_segv.sa_handler(sig);
    }
}

void install_segv_handler()
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER; /* NODEFER: we leave without returning */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_prev_segv);
}

/* this OS thread's alternate signal stack for the launch; *old to restore */
bool altstack_enter(stack_t *old)
{
    std::call_once(g_segv_once, install_segv_handler);
    if (t_altstack == nullptr) {
        void *p = mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return false;
        t_altstack = (char *)p;
    }
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = t_altstack;
    ss.ss_size = kAltStack;
    return sigaltstack(&ss, old) == 0;
}

void altstack_leave(const stack_t *old)
{
    stack_t ss = *old;
    if (ss.ss_flags & SS_DISABLE)
        ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
}
#endif

} // namespace

/* ---------------------------------------------------------------------------
 * What the intrinsics call (emu_device.h).
 */
int barrier(int kind, int pred, const char *file, int line)
{
    Run *r = t_run;
    if (r == nullptr || r->cur == nullptr)
        return pred; /* outside a kernel: nothing to wait for */
    Fiber &f = *r->cur;
    f.bar_kind = kind;
    f.bar_pred = pred != 0;
    f.file = file;
    f.line = line;
    f.state = AT_BARRIER;
    to_scheduler(*r, f, false);
    return f.bar_result;
}

unsigned long long warp_op(int kind, unsigned mask, unsigned long long value, int arg, int width, const char *file,
                           int line)
{
    Run *r = t_run;
    if (r == nullptr || r->cur == nullptr)
        return value;
    Fiber &f = *r->cur;
    unsigned lane = f.tid & 31u;
    f.file = file;
    f.line = line;
    if (!((mask >> lane) & 1u)) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s calls %s at %s:%d with mask 0x%08x, which does not name its own lane %u",
                 who(*r, f).c_str(), warp_op_name(kind), base_name(file), line, mask, lane);
        fiber_fault(*r, f, cudaErrorIllegalInstruction, buf);
    }
    if (width < 1 || width > 32 || (width & (width - 1)) != 0) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s calls %s at %s:%d with width %d: not a power of two from 1 to 32",
                 who(*r, f).c_str(), warp_op_name(kind), base_name(file), line, width);
        fiber_fault(*r, f, cudaErrorIllegalInstruction, buf);
    }
    f.op_kind = kind;
    f.op_mask = mask;
    f.op_value = value;
    f.op_arg = arg;
    f.op_width = width;
    f.state = AT_WARP;
    to_scheduler(*r, f, false);
    return f.op_result;
}

unsigned active_mask()
{
    Run *r = t_run;
    if (r == nullptr || r->cur == nullptr)
        return 1u;
    unsigned base = r->cur->tid & ~31u, m = 0;
    for (unsigned l = 0; l < 32 && base + l < r->nthreads; l++)
        if (r->fibers[base + l].state != EXITED)
            m |= 1u << l;
    return m;
}

void *dynamic_shared()
{
    Run *r = t_run;
    return r != nullptr ? r->dyn_shared : nullptr;
}

/* ---------------------------------------------------------------------------
 * Orders.
 */
bool parse_schedule(const char *spec, Schedule *out)
{
    if (spec == nullptr)
        return false;
    if (strcmp(spec, "forward") == 0) {
        *out = {Order::forward, 0};
        return true;
    }
    if (strcmp(spec, "reverse") == 0) {
        *out = {Order::reverse, 0};
        return true;
    }
    if (strncmp(spec, "random:", 7) == 0 && spec[7] != '\0') {
        char *end = nullptr;
        errno = 0;
        unsigned long long seed = strtoull(spec + 7, &end, 0);
        if (errno != 0 || *end != '\0' || spec[7] == '-')
            return false;
        *out = {Order::random, seed};
        return true;
    }
    return false;
}

Schedule schedule()
{
    std::lock_guard<std::mutex> lock(g_schedule_mu);
    if (!g_schedule_set) {
        Schedule s = {Order::forward, 0};
        const char *env = getenv("DEVTENSOR_EMULATE_ORDER");
        if (env != nullptr && *env != '\0' && !parse_schedule(env, &s))
            fprintf(stderr, "devtensor: ignoring DEVTENSOR_EMULATE_ORDER=%s (forward, reverse or random:SEED)\n",
                    env);
        g_schedule = s;
        g_schedule_set = true;
    }
    return g_schedule;
}

void set_schedule(const Schedule &s)
{
    std::lock_guard<std::mutex> lock(g_schedule_mu);
    g_schedule = s;
    g_schedule_set = true;
}

void reset_schedule()
{
    std::lock_guard<std::mutex> lock(g_schedule_mu);
    g_schedule_set = false;
}

const char *switch_kind()
{
#if defined(DT_EMU_UCONTEXT)
    return "ucontext";
#else
    return "x86-64";
#endif
}

size_t stack_bytes() { return kStack; }

/* ---------------------------------------------------------------------------
 * Grids.
 */
namespace {

bool prepare_run(Run &r, const Grid &g)
{
    r.g = &g;
    r.nthreads = g.block.x * g.block.y * g.block.z;
    r.cur = nullptr;
    r.faulted = false;
    r.error = cudaSuccess;
    r.signal_message[0] = '\0';
    r.schedule = schedule();
    r.dyn_shared = nullptr;
    if (g.shared_bytes > 0) {
        r.dyn_shared = (unsigned char *)aligned_alloc(128, (g.shared_bytes + 127) / 128 * 128);
        if (r.dyn_shared == nullptr)
            return false;
    }
    if (!t_stacks.reserve(r.nthreads))
        return false;
    r.fibers.resize(r.nthreads);
    for (unsigned t = 0; t < r.nthreads; t++) {
        Fiber &f = r.fibers[t];
        f.stack = &t_stacks.stacks[t];
        f.tid = t;
        f.idx.x = t % g.block.x;
        f.idx.y = t / g.block.x % g.block.y;
        f.idx.z = t / (g.block.x * g.block.y);
    }
    r.order.reserve(r.nthreads);
#if defined(DT_EMU_ASAN)
    r.sched_bottom = nullptr;
    r.sched_size = 0;
#endif
    return true;
}

cudaError_t run_blocks(Run &r, const Grid &g)
{
    gridDim = g.grid;
    blockDim = g.block;
    for (unsigned z = 0; z < g.grid.z; z++)
        for (unsigned y = 0; y < g.grid.y; y++)
            for (unsigned x = 0; x < g.grid.x; x++) {
                r.block.x = x, r.block.y = y, r.block.z = z;
                blockIdx = r.block;
                if (!run_block(r))
                    return r.error;
            }
    return cudaSuccess;
}

} // namespace

cudaError_t run_grid(const Grid &g, std::string *message)
{
    if (t_run != nullptr) {
        *message = "a kernel launched a kernel (dynamic parallelism is not emulated)";
        return cudaErrorNotSupported;
    }
    Run r;
    if (!prepare_run(r, g)) {
        free(r.dyn_shared);
        *message = "out of memory for the emulated block's stacks or shared memory";
        return cudaErrorMemoryAllocation;
    }
#if !defined(DT_EMU_ASAN)
    stack_t old_alt;
    bool alt = altstack_enter(&old_alt);
#endif
    t_run = &r;
    cudaError_t e = run_blocks(r, g);
    t_run = nullptr;
#if !defined(DT_EMU_ASAN)
    if (alt)
        altstack_leave(&old_alt);
#endif
    free(r.dyn_shared);
    if (e != cudaSuccess) {
        *message = r.signal_message[0] != '\0' ? std::string(r.signal_message) : r.message;
        r.fibers.clear();
        t_stacks.release(); /* Note [Faults] */
    }
    return e;
}

} // namespace dt_emu
