#ifndef TICK_RUNTIME_HOOKS_H
#define TICK_RUNTIME_HOOKS_H

// Installs TickTesting's Swift Concurrency hooks when the process loads
// TickTesting, before any test code runs (see TickRuntimeHooks.c and
// Sources/TickTesting/Async/JobRouting.swift). Internal to TickTesting: no
// Swift code imports this module, so clients of TickTesting never need it.

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the hooks. Defined in Swift, in TickTesting (`@_cdecl`); called
/// once, by this module's load-time initializer.
void tick_testing_install_runtime_hooks(void);

#ifdef __cplusplus
}
#endif

#endif
