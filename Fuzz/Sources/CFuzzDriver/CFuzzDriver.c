#include "CFuzzDriver.h"

// Provided by libFuzzer (linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

int pxfuzz_run(int argc, char **argv, pxfuzz_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
