// GNU libmicrohttpd, loaded on first use.
//
// Linked, it cost every hfr command 2.4 ms at start, though only the live preview serves HTTP. The
// functions hfr calls are defined here under their own names (Swift calls them through CMicroHTTPD
// as microhttpd.h declares them) and forward to the library once it is loaded. Unloaded, starting
// a daemon fails (callers check hfr_microhttpd_load_error first for the reason); no daemon, no
// connection and no response then exist for the others to be called with.
#include "lazy.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>

#include <microhttpd.h>

// The soname follows the library's major version (libmicrohttpd12), which its header does not state.
#define MICROHTTPD_SONAME "libmicrohttpd.so.12"

static struct library microhttpd = {.once = PTHREAD_ONCE_INIT};
static struct {
    __typeof__(&MHD_start_daemon_va) MHD_start_daemon_va;
    __typeof__(&MHD_stop_daemon) MHD_stop_daemon;
    __typeof__(&MHD_lookup_connection_value) MHD_lookup_connection_value;
    __typeof__(&MHD_lookup_connection_value_n) MHD_lookup_connection_value_n;
    __typeof__(&MHD_get_connection_info) MHD_get_connection_info;
    __typeof__(&MHD_queue_response) MHD_queue_response;
    __typeof__(&MHD_create_response_from_callback) MHD_create_response_from_callback;
    __typeof__(&MHD_create_response_from_buffer) MHD_create_response_from_buffer;
    __typeof__(&MHD_destroy_response) MHD_destroy_response;
    __typeof__(&MHD_add_response_header) MHD_add_response_header;
} api;

static void load(void) {
    void *handle = open_library(&microhttpd, MICROHTTPD_SONAME);
    if (!handle) return;
    RESOLVE(microhttpd, handle, api, MHD_start_daemon_va);
    RESOLVE(microhttpd, handle, api, MHD_stop_daemon);
    RESOLVE(microhttpd, handle, api, MHD_lookup_connection_value);
    RESOLVE(microhttpd, handle, api, MHD_lookup_connection_value_n);
    RESOLVE(microhttpd, handle, api, MHD_get_connection_info);
    RESOLVE(microhttpd, handle, api, MHD_queue_response);
    RESOLVE(microhttpd, handle, api, MHD_create_response_from_callback);
    RESOLVE(microhttpd, handle, api, MHD_create_response_from_buffer);
    RESOLVE(microhttpd, handle, api, MHD_destroy_response);
    RESOLVE(microhttpd, handle, api, MHD_add_response_header);
}

const char *hfr_microhttpd_load_error(void) {
    pthread_once(&microhttpd.once, load);
    return microhttpd.status < 0 ? microhttpd.error : NULL;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    if (hfr_microhttpd_load_error()) return NULL;
    va_list options;
    va_start(options, dh_cls);
    struct MHD_Daemon *daemon = api.MHD_start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, options);
    va_end(options);
    return daemon;
}

void MHD_stop_daemon(struct MHD_Daemon *daemon) { api.MHD_stop_daemon(daemon); }

const char *MHD_lookup_connection_value(struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key) {
    return api.MHD_lookup_connection_value(connection, kind, key);
}

enum MHD_Result MHD_lookup_connection_value_n(struct MHD_Connection *connection, enum MHD_ValueKind kind,
                                              const char *key, size_t key_size, const char **value_ptr,
                                              size_t *value_size_ptr) {
    return api.MHD_lookup_connection_value_n(connection, kind, key, key_size, value_ptr, value_size_ptr);
}

// Variadic: the kinds hfr asks for (the socket, the peer's address) take no further argument.
const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...) {
    return api.MHD_get_connection_info(connection, info_type);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection, unsigned int status_code,
                                   struct MHD_Response *response) {
    return api.MHD_queue_response(connection, status_code, response);
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                       void *crc_cls, MHD_ContentReaderFreeCallback crfc) {
    return api.MHD_create_response_from_callback(size, block_size, crc, crc_cls, crfc);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return api.MHD_create_response_from_buffer(size, buffer, mode);
}

void MHD_destroy_response(struct MHD_Response *response) { api.MHD_destroy_response(response); }

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return api.MHD_add_response_header(response, header, content);
}
