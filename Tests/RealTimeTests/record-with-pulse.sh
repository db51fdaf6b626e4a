#!/usr/bin/env bash
# Runs `hfr record … --audio pulse:hfrtest.monitor` against a private PulseAudio server whose null
# sink plays a 1 kHz tone. Usage: record-with-pulse.sh HFR WORKDIR [hfr record arguments…]
# HFR_PULSE_RATE (default 48000) is the sink's and the tone's rate, HFR_PULSE_TONE its frequency.
# Every daemon's output goes to files, so the caller's pipes close when this script ends.
set -euo pipefail
hfr=$1 dir=$2
rate=${HFR_PULSE_RATE:-48000} tone=${HFR_PULSE_TONE:-1000}
shift 2
export PULSE_RUNTIME_PATH=$dir/pulse PULSE_SERVER=unix:$dir/pulse/native HOME=$dir/pulse
mkdir -p "$PULSE_RUNTIME_PATH"
pulseaudio --daemonize=no --exit-idle-time=-1 -n --use-pid-file=no --log-target=stderr \
  -L "module-native-protocol-unix socket=$PULSE_RUNTIME_PATH/native auth-anonymous=1" \
  -L "module-null-sink sink_name=hfrtest rate=$rate" </dev/null >"$dir/pulse.log" 2>&1 &
server=$!
trap 'kill "$server" ${player:-} 2>/dev/null || true; wait 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$PULSE_RUNTIME_PATH/native" ] && break; sleep 0.05; done
ffmpeg -v error -nostdin -f lavfi -i "sine=frequency=$tone:sample_rate=$rate:duration=30" -ac 2 -y "$dir/tone.wav"
paplay --device=hfrtest "$dir/tone.wav" </dev/null >/dev/null 2>&1 &
player=$!
# Record once the tone is playing into the sink (the server lists the player's stream), not after a
# guessed pause: a loaded machine can take longer to start paplay.
for _ in $(seq 600); do [ -n "$(pactl list short sink-inputs 2>/dev/null)" ] && break; sleep 0.05; done
"$hfr" record "$@"
