#ifndef RELAY_CJPEG_SHIM_H
#define RELAY_CJPEG_SHIM_H
// jpeglib.h uses FILE and size_t without including what declares them.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
