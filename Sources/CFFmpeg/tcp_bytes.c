// The preview's gate asks how much a connection's peer has sent, read by the server yet or not:
// Linux 4.1's tcpi_bytes_received, in linux/tcp.h's struct tcp_info (glibc's netinet/tcp.h has an
// older one without it, and the two cannot meet in one Clang module, hence this file).
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

uint64_t hfr_tcp_bytes_received(int fd) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return 0;
    if (length < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) return 0;
    return info.tcpi_bytes_received;
}
