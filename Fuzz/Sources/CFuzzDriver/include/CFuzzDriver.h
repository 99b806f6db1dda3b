// libFuzzer's driver, callable from an entry point of our own.
//
// SwiftPM links a debug executable with `main` renamed to `<Module>_main` (so that tests can
// import it), which leaves libFuzzer's own `main` unused; each target therefore defines
// `<Module>_main` and hands control to libFuzzer here.
#pragma once
#include <stddef.h>
#include <stdint.h>

/// The fuzz callback: one input, returns 0.
typedef int (*pxfuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer with the process's arguments and `callback` as LLVMFuzzerTestOneInput.
int pxfuzz_run(int argc, char **argv, pxfuzz_callback callback);
