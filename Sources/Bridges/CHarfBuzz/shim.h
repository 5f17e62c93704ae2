#ifndef RELAY_CHARFBUZZ_SHIM_H
#define RELAY_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>
#endif
