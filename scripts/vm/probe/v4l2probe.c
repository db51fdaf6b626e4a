/* v4l2probe: what a V4L2 mmap capture client sees (research tool for
 * scripts/vm/NOTES.md; build: gcc -O2 -o v4l2probe v4l2probe.c).
 * Usage: v4l2probe DEV W H FPS NFRAMES [CTRLID:VALUE@FRAME ...]
 *   FRAME -1 = set before STREAMON, -2 = set before REQBUFS.
 * Prints each ioctl failure with errno, each buffer (seq, ts, flags), poll
 * revents other than POLLIN, and a summary of sequence gaps / timestamp deltas. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int fd;
#define X(req, arg, name) xioctl(req, arg, name)
static int xioctl(unsigned long req, void *arg, const char *name) {
  int r;
  do r = ioctl(fd, req, arg); while (r < 0 && errno == EINTR);
  if (r < 0) printf("%s failed: errno %d (%s)\n", name, errno, strerrorname_np(errno));
  return r;
}
struct act { unsigned id; int val; long at; int done; };
static struct act acts[16];
static int nacts;
static void fire(long at) {
  for (int i = 0; i < nacts; i++)
    if (!acts[i].done && acts[i].at == at) {
      struct v4l2_control c = {acts[i].id, acts[i].val};
      acts[i].done = 1;
      int r = X(VIDIOC_S_CTRL, &c, "VIDIOC_S_CTRL");
      printf("set ctrl 0x%x=%d at %ld -> %d\n", acts[i].id, acts[i].val, at, r);
    }
}
static void parm(const char *what) {
  struct v4l2_streamparm p = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  if (X(VIDIOC_G_PARM, &p, "VIDIOC_G_PARM") == 0)
    printf("%s G_PARM: %u/%u s\n", what, p.parm.capture.timeperframe.numerator,
           p.parm.capture.timeperframe.denominator);
}
int main(int argc, char **argv) {
  if (argc < 6) { fprintf(stderr, "usage\n"); return 2; }
  const char *dev = argv[1];
  int w = atoi(argv[2]), h = atoi(argv[3]), fps = atoi(argv[4]);
  long n = atol(argv[5]);
  for (int i = 6; i < argc && nacts < 16; i++) {
    unsigned id; int v; long at;
    if (sscanf(argv[i], "%i:%i@%ld", &id, &v, &at) == 3) acts[nacts++] = (struct act){id, v, at, 0};
  }
  fd = open(dev, O_RDWR | O_NONBLOCK);
  if (fd < 0) { printf("open %s failed: errno %d (%s)\n", dev, errno, strerrorname_np(errno)); return 1; }
  struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
  f.fmt.pix.width = w; f.fmt.pix.height = h; f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
  if (X(VIDIOC_S_FMT, &f, "VIDIOC_S_FMT") == 0)
    printf("S_FMT -> %ux%u\n", f.fmt.pix.width, f.fmt.pix.height);
  if (fps > 0) {
    struct v4l2_streamparm p = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    p.parm.capture.timeperframe.numerator = 1; p.parm.capture.timeperframe.denominator = fps;
    if (X(VIDIOC_S_PARM, &p, "VIDIOC_S_PARM") == 0)
      printf("S_PARM %d fps -> %u/%u s\n", fps, p.parm.capture.timeperframe.numerator,
             p.parm.capture.timeperframe.denominator);
  }
  parm("before streaming");
  fire(-2);
  struct v4l2_requestbuffers rb = {.count = 4, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
  if (X(VIDIOC_REQBUFS, &rb, "VIDIOC_REQBUFS") < 0) return 1;
  for (unsigned i = 0; i < rb.count; i++) {
    struct v4l2_buffer b = {.type = rb.type, .memory = rb.memory, .index = i};
    if (X(VIDIOC_QUERYBUF, &b, "VIDIOC_QUERYBUF") < 0) return 1;
    if (mmap(0, b.length, PROT_READ, MAP_SHARED, fd, b.m.offset) == MAP_FAILED) { perror("mmap"); return 1; }
    if (X(VIDIOC_QBUF, &b, "VIDIOC_QBUF") < 0) return 1;
  }
  fire(-1);
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (X(VIDIOC_STREAMON, &type, "VIDIOC_STREAMON") < 0) return 1;
  long got = 0, gaps = 0, missing = 0, errflag = 0, errors = 0;
  long long prevseq = -1; double prevts = -1, dmin = 1e9, dmax = 0, dsum = 0; long nd = 0;
  while (got < n) {
    fire(got);
    struct pollfd pf = {fd, POLLIN | POLLPRI, 0};
    int pr = poll(&pf, 1, 3000);
    if (pr == 0) { printf("poll: timeout after 3 s (frame %ld)\n", got); break; }
    if (pr < 0) { printf("poll failed: %s\n", strerrorname_np(errno)); break; }
    if (pf.revents & ~POLLIN) printf("poll revents 0x%x%s%s%s at frame %ld\n", pf.revents,
        pf.revents & POLLERR ? " POLLERR" : "", pf.revents & POLLHUP ? " POLLHUP" : "",
        pf.revents & POLLPRI ? " POLLPRI" : "", got);
    struct v4l2_buffer b = {.type = type, .memory = V4L2_MEMORY_MMAP};
    if (X(VIDIOC_DQBUF, &b, "VIDIOC_DQBUF") < 0) {
      if (errno == EAGAIN) continue;
      if (++errors >= 3) break;
      usleep(100000);
      continue;
    }
    double ts = b.timestamp.tv_sec + b.timestamp.tv_usec / 1e6;
    if (b.flags & V4L2_BUF_FLAG_ERROR) errflag++;
    if (got < 3 || (b.flags & V4L2_BUF_FLAG_ERROR) || (prevseq >= 0 && b.sequence != prevseq + 1) ||
        (prevts >= 0 && ts < prevts) || got >= n - 2)
      printf("buf %ld: seq %u ts %.6f flags 0x%x%s bytesused %u\n", got, b.sequence, ts, b.flags,
             b.flags & V4L2_BUF_FLAG_ERROR ? " ERROR" : "", b.bytesused);
    if (prevseq >= 0 && (long long)b.sequence != prevseq + 1) { gaps++; missing += (long long)b.sequence - prevseq - 1; }
    if (prevts >= 0) { double d = ts - prevts; if (d < dmin) dmin = d; if (d > dmax) dmax = d; dsum += d; nd++; }
    prevseq = b.sequence; prevts = ts;
    got++;
    X(VIDIOC_QBUF, &b, "VIDIOC_QBUF");
  }
  printf("summary: frames %ld, seq gaps %ld (missing %ld), ERROR-flagged %ld, ts delta min %.3f avg %.3f max %.3f ms\n",
         got, gaps, missing, errflag, dmin * 1e3, nd ? dsum / nd * 1e3 : 0, dmax * 1e3);
  parm("after streaming");
  X(VIDIOC_STREAMOFF, &type, "VIDIOC_STREAMOFF");
  printf("device node %s after: %s\n", dev, access(dev, F_OK) == 0 ? "exists" : "gone");
  return 0;
}
