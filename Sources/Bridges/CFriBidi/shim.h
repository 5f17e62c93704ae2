#ifndef RELAY_CFRIBIDI_SHIM_H
#define RELAY_CFRIBIDI_SHIM_H
#include <fribidi.h>

/* FriBidi's paragraph directions are macros built from bit masks, which Swift cannot import. */

/** Direction from the text: its first strong character, else left to right. */
static inline FriBidiParType relay_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType relay_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType relay_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
#endif
