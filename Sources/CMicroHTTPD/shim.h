#ifndef PETSPOT_CMICROHTTPD_SHIM_H
#define PETSPOT_CMICROHTTPD_SHIM_H

// Swift cannot call C variadic functions; these static inline wrappers give it
// fixed-arity entry points to the few libmicrohttpd calls that are variadic.

#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <microhttpd.h>
#include <stdio.h>

// Why: MHD_get_daemon_info is variadic; we only ask for the bound port.
static inline uint16_t petspot_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// Why: MHD_get_connection_info is variadic; we only ask for the peer address.
static inline const struct sockaddr *petspot_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// Why: MHD_get_connection_info is variadic; the socket, for the header deadline's shutdown(2).
static inline int petspot_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// Why: MHD_get_connection_info is variadic; the socket context set at MHD_CONNECTION_NOTIFY_STARTED.
static inline void *petspot_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

// Why: libmicrohttpd's log callback takes a va_list, which Swift cannot format; this one formats
// the message and hands the text to `sink` (a Swift function) with the target's `cls`.
typedef void (*petspot_log_sink)(void *cls, const char *line);
struct petspot_log_target {
    petspot_log_sink sink;
    void *cls;
};
static inline void petspot_mhd_logger(void *cls, const char *format, va_list arguments) {
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    const struct petspot_log_target *target = (const struct petspot_log_target *) cls;
    target->sink(target->cls, line);
}
static inline intptr_t petspot_mhd_logger_address(void) {
    return (intptr_t) &petspot_mhd_logger;
}

#endif
