#ifndef TICK_RUNTIME_HOOKS_H
#define TICK_RUNTIME_HOOKS_H

// TickTesting's C side (see TickRuntimeHooks.c and
// Sources/TickTesting/Async/JobRouting.swift):
// - the load-time initializer that installs its Swift Concurrency hooks
//   before any test code runs;
// - the per-thread and process-wide words its job routing reads on every
//   job of the process, driven or not (Docs/Performance.md, "Work Tick does
//   not drive"). Swift has no thread-local variables, and each access to a
//   Swift global that needs an initializer calls `swift_once`: read on every
//   enqueue and every job run of every async test of the binary, those cost
//   about 150 instructions a `Task.yield()`. Here they are plain C words,
//   read in two or three instructions.
// Internal to TickTesting (`internal import`): clients never need it.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the hooks. Defined in Swift, in TickTesting (`@_cdecl`); called
/// once, by this module's load-time initializer.
void tick_testing_install_runtime_hooks(void);

// MARK: Thread-local words
//
// Invariants:
// - Each is read and written only by its own thread (thread-local storage):
//   no synchronization is needed, and none is done.
// - `tick_thread_driver` is a borrowed pointer to an AsyncDriver: set by that
//   driver's drain for exactly the span of the drain (which holds a strong
//   reference meanwhile), nil outside drains.
// - `tick_thread_running_job` is nil until the thread's first tracked job,
//   then points at the thread's own `tick_thread_own_running_job` (alive as
//   long as the thread), or, while a drain runs on the thread, at that
//   drain's slot (the drain puts back what it found before it returns).
//
// The initial-exec TLS model (ELF only; Mach-O has one model) makes each
// access a load relative to the thread pointer, not a call to
// `__tls_get_addr`. It asks for a few bytes of the static TLS block: an
// executable (a test binary) has them by construction, a library loaded later
// with dlopen gets them from glibc's reserve for such libraries. The other
// branch (the compiler's default model) is what Mach-O gets; CI builds it on
// Linux too, for its sanitizer run (-DTICK_TLS_MODEL_DEFAULT, .ci/run).

/// One run of a job (JobRouting.RunningJob): the job's address and the run's
/// number (0: no job, between the runs of a drain).
typedef struct tick_running_job {
    uintptr_t address;
    uint64_t run;
} tick_running_job;

#if defined(__ELF__) && !defined(TICK_TLS_MODEL_DEFAULT)
#define TICK_THREAD_LOCAL _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define TICK_THREAD_LOCAL _Thread_local
#endif

extern TICK_THREAD_LOCAL void *_Nullable tick_thread_driver;
extern TICK_THREAD_LOCAL tick_running_job *_Nullable tick_thread_running_job;
extern TICK_THREAD_LOCAL tick_running_job tick_thread_own_running_job;

/// The driver whose drain the current thread is in, if any (borrowed).
static inline void *_Nullable tick_current_driver(void) { return tick_thread_driver; }

/// Sets (a drain starting) or clears (the drain ending) the thread's driver.
static inline void tick_set_current_driver(void *_Nullable driver) { tick_thread_driver = driver; }

/// The thread's running-job slot if it has one (nil before its first tracked job).
static inline tick_running_job *_Nullable tick_running_job_slot_if_any(void) { return tick_thread_running_job; }

/// The thread's running-job slot, its own one made current at the first call.
static inline tick_running_job *_Nonnull tick_running_job_slot(void) {
    tick_running_job *slot = tick_thread_running_job;
    if (slot) return slot;
    tick_thread_own_running_job = (tick_running_job){0, 0};
    tick_thread_running_job = &tick_thread_own_running_job;
    return &tick_thread_own_running_job;
}

/// Makes `slot` the thread's running-job slot; returns the one it replaces.
static inline tick_running_job *_Nullable tick_exchange_running_job_slot(tick_running_job *_Nullable slot) {
    tick_running_job *outer = tick_thread_running_job;
    tick_thread_running_job = slot;
    return outer;
}

// MARK: Process-wide words
//
// Invariants: atomic (the `__atomic` builtins); each written only where its
// Swift owner says (JobRouting.swift), read anywhere.

/// The number of the last job run started (`JobRouting.track`).
extern uint64_t tick_job_runs;
/// How many job runs drivers wait for (`JobRouting.Holds`, under its lock).
extern int64_t tick_held_runs;
/// The Bloom filter of the root tasks of every live driver, and their sole
/// driver (`JobRouting.Roots`, under its lock).
extern uint64_t tick_roots_filter;
extern uintptr_t tick_roots_sole;

static inline uint64_t tick_next_job_run(void) { return __atomic_add_fetch(&tick_job_runs, 1, __ATOMIC_RELAXED); }
static inline int64_t tick_held_runs_load(void) { return __atomic_load_n(&tick_held_runs, __ATOMIC_ACQUIRE); }
static inline void tick_held_runs_store(int64_t value) { __atomic_store_n(&tick_held_runs, value, __ATOMIC_RELEASE); }
static inline uint64_t tick_roots_filter_load(void) { return __atomic_load_n(&tick_roots_filter, __ATOMIC_ACQUIRE); }
static inline void tick_roots_filter_store(uint64_t value) { __atomic_store_n(&tick_roots_filter, value, __ATOMIC_RELEASE); }
static inline uintptr_t tick_roots_sole_load(void) { return __atomic_load_n(&tick_roots_sole, __ATOMIC_ACQUIRE); }
static inline void tick_roots_sole_store(uintptr_t value) { __atomic_store_n(&tick_roots_sole, value, __ATOMIC_RELEASE); }

// MARK: The pool's entry point (RuntimePool.swift)
//
// Invariant: written once (release), by the first job Tick hands to its pool,
// with everything it points to already made; never changed after. A reader
// that sees it non-null (acquire) sees the queues.

/// `dispatch_async_f`, and the queue of each job priority.
typedef struct tick_pool {
    void (*_Nonnull async_f)(void *_Nonnull queue, void *_Nullable context, void (*_Nonnull work)(void *_Nullable));
    void *_Nonnull *_Nonnull queues;
} tick_pool;

extern const tick_pool *_Nullable tick_runtime_pool;

static inline const tick_pool *_Nullable tick_runtime_pool_load(void) {
    return __atomic_load_n(&tick_runtime_pool, __ATOMIC_ACQUIRE);
}
/// Publishes the pool (each caller publishes the same one: RuntimePool.setup).
static inline void tick_runtime_pool_store(const tick_pool *_Nonnull pool) {
    __atomic_store_n(&tick_runtime_pool, pool, __ATOMIC_RELEASE);
}

#ifdef __cplusplus
}
#endif

#endif
