// GNU libmicrohttpd for Swift (the preview's HTTP server).
//
// MHD_start_daemon takes its options as C varargs, which Swift cannot call, so a fixed-argument
// wrapper is provided. The listening socket is made here too (getaddrinfo, bind, listen), so a port
// in use is reported by errno before the daemon starts.
#ifndef HFR_CMICROHTTPD_SHIM_H
#define HFR_CMICROHTTPD_SHIM_H

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#include <microhttpd.h>

/// A listening TCP socket on host:port (numeric or a name such as localhost); -1 with errno set,
/// or -2 when the host does not resolve. The backlog is deep (512): when a burst of connections
/// fills it, the kernel drops the next SYN and the client (the owner too) retries only a second
/// later; the daemon accepts quickly and the preview's gate cuts strangers' surplus connections.
static inline int hfr_listen(const char *host, const char *port) {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    if (getaddrinfo(host, port, &hints, &found) != 0 || found == NULL) return -2;
    int fd = socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
    if (fd < 0) {
        freeaddrinfo(found);
        return -1;
    }
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, 512) != 0) {
        int saved = errno;
        close(fd);
        freeaddrinfo(found);
        errno = saved;
        return -1;
    }
    freeaddrinfo(found);
    return fd;
}

/// hfr loads libmicrohttpd on first use (CFFmpeg's lazy_microhttpd.c defines the MHD functions it
/// calls, forwarding to it): NULL once loaded, else why it could not be (hfr_mhd_start then fails).
const char *hfr_microhttpd_load_error(void);

/// Starts a daemon on the listening socket `fd`: a thread per connection, at most `limit` clients,
/// idle connections closed after `timeout` seconds; `notify` hears of each connection opened and
/// closed, `completed` of each request ended (both with `gate`).
static inline struct MHD_Daemon *hfr_mhd_start(
    int fd, unsigned int limit, unsigned int timeout, MHD_AccessHandlerCallback handler, void *context,
    MHD_NotifyConnectionCallback notify, MHD_RequestCompletedCallback completed, void *gate) {
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, 0, NULL, NULL,
        handler, context, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd, MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout, MHD_OPTION_NOTIFY_CONNECTION, notify, gate,
        MHD_OPTION_NOTIFY_COMPLETED, completed, gate, MHD_OPTION_END);
}

/// Whether a connection notification says the connection opened (else it closed): the enum's
/// cases do not import into Swift by name.
static inline int hfr_mhd_is_opened(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

/// The connection's socket, or -1 (MHD_get_connection_info is variadic, which Swift cannot call).
static inline int hfr_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The peer's numeric address into `buffer` (NUL-terminated); 0 on success.
static inline int hfr_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return -1;
    socklen_t length = info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
                                                                 : sizeof(struct sockaddr_in);
    return getnameinfo(info->client_addr, length, buffer, (socklen_t)size, NULL, 0, NI_NUMERICHOST);
}

/// Bytes the peer has sent on the TCP socket `fd`, whether read yet or not; 0 when unknown. Defined
/// in CFFmpeg's tcp_bytes.c: it needs linux/tcp.h's struct tcp_info, which clashes with glibc's in
/// a module.
uint64_t hfr_tcp_bytes_received(int fd);

/// A request's header, cookie or query argument named `key` (NULL when absent): the value kinds'
/// enum cases do not import into Swift by name either.
static inline const char *hfr_mhd_header(struct MHD_Connection *connection, const char *key) {
    return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, key);
}

/// The same with the value's length in `size`: a value may hold a NUL (`?token=T%00`), where the
/// plain lookup's string would end.
static inline const char *hfr_mhd_value(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key, size_t *size) {
    const char *value = NULL;
    if (MHD_lookup_connection_value_n(connection, kind, key, strlen(key), &value, size) != MHD_YES) return NULL;
    return value;
}
static inline const char *hfr_mhd_header_n(struct MHD_Connection *connection, const char *key, size_t *size) {
    return hfr_mhd_value(connection, MHD_HEADER_KIND, key, size);
}
static inline const char *hfr_mhd_cookie_n(struct MHD_Connection *connection, const char *key, size_t *size) {
    return hfr_mhd_value(connection, MHD_COOKIE_KIND, key, size);
}
static inline const char *hfr_mhd_query_n(struct MHD_Connection *connection, const char *key, size_t *size) {
    return hfr_mhd_value(connection, MHD_GET_ARGUMENT_KIND, key, size);
}

/// A response holding its own copy of `size` bytes at `data` (the memory mode's enum cases do not
/// import into Swift by name).
static inline struct MHD_Response *hfr_mhd_copied_response(size_t size, const void *data) {
    return MHD_create_response_from_buffer(size, (void *)data, MHD_RESPMEM_MUST_COPY);
}

#endif
