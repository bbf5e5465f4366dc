/* cuda_backend.c - the CUDA backend's dt_backend_iface table.
 *
 * The table is the whole interface of devtensor._cuda (backend.h, Note
 * [Backend ABI]); cuda_module.c hands its address to devtensor._C in a
 * capsule.  Each slot is implemented in the file that owns its concern.
 */
#include "cuda_internal.h"

static const dt_backend_iface cuda_iface = {
    .abi_version = DT_BACKEND_ABI_VERSION,
    .name = "cuda",

    .device_count = dt_cuda_device_count,
    .unavailable_reason = dt_cuda_unavailable_reason,
    .get_device = dt_cuda_device_get,
    .set_device = dt_cuda_device_set,
    .device_props = dt_cuda_device_props,
    .can_access_peer = dt_cuda_peer_can_access,
    .synchronize = dt_cuda_device_synchronize,

    .alloc = dt_cuda_alloc,
    .free = dt_cuda_free,
    .record_stream = dt_cuda_alloc_record_stream,
    .memory_stats = dt_cuda_alloc_stats,
    .reset_peak_stats = dt_cuda_alloc_reset_peak,
    .empty_cache = dt_cuda_alloc_empty_cache,
    .mem_get_info = dt_cuda_mem_get_info,

    .host_alloc_pinned = dt_cuda_host_alloc_pinned,
    .host_free_pinned = dt_cuda_host_free_pinned,
    .host_is_pinned = dt_cuda_host_is_pinned,

    .copy = dt_cuda_copy,

    .run_loop = dt_cuda_loop_run,
    .generate = dt_cuda_gen_run,

    .stream_create = dt_cuda_stream_create,
    .stream_destroy = dt_cuda_stream_destroy,
    .stream_synchronize = dt_cuda_stream_synchronize,
    .stream_query = dt_cuda_stream_query,
    .stream_wait_event = dt_cuda_stream_wait_event,
    .get_stream = dt_cuda_stream_get,
    .set_stream = dt_cuda_stream_set,
    .event_create = dt_cuda_event_create,
    .event_destroy = dt_cuda_event_destroy,
    .event_record = dt_cuda_event_record,
    .event_synchronize = dt_cuda_event_synchronize,
    .event_query = dt_cuda_event_query,
    .event_elapsed_ms = dt_cuda_event_elapsed_ms,

    .run_index = dt_cuda_index_run,
    .run_reduce = dt_cuda_reduce_run,
    .run_scan = dt_cuda_scan_run,
    .run_search = dt_cuda_search_run,
    .run_sort = dt_cuda_sort_run,
    .run_matmul = dt_cuda_matmul_run,
    .run_linalg = dt_cuda_linalg_run,
    .run_fft = dt_cuda_fft_run,

    .pointer_device = dt_cuda_pointer_device,
    .stream_native = dt_cuda_stream_native,
    .wait_native_stream = dt_cuda_stream_wait_native,
};

const dt_backend_iface *dt_cuda_backend_iface(void)
{
    return &cuda_iface;
}
