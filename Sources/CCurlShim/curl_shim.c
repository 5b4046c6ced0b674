// Fixed-arity wrappers over libcurl's variadic calls (see include/curl_shim.h). Nothing is allocated
// here except what libcurl allocates and the matching cleanup functions release.
#include "curl_shim.h"

#include <pthread.h>
#include <curl/curl.h>

// Why: the header copies libcurl's numbers so Swift never sees <curl/curl.h>; a libcurl that
// changed one would fail the build here rather than set the wrong option.
_Static_assert(PETSPOT_CURLOPT_URL == CURLOPT_URL, "CURLOPT_URL");
_Static_assert(PETSPOT_CURLOPT_USERNAME == CURLOPT_USERNAME, "CURLOPT_USERNAME");
_Static_assert(PETSPOT_CURLOPT_PASSWORD == CURLOPT_PASSWORD, "CURLOPT_PASSWORD");
_Static_assert(PETSPOT_CURLOPT_MAIL_FROM == CURLOPT_MAIL_FROM, "CURLOPT_MAIL_FROM");
_Static_assert(PETSPOT_CURLOPT_MAIL_RCPT == CURLOPT_MAIL_RCPT, "CURLOPT_MAIL_RCPT");
_Static_assert(PETSPOT_CURLOPT_CAINFO == CURLOPT_CAINFO, "CURLOPT_CAINFO");
_Static_assert(PETSPOT_CURLOPT_UPLOAD == CURLOPT_UPLOAD, "CURLOPT_UPLOAD");
_Static_assert(PETSPOT_CURLOPT_INFILESIZE_LARGE == CURLOPT_INFILESIZE_LARGE, "CURLOPT_INFILESIZE_LARGE");
_Static_assert(PETSPOT_CURLOPT_TIMEOUT == CURLOPT_TIMEOUT, "CURLOPT_TIMEOUT");
_Static_assert(PETSPOT_CURLOPT_CONNECTTIMEOUT == CURLOPT_CONNECTTIMEOUT, "CURLOPT_CONNECTTIMEOUT");
_Static_assert(PETSPOT_CURLOPT_NOSIGNAL == CURLOPT_NOSIGNAL, "CURLOPT_NOSIGNAL");
_Static_assert(PETSPOT_CURLOPT_USE_SSL == CURLOPT_USE_SSL, "CURLOPT_USE_SSL");
_Static_assert(PETSPOT_CURLOPT_VERBOSE == CURLOPT_VERBOSE, "CURLOPT_VERBOSE");
_Static_assert(PETSPOT_CURLUSESSL_NONE == CURLUSESSL_NONE, "CURLUSESSL_NONE");
_Static_assert(PETSPOT_CURLUSESSL_TRY == CURLUSESSL_TRY, "CURLUSESSL_TRY");
_Static_assert(PETSPOT_CURLUSESSL_ALL == CURLUSESSL_ALL, "CURLUSESSL_ALL");
_Static_assert(PETSPOT_CURLE_OK == CURLE_OK, "CURLE_OK");

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static int global_result = -1;

static void global_init(void) { global_result = (int)curl_global_init(CURL_GLOBAL_DEFAULT); }

int petspot_curl_global_init_once(void) {
    pthread_once(&global_once, global_init);
    return global_result;
}

petspot_curl *petspot_curl_easy_init(void) { return (petspot_curl *)curl_easy_init(); }

void petspot_curl_easy_cleanup(petspot_curl *handle) { curl_easy_cleanup((CURL *)handle); }

int petspot_curl_setopt_long(petspot_curl *handle, int option, long value) {
    return (int)curl_easy_setopt((CURL *)handle, (CURLoption)option, value);
}

int petspot_curl_setopt_off(petspot_curl *handle, int option, long long value) {
    return (int)curl_easy_setopt((CURL *)handle, (CURLoption)option, (curl_off_t)value);
}

int petspot_curl_setopt_string(petspot_curl *handle, int option, const char *value) {
    return (int)curl_easy_setopt((CURL *)handle, (CURLoption)option, value);
}

int petspot_curl_setopt_slist(petspot_curl *handle, int option, petspot_curl_slist *list) {
    return (int)curl_easy_setopt((CURL *)handle, (CURLoption)option, (struct curl_slist *)list);
}

int petspot_curl_setopt_read(petspot_curl *handle, petspot_curl_read_callback callback, void *userdata) {
    CURLcode code = curl_easy_setopt((CURL *)handle, CURLOPT_READFUNCTION, (curl_read_callback)callback);
    if (code != CURLE_OK) return (int)code;
    return (int)curl_easy_setopt((CURL *)handle, CURLOPT_READDATA, userdata);
}

// CURLOPT_DEBUGFUNCTION: passes the server's lines on to the callback kept in CURLOPT_PRIVATE.
static int reply_trampoline(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata) {
    if (type != CURLINFO_HEADER_IN) return 0;
    char *private_pointer = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_PRIVATE, &private_pointer) != CURLE_OK || private_pointer == NULL) return 0;
    // Why a function pointer through void *: POSIX guarantees the round trip (as for dlsym).
    petspot_curl_reply_callback callback = (petspot_curl_reply_callback)(void *)private_pointer;
    callback(data, 1, size, userdata);
    return 0;
}

int petspot_curl_setopt_replies(petspot_curl *handle, petspot_curl_reply_callback callback, void *userdata) {
    CURL *curl = (CURL *)handle;
    CURLcode code = curl_easy_setopt(curl, CURLOPT_PRIVATE, (void *)callback);
    if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_DEBUGDATA, userdata);
    if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_DEBUGFUNCTION, reply_trampoline);
    if (code == CURLE_OK) code = curl_easy_setopt(curl, CURLOPT_VERBOSE, 1L);
    return (int)code;
}

petspot_curl_slist *petspot_curl_slist_append(petspot_curl_slist *list, const char *value) {
    return (petspot_curl_slist *)curl_slist_append((struct curl_slist *)list, value);
}

void petspot_curl_slist_free(petspot_curl_slist *list) { curl_slist_free_all((struct curl_slist *)list); }

int petspot_curl_perform(petspot_curl *handle) { return (int)curl_easy_perform((CURL *)handle); }

int petspot_curl_response_code(petspot_curl *handle, long *code) {
    return (int)curl_easy_getinfo((CURL *)handle, CURLINFO_RESPONSE_CODE, code);
}

const char *petspot_curl_strerror(int code) { return curl_easy_strerror((CURLcode)code); }
