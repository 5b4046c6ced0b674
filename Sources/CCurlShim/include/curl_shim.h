#ifndef PETSPOT_CURL_SHIM_H
#define PETSPOT_CURL_SHIM_H

// Fixed-arity wrappers over libcurl for SMTP delivery (docs/mail.md). libcurl's `curl_easy_setopt`
// and `curl_easy_getinfo` are C variadics, which Swift cannot call. This header includes no libcurl
// header, so Swift sees only these functions, plain C types and the few constants copied below
// (each checked against libcurl's own value in curl_shim.c at compile time).

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An easy handle (libcurl's CURL *), opaque to Swift.
typedef struct petspot_curl petspot_curl;
/// A string list (libcurl's struct curl_slist *), opaque to Swift.
typedef struct petspot_curl_slist petspot_curl_slist;

/// The read callback libcurl calls for the bytes to upload: fills `buffer` with at most
/// `size * count` bytes and returns how many (0 at the end).
typedef size_t (*petspot_curl_read_callback)(char *buffer, size_t size, size_t count, void *userdata);

/// libcurl's option numbers used by the Swift side (CURLoption values).
enum {
    PETSPOT_CURLOPT_URL = 10002,
    PETSPOT_CURLOPT_USERNAME = 10173,
    PETSPOT_CURLOPT_PASSWORD = 10174,
    PETSPOT_CURLOPT_MAIL_FROM = 10186,
    PETSPOT_CURLOPT_MAIL_RCPT = 10187,
    PETSPOT_CURLOPT_CAINFO = 10065,
    PETSPOT_CURLOPT_UPLOAD = 46,
    PETSPOT_CURLOPT_INFILESIZE_LARGE = 30115,
    PETSPOT_CURLOPT_TIMEOUT = 13,
    PETSPOT_CURLOPT_CONNECTTIMEOUT = 78,
    PETSPOT_CURLOPT_NOSIGNAL = 99,
    PETSPOT_CURLOPT_USE_SSL = 119,
    PETSPOT_CURLOPT_VERBOSE = 41,
};

/// CURLOPT_USE_SSL's values.
enum {
    PETSPOT_CURLUSESSL_NONE = 0,
    PETSPOT_CURLUSESSL_TRY = 1,
    PETSPOT_CURLUSESSL_ALL = 3,
};

/// CURLE_OK: the one result code the Swift side compares against.
enum { PETSPOT_CURLE_OK = 0 };

/// curl_global_init(CURL_GLOBAL_DEFAULT), once per process however often it is called (it is not
/// thread-safe in libcurl itself). Returns its CURLcode.
int petspot_curl_global_init_once(void);

/// curl_easy_init; NULL on failure. Released with petspot_curl_easy_cleanup.
petspot_curl *petspot_curl_easy_init(void);
/// curl_easy_cleanup: closes the handle's connections too.
void petspot_curl_easy_cleanup(petspot_curl *handle);

/// curl_easy_setopt with a long argument. Returns its CURLcode.
int petspot_curl_setopt_long(petspot_curl *handle, int option, long value);
/// curl_easy_setopt with a curl_off_t argument (for *_LARGE options). Returns its CURLcode.
int petspot_curl_setopt_off(petspot_curl *handle, int option, long long value);
/// curl_easy_setopt with a string argument (libcurl copies it; NULL resets). Returns its CURLcode.
int petspot_curl_setopt_string(petspot_curl *handle, int option, const char *value);
/// curl_easy_setopt with a string list (libcurl keeps the pointer: the list must outlive perform).
int petspot_curl_setopt_slist(petspot_curl *handle, int option, petspot_curl_slist *list);
/// CURLOPT_READFUNCTION and CURLOPT_READDATA together. Returns the first failing CURLcode.
int petspot_curl_setopt_read(petspot_curl *handle, petspot_curl_read_callback callback, void *userdata);

/// Called with each line the server answers (for SMTP: every reply line, e.g. "550 5.1.1 no such user\r\n"),
/// `size * count` bytes; returns anything (ignored).
typedef size_t (*petspot_curl_reply_callback)(char *buffer, size_t size, size_t count, void *userdata);
/// Hands the server's reply lines to `callback` with `userdata`: libcurl gives SMTP replies only to its debug
/// callback, so this sets CURLOPT_VERBOSE, CURLOPT_DEBUGFUNCTION (a trampoline that passes on
/// CURLINFO_HEADER_IN only, never our own commands, which carry AUTH credentials), CURLOPT_DEBUGDATA and
/// CURLOPT_PRIVATE (where the trampoline finds `callback`). Returns the first failing CURLcode.
int petspot_curl_setopt_replies(petspot_curl *handle, petspot_curl_reply_callback callback, void *userdata);

/// curl_slist_append: a new list head (NULL on failure; the old list is then still valid).
petspot_curl_slist *petspot_curl_slist_append(petspot_curl_slist *list, const char *value);
/// curl_slist_free_all.
void petspot_curl_slist_free(petspot_curl_slist *list);

/// curl_easy_perform. Returns its CURLcode.
int petspot_curl_perform(petspot_curl *handle);
/// curl_easy_getinfo(CURLINFO_RESPONSE_CODE): the last SMTP reply code (0 when none).
int petspot_curl_response_code(petspot_curl *handle, long *code);
/// curl_easy_strerror: a static English text for a CURLcode.
const char *petspot_curl_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
