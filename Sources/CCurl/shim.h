#ifndef PETSPOT_CCURL_SHIM_H
#define PETSPOT_CCURL_SHIM_H

// libcurl from Debian's libcurl4-openssl-dev, found through pkg-config: the SMTP client of the mail
// alerts (docs/mail.md). `curl_easy_setopt` and `curl_easy_getinfo` are variadic, which Swift cannot
// call: CCurlShim wraps the few we use in fixed-arity C functions, and only that target includes this
// module's header.
#include <curl/curl.h>

#endif
