// The V4L2 kernel API for Swift.
//
// The ioctl request codes (VIDIOC_*) are built by the _IOR/_IOWR macros and the pixel formats by
// v4l2_fourcc(); Swift evaluates neither, so the ones hfr uses are re-exported as constants.
// ioctl itself is variadic in C, so a typed wrapper is provided too.
#ifndef HFR_CV4L2_SHIM_H
#define HFR_CV4L2_SHIM_H

#include <linux/videodev2.h>
#include <sys/ioctl.h>

static const unsigned long HFR_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long HFR_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long HFR_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long HFR_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long HFR_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long HFR_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long HFR_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long HFR_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long HFR_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long HFR_VIDIOC_QUERY_EXT_CTRL = VIDIOC_QUERY_EXT_CTRL;
static const unsigned long HFR_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long HFR_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long HFR_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;
static const unsigned long HFR_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long HFR_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long HFR_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long HFR_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long HFR_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long HFR_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;

// Control ids are sums of class bases (V4L2_CID_BASE + n), which Swift does not evaluate.
static const unsigned int HFR_V4L2_CID_EXPOSURE_AUTO = V4L2_CID_EXPOSURE_AUTO;
static const unsigned int HFR_V4L2_CID_EXPOSURE_ABSOLUTE = V4L2_CID_EXPOSURE_ABSOLUTE;
static const unsigned int HFR_V4L2_CID_EXPOSURE_AUTO_PRIORITY = V4L2_CID_EXPOSURE_AUTO_PRIORITY;
static const unsigned int HFR_V4L2_CID_FOCUS_AUTO = V4L2_CID_FOCUS_AUTO;
static const unsigned int HFR_V4L2_CID_FOCUS_ABSOLUTE = V4L2_CID_FOCUS_ABSOLUTE;
static const unsigned int HFR_V4L2_CID_AUTO_WHITE_BALANCE = V4L2_CID_AUTO_WHITE_BALANCE;
static const unsigned int HFR_V4L2_CID_WHITE_BALANCE_TEMPERATURE = V4L2_CID_WHITE_BALANCE_TEMPERATURE;
static const unsigned int HFR_V4L2_CID_AUTOGAIN = V4L2_CID_AUTOGAIN;
static const unsigned int HFR_V4L2_CID_GAIN = V4L2_CID_GAIN;
static const unsigned int HFR_V4L2_CID_POWER_LINE_FREQUENCY = V4L2_CID_POWER_LINE_FREQUENCY;
static const unsigned int HFR_V4L2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const unsigned int HFR_V4L2_CTRL_FLAG_NEXT_COMPOUND = V4L2_CTRL_FLAG_NEXT_COMPOUND;

static const unsigned int HFR_V4L2_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const unsigned int HFR_V4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
static const unsigned int HFR_V4L2_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const unsigned int HFR_V4L2_PIX_FMT_UYVY = V4L2_PIX_FMT_UYVY;
static const unsigned int HFR_V4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
static const unsigned int HFR_V4L2_PIX_FMT_H264 = V4L2_PIX_FMT_H264;

/// ioctl with one pointer argument, the only shape V4L2 uses.
static inline int hfr_v4l2_ioctl(int fd, unsigned long request, void *arg) {
    return ioctl(fd, request, arg);
}

#endif
