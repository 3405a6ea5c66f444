#include "TickRuntimeHooks.h"

// A load-time initializer for TickTesting (Docs/AsyncAwait.md, "How
// quiescence works", item 1).
//
// Tick tells when a test body suspends by running every job itself, inside a
// wrapper that notes the job run (JobRouting.track). That only works for jobs
// that passed through its Concurrency hooks, so the hooks must be in place
// before the first test body starts: a body already running when they went in
// would run in a job Tick did not start. An initializer of the image that
// links TickTesting (ELF .init_array, Mach-O __mod_init_func, COFF .CRT$XCU)
// runs before `main`, or, for a test bundle loaded at run time, when the
// bundle is loaded, before any of its code.
//
// The hooks themselves are installed by Swift code in TickTesting (a
// C-callable entry point): it only looks the hook variables up with dlsym and
// stores function pointers in them, which needs none of the image's Swift
// metadata to be registered yet. No job is enqueued this early, so no hook
// runs before `main`.
//
// SwiftPM and Xcode link this object with TickTesting's. A build that linked
// TickTesting from a static archive could leave it out (nothing refers to
// it): TickTesting then installs the hooks lazily, as documented.

__attribute__((constructor)) static void tick_runtime_hooks_at_load(void) {
    tick_testing_install_runtime_hooks();
}

// The words of the header's "Thread-local words" and "Process-wide words"
// (their invariants are written there).
TICK_THREAD_LOCAL void *_Nullable tick_thread_driver = 0;
TICK_THREAD_LOCAL tick_running_job *_Nullable tick_thread_running_job = 0;
TICK_THREAD_LOCAL tick_running_job tick_thread_own_running_job = {0, 0};
uint64_t tick_job_runs = 0;
int64_t tick_held_runs = 0;
uint64_t tick_roots_filter = 0;
uintptr_t tick_roots_sole = 0;
const tick_pool *_Nullable tick_runtime_pool = 0;
