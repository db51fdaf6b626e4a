/// The page served at `/`: the live picture and the live figures, fed by `/events`. Plain HTML and
/// JavaScript, no build step; the picture is turned by the status' `preview.rotation`.
enum PreviewPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>hfr preview</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body { margin: 0; background: #111; color: #ddd; font: 14px/1.4 system-ui, sans-serif; display: flex;
          flex-wrap: wrap; gap: 16px; padding: 12px; }
        #info { flex: 1 1 280px; min-width: 0; overflow-wrap: anywhere; }
        #view { flex: 0 1 auto; max-width: 100%; display: flex; align-items: center; justify-content: center; }
        #picture { display: block; flex: none; max-width: min(640px, 100%); height: auto; }
        table { border-collapse: collapse; width: 100%; max-width: 480px; }
        @media (max-width: 480px) { body { padding: 8px; gap: 8px; } td { padding: 2px 4px; } }
        td { padding: 2px 8px; border-bottom: 1px solid #333; }
        td.v { text-align: right; font-variant-numeric: tabular-nums; color: #fff; }
        #warning { color: #ff6b5b; font-weight: bold; min-height: 1.4em; }
        h1 { font-size: 16px; margin: 0 0 6px; }
        #trigger { font: inherit; font-weight: bold; padding: 8px 20px; margin: 0 0 8px; background: #c62828;
          color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
        </style></head>
        <body>
        <div id="view"><img id="picture" src="/stream.mjpg" alt="live picture"></div>
        <div id="info"><h1 id="title">hfr</h1><button id="trigger" type="button" hidden>Trigger</button>
        <div id="warning"></div><table id="figures"></table></div>
        <script>
        "use strict";
        const num = (v) => v === undefined || v === null ? "–" : String(v);
        const fixed = (v, d) => typeof v === "number" ? v.toFixed(d) : "–";
        const bytes = (v) => typeof v !== "number" ? "–" : v >= 1e9 ? (v / 1e9).toFixed(2) + " GB"
          : (v / 1e6).toFixed(1) + " MB";
        const clock = (s) => typeof s !== "number" ? "–"
          : Math.floor(s / 60) + ":" + String(Math.floor(s % 60)).padStart(2, "0");
        // The light's flicker in the picture: "100 Hz, depth 15 %", "none", or "–" while measuring.
        const flicker = (s) => s.flicker === undefined ? undefined : s.flicker === null ? "–"
          : s.flicker === "none" ? "none" : Math.round(s.flicker.frequency) + " Hz, depth "
          + Math.round(s.flicker.depth * 100) + " %" + (s.flicker.bands ? ", in bands (rolling shutter)" : "");
        const rows = [
          ["Mode", (s) => s.mode || (s.width ? s.width + "x" + s.height + " @ " + s.frameRate + " fps" : undefined)],
          ["Achieved fps", (s) => fixed(s.achievedFps, 1)],
          ["Frames captured", (s) => num(s.framesCaptured)],
          ["Frames encoded", (s) => num(s.framesEncoded)],
          ["Camera drops", (s) => num(s.framesDroppedByDevice ?? s.framesMissingFromSource)],
          ["Late drops", (s) => num(s.framesDroppedLate)],
          ["Queue depth", (s) => s.queueDepth === undefined ? undefined : s.queueDepth + " / " + s.queueCapacity],
          ["Layers", (s) => s.framesPerLayer ? s.temporalLayers + " (" + s.framesPerLayer.join(", ") + ")" : undefined],
          ["Bitrate", (s) => typeof s.bitrate === "number" ? (s.bitrate / 1e6).toFixed(1) + " Mb/s" : undefined],
          ["File size", (s) => s.bytes === undefined ? undefined : bytes(s.bytes)],
          ["Elapsed", (s) => clock(s.wallSeconds)],
          ["Free disk", (s) => s.freeDiskBytes === undefined ? undefined : bytes(s.freeDiskBytes)],
          ["Flicker", flicker],
          ["Preview fps", (s) => s.preview ? fixed(s.preview.fps, 1) : undefined],
          ["Triggers", (s) => s.triggers ? s.triggers.fired + " (" + s.triggers.kinds.join(", ") + ")" : undefined],
          ["Clips written", (s) => s.triggers ? num(s.triggers.clips) : undefined],
          ["Motion", (s) => s.triggers && s.triggers.motionThreshold !== undefined
            ? fixed(s.triggers.motionScore, 2) + " % (fires at " + s.triggers.motionThreshold + " %)" : undefined],
        ];
        function show(s) {
          document.getElementById("title").textContent = s.output ? "Recording " + s.output
            : "Preview" + (s.device ? " of " + s.device : "");
          const table = document.getElementById("figures");
          const lines = rows.map(([label, f]) => [label, f(s)]).filter(([, v]) => v !== undefined);
          for (const [name, value] of Object.entries(s.controls || {})) lines.push([name, String(value)]);
          table.replaceChildren(...lines.map(([label, value]) => {
            const tr = document.createElement("tr");
            const a = document.createElement("td"); a.textContent = label;
            const b = document.createElement("td"); b.className = "v"; b.textContent = value;
            tr.append(a, b); return tr;
          }));
          const lost = (s.framesDroppedLate || 0) + Math.max(0, s.framesDroppedByDevice ?? 0)
            + (s.framesMissingFromSource || 0);
          document.getElementById("warning").textContent = lost > 0 ? "Frames are being lost: " + lost + " so far" : "";
          document.getElementById("trigger").hidden = !(s.triggers && s.triggers.kinds.includes("http"));
          turn = s.preview ? s.preview.rotation : 0;
          place();
        }
        // The recording's rotation (degrees clockwise): the picture is turned, and its box swapped
        // for a quarter turn so the page lays it out upright; a phone's narrow screen scales it.
        let turn = 0;
        function place() {
          const picture = document.getElementById("picture"), view = document.getElementById("view");
          picture.style.transform = turn ? "rotate(" + turn + "deg)" : "";
          const quarter = turn % 180 !== 0;
          // Turned a quarter, the picture's height is its width on the screen: that is what must fit.
          picture.style.maxWidth = quarter ? "none" : "";
          picture.style.maxHeight = quarter ? Math.min(640, document.body.clientWidth - 24) + "px" : "";
          view.style.width = quarter ? picture.offsetHeight + "px" : "";
          view.style.height = quarter ? picture.offsetWidth + "px" : "";
        }
        document.getElementById("picture").onload = place;
        // The button fires a clip (POST /trigger; the page's cookie carries the token).
        document.getElementById("trigger").onclick = () => fetch("/trigger", { method: "POST" });
        const events = new EventSource("/events");
        events.onmessage = (e) => show(JSON.parse(e.data));
        </script></body></html>

        """
}
