#!/bin/sh
# The research runs behind scripts/vm/NOTES.md (vivid fault controls, ALSA
# loopback). Run in the VM with the probe built on the host, e.g.:
#   d=$(mktemp -d /var/tmp/probe.XXXX); gcc -O2 -o $d/v4l2probe scripts/vm/probe/v4l2probe.c
#   scripts/vm-test --share $d -- sh scripts/vm/probe/faults.sh $d/v4l2probe
P=${1:-./v4l2probe}
D=/dev/video0
run() { echo; echo "=== $*"; }
run "baseline 320x180@60, 300 frames"; $P $D 320 180 60 300
run "percentage_of_dropped_buffers=10"; $P $D 320 180 60 300 0x00f0f040:10@-1; v4l2-ctl -d $D -c percentage_of_dropped_buffers=0
run "inject_v4l2_buf_flag_error at frame 30"; $P $D 320 180 60 60 0x00f0f042:1@30
run "inject_vidioc_streamon_error"; $P $D 320 180 60 10 0x00f0f045:1@-1
run "inject_vidioc_reqbufs_error"; $P $D 320 180 60 10 0x00f0f043:1@-2
run "inject_vidioc_qbuf_error"; $P $D 320 180 60 10 0x00f0f044:1@-2
run "inject_fatal_streaming_error at frame 30"; $P $D 320 180 60 60 0x00f0f046:1@30
run "after fatal: new stream"; $P $D 320 180 60 10
run "wrap_sequence_number"; $P $D 320 180 60 200 0x00f0f026:1@-1; v4l2-ctl -d $D -c wrap_sequence_number=0
run "wrap_timestamp=1"; v4l2-ctl -d $D -C wrap_timestamp -L | grep -A3 wrap_timestamp; $P $D 320 180 60 300 0x00f0f027:1@-1; v4l2-ctl -d $D -c wrap_timestamp=0
run "wrap_timestamp=2"; $P $D 320 180 60 300 0x00f0f027:2@-1; v4l2-ctl -d $D -c wrap_timestamp=0
run "reduced_framerate (set, then S_PARM 60)"; v4l2-ctl -d $D -c reduced_framerate=1; v4l2-ctl -d $D --get-parm; $P $D 320 180 60 120; v4l2-ctl -d $D --get-parm; v4l2-ctl -d $D -c reduced_framerate=0
run "reduced_framerate at 30 fps"; v4l2-ctl -d $D -c reduced_framerate=1; $P $D 320 180 30 60; v4l2-ctl -d $D -c reduced_framerate=0
run "640x480@30"; $P $D 640 480 30 20
run "EBUSY: S_FMT/REQBUFS while another process streams"
v4l2-ctl -d $D --set-fmt-video=width=320,height=180,pixelformat=YUYV --set-parm=60
v4l2-ctl -d $D --stream-mmap --stream-count=400 >/dev/null 2>&1 & bg=$!
sleep 1; $P $D 640 360 30 10; v4l2-ctl -d $D --set-fmt-video=width=640,height=360; echo "v4l2-ctl set-fmt rc=$?"
kill $bg; wait $bg
run "open as nobody"; perl -e '$( = 65534; $) = "65534 65534"; $< = $> = 65534; exec @ARGV or die' $P $D 320 180 60 5; ls -l $D
run "disconnect at frame 30"; $P $D 320 180 60 100 0x00f0f041:1@30; ls -l /dev/video* ; v4l2-ctl -d $D --all | head -5
run "wrap_timestamp=1 (64 bit) 1200 frames, only non-monotonic/last lines"; $P $D 320 180 60 1200 0x00f0f027:1@-1 | awk '/ts/{split($0,a,"ts "); split(a[2],b," "); t=b[1]+0; if (p!="" && t<p) {print "BACKWARDS: " prev; print "BACKWARDS: " $0} p=t; prev=$0} /summary|failed/'
run "wrap_timestamp=2 (32 bit)"; $P $D 320 180 60 1200 0x00f0f027:2@-1 | awk '/ts/{split($0,a,"ts "); split(a[2],b," "); t=b[1]+0; if (p!="" && t<p) {print "BACKWARDS: " prev; print "BACKWARDS: " $0} p=t; prev=$0} /summary|failed/'
v4l2-ctl -d $D -c wrap_timestamp=0
run "disconnect, then new open + stream"; $P $D 320 180 60 40 0x00f0f041:1@10 | tail -4; ls -l /dev/video*; $P $D 320 180 60 10 | tail -3
run "ALSA"
arecord -l; aplay -l
cat /proc/asound/cards
ffmpeg -hide_banner -loglevel error -re -f lavfi -i sine=frequency=1000:sample_rate=48000:duration=6 -ac 2 -f alsa hw:Loopback,0,0 & p=$!
sleep 0.5
ffmpeg -hide_banner -loglevel error -y -f alsa -ar 48000 -ac 2 -i hw:Loopback,1,0 -t 3 /tmp/cap.wav
wait $p
sox /tmp/cap.wav -n stat 2>&1 | grep -Ei "length|rms amp|rough frequency|maximum amp"
sox /tmp/cap.wav -n trim 1 1 stat -freq 2>&1 | sort -k2 -n -r | head -3
run "aplay/arecord recipe"
sox -n -r 48000 -c 2 -b 16 /tmp/tone.wav synth 4 sine 440
aplay -q -D hw:Loopback,0,0 /tmp/tone.wav & p=$!
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 2 /tmp/cap2.wav
wait $p
sox /tmp/cap2.wav -n stat 2>&1 | grep -Ei "length|rms amp|rough frequency"
