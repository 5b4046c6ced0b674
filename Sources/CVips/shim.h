#ifndef PETSPOT_CVIPS_SHIM_H
#define PETSPOT_CVIPS_SHIM_H

// libvips from Debian's libvips-dev, found through pkg-config. Its calls are variadic (option
// lists ending in NULL), which Swift cannot call: CVipsShim wraps the few we use in fixed-arity
// C functions, and only that target includes this module's header.
#include <vips/vips.h>

#endif
