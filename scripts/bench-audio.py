#!/usr/bin/env python3
"""Measures A/V sync and beep onsets in a file made from scripts/bench-audio's flash-and-beep input.

  bench-audio.py FILE FACTOR

FILE holds a video that is black but for single white flash frames, FACTOR seconds apart (the
input's one second, slowed FACTOR times), and audio that is silent but for a beep starting at each
flash. Prints one line:

  events max_abs_ms mean_ms rise_ms missing

events: flashes found; max_abs_ms and mean_ms: the largest |offset| and the mean offset over them
(beep onset minus flash, milliseconds, positive = audio late); rise_ms: the median over the beeps of
the envelope's rise from 10 % to 90 % of its peak; missing: flashes with no beep near them.
BENCH_AUDIO_DEBUG=1 also lists each flash's offset and rise time on stderr.

Both streams are decoded by ffmpeg in one command with -copyts, so both are on the container's
timeline (edit lists applied, as a player shows them): the video's frame times come from each
frame's pts (ffmpeg's signalstats gives its mean luma; a flash is a frame whose luma jumps by more
than 50 over the previous one), the audio is decoded to 48 kHz mono float with its first sample
placed at time 0 (aresample first_pts=0 pads or trims), so sample i is at i / 48000 s.

Beep envelope: the magnitude of the analytic signal (Hilbert transform by FFT), which follows a
tone's amplitude whatever its pitch (varispeed lowers 1 kHz to 125 Hz at 8x), smoothed over
0.25 ms. For each flash at time f the beep is looked for within f +- 0.4 * FACTOR s; its peak is
its plateau, the envelope's median over the samples there above half its maximum (a stretched
tone's envelope wobbles, and its maximum can be an overshoot well after the onset); its onset is where the envelope first reaches 25 % of the peak,
interpolated between samples; its rise time is from the first 10 % crossing to the first 90 % one.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

RATE = 48000


def crossing(env, start, level):
    """First time (in samples, interpolated) at or after start where env reaches level."""
    above = np.nonzero(env[start:] >= level)[0]
    if len(above) == 0:
        return None
    i = start + int(above[0])
    if i == 0 or env[i - 1] >= level:
        return float(i)
    a, b = env[i - 1], env[i]
    return i - 1 + (level - a) / (b - a)


def decode(path, tmp):
    luma = os.path.join(tmp, "luma.txt")
    raw = os.path.join(tmp, "audio.f32")
    subprocess.run(
        ["ffmpeg", "-v", "error", "-nostdin", "-y", "-copyts", "-i", path,
         "-map", "0:v:0", "-vf", f"signalstats,metadata=print:key=lavfi.signalstats.YAVG:file={luma}",
         "-f", "null", "-",
         "-map", "0:a:0", "-af", f"aresample={RATE}:async=1:first_pts=0", "-ac", "1",
         "-f", "f32le", "-c:a", "pcm_f32le", raw],
        check=True)
    tb = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base",
         "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout.strip()
    num, den = (int(x) for x in tb.split("/"))
    frames = []  # (pts seconds, luma)
    pts = None
    with open(luma) as f:
        for line in f:
            if line.startswith("frame:"):
                pts = int(line.split("pts:")[1].split()[0])
            elif "YAVG=" in line:
                frames.append((pts * num / den, float(line.split("=")[1])))
    audio = np.fromfile(raw, dtype="<f4").astype(np.float64)
    return frames, audio


def envelope(x):
    n = len(x)
    spectrum = np.fft.rfft(x, n)
    h = np.zeros(len(spectrum))
    h[0] = 1
    if n % 2 == 0:
        h[-1] = 1
        h[1:-1] = 2
    else:
        h[1:] = 2
    # irfft cannot give the imaginary part; build the full analytic spectrum.
    full = np.zeros(n, dtype=complex)
    full[:len(spectrum)] = spectrum * h
    env = np.abs(np.fft.ifft(full))
    w = max(1, int(round(0.00025 * RATE)))
    return np.convolve(env, np.ones(w) / w, mode="same")


def main():
    path, factor = sys.argv[1], float(sys.argv[2])
    with tempfile.TemporaryDirectory(prefix="bench-audio-") as tmp:
        frames, audio = decode(path, tmp)
    flashes = [t for (t, y), (_, prev) in zip(frames[1:], frames[:-1]) if y - prev > 50]
    if frames and frames[0][1] > 128:
        flashes.insert(0, frames[0][0])
    env = envelope(audio)
    offsets, rises, missing = [], [], 0
    half = int(0.4 * factor * RATE)
    for f in flashes:
        lo = max(0, int(f * RATE) - half)
        hi = min(len(env), int(f * RATE) + half)
        if hi <= lo:
            missing += 1
            continue
        window = env[lo:hi]
        if window.max() < 0.01:  # the beep is 0.5 full scale; nothing there
            missing += 1
            continue
        # The beep's level: its plateau (a stretched tone's envelope wobbles, and its maximum can be
        # an overshoot well after the onset).
        peak = float(np.median(window[window >= 0.5 * window.max()]))
        onset = crossing(window, 0, 0.25 * peak)
        t10 = crossing(window, 0, 0.10 * peak)
        t90 = crossing(window, 0, 0.90 * peak)
        offsets.append(((lo + onset) / RATE - f) * 1000)
        rises.append((t90 - t10) / RATE * 1000)
    if not offsets:
        print(len(flashes), "nan nan nan", missing)
        return
    o = np.array(offsets)
    if os.environ.get("BENCH_AUDIO_DEBUG"):
        for f, off, rise in zip(flashes, offsets, rises):
            print(f"flash {f:.4f} s: offset {off:+.2f} ms, rise {rise:.2f} ms", file=sys.stderr)
    print(len(flashes), f"{np.abs(o).max():.2f}", f"{o.mean():+.2f}", f"{np.median(rises):.2f}", missing)


if __name__ == "__main__":
    main()
