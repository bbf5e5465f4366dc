/* thread_exit.h - work a thread's own caches ask to be done when it ends. */
#ifndef DT_THREAD_EXIT_H
#define DT_THREAD_EXIT_H

/* Run fn when the calling thread ends (once however often it is asked for
 * in that thread; up to DT_THREAD_EXIT_MAX functions).  0 on success; -1
 * when it cannot be arranged (the caller then keeps nothing per thread). */
#define DT_THREAD_EXIT_MAX 4
int dt_at_thread_exit(void (*fn)(void));

#endif /* DT_THREAD_EXIT_H */
