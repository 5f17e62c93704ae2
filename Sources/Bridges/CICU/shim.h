#ifndef RELAY_CICU_SHIM_H
#define RELAY_CICU_SHIM_H
/* Links ICU's common library (libicuuc) and gives its compiler flags to the C shim, which
   calls it (CRelayShim/icu_shim.c). Swift sees none of ICU's declarations: Foundation carries
   its own ICU, whose types of the same names would clash. */
#include <stdint.h>
#endif
