// File flags glibc defines only under _GNU_SOURCE, which Swift's Glibc module is not built with.
#define _GNU_SOURCE
#include <fcntl.h>

const int hfr_o_tmpfile = O_TMPFILE;
