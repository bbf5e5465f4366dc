/* cuda_fft.c - the CUDA backend's Fourier transforms (backend.h's
 * dt_fft_loop) through cuFFT.
 *
 * Note [Loading cuFFT]
 * As cuBLAS (Note [Loading cuBLAS] in cuda_blas.c, Note [Libraries opened
 * on first use] in library.h): opened with dlopen on the first transform
 * on a CUDA device, by soname and then from the toolkit devtensor was
 * built with; the emulated build links the reference implementation in
 * csrc/emu/emu_fft.cpp.
 *
 * Note [cuFFT plans]
 * Making a plan costs far more than a small transform, so plans are kept:
 * per device, up to DT_CUFFT_PLANS of them keyed by (type, rank, sizes,
 * batch), the least recently used destroyed to make room (as PyTorch's
 * and CuPy's plan caches do).  A plan is made with the device current and
 * auto allocation off: each call takes the work area it asks for from the
 * caching allocator on the call's stream and gives it back once the
 * transform is queued (the allocator reuses it only for work queued after
 * on that stream), so an idle plan holds no workspace.  A plan serves one
 * call at a time: the device's lock is held from cufftSetStream to the
 * exec.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cufft.h>

#include "cuda_internal.h"
#include "library.h"

/* ---- the library ---- */

#define DT_CUFFT_FUNCTIONS(X)                                                          \
    X(create, cufftCreate) X(destroy, cufftDestroy)                                    \
    X(set_auto_allocation, cufftSetAutoAllocation)                                     \
    X(make_plan_many64, cufftMakePlanMany64) X(set_work_area, cufftSetWorkArea)        \
    X(set_stream, cufftSetStream) X(exec_c2c, cufftExecC2C) X(exec_z2z, cufftExecZ2Z)  \
    X(exec_r2c, cufftExecR2C) X(exec_d2z, cufftExecD2Z) X(exec_c2r, cufftExecC2R)      \
    X(exec_z2d, cufftExecZ2D)

typedef struct cufft_api {
#define DT_CUFFT_FIELD_(FIELD, SYMBOL) __typeof__(&SYMBOL) FIELD;
    DT_CUFFT_FUNCTIONS(DT_CUFFT_FIELD_)
#undef DT_CUFFT_FIELD_
} cufft_api;

static dt_library library = DT_LIBRARY_INIT;

#ifdef DEVTENSOR_EMULATED
static cufft_api api;

static int load(char *error, size_t size)
{
    (void)error, (void)size;
#define DT_CUFFT_LINK_(FIELD, SYMBOL) api.FIELD = SYMBOL;
    DT_CUFFT_FUNCTIONS(DT_CUFFT_LINK_)
#undef DT_CUFFT_LINK_
    return 1;
}
#define API (&api)
#else
#define DT_STR2_(x) #x
#define DT_STR_(x) DT_STR2_(x)
#define DT_CUFFT_SONAME "libcufft.so." DT_STR_(CUFFT_VER_MAJOR)

static const char *const symbols[] = {
#define DT_CUFFT_NAME_(FIELD, SYMBOL) #SYMBOL,
    DT_CUFFT_FUNCTIONS(DT_CUFFT_NAME_)
#undef DT_CUFFT_NAME_
};
#define N_SYMBOLS (sizeof symbols / sizeof *symbols)

static union {
    cufft_api functions;
    void *slots[N_SYMBOLS];
} table;
_Static_assert(sizeof(cufft_api) == sizeof(void *[N_SYMBOLS]), "one pointer per function");

static int load(char *error, size_t size)
{
    static const char *const paths[] = {
        DT_CUFFT_SONAME,
#ifdef DT_CUDA_LIB_DIR
        DT_CUDA_LIB_DIR "/" DT_CUFFT_SONAME,
#endif
    };
    return dt_library_load("cuFFT", paths, sizeof paths / sizeof *paths,
                           "Fourier transforms on CUDA devices", symbols, table.slots, N_SYMBOLS,
                           error, size);
}
#define API (&table.functions)
#endif

static const cufft_api *get_api(dt_error *err)
{
    return dt_library_ensure(&library, load, err) == DT_OK ? API : NULL;
}

dt_status dt_cuda_fft_load(dt_error *err)
{
    return get_api(err) != NULL ? DT_OK : err->status;
}

static const char *result_name(cufftResult r)
{
    switch (r) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "unknown";
    }
}

static dt_status fft_check(cufftResult r, const char *call, int device, dt_error *err)
{
    if (r == CUFFT_SUCCESS)
        return DT_OK;
    return dt_error_set(err, r == CUFFT_ALLOC_FAILED ? DT_ERR_DEVICE_OOM : DT_ERR_RUNTIME,
                        "cuFFT error in %s on cuda:%d: %s (status %d)", call, device,
                        result_name(r), (int)r);
}

/* ---- plans (Note [cuFFT plans]) ---- */

#define DT_CUFFT_PLANS 16

typedef struct plan_key {
    int type, rank;
    int64_t n[3];
    int64_t batch;
} plan_key;

typedef struct plan_entry {
    plan_key key;
    cufftHandle plan;
    size_t work_size;
    uint64_t last_use;   /* 0: the slot is empty */
} plan_entry;

typedef struct device_plans {
    pthread_mutex_t lock;
    plan_entry entries[DT_CUFFT_PLANS];
    uint64_t clock;
} device_plans;

static device_plans devices[DT_CUDA_MAX_DEVICES];
static pthread_once_t devices_once = PTHREAD_ONCE_INIT;

static void init_devices(void)
{
    for (int i = 0; i < DT_CUDA_MAX_DEVICES; i++)
        pthread_mutex_init(&devices[i].lock, NULL);
}

static int same_key(const plan_key *a, const plan_key *b)
{
    return a->type == b->type && a->rank == b->rank && a->batch == b->batch &&
           memcmp(a->n, b->n, sizeof a->n) == 0;
}

/* The plan for key on device dev (its lock held), made if not cached. */
static dt_status get_plan(const cufft_api *a, device_plans *d, int dev, const plan_key *key,
                          plan_entry **out, dt_error *err)
{
    plan_entry *victim = &d->entries[0];
    for (int i = 0; i < DT_CUFFT_PLANS; i++) {
        plan_entry *e = &d->entries[i];
        if (e->last_use != 0 && same_key(&e->key, key)) {
            e->last_use = ++d->clock;
            *out = e;
            return DT_OK;
        }
        if (e->last_use < victim->last_use)
            victim = e;
    }
    if (victim->last_use != 0) {
        (void)a->destroy(victim->plan); /* waits for its queued work, as cudaFree does */
        victim->last_use = 0;
    }
    cufftHandle plan;
    DT_TRY(fft_check(a->create(&plan), "cufftCreate", dev, err));
    long long n[3] = {key->n[0], key->n[1], key->n[2]};
    size_t work = 0;
    cufftResult r = a->set_auto_allocation(plan, 0);
    if (r == CUFFT_SUCCESS)
        r = a->make_plan_many64(plan, key->rank, n, NULL, 1, 0, NULL, 1, 0, (cufftType)key->type,
                                key->batch, &work);
    if (r != CUFFT_SUCCESS) {
        (void)a->destroy(plan);
        return fft_check(r, "cufftMakePlanMany64", dev, err);
    }
    victim->key = *key;
    victim->plan = plan;
    victim->work_size = work;
    victim->last_use = ++d->clock;
    *out = victim;
    return DT_OK;
}

/* ---- one loop ---- */

static cufftType plan_type(const dt_fft_loop *l)
{
    int dbl = l->dtype == DT_COMPLEX128;
    switch (l->kind) {
    case DT_FFT_R2C: return dbl ? CUFFT_D2Z : CUFFT_R2C;
    case DT_FFT_C2R: return dbl ? CUFFT_Z2D : CUFFT_C2R;
    default: return dbl ? CUFFT_Z2Z : CUFFT_C2C;
    }
}

static cufftResult execute(const cufft_api *a, cufftHandle plan, const dt_fft_loop *l)
{
    int sign = l->inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    switch (plan_type(l)) {
    case CUFFT_C2C: return a->exec_c2c(plan, (cufftComplex *)l->in, (cufftComplex *)l->out, sign);
    case CUFFT_Z2Z:
        return a->exec_z2z(plan, (cufftDoubleComplex *)l->in, (cufftDoubleComplex *)l->out, sign);
    case CUFFT_R2C: return a->exec_r2c(plan, (cufftReal *)l->in, (cufftComplex *)l->out);
    case CUFFT_D2Z: return a->exec_d2z(plan, (cufftDoubleReal *)l->in, (cufftDoubleComplex *)l->out);
    case CUFFT_C2R: return a->exec_c2r(plan, (cufftComplex *)l->in, (cufftReal *)l->out);
    default: return a->exec_z2d(plan, (cufftDoubleComplex *)l->in, (cufftDoubleReal *)l->out);
    }
}

dt_status dt_cuda_fft_run(const dt_fft_loop *l, dt_error *err)
{
    if (l == NULL || (unsigned)l->kind > DT_FFT_C2R || l->rank < 1 || l->rank > 3 ||
        l->count < 1 || l->in == NULL || l->out == NULL ||
        (l->dtype != DT_COMPLEX64 && l->dtype != DT_COMPLEX128))
        return dt_error_set(err, DT_ERR_VALUE, "run_fft: a bad loop");
    int64_t total = l->count;
    for (int i = 0; i < l->rank; i++)
        if (l->shape[i] < 1 || __builtin_mul_overflow(total, l->shape[i], &total))
            return dt_error_set(err, DT_ERR_VALUE, "run_fft: a bad loop");
    DT_TRY(dt_cuda_index_check(l->device_index, err));
    const cufft_api *a = get_api(err);
    if (a == NULL)
        return err->status;
    int dev = l->device_index;
    dt_cuda_stream *stream;
    cudaStream_t raw;
    DT_TRY(dt_cuda_stream_resolve(dev, l->stream, &stream, &raw, err));
    plan_key key;
    memset(&key, 0, sizeof key);
    key.type = (int)plan_type(l);
    key.rank = l->rank;
    for (int i = 0; i < 3; i++)
        key.n[i] = i < l->rank ? l->shape[i] : 1;
    key.batch = l->count;
    dt_cuda_guard g;
    DT_TRY(dt_cuda_guard_enter(&g, dev, err));
    pthread_once(&devices_once, init_devices);
    device_plans *d = &devices[dev];
    pthread_mutex_lock(&d->lock);
    plan_entry *e = NULL;
    void *work = NULL, *work_ctx = NULL;
    dt_status st = get_plan(a, d, dev, &key, &e, err);
    if (st == DT_OK && e->work_size > 0)
        st = dt_cuda_alloc(dev, e->work_size, stream, &work, &work_ctx, err);
    if (st == DT_OK)
        st = fft_check(a->set_work_area(e->plan, work), "cufftSetWorkArea", dev, err);
    if (st == DT_OK)
        st = fft_check(a->set_stream(e->plan, raw), "cufftSetStream", dev, err);
    if (st == DT_OK)
        st = fft_check(execute(a, e->plan, l), "cufftExec", dev, err);
    if (work != NULL)
        dt_cuda_free(dev, work, work_ctx);
    pthread_mutex_unlock(&d->lock);
    dt_cuda_guard_exit(&g);
    return st;
}
