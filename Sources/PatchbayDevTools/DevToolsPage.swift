/// The DevTools page: one HTML file with its style and script inline, served by the binary
/// (nothing is fetched from outside the machine, and nothing is built with Node).
///
/// It reads everything from the routes ``DevTools`` lists: `/api/app` for the tree and the
/// plugins, `/api/state` for the selected instance, `/api/timeline` once, then the socket's
/// entries, each of which it applies to what it holds (an action's changes are JSON Pointers
/// and values, so a large state is never sent twice).
enum DevToolsPage {
  /// The page, with ``script`` and ``soundScript`` inline.
  static let html = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>Patchbay DevTools</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
    :root { --bg:#16181d; --panel:#1e2128; --line:#2c313a; --text:#d7dae0; --dim:#8a919e;
      --accent:#6cb6ff; --changed:#3b3a1c; --bad:#ff7b72; --good:#7ee787; --warn:#e3b341; }
    * { box-sizing: border-box; }
    body { margin:0; font:13px/1.45 ui-monospace, "DejaVu Sans Mono", monospace;
      background:var(--bg); color:var(--text); display:grid; height:100vh;
      grid-template: "head head" auto "tree main" 1fr / 260px 1fr; }
    header { grid-area:head; display:flex; gap:16px; align-items:center; padding:6px 12px;
      border-bottom:1px solid var(--line); background:var(--panel); }
    header h1 { font-size:14px; margin:0; color:var(--accent); }
    header .status { color:var(--dim); }
    header .status.down { color:var(--bad); }
    #tree { grid-area:tree; overflow:auto; border-right:1px solid var(--line); padding:8px; }
    #tree .node { padding:3px 6px; border-radius:4px; cursor:pointer; }
    #tree .node:hover { background:var(--panel); }
    #tree .node.selected { background:#26364d; }
    #tree .meta { color:var(--dim); font-size:11px; }
    .badge { font-size:10px; padding:0 4px; border-radius:3px; border:1px solid var(--line);
      color:var(--dim); margin-left:4px; }
    .badge.iso { color:var(--warn); border-color:var(--warn); }
    main { grid-area:main; display:grid; grid-template-rows:auto 1fr; min-height:0; }
    nav.tabs { display:flex; border-bottom:1px solid var(--line); }
    nav.tabs button { background:none; border:none; color:var(--dim); padding:8px 14px;
      cursor:pointer; font:inherit; border-bottom:2px solid transparent; }
    nav.tabs button.active { color:var(--text); border-bottom-color:var(--accent); }
    section { display:none; overflow:auto; padding:10px 14px; min-height:0; }
    section.active { display:block; }
    .travel { display:flex; gap:10px; align-items:center; padding:6px 0 10px; }
    .travel input[type=range] { flex:1; }
    .json .key { color:#d2a8ff; } .json .str { color:#a5d6ff; } .json .num { color:#79c0ff; }
    .json .lit { color:#ffa657; } .json details { margin-left:14px; }
    .json summary { cursor:pointer; list-style:none; } .json summary::before { content:"▸ ";
      color:var(--dim); } .json details[open] > summary::before { content:"▾ "; }
    .json .row { margin-left:14px; } .json .changed { background:var(--changed);
      outline:1px solid var(--warn); border-radius:2px; }
    table { border-collapse:collapse; width:100%; }
    td, th { text-align:left; padding:3px 8px; border-bottom:1px solid var(--line);
      vertical-align:top; }
    th { color:var(--dim); font-weight:normal; position:sticky; top:0; background:var(--bg); }
    tr.entry { cursor:pointer; } tr.entry:hover { background:var(--panel); }
    tr.entry.selected { background:#26364d; }
    tr.failure td { color:var(--bad); } tr.swap td { color:var(--good); }
    .src { font-size:11px; padding:0 5px; border-radius:3px; background:var(--line); }
    .filters { display:flex; gap:8px; padding-bottom:8px; }
    input, select, button.act { background:var(--panel); color:var(--text); font:inherit;
      border:1px solid var(--line); border-radius:4px; padding:3px 6px; }
    button.act { cursor:pointer; } button.act:hover { border-color:var(--accent); }
    .card { border:1px solid var(--line); border-radius:6px; padding:8px 10px; margin-bottom:10px; }
    .proc { color:var(--accent, #6cf); margin:4px 0; font-variant-numeric:tabular-nums; }
    .dim { color:var(--dim); } .err { color:var(--bad); } .ok { color:var(--good); }
    pre { margin:0; white-space:pre-wrap; }
    .meter { display:grid; grid-template-columns:160px 1fr 70px; gap:8px; align-items:center;
      margin:3px 0; }
    .bar { height:10px; background:var(--line); border-radius:2px; overflow:hidden; }
    .bar > div { height:100%; background:linear-gradient(90deg, var(--good) 70%, var(--warn) 90%,
      var(--bad)); width:0; }
    canvas { background:#0f1115; border:1px solid var(--line); border-radius:4px; }
    #midiLog div { border-bottom:1px solid var(--line); padding:1px 0; }
    </style></head>
    <body>
    <header><h1>Patchbay DevTools</h1><span id="appname"></span><span id="mode" class="dim"></span>
      <span id="status" class="status">connecting…</span></header>
    <div id="tree"></div>
    <main>
      <nav class="tabs">
        <button data-tab="state" class="active">State</button>
        <button data-tab="actions">Actions</button>
        <button data-tab="plugins">Plugins</button>
        <button data-tab="sound">Sound</button>
        <button data-tab="act">Act</button>
      </nav>
      <section id="state" class="active">
        <div class="travel"><span class="dim">step</span>
          <input id="scrub" type="range" min="0" max="0" value="0">
          <span id="stepLabel">live</span>
          <button class="act" id="live">Live</button>
          <button class="act" id="copyScript">Copy script to here</button></div>
        <div id="stateView" class="json"></div>
      </section>
      <section id="actions">
        <div class="filters"><input id="search" placeholder="search actions" size="30">
          <select id="sourceFilter"><option value="">every source</option>
            <option>command</option><option>effect</option><option>midi</option>
            <option>processor</option><option>shared</option><option>navigation</option>
            <option>collection</option><option>swap</option><option>failure</option></select>
          <span id="count" class="dim"></span></div>
        <table><thead><tr><th>#</th><th>time</th><th>source</th><th>where</th><th>what</th>
          <th>reduce</th><th>changed</th></tr></thead><tbody id="log"></tbody></table>
      </section>
      <section id="plugins"></section>
      <section id="act"></section>
      <section id="sound">
        <div id="noSound" class="dim">this app plays no sound (no feature has a processor, or
          --audio none)</div>
        <div class="card"><b>mix</b> <span id="clips" class="dim"></span>
          <div id="mixMeters"></div></div>
        <div class="card"><b>processors</b><div id="processorMeters"></div></div>
        <div class="card"><b>scope</b> and <b>spectrum</b> of the mix<br>
          <canvas id="scope" width="560" height="140"></canvas>
          <canvas id="spectrum" width="560" height="140"></canvas></div>
        <div class="card"><b>MIDI in</b> <span id="midiCount" class="dim"></span>
          <div id="midiLog"></div></div>
      </section>
    </main>
    <script>
    """ + DevToolsPage.script + DevToolsPage.soundScript + """
      </script></body></html>
      """
}
