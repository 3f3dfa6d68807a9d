// libFuzzer's driver, called from the executable's entry point with the
// arguments libFuzzer should see and the function it fuzzes.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
