// ICU's line break iterator behind CICUShim.h (see there for why).
#include "CICUShim.h"

#include <unicode/ubrk.h>

int32_t pinmint_icu_line_breaks(const uint16_t *text, int32_t length, const char *locale,
                                int32_t *positions, uint8_t *mandatory, int32_t capacity, int32_t *error) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) { *error = (int32_t)status; return -1; }
    int32_t count = 0;
    for (int32_t position = ubrk_following(iterator, 0); position != UBRK_DONE && count < capacity;
         position = ubrk_next(iterator)) {
        positions[count] = position;
        int32_t rule = ubrk_getRuleStatus(iterator);
        mandatory[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        count++;
    }
    ubrk_close(iterator);
    *error = 0;
    return count;
}
