// Decoding a JPEG image with libjpeg, whose errors leave through longjmp: Swift cannot call
// setjmp, so the whole decode lives here and returns a plain error code and message.
#ifndef RELAY_JPEG_SHIM_H
#define RELAY_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the JPEG image in `data` to 8-bit RGB rows (3 bytes a pixel, no padding), into a
/// buffer it allocates with malloc (`*pixels`, freed by the caller with free()).
///
/// Images of more than `max_pixels` pixels are refused after reading the header, before any
/// pixel buffer exists. With `fit_side` > 0, libjpeg's own scaling (1/2, 1/4, 1/8, which costs
/// less than decoding the whole image) reduces the image as far as it can while its longer
/// side stays at least `fit_side`.
///
/// Returns 0 and sets `*pixels`, `*width` and `*height`; -1 with libjpeg's message in `message`
/// for a damaged or unsupported image; -2 when it has more pixels than `max_pixels` (its size
/// in `*width`, `*height`); -3 when memory runs out.
int relay_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels, int fit_side,
                      uint8_t **pixels, int *width, int *height, char *message, size_t message_size);

#endif
