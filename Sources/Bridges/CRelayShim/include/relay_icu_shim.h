// ICU's line-break iterator behind plain C types. ICU's headers cannot be imported into Swift
// beside Foundation, which carries its own, newer ICU with the same type names; and they rename
// every function with ICU's version (ubrk_open is ubrk_open_72) through macros.
#ifndef RELAY_ICU_SHIM_H
#define RELAY_ICU_SHIM_H

#include <stdint.h>

/// The line-break opportunities (UAX #14, with ICU's dictionaries for Thai, Lao, Khmer and
/// Burmese) of the UTF-16 text `text` of `length` units, for the root locale: writes up to
/// `capacity` offsets (in units, each where a line may start; the text's end included) to
/// `breaks`, and returns how many there are (more than `capacity` when they did not all fit),
/// or -1 when ICU failed (its data missing).
int32_t relay_line_breaks(const uint16_t *text, int32_t length, int32_t *breaks, int32_t capacity);

#endif
