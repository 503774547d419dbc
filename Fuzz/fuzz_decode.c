// libFuzzer harness for the PNG decoder: feeds arbitrary bytes to the C
// shim's decode function (the same code path PNGDecoder uses) under
// AddressSanitizer and UndefinedBehaviorSanitizer. Built by `make fuzz`.
#include "CPNGShim.h"

#include <stdint.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // Limits small enough that no input can make the harness allocate more
    // than 16 MiB of pixels (2048 × 2048 × 4 samples × 1 byte, or 1024² × 8).
    pinmint_png_decode_options options = { 2048, 2048 * 2048, 1 << 20, 1 };
    pinmint_png_decoded result;
    char message[PINMINT_PNG_MESSAGE_CAPACITY];
    if (pinmint_png_decode(data, size, &options, &result, message) == pinmint_png_ok) {
        // Touch every byte so the sanitizer sees any short allocation.
        const uint8_t *pixels = result.pixels;
        size_t count = (size_t)result.width * result.height * 4 * (size_t)result.bytes_per_sample;
        volatile uint8_t sum = 0;
        for (size_t index = 0; index < count; index++) sum += pixels[index];
        pinmint_png_free(result.pixels);
    } else if (message[0] == 0) {
        __builtin_trap();  // every refusal must say why
    }
    return 0;
}
