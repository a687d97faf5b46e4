extension DevToolsPage {
  /// The Sound view's script: meters, the scope and spectrum, MIDI in; then the socket's
  /// entries, each routed to its view.
  static let soundScript = """
    // Meters show dB from -60 to 0; a peak falls back slowly, as on a mixing desk.
    const held = {};
    function meter(label, peak, key) {
      const db = peak > 0 ? 20 * Math.log10(peak) : -120;
      held[key] = Math.max(db, (held[key] ?? -120) - 3);
      const width = Math.max(0, Math.min(100, (held[key] + 60) / 60 * 100));
      return `<div class="meter" data-key="${esc(key)}" data-peak="${peak}"><span>${esc(label)}</span>` +
        `<div class="bar"><div style="width:${width.toFixed(1)}%"></div></div>` +
        `<span class="dim">${held[key] <= -120 ? "-∞" : held[key].toFixed(1)} dB</span></div>`;
    }
    function draw(canvas, values, low, high) {
      const g = canvas.getContext("2d"), w = canvas.width, h = canvas.height;
      g.clearRect(0, 0, w, h);
      g.strokeStyle = "#6cb6ff"; g.lineWidth = 1.5; g.beginPath();
      values.forEach((v, i) => {
        const x = i / (values.length - 1) * w, y = h - (v - low) / (high - low) * h;
        i ? g.lineTo(x, y) : g.moveTo(x, y);
      });
      g.stroke();
    }
    const sound = { midi: [], midiCount: 0, last: null };
    function renderSound(message) {
      sound.last = message;
      $("noSound").style.display = "none";
      $("clips").textContent = `${message.clipped} samples clipped` +
        (message.dropped ? ` · ${message.dropped} not shown (the page was late)` : "");
      $("mixMeters").innerHTML = meter("left", message.peak[0], "mix-left") +
        meter("right", message.peak[1], "mix-right");
      $("processorMeters").innerHTML = message.processors.length
        ? message.processors.map(p => meter(p.path, p.peak, "p-" + p.path)).join("")
        : `<span class="dim">no processor plays</span>`;
      draw($("scope"), message.scope.map(Number), -1, 1);
      draw($("spectrum"), message.spectrum, -100, 0);
    }
    function renderMIDI() {
      $("midiCount").textContent = `${sound.midiCount} messages`;
      $("midiLog").innerHTML = sound.midi.slice(-40).reverse().map(m =>
        `<div><span class="dim">${(m.t / 1000).toFixed(3)}</span> ${esc(m.text)}</div>`).join("");
    }

    let refresh = null;   // the app's tree and plugins, reloaded at most every 100 ms
    function receive(entry) {
      if (entry.kind === "sound") { renderSound(entry); return; }
      if (entry.kind === "midi") {
        sound.midi.push(entry); sound.midiCount++;
        if (sound.midi.length > 200) sound.midi.splice(0, 100);
        renderMIDI(); return;
      }
      const isStep = !["failure", "crash", "log", "changes"].includes(entry.kind);
      if (isStep && entry.seq !== view.lastSeq + 1) { reload(); return; }   // a gap: start over
      if (isStep) view.lastSeq = entry.seq;
      view.timeline.push(entry);
      if (view.app) view.app.steps = view.lastSeq;
      if (entry.kind === "action" || entry.kind === "changes") {
        if (view.at === null && entry.path === view.selected && view.state !== null &&
            entry.changes) {
          for (const change of entry.changes) view.state = applyChange(view.state, change);
          view.highlight = new Set(entry.changes.map(c => c.p));
          renderState();
        } else if (view.at !== null) renderState();
      } else {
        clearTimeout(refresh);
        refresh = setTimeout(async () => {
          view.app = await api("/api/app");
          renderTree(); renderPlugins(); renderAct();
          if (view.at === null) await loadState();
        }, 100);
      }
      renderLog();
    }

    function connect() {
      const socket = new WebSocket(`ws://${location.host}/api/socket?token=${token}`);
      socket.onopen = async () => { $("status").textContent = "connected"; 
        $("status").classList.remove("down"); await reload(); };
      socket.onmessage = (message) => receive(JSON.parse(message.data));
      socket.onclose = () => { $("status").textContent = "disconnected: retrying";
        $("status").classList.add("down"); setTimeout(connect, 1000); };
    }

    for (const b of document.querySelectorAll("nav.tabs button")) b.onclick = () => show(b.dataset.tab);
    $("search").oninput = renderLog;
    $("sourceFilter").onchange = renderLog;
    $("scrub").oninput = () => travel(Number($("scrub").value), false);
    $("live").onclick = () => { view.at = null; view.selectedEntry = null; loadState(); renderLog(); };
    $("copyScript").onclick = async () => {
      const script = await api(`/api/script?to=${view.at ?? view.app.steps}`);
      try { await navigator.clipboard.writeText(script); } catch (e) {}
      $("stepLabel").textContent += " · script copied";
      window.lastScript = script;
    };
    // An isolated plugin's memory and CPU move without a change to say so: asked every 2 s.
    setInterval(async () => {
      if (!view.app?.plugins?.some(p => p.process)) return;
      view.app = await api("/api/app");
      renderPlugins();
    }, 2000);
    connect();
    """
}
