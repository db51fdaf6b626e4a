/*
 * layered-h264: encode raw I420 frames from stdin into an Annex B H.264
 * stream with OpenH264 temporal layers (Debian's ffmpeg lacks libopenh264).
 *
 *   layered-h264 WIDTH HEIGHT FPS LAYERS OUTPUT.h264 < frames.yuv
 *
 * Prints one line per encoded frame to stderr: "frame N tid T type X".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wels/codec_api.h>

static void die(const char *msg) {
  fprintf(stderr, "layered-h264: %s\n", msg);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc != 6)
    die("usage: layered-h264 WIDTH HEIGHT FPS LAYERS OUTPUT.h264 < i420");
  int w = atoi(argv[1]), h = atoi(argv[2]), layers = atoi(argv[4]);
  float fps = (float)atof(argv[3]);
  if (w <= 0 || h <= 0 || fps <= 0 || layers < 1 || layers > 4)
    die("bad arguments");
  FILE *out = fopen(argv[5], "wb");
  if (!out) die("cannot open output");

  ISVCEncoder *enc = NULL;
  if (WelsCreateSVCEncoder(&enc) != 0 || !enc) die("WelsCreateSVCEncoder failed");

  SEncParamExt p;
  (*enc)->GetDefaultParams(enc, &p);
  p.iUsageType = CAMERA_VIDEO_REAL_TIME;
  p.iPicWidth = w;
  p.iPicHeight = h;
  p.fMaxFrameRate = fps;
  p.iTargetBitrate = 1000000;
  p.iRCMode = RC_BITRATE_MODE;
  p.bEnableFrameSkip = false;      /* every input frame must produce a picture */
  p.iTemporalLayerNum = layers;
  p.uiIntraPeriod = (unsigned)(fps + 0.5f); /* one IDR per second */
  p.bPrefixNalAddingCtrl = true;   /* NAL type 14 carries temporal_id per frame */
  p.iMultipleThreadIdc = 1;        /* single thread: byte-identical output */
  p.iSpatialLayerNum = 1;
  SSpatialLayerConfig *s = &p.sSpatialLayers[0];
  s->iVideoWidth = w;
  s->iVideoHeight = h;
  s->fFrameRate = fps;
  s->iSpatialBitrate = p.iTargetBitrate;
  s->iMaxSpatialBitrate = UNSPECIFIED_BIT_RATE;
  s->sSliceArgument.uiSliceMode = SM_SINGLE_SLICE;
  int trace = WELS_LOG_ERROR; /* the frame-skip-off warning is intended */
  (*enc)->SetOption(enc, ENCODER_OPTION_TRACE_LEVEL, &trace);
  if ((*enc)->InitializeExt(enc, &p) != 0) die("InitializeExt failed");
  int fmt = videoFormatI420;
  (*enc)->SetOption(enc, ENCODER_OPTION_DATAFORMAT, &fmt);

  size_t ysize = (size_t)w * h, csize = (size_t)(w / 2) * (h / 2);
  unsigned char *buf = malloc(ysize + 2 * csize);
  if (!buf) die("out of memory");

  SSourcePicture pic;
  memset(&pic, 0, sizeof pic);
  pic.iColorFormat = videoFormatI420;
  pic.iPicWidth = w;
  pic.iPicHeight = h;
  pic.iStride[0] = w;
  pic.iStride[1] = pic.iStride[2] = w / 2;
  pic.pData[0] = buf;
  pic.pData[1] = buf + ysize;
  pic.pData[2] = buf + ysize + csize;

  /* Access unit delimiter before every frame: ffmpeg's H.264 parser does not
   * start a new access unit at a prefix NAL (type 14), so without an AUD the
   * prefix of frame N+1 would be glued onto the end of packet N. */
  static const unsigned char aud[] = {0, 0, 0, 1, 0x09, 0xf0};

  SFrameBSInfo info;
  for (long n = 0; fread(buf, 1, ysize + 2 * csize, stdin) == ysize + 2 * csize; n++) {
    pic.uiTimeStamp = (long long)(n * 1000.0 / fps + 0.5); /* milliseconds */
    memset(&info, 0, sizeof info);
    if ((*enc)->EncodeFrame(enc, &pic, &info) != cmResultSuccess) die("EncodeFrame failed");
    if (info.eFrameType == videoFrameTypeSkip) die("encoder skipped a frame");
    if (fwrite(aud, 1, sizeof aud, out) != sizeof aud) die("write failed");
    int tid = -1;
    for (int l = 0; l < info.iLayerNum; l++) {
      const SLayerBSInfo *li = &info.sLayerInfo[l];
      size_t len = 0;
      for (int i = 0; i < li->iNalCount; i++) len += li->pNalLengthInByte[i];
      /* pBsBuf already holds start-code-prefixed NALs, i.e. Annex B */
      if (fwrite(li->pBsBuf, 1, len, out) != len) die("write failed");
      if (li->uiLayerType == VIDEO_CODING_LAYER) tid = li->uiTemporalId;
    }
    fprintf(stderr, "frame %ld tid %d type %d\n", n, tid, info.eFrameType);
  }

  (*enc)->Uninitialize(enc);
  WelsDestroySVCEncoder(enc);
  free(buf);
  return fclose(out) == 0 ? 0 : 1;
}
