#ifndef PETSPOT_CQRENCODE_SHIM_H
#define PETSPOT_CQRENCODE_SHIM_H

// libqrencode from Debian's libqrencode-dev (runtime libqrencode4), found through pkg-config
// (`libqrencode`). Its API is plain C without variadics: Swift calls it directly, from the QRCode
// target only.
#include <qrencode.h>

#endif
