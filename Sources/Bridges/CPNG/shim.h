#ifndef RELAY_CPNG_SHIM_H
#define RELAY_CPNG_SHIM_H
#include <png.h>
#endif
