#include "relay_jpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct relay_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

static void relay_jpeg_error_exit(j_common_ptr info) {
    struct relay_jpeg_error *error = (struct relay_jpeg_error *)info->err;
    longjmp(error->escape, 1);
}

// Warnings (a truncated file, a bad Huffman code) go to stderr by default; the caller decides.
static void relay_jpeg_output_message(j_common_ptr info) { (void)info; }

int relay_jpeg_decode(const uint8_t *data, size_t size, uint64_t max_pixels, int fit_side,
                      uint8_t **pixels, int *width, int *height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct relay_jpeg_error error;
    // Volatile: read after longjmp, which may otherwise restore a stale register copy.
    uint8_t *volatile buffer = NULL;
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (message_size > 0) message[0] = '\0';

    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = relay_jpeg_error_exit;
    error.manager.output_message = relay_jpeg_output_message;
    if (setjmp(error.escape)) {
        if (message_size > 0) (*info.err->format_message)((j_common_ptr)&info, message);
        jpeg_destroy_decompress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    if ((uint64_t)info.image_width * (uint64_t)info.image_height > max_pixels) {
        *width = (int)info.image_width;
        *height = (int)info.image_height;
        jpeg_destroy_decompress(&info);
        return -2;
    }
    info.out_color_space = JCS_RGB;
    if (fit_side > 0) {
        unsigned int longer = info.image_width > info.image_height ? info.image_width : info.image_height;
        unsigned int denominator = 8;
        while (denominator > 1 && longer / denominator < (unsigned int)fit_side) denominator /= 2;
        info.scale_num = 1;
        info.scale_denom = denominator;
    }
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    buffer = malloc(stride * info.output_height);
    if (buffer == NULL) {
        jpeg_destroy_decompress(&info);
        return -3;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = buffer + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    *pixels = buffer;
    jpeg_destroy_decompress(&info);
    return 0;
}
