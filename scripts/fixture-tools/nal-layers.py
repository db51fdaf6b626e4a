#!/usr/bin/env python3
"""Per-packet H.264 NAL summary of a container's first video stream.

    nal-layers.py FILE [--frames N]

ffmpeg's trace_headers cannot show temporal_id: its H.264 parser skips
prefix NAL units (type 14) without decoding them. This reads the packets via
ffprobe and decodes the 3-byte SVC NAL header extension itself, so it also
proves each prefix NAL sits in the same packet (sample) as its slice.
"""
import argparse
import collections
import json
import re
import subprocess


def packets(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_packets",
         "-show_data", "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    for p in json.loads(out)["packets"]:
        # hexdump lines look like "00000010: 46e0 0000 ...  ascii"
        hexdigits = "".join(re.sub(r"\s", "", line[10:50])
                            for line in p["data"].splitlines() if line)
        yield p, bytes.fromhex(hexdigits)


def nals(data):
    """MP4/Matroska samples hold 4-byte big-endian length-prefixed NALs."""
    i = 0
    while i + 4 <= len(data):
        n = int.from_bytes(data[i:i + 4], "big")
        yield data[i + 4:i + 4 + n]
        i += 4 + n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--frames", type=int, default=8, help="packets to list")
    args = ap.parse_args()
    show = args.frames
    per_tid = collections.Counter()
    ref_by_tid = collections.defaultdict(set)
    seq = []
    for idx, (pkt, data) in enumerate(packets(args.file)):
        tid, desc = None, []
        for nal in nals(data):
            t, ref = nal[0] & 0x1F, (nal[0] >> 5) & 3
            if t == 14:
                tid = nal[3] >> 5  # svc_extension_flag byte 3: temporal_id(3)
                desc.append(f"14(prefix tid={tid})")
            elif t in (1, 5):
                desc.append(f"{t}(ref_idc={ref})")
                ref_by_tid[tid].add(ref)
            else:
                desc.append(str(t))
        per_tid[tid] += 1
        seq.append(tid)
        if idx < show:
            print(f"packet {idx} pts={pkt['pts']} flags={pkt['flags']}: {' '.join(desc)}")
    total = sum(per_tid.values())
    print(f"packets: {total}")
    for tid in sorted(per_tid, key=lambda x: -1 if x is None else x):
        name = "none (no prefix NAL)" if tid is None else tid
        print(f"temporal_id {name}: {per_tid[tid]} packets "
              f"({100 * per_tid[tid] / total:.1f} %), nal_ref_idc {sorted(ref_by_tid[tid])}")
    print("temporal_id sequence (first 16):",
          ",".join("-" if t is None else str(t) for t in seq[:16]))


if __name__ == "__main__":
    main()
